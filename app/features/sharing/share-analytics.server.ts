import { csvFileName, csvLine } from "~/lib/csv";
import type { ServiceContext } from "~/lib/service-context.server";
import { featuresFor, requireManagedLink, viewOf, type ShareLinkFeatures, type ShareLinkView } from "./sharing.server";
import { loadLinkAnalytics, type ShareLinkRow } from "./sharing.queries.server";

/**
 * A link's analytics for whoever manages it (issue 21): its views (counted visits), different
 * visitors, downloads and accepted agreements; per visit, who (the address given or verified),
 * when, from where, and per file the openings and downloads the server counted as the bytes left
 * plus the time per PDF page the viewer reported, with completion (pages read of the document's).
 */

/** Visits shown on a link's page and exported to CSV: the newest this many. */
export const LINK_VISITS_LIMIT = 200;

export type VisitFile = { id: string; name: string; opens: number; downloads: number; pageCount: number | null; totalMs: number; pages: { page: number; ms: number }[]; completion: number | null };
export type LinkVisit = { id: string; email: string | null; ip: string | null; startedAt: string; lastSeenAt: string; totalMs: number; files: VisitFile[] };
export type ShareLinkAnalytics = {
  link: ShareLinkView;
  roomId: string | null;
  totals: { views: number; visitors: number; downloads: number; agreements: number; totalMs: number; completion: number | null };
  visits: LinkVisit[];
  agreements: { name: string; email: string | null; ip: string | null; acceptedAt: string }[];
};

export async function getShareLinkAnalytics(ctx: ServiceContext, userId: string, rawId: unknown): Promise<ShareLinkAnalytics> {
  const { row, roomId } = await requireManagedLink(ctx, userId, rawId);
  return analyticsOf(ctx, row, roomId);
}

/** /share-links/{id}: the analytics and the options the plan of whoever owns the files allows, from one look-up of the link. */
export async function getShareLinkPage(ctx: ServiceContext, userId: string, rawId: unknown): Promise<ShareLinkAnalytics & { features: ShareLinkFeatures }> {
  const { row, roomId, planOwnerId } = await requireManagedLink(ctx, userId, rawId);
  const [analytics, features] = await Promise.all([analyticsOf(ctx, row, roomId), featuresFor(ctx, planOwnerId)]);
  return { ...analytics, features };
}

async function analyticsOf(ctx: ServiceContext, row: ShareLinkRow, roomId: string | null): Promise<ShareLinkAnalytics> {
  const [link, data] = await Promise.all([viewOf(ctx, row), loadLinkAnalytics(ctx.db, row.id, LINK_VISITS_LIMIT)]);
  const filesByVisit = new Map<string, VisitFile[]>();
  const fileOf = new Map<string, VisitFile>();
  for (const file of data.files) {
    const entry: VisitFile = { id: file.fileId, name: file.name ?? "(deleted file)", opens: file.opens, downloads: file.downloads, pageCount: file.pageCount, totalMs: 0, pages: [], completion: null };
    fileOf.set(`${file.visitId}:${file.fileId}`, entry);
    filesByVisit.set(file.visitId, [...(filesByVisit.get(file.visitId) ?? []), entry]);
  }
  for (const page of data.pages) {
    const entry = fileOf.get(`${page.visitId}:${page.fileId}`);
    if (!entry) continue;
    entry.pages.push({ page: page.page, ms: page.ms });
    entry.totalMs += page.ms;
  }
  const completions: number[] = [];
  for (const entry of fileOf.values()) {
    if (entry.pageCount) {
      entry.completion = Math.min(1, entry.pages.length / entry.pageCount);
      completions.push(entry.completion);
    }
  }
  const visits = data.visits.map((visit) => {
    const files = filesByVisit.get(visit.id) ?? [];
    return { id: visit.id, email: visit.email, ip: visit.ip, startedAt: new Date(visit.startedAt).toISOString(), lastSeenAt: new Date(visit.lastSeenAt).toISOString(), totalMs: files.reduce((sum, file) => sum + file.totalMs, 0), files };
  });
  return {
    link,
    roomId,
    totals: {
      ...data.totals,
      totalMs: visits.reduce((sum, visit) => sum + visit.totalMs, 0),
      completion: completions.length ? completions.reduce((sum, value) => sum + value, 0) / completions.length : null,
    },
    visits,
    agreements: data.agreements.map((agreement) => ({ ...agreement, acceptedAt: new Date(agreement.acceptedAt).toISOString() })),
  };
}

/** GET /share-links/{id}/visits.csv: one line per visit, file and page (a file without page times: one line). */
export async function shareLinkVisitsCsv(ctx: ServiceContext, userId: string, rawId: unknown): Promise<{ filename: string; csv: string }> {
  const { link, visits } = await getShareLinkAnalytics(ctx, userId, rawId);
  const lines = [csvLine(["visit", "email", "ip", "started (UTC)", "last seen (UTC)", "file", "opens", "downloads", "pages in document", "page", "seconds on page"])];
  for (const visit of visits) {
    const head = [visit.id, visit.email, visit.ip, visit.startedAt, visit.lastSeenAt];
    if (visit.files.length === 0) lines.push(csvLine([...head, null, null, null, null, null, null]));
    for (const file of visit.files) {
      const fileCells = [file.name, file.opens, file.downloads, file.pageCount];
      if (file.pages.length === 0) lines.push(csvLine([...head, ...fileCells, null, null]));
      for (const page of file.pages) lines.push(csvLine([...head, ...fileCells, page.page, Math.round(page.ms / 100) / 10]));
    }
  }
  return { filename: csvFileName(link.name || link.target.name, "visits", "share-link"), csv: lines.join("") };
}
