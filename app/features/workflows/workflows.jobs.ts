import { z } from "zod";
import { enqueueJob } from "~/features/jobs/enqueue-job.server";
import { defineJob } from "~/features/jobs/job-definition";
import type { ServiceContext } from "~/lib/service-context.server";
import { startScheduledRuns, folderHasUploadTriggers, sourceHasTriggers, spaceHasEnvelopeTriggers, startRunsForEnvelope, startRunsForSubmission, startRunsForUpload, type SubmissionKind } from "./workflows.server";

const id = z.string().min(1).max(64);

/**
 * A file arrived in a folder that starts workflows (issue 41, trigger "upload"): each such
 * workflow starts one run on it, off the upload's request. Delivered twice, nothing more starts
 * (the upload's id is the run's trigger, unique per workflow).
 */
export const startUploadRunsJob = defineJob({
  type: "workflows.start-upload-runs",
  version: 1,
  payloadSchema: z.object({ uploadId: id, fileId: id, folderId: id, uploadedBy: id }),
  async run(ctx, payload) {
    const started = await startRunsForUpload(ctx, payload);
    return { processedItems: 1, successCount: started, failureCount: 0 };
  },
});

/** After an upload: when its folder starts workflows, a job starts them (one indexed read otherwise). */
export async function requestUploadTriggers(ctx: ServiceContext, upload: { uploadId: string; fileId: string; folderId: string; uploadedBy: string }): Promise<void> {
  if (!(await folderHasUploadTriggers(ctx, upload.folderId))) return;
  await enqueueJob(ctx, { definition: startUploadRunsJob, payload: upload, jobId: `${startUploadRunsJob.type}:${upload.uploadId}` });
}

/** A document a member sent for signature is signed by everyone: their workflows started by that each start one run on the signed copy. */
export const startEnvelopeRunsJob = defineJob({
  type: "workflows.start-envelope-runs",
  version: 1,
  payloadSchema: z.object({ envelopeId: id }),
  async run(ctx, payload) {
    const started = await startRunsForEnvelope(ctx, payload.envelopeId);
    return { processedItems: 1, successCount: started, failureCount: 0 };
  },
});

/** After an envelope is completed: when its sender's space has workflows started by that, a job starts them. */
export async function requestEnvelopeTriggers(ctx: ServiceContext, envelope: { id: string; spaceId: string }): Promise<void> {
  if (!(await spaceHasEnvelopeTriggers(ctx, envelope.spaceId))) return;
  await enqueueJob(ctx, { definition: startEnvelopeRunsJob, payload: { envelopeId: envelope.id }, jobId: `${startEnvelopeRunsJob.type}:${envelope.id}` });
}

/** A form was submitted, or files arrived through a receive page, that start workflows: each starts one run about the submission. */
export const startSubmissionRunsJob = defineJob({
  type: "workflows.start-submission-runs",
  version: 1,
  payloadSchema: z.object({ kind: z.enum(["form", "receive"]), submissionId: id }),
  async run(ctx, payload) {
    const started = await startRunsForSubmission(ctx, payload.kind, payload.submissionId);
    return { processedItems: 1, successCount: started, failureCount: 0 };
  },
});

/** After a submission is complete (its files all in): when its form or page starts workflows, a job starts them (one indexed read otherwise). */
export async function requestSubmissionTriggers(ctx: ServiceContext, submission: { kind: SubmissionKind; id: string; sourceId: string }): Promise<void> {
  if (!(await sourceHasTriggers(ctx, submission.kind, submission.sourceId))) return;
  await enqueueJob(ctx, { definition: startSubmissionRunsJob, payload: { kind: submission.kind, submissionId: submission.id }, jobId: `${startSubmissionRunsJob.type}:${submission.id}` });
}

/** The morning's scheduled workflows (queued by the 07:00 cron, one job a day): each due workflow starts its runs. */
export const startScheduledRunsJob = defineJob({
  type: "workflows.start-scheduled-runs",
  version: 1,
  payloadSchema: z.object({ day: z.iso.date() }),
  async run(ctx, payload) {
    const started = await startScheduledRuns(ctx, new Date(`${payload.day}T00:00:00Z`));
    return { processedItems: 1, successCount: started, failureCount: 0 };
  },
});
