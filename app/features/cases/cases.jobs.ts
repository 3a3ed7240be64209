import { z } from "zod";
import { enqueueJob } from "~/features/jobs/enqueue-job.server";
import { defineJob } from "~/features/jobs/job-definition";
import type { ServiceContext } from "~/lib/service-context.server";
import { openCaseFromForm, openCaseFromReceive } from "./cases.server";
import { findCaseRequestBySubmission } from "./cases.queries.server";

/** A receive page submission that opens a case, or answers a page sent for one (issue 41), off the upload's request; delivered twice, one case, one entry. */
export const openCaseFromReceiveJob = defineJob({
  type: "cases.open-from-receive",
  version: 1,
  payloadSchema: z.object({ submissionId: z.string().min(1).max(64) }),
  async run(ctx, payload) {
    const caseId = await openCaseFromReceive(ctx, payload.submissionId);
    return { processedItems: 1, successCount: caseId ? 1 : 0, failureCount: 0 };
  },
});

/** Once a submission's files are all in: its page's case opens by a job, or (sent for a case) its files are filed into that case by the same job. */
export async function requestCaseFromReceive(ctx: ServiceContext, submissionId: string, pageOpensCases: boolean): Promise<void> {
  if (!pageOpensCases && !(await findCaseRequestBySubmission(ctx.db, submissionId))) return;
  await enqueueJob(ctx, { definition: openCaseFromReceiveJob, payload: { submissionId }, jobId: `${openCaseFromReceiveJob.type}:${submissionId}` });
}

/** A form submission that opens a case, or answers a form sent for one (issue 41), off the submitter's request; delivered twice, one case, one entry. */
export const openCaseFromFormJob = defineJob({
  type: "cases.open-from-form",
  version: 1,
  payloadSchema: z.object({ submissionId: z.string().min(1).max(64) }),
  async run(ctx, payload) {
    const caseId = await openCaseFromForm(ctx, payload.submissionId);
    return { processedItems: 1, successCount: caseId ? 1 : 0, failureCount: 0 };
  },
});

/** Once a submission (and its files) is in: its form's case opens by a job, or (sent for a case) it is filed into that case by the same job. */
export async function requestCaseFromForm(ctx: ServiceContext, submissionId: string, formOpensCases: boolean): Promise<void> {
  if (!formOpensCases && !(await findCaseRequestBySubmission(ctx.db, submissionId))) return;
  await enqueueJob(ctx, { definition: openCaseFromFormJob, payload: { submissionId }, jobId: `${openCaseFromFormJob.type}:${submissionId}` });
}
