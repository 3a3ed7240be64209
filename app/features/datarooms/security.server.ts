import { z } from "zod";
import { loadMemberAccess, requireFeature } from "~/features/access/access.server";
import { checkFeature } from "~/features/access/access-check";
import { AppError } from "~/lib/errors";
import { ipAllowed, parseIpRange } from "~/lib/ip-ranges";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { auditRoom } from "./audit-record.server";
import { IP_RANGES_MAX } from "./datarooms.constants";
import { assertRoomWritable } from "./datarooms.permissions";
import { requireDataroom, type DataroomSummary } from "./datarooms.server";
import { roomEncryptionStatus } from "~/features/files/encryption.server";
import { findRoomName, loadRoomSecurity } from "./members.queries.server";
import { roomProtectionSchema, WATERMARK_POSITION_LABELS, type RoomProtection } from "./protection";
import { decideInRoom, forgetRoomDecisions, roomAuthority, sessionSecondFactor } from "./room-authority.server";

/**
 * A data room's security settings (issue 20): IP restrictions and protection (watermark, download
 * and print protection) here; time-limited access lives with the people (members.server.ts). Every setting is enforced on the server by
 * the room's authority on every entry point (room-authority.server.ts `roomGate`).
 */


const ipRangesSchema = z.object(
  {
    ranges: z
      .union([z.string(), z.array(z.string())], { error: "List the addresses as text, one per line." })
      .transform((value) => (Array.isArray(value) ? value : value.split(/[\s,;]+/)))
      .transform((list) => [...new Set(list.map((entry) => entry.trim()).filter((entry) => entry !== ""))])
      .superRefine((list, check) => {
        if (list.length > IP_RANGES_MAX) check.addIssue({ code: "custom", message: `List at most ${IP_RANGES_MAX} addresses or ranges.` });
        const invalid = list.find((entry) => parseIpRange(entry) === null);
        if (invalid) check.addIssue({ code: "custom", message: `“${invalid.slice(0, 60)}” is not an IP address or range (like 203.0.113.0/24 or 2001:db8::/32).` });
      })
      // Kept as written (matching uses each range's network).
      .transform((list) => list.map((entry) => parseIpRange(entry)!.text)),
  },
  { error: "The request body must be an object with ranges." },
);

export type RoomSecurity = {
  room: DataroomSummary;
  ipRanges: string[];
  protection: RoomProtection;
  twoFactorRequired: boolean;
  /** Encryption at rest (ADR 021): new files sealed, and how many older ones are stored as they were. */
  encryption: { sealsNewFiles: boolean; unsealedFiles: number };
  /** Whether the caller's own account has a second factor and this session passed one. */
  yourSecondFactor: { enrolled: boolean; passed: boolean };
  /** The caller's address as the edge sees it (null without one). */
  currentIp: string | null;
  /** Which settings the owner's plan includes. */
  available: { ipRestrictions: boolean; timeLimitedAccess: boolean; watermarking: boolean; downloadProtection: boolean; printProtection: boolean; twoFactorRequirement: boolean };
};

/** The security page's state (manage_settings). */
export async function getRoomSecurity(ctx: ServiceContext, userId: string, roomId: unknown): Promise<RoomSecurity> {
  const room = await requireDataroom(ctx, userId, roomId, "manage_settings");
  const [security, ownerAccess] = await Promise.all([loadRoomSecurity(ctx.db, room.id), loadMemberAccess(ctx, room.owner.id)]);
  const encryption = await roomEncryptionStatus(ctx, room.id, ownerAccess);
  return {
    room,
    ipRanges: security.ipAllowlist,
    protection: security.protection,
    twoFactorRequired: security.require2fa,
    encryption,
    yourSecondFactor: sessionSecondFactor(ctx),
    currentIp: ctx.client.ip,
    available: {
      ipRestrictions: checkFeature(ownerAccess, "ip_restrictions"),
      timeLimitedAccess: checkFeature(ownerAccess, "time_limited_access"),
      watermarking: checkFeature(ownerAccess, "watermarking"),
      downloadProtection: checkFeature(ownerAccess, "download_protection"),
      printProtection: checkFeature(ownerAccess, "print_protection"),
      twoFactorRequirement: checkFeature(ownerAccess, "2fa_requirement"),
    },
  };
}

/**
 * PUT /api/datarooms/{id}/security/ip { ranges }: the addresses the room may be opened from (an
 * empty list: anywhere). manage_settings; a list needs `ip_restrictions` on the owner's plan; a
 * list that leaves out the caller's own address is refused, so no one shuts themself out.
 */
export async function setRoomIpRanges(ctx: ServiceContext, userId: string, roomId: unknown, input: unknown): Promise<RoomSecurity> {
  const room = await requireDataroom(ctx, userId, roomId, "manage_settings");
  const { ranges } = parseInput(ipRangesSchema, input);
  assertRoomWritable(room);
  if (ranges.length > 0) {
    requireFeature(await loadMemberAccess(ctx, room.owner.id), "ip_restrictions");
    if (!ipAllowed(ctx.client.ip, ranges)) {
      const message = ctx.client.ip
        ? `Your current address ${ctx.client.ip} is not in this list: saving it would shut you out of the room. Add it, or its network, first.`
        : "Your current address is not known, so this list cannot be checked against it. Try again from your usual connection.";
      throw new AppError("VALIDATION_ERROR", message, { fieldErrors: { ranges: [message] } });
    }
  }
  await roomAuthority(ctx, room.id).setIpAllowlist(room.id, { ranges, now: ctx.now().getTime() });
  forgetRoomDecisions(ctx, room.id);
  ctx.logger.info("data room IP restrictions set", { dataroomId: room.id, ranges: ranges.length });
  await auditRoom(ctx, room.id, userId, {
    action: "room.security",
    target: { type: "room", id: room.id, name: room.name },
    detail: ranges.length > 0 ? `IP restrictions: ${ranges.join(", ")}` : "IP restrictions off: open from anywhere",
  });
  return getRoomSecurity(ctx, userId, room.id);
}

function describeProtection(protection: RoomProtection): string {
  const parts = [
    protection.watermark
      ? `watermark on ("${protection.watermark.template}", ${Math.round(protection.watermark.opacity * 100)}% opacity, ${protection.watermark.fontSize} pt, ${WATERMARK_POSITION_LABELS[protection.watermark.position].toLowerCase()})`
      : "watermark off",
    `download protection ${protection.downloadProtection ? "on" : "off"}`,
    `print protection ${protection.printProtection ? "on" : "off"}`,
  ];
  return parts.join("; ");
}

/**
 * PUT /api/datarooms/{id}/security/protection { watermark, downloadProtection, printProtection }
 * (manage_settings, not while archived). Turning a setting on needs its feature on the owner's
 * plan (watermarking, download_protection, print_protection); turning one off, or keeping one
 * that is already on, never does. Applies at once: the authority's next decision carries it.
 */
export async function setRoomProtection(ctx: ServiceContext, userId: string, roomId: unknown, input: unknown): Promise<RoomSecurity> {
  const room = await requireDataroom(ctx, userId, roomId, "manage_settings");
  const protection = parseInput(roomProtectionSchema, input);
  assertRoomWritable(room);
  const current = (await loadRoomSecurity(ctx.db, room.id)).protection;
  const turningOn = {
    watermarking: protection.watermark !== null && current.watermark === null,
    download_protection: protection.downloadProtection && !current.downloadProtection,
    print_protection: protection.printProtection && !current.printProtection,
  } as const;
  if (Object.values(turningOn).some(Boolean)) {
    const ownerAccess = await loadMemberAccess(ctx, room.owner.id);
    for (const [feature, on] of Object.entries(turningOn)) if (on) requireFeature(ownerAccess, feature as keyof typeof turningOn);
  }
  await roomAuthority(ctx, room.id).setProtection(room.id, { protection, now: ctx.now().getTime() });
  forgetRoomDecisions(ctx, room.id);
  ctx.logger.info("data room protection set", { dataroomId: room.id, watermark: protection.watermark !== null, download: protection.downloadProtection, print: protection.printProtection });
  await auditRoom(ctx, room.id, userId, { action: "room.security", target: { type: "room", id: room.id, name: room.name }, detail: describeProtection(protection) });
  return getRoomSecurity(ctx, userId, room.id);
}

const twoFactorSchema = z.object(
  { required: z.boolean({ error: "Say whether two-factor sign-in is required (true or false)." }) },
  { error: "The request body must be an object with required." },
);

/**
 * PUT /api/datarooms/{id}/security/two-factor { required } (manage_settings, not while archived):
 * only sessions that passed a second factor open the room, the owner's too. Turning it on needs
 * `2fa_requirement` on the owner's plan and a session of the saver's own that passed a second
 * factor, so no one shuts themself out; turning it off is always allowed.
 */
export async function setRoomTwoFactorRequirement(ctx: ServiceContext, userId: string, roomId: unknown, input: unknown): Promise<RoomSecurity> {
  const room = await requireDataroom(ctx, userId, roomId, "manage_settings");
  const { required } = parseInput(twoFactorSchema, input);
  assertRoomWritable(room);
  if (required) {
    requireFeature(await loadMemberAccess(ctx, room.owner.id), "2fa_requirement");
    const secondFactor = sessionSecondFactor(ctx);
    if (!secondFactor.passed) {
      const message = secondFactor.enrolled
        ? "Your own session did not pass a second factor, so requiring one would shut you out. Sign in again with your code first."
        : "Turn on two-factor sign-in for your own account first (Settings, Two-factor authentication), or requiring it would shut you out.";
      throw new AppError("VALIDATION_ERROR", message, { fieldErrors: { required: [message] } });
    }
  }
  await roomAuthority(ctx, room.id).setTwoFactorRequired(room.id, { required, now: ctx.now().getTime() });
  forgetRoomDecisions(ctx, room.id);
  ctx.logger.info("data room 2FA requirement set", { dataroomId: room.id, required });
  await auditRoom(ctx, room.id, userId, {
    action: "room.security",
    target: { type: "room", id: room.id, name: room.name },
    detail: required ? "Two-factor sign-in required" : "Two-factor sign-in no longer required",
  });
  return getRoomSecurity(ctx, userId, room.id);
}

export type TwoFactorGate = { room: { id: string; name: string }; required: boolean; enrolled: boolean; passed: boolean };

/**
 * The room's two-factor verification page (spec §2): why the room asks for a second factor and
 * what to do. Open to everyone in the room (the gate itself is not applied here: this is where it
 * sends people); 404 for anyone else.
 */
export async function getTwoFactorGate(ctx: ServiceContext, userId: string, roomId: unknown): Promise<TwoFactorGate> {
  const parsed = z.string().safeParse(roomId);
  const room = parsed.success ? await findRoomName(ctx.db, parsed.data.toLowerCase()) : undefined;
  const decision = room ? await decideInRoom(ctx, room.id, userId) : null;
  if (!room || !decision) throw new AppError("NOT_FOUND", "This data room does not exist or you don't have access to it.");
  return {
    room,
    required: decision.twoFactorRequired,
    ...sessionSecondFactor(ctx),
  };
}
