import { printsOffered } from "~/features/billing/print-orders.server";
import { z } from "zod";
import { DEFAULT_WATERMARK, type WatermarkSettings } from "~/features/datarooms/protection";
import { deliverableForVisitor, sendDeliverable, type ContentDelivery, type ContentRequest } from "~/features/files/content.server";
import type { FileRow } from "~/features/files/folders.queries.server";
import { decodeCursor, encodeCursor } from "~/features/files/spaces.server";
import { auditRoom } from "~/features/datarooms/audit-record.server";
import { countShareVisit, openShareLink, passShareGate, signVisit, type ShareOpening } from "~/features/sharing/share-access.server";
import { requireOpenVisit, shareProtection } from "~/features/sharing/share-content.server";
import { closedPageOf, type ClosedSharePage } from "~/features/sharing/share-viewer.server";
import { SHARE_STATUS_LABELS } from "~/features/sharing/sharing.constants";
import { requireManagedLink, shareLinkPath } from "~/features/sharing/sharing.server";
import { countVisitFile, findLiveFile, findLiveFolder, findSpaceName, hasShareVisit, type ShareLinkRow } from "~/features/sharing/sharing.queries.server";
import type { WatermarkViewer } from "~/features/watermark/watermark.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { isGalleryImage } from "./media.constants";
import { sendDerivative, type DerivativeDelivery } from "./media-image.server";
import { listFolderMedia } from "./media.queries.server";
import { listVisitFavourites, loadGalleryFigures, setFavourite } from "./public-gallery.queries.server";

/**
 * Public galleries (issue 40, ADR 034): a share link of a folder shown as a gallery at
 * /public-gallery/{token-or-slug}. The link's gates, limits, expiry, revoking and visits are the
 * share link's own (share-access.server.ts); a gallery adds its downloads (off, web size,
 * originals), whether the pictures' EXIF is shown, and visitors' favourites. A visitor reads only
 * the pictures and videos directly in the published folder, through
 * /public-gallery/{key}/files/{id}/thumb|screen|video|download, each checked against the link as
 * it is now.
 */

/** Pictures and videos per page of a public gallery: the first screen of any gallery, and more as the visitor scrolls. */
export const PUBLIC_GALLERY_PAGE_SIZE = 48;

export type GalleryDownloads = "off" | "web" | "original";
export type PhotoFacts = { takenAt: string | null; camera: string | null; place: string | null };
export type PublicGalleryItem = {
  id: string;
  name: string;
  kind: "image" | "video";
  thumb: string | null;
  screen: string | null;
  video: string | null;
  download: string | null;
  width: number | null;
  height: number | null;
  facts: PhotoFacts | null;
  favourite: boolean;
};
export type PublicGalleryPage =
  | ClosedSharePage
  | {
      state: "open";
      targetName: string;
      visitorEmail: string | null;
      downloads: GalleryDownloads;
      watermarked: boolean;
      items: PublicGalleryItem[];
      nextCursor: string | null;
      /** Whether the visitor may order prints (the owner allows it and prints are offered here). */
      prints: boolean;
    };
export type PublicGalleryResult = { page: PublicGalleryPage; cookie: string | null };


/** What the link lets a visitor download: the room's download protection wins over the gallery's choice. */
function downloadsOf(row: ShareLinkRow, downloadProtection: boolean): GalleryDownloads {
  if (!row.allowDownload || downloadProtection) return "off";
  return row.downloadSize === "web" ? "web" : "original";
}

/** The mark burned into what a visitor is served: the room's watermark wins; else the link's (the room's default look) naming the visitor. */
async function markFor(ctx: ServiceContext, row: ShareLinkRow, roomMark: WatermarkSettings | null, email: string | null): Promise<{ settings: WatermarkSettings; viewer: WatermarkViewer } | null> {
  const settings = roomMark ?? (row.watermark ? DEFAULT_WATERMARK : null);
  if (!settings) return null;
  return { settings, viewer: { userId: `link:${row.id}`, email: email ?? "visitor", ip: ctx.client.ip, roomName: await findSpaceName(ctx.db, row.spaceId) } };
}

/** EXIF's "2026:05:01 10:00:00" as "2026-05-01 10:00" (it has no zone, so none is added). */
const takenText = (takenAt: string | null) => (takenAt ? takenAt.replace(/^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}:\d{2}).*$/, "$1-$2-$3 $4") : null);
const placeOf = (latitude: number | null, longitude: number | null) => (latitude === null || longitude === null ? null : `${latitude.toFixed(4)}, ${longitude.toFixed(4)}`);

type GalleryItemsPage = { items: PublicGalleryItem[]; nextCursor: string | null };

/** A page of the gallery's pictures and videos as this visitor is shown them (their addresses, EXIF where allowed, their hearts). */
async function itemsOf(ctx: ServiceContext, key: string, row: ShareLinkRow, visitId: string, rules: { downloads: GalleryDownloads; watermarked: boolean }, cursor: string | null): Promise<GalleryItemsPage> {
  const [rows, favourites] = await Promise.all([listFolderMedia(ctx.db, row.targetId, decodeCursor(cursor), PUBLIC_GALLERY_PAGE_SIZE + 1), listVisitFavourites(ctx.db, visitId)]);
  const marked = new Set(favourites);
  const base = shareLinkPath("gallery", encodeURIComponent(key));
  const shown = rows.slice(0, PUBLIC_GALLERY_PAGE_SIZE);
  // A video cannot carry a visitor's name: a watermarked gallery leaves videos out.
  const items = shown.flatMap((item): PublicGalleryItem[] => {
    const isVideo = item.contentType.startsWith("video/");
    if (isVideo && rules.watermarked) return [];
    const version = item.status === "ready" ? `?v=${item.version}` : "";
    const file = `${base}/files/${item.id}`;
    return [
      {
        id: item.id,
        name: item.name,
        kind: isVideo ? "video" : "image",
        thumb: isVideo || item.status === "failed" ? null : `${file}/thumb${version}`,
        screen: isVideo ? null : `${file}/screen${version}`,
        video: isVideo ? `${file}/video` : null,
        download: rules.downloads === "off" || (rules.downloads === "web" && isVideo) ? null : `${file}/download`,
        width: item.width,
        height: item.height,
        facts: row.showExif && !isVideo ? { takenAt: takenText(item.takenAt), camera: item.camera, place: placeOf(item.latitude, item.longitude) } : null,
        favourite: marked.has(item.id),
      },
    ];
  });
  const last = shown.at(-1);
  return { items, nextCursor: rows.length > PUBLIC_GALLERY_PAGE_SIZE && last ? encodeCursor({ value: Number(last.shotAt), id: last.id }) : null };
}

async function rulesOf(ctx: ServiceContext, row: ShareLinkRow) {
  const { protection } = await shareProtection(ctx, row);
  return { downloads: downloadsOf(row, protection.downloadProtection), watermarked: protection.watermark !== null || row.watermark };
}

async function openPage(ctx: ServiceContext, key: string, opening: Extract<ShareOpening, { state: "open" }>, cursor: string | null): Promise<PublicGalleryResult> {
  // A gallery whose folder went to the trash shows nothing until it is restored.
  if (!(await findLiveFolder(ctx.db, opening.row.targetId))) throw new AppError("NOT_FOUND", "This gallery is not available: its folder was deleted. Ask the person who shared it.");
  const counted = await countShareVisit(ctx, opening);
  if (counted.usedUp) return { page: { state: "expired", reason: SHARE_STATUS_LABELS["used-up"] }, cookie: null };
  const rules = await rulesOf(ctx, opening.row);
  const { items, nextCursor } = await itemsOf(ctx, key, opening.row, counted.visit.id, rules, cursor);
  return {
    page: { state: "open", targetName: opening.link.targetName, visitorEmail: counted.visit.email, ...rules, items, nextCursor, prints: opening.row.allowPrints && printsOffered(ctx) },
    cookie: await signVisit(ctx, counted.visit),
  };
}

/** GET /public-gallery/{key}/items?cursor=: the next page of the gallery as the visitor scrolls, for a visit the page counted. */
export async function listPublicGalleryItems(ctx: ServiceContext, key: string, cookie: string | null | undefined, cursor: string | null): Promise<GalleryItemsPage> {
  const { row, visit } = await requireOpenVisit(ctx, key, cookie, "gallery");
  return itemsOf(ctx, key, row, visit.id, await rulesOf(ctx, row), cursor);
}

async function pageOf(ctx: ServiceContext, key: string, opening: ShareOpening, cursor: string | null): Promise<PublicGalleryResult> {
  const closed = await closedPageOf(ctx, opening);
  if (closed || opening.state !== "open") return closed!;
  return openPage(ctx, key, opening, cursor);
}

/** GET /public-gallery/{key}[?cursor=]: where the visitor stands, and a page of the gallery once every gate is passed. */
export async function viewPublicGallery(ctx: ServiceContext, key: string, cookie: string | null | undefined, cursor: string | null = null): Promise<PublicGalleryResult> {
  return pageOf(ctx, key, await openShareLink(ctx, key, cookie, "gallery"), cursor);
}

/** A gate's form, posted on the gallery's page: passes it (or says why not) and shows what comes next. */
export async function passPublicGalleryGate(ctx: ServiceContext, key: string, cookie: string | null | undefined, input: unknown): Promise<PublicGalleryResult> {
  const passed = await passShareGate(ctx, key, cookie, input, "gallery");
  const result = await pageOf(ctx, key, passed.opening, null);
  return { page: result.page, cookie: result.cookie ?? passed.cookie };
}

// ---- what a visitor is served ---------------------------------------------------------------------

const notInGallery = () => new AppError("NOT_FOUND", "This picture is not part of this gallery.");

/** A live picture or video directly in the gallery's folder, or 404 (nothing outside the gallery is ever served). */
async function galleryFile(ctx: ServiceContext, row: ShareLinkRow, rawFileId: unknown): Promise<FileRow> {
  const fileId = z.string().max(64).safeParse(rawFileId);
  if (!fileId.success) throw notInGallery();
  const file = await findLiveFile(ctx.db, fileId.data);
  if (!file || file.spaceId !== row.spaceId || file.folderId !== row.targetId) throw notInGallery();
  if (!isGalleryImage(file.contentType) && !file.contentType.startsWith("video/")) throw notInGallery();
  return file;
}

export type GalleryMediaKind = "thumb" | "screen" | "video" | "download";
export const GALLERY_DOWNLOAD_OFF_MESSAGE = "Downloading is turned off for this gallery: you can view the pictures here, but not download them.";

/**
 * GET/HEAD /public-gallery/{key}/files/{id}/thumb|screen|video|download for a visitor whose visit
 * passed the gates and was counted by the gallery's page. Thumbnails are a listing; the screen
 * size or the video opened counts as a view of that picture, a download as a download (the link's
 * analytics, and the room's audit log for a room's folder). Everything a watermark applies to is
 * the engine's copy stamped with the visitor's address.
 */
export async function deliverGalleryMedia(ctx: ServiceContext, key: string, cookie: string | null | undefined, rawFileId: unknown, kind: GalleryMediaKind, request: ContentRequest): Promise<ContentDelivery | DerivativeDelivery> {
  const { row, visit } = await requireOpenVisit(ctx, key, cookie, "gallery");
  const file = await galleryFile(ctx, row, rawFileId);
  const { inRoom, protection } = await shareProtection(ctx, row);
  const downloads = downloadsOf(row, protection.downloadProtection);
  if (kind === "download" && downloads === "off") throw new AppError("FORBIDDEN", GALLERY_DOWNLOAD_OFF_MESSAGE);
  const mark = await markFor(ctx, row, protection.watermark, visit.email);
  const isVideo = file.contentType.startsWith("video/");
  if (isVideo && mark) throw new AppError("FORBIDDEN", "Videos are not shown in a watermarked gallery: a video cannot carry the visitor's name.");
  const via = `public gallery “${row.name || row.id.slice(0, 8)}”${visit.email ? `, ${visit.email}` : ""}${mark ? ", watermarked copy" : ""}`;
  const count = (what: "open" | "download") => async () => {
    if (inRoom) await auditRoom(ctx, row.spaceId, null, { action: what === "download" ? "file.download" : "file.view", target: { type: "file", id: file.id, name: file.name }, detail: via }, { required: true });
    await countVisitFile(ctx.db, { visitId: visit.id, fileId: file.id, kind: what, now: ctx.now() });
  };

  // Originals leave only unmarked: a watermarked gallery's downloads are its stamped screen size
  // (stamping a 12-megapixel original would not fit in a Worker's memory, ADR 034).
  if (kind === "video" || (kind === "download" && (isVideo || (downloads === "original" && !mark)))) {
    if (!isVideo && kind === "video") throw notInGallery();
    const mode = kind === "download" ? "download" : "preview";
    const source = await deliverableForVisitor(ctx, file, mode, mark);
    const delivery = await sendDeliverable(ctx, file, source, mode, request, null, count(mode === "download" ? "download" : "open"));
    delivery.headers.set("Cache-Control", "private, no-store");
    return delivery;
  }
  if (isVideo) throw new AppError("UNSUPPORTED_MEDIA_TYPE", `“${file.name}” is a video: it has no thumbnail or screen size yet.`);
  // A picture's derivatives: a visitor's browser keeps them 5 minutes (the page itself is never kept).
  return sendDerivative(ctx, file, kind === "thumb" ? "thumb" : "screen", mark, request, {
    cacheControl: "private, max-age=300",
    disposition: kind === "download" ? "attachment" : "inline",
    onSend: kind === "thumb" ? undefined : count(kind === "download" ? "download" : "open"),
  });
}

// ---- favourites (proofing) ------------------------------------------------------------------------

const favouriteSchema = z.object({
  fileId: z.string({ error: "fileId is the picture to mark." }).min(1, "fileId is the picture to mark.").max(64),
  favourite: z.boolean({ error: "favourite must be true or false." }),
});

/** Marks or unmarks a picture as one of the visitor's favourites; the owner sees each visitor's selection. */
export async function setGalleryFavourite(ctx: ServiceContext, key: string, cookie: string | null | undefined, input: unknown): Promise<{ favourite: boolean }> {
  const data = parseInput(favouriteSchema, input);
  const { row, visit } = await requireOpenVisit(ctx, key, cookie, "gallery");
  const file = await galleryFile(ctx, row, data.fileId);
  if (!(await hasShareVisit(ctx.db, visit.id, row.id))) throw new AppError("FORBIDDEN", "Open the gallery's page again: your visit has ended.");
  await setFavourite(ctx.db, { visitId: visit.id, fileId: file.id, favourite: data.favourite, now: ctx.now() });
  return { favourite: data.favourite };
}

// ---- what the person who shared it sees -----------------------------------------------------------

export type GalleryVisitorSelection = { visitId: string; email: string | null; startedAt: string; favourites: { id: string; name: string; markedAt: string }[] };
export type GalleryFigures = { photos: { id: string; name: string; views: number; downloads: number; favourites: number }[]; selections: GalleryVisitorSelection[] };

/**
 * A public gallery's proofing and figures for whoever manages its link (404 for anyone else):
 * each visitor's favourites (by the address they gave, else as an anonymous visit), and per
 * picture its views, downloads and favourites.
 */
export async function getGalleryFigures(ctx: ServiceContext, userId: string, rawLinkId: unknown): Promise<GalleryFigures | null> {
  const { row } = await requireManagedLink(ctx, userId, rawLinkId);
  if (row.presentation !== "gallery") return null;
  const figures = await loadGalleryFigures(ctx.db, row.id);
  const selections = new Map<string, GalleryVisitorSelection>();
  for (const mark of figures.favourites) {
    const selection = selections.get(mark.visitId) ?? { visitId: mark.visitId, email: mark.email, startedAt: new Date(mark.startedAt).toISOString(), favourites: [] };
    selection.favourites.push({ id: mark.fileId, name: mark.name ?? "(deleted picture)", markedAt: new Date(mark.createdAt).toISOString() });
    selections.set(mark.visitId, selection);
  }
  return {
    photos: figures.photos.map((photo) => ({ id: photo.fileId, name: photo.name ?? "(deleted picture)", views: photo.views, downloads: photo.downloads, favourites: photo.favourites })),
    selections: [...selections.values()],
  };
}
