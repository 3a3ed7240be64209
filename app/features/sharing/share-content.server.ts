import { z } from "zod";
import { DEFAULT_WATERMARK, NO_PROTECTION, type RoomProtection } from "~/features/datarooms/protection";
import { loadRoomSecurity } from "~/features/datarooms/members.queries.server";
import type { FileRow } from "~/features/files/folders.queries.server";
import { deliverableForVisitor, sendDeliverable, type ContentDelivery, type ContentRequest, type DeliveryMode } from "~/features/files/content.server";
import { findIsDataroomSpace } from "~/features/files/space-role.queries.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import type { SharePresentation } from "~/db/schema/sharing";
import { openShareLink, refusalOf } from "./share-access.server";
import { countVisitFile, findLiveFile, findSpaceName, isFolderWithin, type ShareLinkRow } from "./sharing.queries.server";

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

/** A live file the link covers (the file; inside the folder at any depth; in the room), or 404. */
export async function coveredFile(ctx: ServiceContext, row: ShareLinkRow, rawFileId: unknown): Promise<FileRow> {
  const fileId = z.string().max(64).safeParse(rawFileId);
  if (!fileId.success) throw notCovered();
  const file = await findLiveFile(ctx.db, fileId.data);
  if (!file || file.spaceId !== row.spaceId) throw notCovered();
  if (row.targetType === "file" && file.id !== row.targetId) throw notCovered();
  if (row.targetType === "folder" && !(await isFolderWithin(ctx.db, file.folderId, row.targetId))) throw notCovered();
  return file;
}

/** The room's protection over a link's files (none for personal files): it wins over the link's options. */
export async function shareProtection(ctx: ServiceContext, row: ShareLinkRow): Promise<{ inRoom: boolean; protection: RoomProtection }> {
  const inRoom = await findIsDataroomSpace(ctx.db, row.spaceId);
  return { inRoom, protection: inRoom ? (await loadRoomSecurity(ctx.db, row.spaceId)).protection : NO_PROTECTION };
}

/** The open visit of a link, or why not (the same answers for the page's content and its reports). */
export async function requireOpenVisit(ctx: ServiceContext, key: string, cookie: string | null | undefined, presentation: SharePresentation = "document") {
  const opening = await openShareLink(ctx, key, cookie, presentation);
  if (opening.state === "missing" || opening.state === "expired" || opening.state === "refused") throw refusalOf(opening);
  if (opening.state === "gate" || !opening.visit.counted) throw new AppError("FORBIDDEN", "Open the link's page first: it asks for what the person who shared it requires.");
  return opening;
}

export async function deliverShareContent(ctx: ServiceContext, key: string, cookie: string | null | undefined, rawFileId: unknown, mode: DeliveryMode, request: ContentRequest): Promise<ContentDelivery> {
  const { row, visit } = await requireOpenVisit(ctx, key, cookie);

  const file = await coveredFile(ctx, row, rawFileId);
  const { inRoom, protection } = await shareProtection(ctx, row);
  if (mode === "download" && (!row.allowDownload || protection.downloadProtection)) throw new AppError("FORBIDDEN", SHARE_DOWNLOAD_OFF_MESSAGE);
  const wantsMark = row.watermark || (mode === "download" && row.downloadMode === "watermarked");
  const settings = protection.watermark ?? (wantsMark ? DEFAULT_WATERMARK : null);
  const viewer = { userId: `link:${row.id}`, email: visit.email ?? "visitor", ip: ctx.client.ip, roomName: await findSpaceName(ctx.db, row.spaceId) };
  const source = await deliverableForVisitor(ctx, file, mode, settings ? { settings, viewer } : null);
  const via = `share link “${row.name || row.id.slice(0, 8)}”${visit.email ? `, ${visit.email}` : ""}${source.watermarked ? ", watermarked copy" : ""}`;
  const counted = () => countVisitFile(ctx.db, { visitId: visit.id, fileId: file.id, kind: mode === "download" ? "download" : "open", now: ctx.now() });
  return sendDeliverable(ctx, file, source, mode, request, inRoom ? { roomId: row.spaceId, actorId: null, detail: via } : null, counted);
}
