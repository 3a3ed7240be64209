import { assertRoomWritable } from "~/features/datarooms/datarooms.permissions";
import { z } from "zod";
import { requireDataroom } from "~/features/datarooms/datarooms.server";
import { ensurePersonalSpace } from "~/features/files/spaces.server";
import type { ShareIpMode } from "~/db/schema";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { ipForPrivacy, SHARE_PRIVACY_DEFAULTS, SHARE_RETENTION_CHOICES } from "./sharing.constants";
import { dropAddresses, findAddressesToShorten, findSharePrivacy, purgeExpiredVisits, rewriteAddresses, upsertSharePrivacy } from "./sharing.queries.server";

/**
 * Visitor privacy of a space's share links (issue 21): whether visitors' IP addresses are kept
 * whole, shortened or not at all, and for how many days visits are kept. New visits and
 * agreements are written that way at once; the nightly job brings what is stored in line
 * (deletes old visits, drops or shortens addresses). A room's managers (`manage_settings`) set
 * it for the room's links; a member for the links of their own files.
 */

export type SharePrivacy = { ipMode: ShareIpMode; retentionDays: number | null };

export async function sharePrivacyOf(ctx: ServiceContext, spaceId: string): Promise<SharePrivacy> {
  const row = await findSharePrivacy(ctx.db, spaceId);
  return row ? { ipMode: row.ipMode, retentionDays: row.retentionDays } : { ...SHARE_PRIVACY_DEFAULTS };
}

/** The address to store for a visitor of a space's link. */
export async function visitorIp(ctx: ServiceContext, spaceId: string): Promise<string | null> {
  if (!ctx.client.ip) return null;
  return ipForPrivacy(ctx.client.ip, (await sharePrivacyOf(ctx, spaceId)).ipMode);
}

const privacySchema = z.object({
  ipMode: z.enum(["full", "truncated", "none"], { error: "Choose how visitors' addresses are kept: full, truncated or none." }),
  retentionDays: z
    .number({ error: "Choose how long visits are kept." })
    .int()
    .refine((days) => (SHARE_RETENTION_CHOICES as readonly number[]).includes(days), `Keep visits for ${SHARE_RETENTION_CHOICES.join(", ")} days, or as long as the link exists.`)
    .nullable(),
});

/** Where the caller sets privacy: a room they manage, or (no room) their own files. */
async function privacySpace(ctx: ServiceContext, userId: string, roomId: string | null): Promise<string> {
  if (roomId === null) return (await ensurePersonalSpace(ctx, userId)).id;
  const room = await requireDataroom(ctx, userId, roomId, "manage_settings");
  assertRoomWritable(room);
  return room.id;
}

export async function getSharePrivacy(ctx: ServiceContext, userId: string, roomId: string | null): Promise<SharePrivacy> {
  return sharePrivacyOf(ctx, await privacySpace(ctx, userId, roomId));
}

export async function updateSharePrivacy(ctx: ServiceContext, userId: string, roomId: string | null, input: unknown): Promise<SharePrivacy> {
  const spaceId = await privacySpace(ctx, userId, roomId);
  const privacy = parseInput(privacySchema, input);
  await upsertSharePrivacy(ctx.db, { spaceId, ...privacy, updatedAt: ctx.now() });
  return privacy;
}

/** Rows the nightly pass handles per kind and run (a larger backlog is finished by the next runs). */
export const PRIVACY_BATCH = 500;

/** The nightly pass (job `sharing.apply-privacy`): idempotent, a second run finds nothing more to do. */
export async function applySharePrivacy(ctx: ServiceContext): Promise<{ deleted: number; dropped: number; shortened: number }> {
  const deleted = await purgeExpiredVisits(ctx.db, ctx.now(), PRIVACY_BATCH);
  const dropped = await dropAddresses(ctx.db, PRIVACY_BATCH);
  const found = await findAddressesToShorten(ctx.db, PRIVACY_BATCH);
  const rows = [
    ...found.visits.map((row) => ({ table: "visits" as const, id: row.id, ip: ipForPrivacy(row.ip, "truncated") })),
    ...found.agreements.map((row) => ({ table: "agreements" as const, id: row.id, ip: ipForPrivacy(row.ip, "truncated") })),
  ];
  for (let start = 0; start < rows.length; start += 100) await rewriteAddresses(ctx.db, rows.slice(start, start + 100));
  return { deleted, dropped, shortened: rows.length };
}
