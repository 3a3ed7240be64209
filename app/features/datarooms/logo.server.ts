import { sniffContentType } from "~/features/files/sniff.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { auditRoom } from "./audit-record.server";
import { assertRoomWritable } from "./datarooms.permissions";
import { findDataroomLogo, setDataroomLogoRow } from "./datarooms.queries.server";
import { requireDataroom, type DataroomSummary } from "./datarooms.server";

/**
 * A data room's logo (the profile page, spec §2 "Data room: profile"): an image of at most 512 KiB,
 * PNG, JPEG, WebP or GIF as its bytes say (never what the browser claims, never SVG: it can carry
 * script), stored in R2 and shown to everyone in the room.
 */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

/** Sets the logo from its bytes (manage_settings; not while archived). The old object is deleted. */
export async function setDataroomLogo(ctx: ServiceContext, userId: string, rawId: unknown, bytes: Uint8Array | null): Promise<DataroomSummary> {
  const room = await requireDataroom(ctx, userId, rawId, "manage_settings");
  assertRoomWritable(room);
  if (!bytes || bytes.byteLength === 0) throw new AppError("VALIDATION_ERROR", "Choose an image file for the logo.");
  if (bytes.byteLength > LOGO_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "The logo is too large: use an image of at most 512 KB.");
  const type = await sniffContentType(bytes.subarray(0, 4100), "logo", bytes.byteLength <= 4100);
  if (!(LOGO_TYPES as readonly string[]).includes(type)) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "The logo must be a PNG, JPEG, WebP or GIF image.");
  }
  const key = `datarooms/${room.id}/logo-${crypto.randomUUID()}`;
  await ctx.env.FILES.put(key, bytes, { httpMetadata: { contentType: type } });
  const previous = await setDataroomLogoRow(ctx.db, room.id, { key, type }, ctx.now());
  if (previous) await ctx.env.FILES.delete(previous);
  ctx.logger.info("data room logo set", { dataroomId: room.id, bytes: bytes.byteLength, type });
  await auditRoom(ctx, room.id, userId, { action: "room.logo", target: { type: "room", id: room.id, name: room.name }, detail: "set" });
  return requireDataroom(ctx, userId, room.id);
}

/** Removes the logo (manage_settings; not while archived). */
export async function removeDataroomLogo(ctx: ServiceContext, userId: string, rawId: unknown): Promise<DataroomSummary> {
  const room = await requireDataroom(ctx, userId, rawId, "manage_settings");
  assertRoomWritable(room);
  const previous = await setDataroomLogoRow(ctx.db, room.id, null, ctx.now());
  if (previous) await ctx.env.FILES.delete(previous);
  await auditRoom(ctx, room.id, userId, { action: "room.logo", target: { type: "room", id: room.id, name: room.name }, detail: "removed" });
  return requireDataroom(ctx, userId, room.id);
}

/** The logo's bytes for someone in the room, or 404 when the room has none. */
export async function readDataroomLogo(ctx: ServiceContext, userId: string, rawId: unknown): Promise<Response> {
  const room = await requireDataroom(ctx, userId, rawId);
  const logo = await findDataroomLogo(ctx.db, room.id);
  if (!logo?.key) throw new AppError("NOT_FOUND", "This data room has no logo.");
  const object = await ctx.env.FILES.get(logo.key);
  if (!object) throw new AppError("NOT_FOUND", "This data room has no logo.");
  return new Response(object.body, {
    headers: {
      "Content-Type": logo.type ?? "application/octet-stream",
      "Content-Length": String(object.size),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox",
      "Cache-Control": "private, max-age=300",
    },
  });
}
