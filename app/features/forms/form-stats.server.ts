import { z } from "zod";
import { AppError } from "~/lib/errors";
import { isUuidShape } from "./forms.constants";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { splitPages } from "./form-logic";
import { FORM_MISSING } from "./form-submissions.server";
import { countRealSubmissions, findPublishedForm, findVersion, readVisitStats, recordVisitPage } from "./forms.queries.server";
import { openForm } from "./form-access.server";

/**
 * The builder dashboard (issue 37, spec §2 "Forms: builder dashboard"): views, starts, submissions,
 * completion rate and drop-off per page, for the published version. The public form makes a visit
 * at the visitor's first answer (a start; the id is random, made by the browser) and moves it on
 * as "Next" leads to later pages; the submission completes it. Views are counted when the public
 * form is opened. These are analytics, not records: a visitor can only add counts, never read or
 * change anything else.
 */

export const VISIT_ID_PATTERN = /^[A-Za-z0-9_-]{16,40}$/;

const progressSchema = z.object(
  {
    visit: z.string({ error: "visit is the visit's id." }).regex(VISIT_ID_PATTERN, "visit is 16 to 40 letters, digits, _ or -."),
    version: z.number({ error: "version is the form's version number." }).int().min(1),
    page: z.number({ error: "page is a page number." }).int().min(0).max(100),
  },
  { error: "The request body must be an object with visit, version and page." },
);

/** POST /api/forms/:id/progress (public): a visit started or reached a later page of the current version. */
export async function recordProgress(ctx: ServiceContext, id: string, input: unknown): Promise<void> {
  const { visit, version, page } = parseInput(progressSchema, input);
  const found = isUuidShape(id) ? await findPublishedForm(ctx.db, id) : undefined;
  if (!found) throw new AppError("NOT_FOUND", FORM_MISSING);
  // A visitor still on an older version (the form was republished meanwhile) is not counted against the new one.
  if (found.version.version !== version) return;
  const pageCount = splitPages(found.version.definition.fields).length;
  if (page >= pageCount) throw new AppError("VALIDATION_ERROR", `This form has ${pageCount} page${pageCount === 1 ? "" : "s"}.`);
  await recordVisitPage(ctx.db, { id: visit, formId: id, version, page, now: ctx.now() });
}

export type FormDashboard = {
  form: { id: string; title: string };
  views: number;
  /** Visits of the published version with at least one answer. */
  starts: number;
  /** Real submissions, every version. */
  submissions: number;
  /** Of the starts of this version, the share that was sent (0–1; null before any start). */
  completionRate: number | null;
  version: number | null;
  /** Per page of the published version: visits that got there, and those that stopped there. */
  pages: { page: number; reached: number; left: number; dropOffRate: number | null }[];
};

/** GET /api/forms/:id/dashboard, and the page /forms/{id}/dashboard. */
export async function getFormDashboard(ctx: ServiceContext, userId: string, id: string): Promise<FormDashboard> {
  const { form } = await openForm(ctx, userId, id, "form.view");
  const version = form.publishedVersion;
  const submissions = await countRealSubmissions(ctx.db, id);
  const about = { id: form.id, title: form.title };
  if (version === null) return { form: about, views: form.views, starts: 0, submissions, completionRate: null, version: null, pages: [] };
  const [rows, published] = await Promise.all([readVisitStats(ctx.db, id, version), findVersion(ctx.db, id, version)]);
  const pageCount = splitPages(published?.definition.fields ?? []).length;
  let starts = 0;
  let completed = 0;
  const furthest = new Map<number, { open: number; done: number }>();
  for (const row of rows) {
    const n = Number(row.n);
    starts += n;
    if (row.completed) completed += n;
    const entry = furthest.get(row.furthestPage) ?? { open: 0, done: 0 };
    if (row.completed) entry.done += n;
    else entry.open += n;
    furthest.set(row.furthestPage, entry);
  }
  // A visit reached every page up to its furthest (a skip rule's jump counts the pages it passed over).
  const pages = Array.from({ length: pageCount }, (_, page) => {
    let reached = 0;
    for (const [at, entry] of furthest) if (at >= page) reached += entry.open + entry.done;
    const left = furthest.get(page)?.open ?? 0;
    return { page, reached, left, dropOffRate: reached > 0 ? left / reached : null };
  });
  return { form: about, views: form.views, starts, submissions, completionRate: starts > 0 ? completed / starts : null, version, pages };
}
