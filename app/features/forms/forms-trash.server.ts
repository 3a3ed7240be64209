import { z } from "zod";
import { TRASH_RETENTION_MS } from "~/features/files/files.constants";
import { defineJob } from "~/features/jobs/job-definition";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { FORM_NOT_FOUND, SUBMISSION_NOT_FOUND, isUuidShape } from "./forms.constants";
import { listTrashedFormsOf, listTrashedSubmissions, purgeFormsTrash, restoreFormRow, restoreSubmissionRow } from "./forms.queries.server";
import { definitionOfVersion, formsPlan, openForm } from "./forms.server";
import type { FormDefinition } from "./form-fields";
import { submissionView } from "./submission-view";

/**
 * Forms' trash (issue 37): a deleted form or submission stays restorable for 30 days, like files
 * (TRASH_RETENTION_DAYS); the nightly `forms.purge-trash` job then deletes it for good, with
 * everything that hangs on it.
 */

const since = (ctx: ServiceContext) => new Date(ctx.now().getTime() - TRASH_RETENTION_MS);
const daysLeft = (ctx: ServiceContext, deletedAt: Date) => Math.max(0, Math.ceil((deletedAt.getTime() + TRASH_RETENTION_MS - ctx.now().getTime()) / 86_400_000));

/** The member's deleted forms, with the days each has left. */
export async function listTrashedForms(ctx: ServiceContext, userId: string) {
  await formsPlan(ctx, userId);
  return (await listTrashedFormsOf(ctx.db, userId, since(ctx))).map((form) => ({ id: form.id, title: form.title, deletedAt: form.deletedAt!.toISOString(), daysLeft: daysLeft(ctx, form.deletedAt!) }));
}

/** POST /api/forms/:id/restore */
export async function restoreForm(ctx: ServiceContext, userId: string, id: string): Promise<void> {
  await formsPlan(ctx, userId);
  if (!isUuidShape(id) || !(await restoreFormRow(ctx.db, userId, id, since(ctx)))) throw new AppError("NOT_FOUND", FORM_NOT_FOUND);
}

/** A form's deleted submissions (newest deletion first, 50). */
export async function listTrashedFormSubmissions(ctx: ServiceContext, userId: string, formId: string) {
  const { form } = await openForm(ctx, userId, formId, "form.view");
  const rows = await listTrashedSubmissions(ctx.db, formId, since(ctx), 50);
  const cache = new Map<number, FormDefinition | undefined>();
  const trashed = [];
  for (const row of rows) trashed.push({ ...submissionView(row, await definitionOfVersion(ctx, form, row.version, cache)), deletedAt: row.deletedAt!.toISOString(), daysLeft: daysLeft(ctx, row.deletedAt!) });
  return trashed;
}

/** POST /api/forms/:id/submissions/:sid/restore */
export async function restoreFormSubmission(ctx: ServiceContext, userId: string, formId: string, id: string): Promise<void> {
  await openForm(ctx, userId, formId, "form.delete");
  if (!isUuidShape(id) || !(await restoreSubmissionRow(ctx.db, formId, id, since(ctx)))) throw new AppError("NOT_FOUND", SUBMISSION_NOT_FOUND);
}

/** Nightly: deletes for good what has been in the trash for 30 days, in bounded rounds. Safe to run twice. */
export const purgeFormsTrashJob = defineJob({
  type: "forms.purge-trash",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    let forms = 0;
    let submissions = 0;
    for (let round = 0; round < 40; round++) {
      const done = await purgeFormsTrash(ctx.db, since(ctx), 200);
      forms += done.forms;
      submissions += done.submissions;
      if (done.forms < 200 && done.submissions < 200) break;
    }
    ctx.logger.info("forms trash purged", { forms, submissions });
    return { processedItems: forms + submissions, successCount: forms + submissions, failureCount: 0 };
  },
});
