import { z } from "zod";
import { requireFileAccess } from "~/features/files/spaces.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { PAGE_TIME_MAX_MS_PER_REPORT } from "./analytics.constants";
import { addPageTime } from "./page-time.queries.server";

/**
 * Time per PDF page (issue 20 analytics): the room's viewer reports how long each page was on
 * screen (every 15 seconds, and when the page is left). Only for files the person may view in a
 * room they are in (every check of the room applies); a personal file's report is accepted and
 * not kept. The times come from the browser, so each report is bounded (at most
 * PAGE_TIME_MAX_MS_PER_REPORT in all, 50 pages): a person can at worst inflate their own reading
 * time, never anyone else's, never the server-side counts of views and downloads.
 */

/** A viewer's report of time per page (a room's or a share link's viewer); `pageCount` is the document's, for completion. */
export const pageTimeSchema = z.object(
  {
    pages: z
      .record(z.string().regex(/^[1-9]\d{0,5}$/, "Pages are numbered from 1."), z.number().int().min(0).max(PAGE_TIME_MAX_MS_PER_REPORT))
      .refine((pages) => Object.keys(pages).length <= 50, "Report at most 50 pages at a time.")
      .refine((pages) => Object.values(pages).reduce((sum, ms) => sum + ms, 0) <= PAGE_TIME_MAX_MS_PER_REPORT, `Report at most ${PAGE_TIME_MAX_MS_PER_REPORT / 1000} seconds at a time.`),
    pageCount: z.number().int().min(1).max(100_000).optional(),
  },
  { error: "The request body must be an object with pages." },
);

/** POST /api/files/{id}/page-time { pages: { "1": 12000, … } } → 204. */
export async function recordPageTime(ctx: ServiceContext, userId: string, fileId: string, input: unknown): Promise<void> {
  const { pages } = parseInput(pageTimeSchema, input);
  const { file, roomPermissions } = await requireFileAccess(ctx, userId, fileId, "files.view");
  if (!roomPermissions) return;
  const entries = Object.entries(pages)
    .map(([page, ms]) => [Number(page), ms] as [number, number])
    .filter(([, ms]) => ms > 0);
  await addPageTime(ctx.db, { roomId: file.spaceId, fileId: file.id, userId, pages: entries, now: ctx.now() });
}
