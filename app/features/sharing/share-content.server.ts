import { z } from "zod";
import { DEFAULT_WATERMARK, NO_PROTECTION } from "~/features/datarooms/protection";
import { loadRoomSecurity } from "~/features/datarooms/members.queries.server";
import { deliverableForVisitor, sendDeliverable, type ContentDelivery, type ContentRequest, type DeliveryMode } from "~/features/files/content.server";
import { findIsDataroomSpace } from "~/features/files/space-role.queries.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { openShareLink } from "./share-access.server";
import { findLiveFile, findSpaceName, isFolderWithin } from "./sharing.queries.server";

/**
 * A share link's documents for its visitor (issue 21, step 3): GET/HEAD /s/{key}/files/{fileId}/
 * preview|download with the link's visit (its cookie). Only files the link covers (the file; what
 * is inside the folder; the room's files), only once every gate is passed and the visit was counted
 * by the link's page. The room's rules win: its download protection refuses downloads whatever the
 * link allows, its watermark applies to every visitor; otherwise the link's watermark (the room's
 * default look) or its watermarked downloads. Openings are in the room's audit log with the link
 * and the visitor's address.
 */

export const SHARE_DOWNLOAD_OFF_MESSAGE = "Downloading is turned off for this link: you can view the document here, but not download it.";
const notCovered = () => new AppError("NOT_FOUND", "This document is not part of this link.");

export async function deliverShareContent(ctx: ServiceContext, key: string, cookie: string | null | undefined, rawFileId: unknown, mode: DeliveryMode, request: ContentRequest): Promise<ContentDelivery> {
  const opening = await openShareLink(ctx, key, cookie);
  if (opening.state === "missing") throw new AppError("NOT_FOUND", "This link does not exist. Check the address you were given.");
  if (opening.state === "expired") throw new AppError("NOT_FOUND", "The preview link has expired. Please try refreshing the page.");
  if (opening.state === "refused") throw new AppError("FORBIDDEN", opening.message);
  if (opening.state === "gate" || !opening.visit.counted) throw new AppError("FORBIDDEN", "Open the link's page first: it asks for what the person who shared it requires.");
  const { row, visit } = opening;

  const fileId = z.string().max(64).safeParse(rawFileId);
  if (!fileId.success) throw notCovered();
  const file = await findLiveFile(ctx.db, fileId.data);
  if (!file || file.spaceId !== row.spaceId) throw notCovered();
  if (row.targetType === "file" && file.id !== row.targetId) throw notCovered();
  if (row.targetType === "folder" && !(await isFolderWithin(ctx.db, file.folderId, row.targetId))) throw notCovered();

  const inRoom = await findIsDataroomSpace(ctx.db, row.spaceId);
  const protection = inRoom ? (await loadRoomSecurity(ctx.db, row.spaceId)).protection : NO_PROTECTION;
  if (mode === "download" && (!row.allowDownload || protection.downloadProtection)) throw new AppError("FORBIDDEN", SHARE_DOWNLOAD_OFF_MESSAGE);
  const wantsMark = row.watermark || (mode === "download" && row.downloadMode === "watermarked");
  const settings = protection.watermark ?? (wantsMark ? DEFAULT_WATERMARK : null);
  const viewer = { userId: `link:${row.id}`, email: visit.email ?? "visitor", ip: ctx.client.ip, roomName: await findSpaceName(ctx.db, row.spaceId) };
  const source = await deliverableForVisitor(ctx, file, mode, settings ? { settings, viewer } : null);
  const via = `share link “${row.name || row.id.slice(0, 8)}”${visit.email ? `, ${visit.email}` : ""}${source.watermarked ? ", watermarked copy" : ""}`;
  return sendDeliverable(ctx, file, source, mode, request, inRoom ? { roomId: row.spaceId, actorId: null, detail: via } : null);
}
