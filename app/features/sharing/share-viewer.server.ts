import { findBreadcrumbs, findRootFolder } from "~/features/files/folders.queries.server";
import { readCookie } from "~/lib/cookies";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { pageTimeSchema } from "~/features/datarooms/page-time.server";
import { countShareVisit, openShareLink, passShareGate, refusalOf, SHARE_VISIT_TTL_MS, signVisit, type ShareGate, type ShareOpening } from "./share-access.server";
import { coveredFile, requireOpenVisit, shareProtection } from "./share-content.server";
import { SHARE_STATUS_LABELS, SHARE_VISIT_COOKIE } from "./sharing.constants";
import { addVisitPageTime, findLiveFolder, hasShareVisit, isFolderWithin, loadVisitorFolder, type ShareLinkRow } from "./sharing.queries.server";

/**
 * The share viewer's page (issue 21, step 4): /s/{key} and /s/{key}/files/{fileId}. Missing links
 * are 404; expired, revoked and used-up ones show "Preview Link Expired"; a refused address the
 * security display; a gate its form; an open link counts the visit once and shows the document,
 * or a folder's contents for folder and room links (only inside what the link covers).
 */

/** Items listed per folder of a folder or room link. */
export const SHARE_FOLDER_LIMIT = 500;

export type ShareViewerFile = { id: string; name: string; type: string; size: number };
export type ShareViewerRules = { canDownload: boolean; watermarked: boolean; printProtected: boolean };
export type ShareViewerCrumb = { id: string; name: string };
export type ShareViewerContent =
  | { kind: "file"; file: ShareViewerFile; crumbs: ShareViewerCrumb[] }
  | { kind: "folder"; folder: ShareViewerCrumb; crumbs: ShareViewerCrumb[]; folders: ShareViewerCrumb[]; files: ShareViewerFile[]; truncated: boolean };

export type ShareViewerPage =
  | { state: "expired"; reason: string }
  | { state: "refused"; message: string }
  | { state: "gate"; gate: ShareGate; targetName: string; agreement: string | null; pendingEmail: string | null }
  | { state: "open"; targetName: string; visitorEmail: string | null; rules: ShareViewerRules; content: ShareViewerContent };

/** The page's answer and the visit to keep in the cookie (null: leave it as it is). */
export type ShareViewerResult = { page: ShareViewerPage; cookie: string | null };

/**
 * The visit's cookie: only for this link's addresses (/s/{key} and below), unreadable by scripts,
 * not sent by other sites' requests, as long as a visit lasts.
 */
export function shareVisitCookie(key: string, value: string, isSecure: boolean, base: "/s" | "/public-gallery" = "/s"): string {
  return `${SHARE_VISIT_COOKIE}=${value}; Path=${base}/${encodeURIComponent(key)}; Max-Age=${SHARE_VISIT_TTL_MS / 1000}; HttpOnly; SameSite=Lax${isSecure ? "; Secure" : ""}`;
}

/** The visit's cookie from a request's Cookie header (the most specific path comes first). */
export function readShareVisitCookie(cookieHeader: string | null): string | null {
  return readCookie(cookieHeader, SHARE_VISIT_COOKIE);
}


export type ClosedSharePage = Exclude<ShareViewerPage, { state: "open" }>;

/**
 * A link that is not open yet, as its page: expired, refused, or at a gate (with the visit to keep);
 * null once it is open. A missing link throws (404). Shared by the document viewer and public galleries.
 */
export async function closedPageOf(ctx: ServiceContext, opening: ShareOpening): Promise<{ page: ClosedSharePage; cookie: string | null } | null> {
  switch (opening.state) {
    case "missing":
      throw refusalOf(opening);
    case "expired":
      return { page: { state: "expired", reason: SHARE_STATUS_LABELS[opening.status] }, cookie: null };
    case "refused":
      return { page: { state: "refused", message: opening.message }, cookie: null };
    case "gate":
      return {
        page: { state: "gate", gate: opening.gate, targetName: opening.link.targetName, agreement: opening.gate === "agreement" ? opening.link.agreement : null, pendingEmail: opening.pendingEmail },
        cookie: await signVisit(ctx, opening.visit),
      };
    case "open":
      return null;
  }
}

async function pageOf(ctx: ServiceContext, opening: ShareOpening, where: { fileId?: string; folderId?: string | null }): Promise<ShareViewerResult> {
  const closed = await closedPageOf(ctx, opening);
  if (closed || opening.state !== "open") return closed!;
  const counted = await countShareVisit(ctx, opening);
  if (counted.usedUp) return { page: { state: "expired", reason: SHARE_STATUS_LABELS["used-up"] }, cookie: null };
  const { protection } = await shareProtection(ctx, opening.row);
  const rules: ShareViewerRules = {
    canDownload: opening.row.allowDownload && !protection.downloadProtection,
    watermarked: protection.watermark !== null || opening.row.watermark,
    printProtected: protection.printProtection || opening.row.printProtection,
  };
  const content = await contentOf(ctx, opening.row, opening.link.targetName, where);
  return { page: { state: "open", targetName: opening.link.targetName, visitorEmail: counted.visit.email, rules, content }, cookie: await signVisit(ctx, counted.visit) };
}

/** Crumbs from the link's own top (never above what it shares). */
function crumbsWithin(crumbs: { id: string; label: string; kind: string }[], row: ShareLinkRow, topName: string): ShareViewerCrumb[] {
  const start = row.targetType === "folder" ? crumbs.findIndex((crumb) => crumb.id === row.targetId) : 0;
  return crumbs.slice(Math.max(start, 0)).map((crumb, index) => ({ id: crumb.id, name: index === 0 ? topName : crumb.label }));
}

/** What an open link shows; `topName` (what the link shares) names the top of its breadcrumbs. */
async function contentOf(ctx: ServiceContext, row: ShareLinkRow, topName: string, where: { fileId?: string; folderId?: string | null }): Promise<ShareViewerContent> {
  const toFile = (file: { id: string; name: string; contentType: string; size: number }): ShareViewerFile => ({ id: file.id, name: file.name, type: file.contentType, size: file.size });
  if (row.targetType === "file" || where.fileId) {
    const file = await coveredFile(ctx, row, where.fileId ?? row.targetId);
    if (row.targetType === "file") return { kind: "file", file: toFile(file), crumbs: [] };
    const crumbs = await findBreadcrumbs(ctx.db, file.folderId);
    return { kind: "file", file: toFile(file), crumbs: crumbsWithin(crumbs, row, topName) };
  }
  const top = row.targetType === "folder" ? row.targetId : (await findRootFolder(ctx.db, row.spaceId))?.id;
  const folderId = where.folderId ?? top;
  const folder = folderId ? await findLiveFolder(ctx.db, folderId) : undefined;
  if (!folder || !top || folder.spaceId !== row.spaceId || !(await isFolderWithin(ctx.db, folder.id, top))) {
    throw new AppError("NOT_FOUND", "This folder is not part of this link.");
  }
  const listing = await loadVisitorFolder(ctx.db, folder, SHARE_FOLDER_LIMIT);
  const crumbs = crumbsWithin(listing.crumbs, row, topName);
  return {
    kind: "folder",
    folder: crumbs[crumbs.length - 1] ?? { id: folder.id, name: folder.label },
    crumbs,
    folders: listing.subfolders.slice(0, SHARE_FOLDER_LIMIT).map((sub) => ({ id: sub.id, name: sub.label })),
    files: listing.files.slice(0, SHARE_FOLDER_LIMIT).map(toFile),
    truncated: listing.subfolders.length > SHARE_FOLDER_LIMIT || listing.files.length > SHARE_FOLDER_LIMIT,
  };
}

/** GET /s/{key}[/files/{fileId}][?folder=]: where the visitor stands and what they see. */
export async function viewSharePage(ctx: ServiceContext, key: string, cookie: string | null | undefined, where: { fileId?: string; folderId?: string | null }): Promise<ShareViewerResult> {
  return pageOf(ctx, await openShareLink(ctx, key, cookie), where);
}

/** A gate's form, posted: passes it (or answers why not) and shows what comes next. */
export async function passSharePageGate(ctx: ServiceContext, key: string, cookie: string | null | undefined, input: unknown, where: { fileId?: string; folderId?: string | null }): Promise<ShareViewerResult> {
  const passed = await passShareGate(ctx, key, cookie, input);
  const result = await pageOf(ctx, passed.opening, where);
  return { page: result.page, cookie: result.cookie ?? passed.cookie };
}

// ---- time per page, from the viewer --------------------------------------------------------------

/**
 * POST /s/{key}/files/{fileId}/page-time { pages, pageCount } → 204: the visitor's time per page
 * of a file the link covers, for a counted visit; bounded per report like a room's.
 */
export async function recordSharePageTime(ctx: ServiceContext, key: string, cookie: string | null | undefined, fileId: string, input: unknown): Promise<void> {
  const { pages, pageCount } = parseInput(pageTimeSchema, input);
  const { row, visit } = await requireOpenVisit(ctx, key, cookie);
  const file = await coveredFile(ctx, row, fileId);
  if (!(await hasShareVisit(ctx.db, visit.id, row.id))) return;
  const entries = Object.entries(pages)
    .map(([page, ms]) => [Number(page), ms] as [number, number])
    .filter(([page, ms]) => ms > 0 && (pageCount === undefined || page <= pageCount));
  await addVisitPageTime(ctx.db, { visitId: visit.id, fileId: file.id, pageCount: pageCount ?? null, pages: entries, now: ctx.now() });
}
