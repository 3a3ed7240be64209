import type { z } from "zod";
import { pruneAuthRecordsJob } from "~/features/auth/auth.jobs";
import { purgeTrashJob } from "~/features/files/trash.jobs";
import { hashFileJob, rewrapKeysJob } from "~/features/files/files.jobs";
import { deliverMailJob, pruneMailJob } from "~/features/mail/mail.jobs";
import { pruneTeamLogsJob } from "~/features/teams/teams.jobs";
import { planLimitsJob, printOrdersJob, printPrivacyJob, trialsMorningJob } from "~/features/billing/billing.jobs";
import { pruneJobsJob } from "~/features/maintenance/maintenance.jobs";
import { sendDigestsJob } from "~/features/notifications/notifications.jobs";
import { notifyFilesAddedJob } from "~/features/datarooms/datarooms.jobs";
import { startEnvelopeRunsJob, startScheduledRunsJob, startSubmissionRunsJob, startUploadRunsJob } from "~/features/workflows/workflows.jobs";
import { openCaseFromFormJob, openCaseFromReceiveJob } from "~/features/cases/cases.jobs";
import { sendRunEventJob } from "~/features/workflows/run-events.jobs";
import { deleteObjectsJob } from "~/features/personal-data/personal-data.jobs";
import { applySharePrivacyJob } from "~/features/sharing/sharing.jobs";
import { batchChunkJob } from "~/features/batch/batch.jobs";
import { purgeSecretsJob } from "~/features/secrets/secrets.jobs";
import { catchUpIndexJob, extractTextJob } from "~/features/search/search.jobs";
import { webhookDeliverJob } from "~/features/forms/form-webhooks.server";
import { purgeFormsTrashJob } from "~/features/forms/forms-trash.server";
import { sealEnvelopeJob, signatureRemindersJob } from "~/features/signatures/signatures.jobs";
import { derivativesJob } from "~/features/galleries/galleries.jobs";
import type { ServiceContext } from "~/lib/service-context.server";
import type { JobDefinition, JobResult } from "./job-definition";

/**
 * The erased shape the consumer works with. Each definition's payload type is checked where it
 * is defined; here `run` only ever receives a payload its own schema has just parsed.
 */
export type RegisteredJob = {
  type: string;
  version: number;
  ownsJobState: boolean;
  payloadSchema: z.ZodType<unknown>;
  run: (ctx: ServiceContext & { jobId: string }, payload: unknown) => Promise<JobResult>;
  runMany: ((ctx: ServiceContext & { jobId: string }, payloads: unknown[]) => Promise<JobResult>) | null;
};

function register<Payload>(definition: JobDefinition<Payload>): RegisteredJob {
  return {
    type: definition.type,
    version: definition.version,
    ownsJobState: definition.ownsJobState ?? false,
    payloadSchema: definition.payloadSchema,
    run: (ctx, payload) => definition.run(ctx, payload as Payload),
    runMany: definition.runMany ? (ctx, payloads) => definition.runMany!(ctx, payloads as Payload[]) : null,
  };
}

/** Every job type the consumer knows. A message whose type is not here fails its job at once. */
const registered: RegisteredJob[] = [register(pruneJobsJob), register(pruneAuthRecordsJob), register(deliverMailJob), register(pruneMailJob), register(deleteObjectsJob), register(purgeTrashJob), register(hashFileJob), register(rewrapKeysJob), register(sendDigestsJob), register(notifyFilesAddedJob), register(applySharePrivacyJob), register(batchChunkJob), register(purgeSecretsJob), register(extractTextJob), register(catchUpIndexJob), register(webhookDeliverJob), register(purgeFormsTrashJob), register(sealEnvelopeJob), register(signatureRemindersJob), register(derivativesJob), register(startUploadRunsJob), register(startEnvelopeRunsJob), register(startSubmissionRunsJob), register(startScheduledRunsJob), register(openCaseFromReceiveJob), register(openCaseFromFormJob), register(sendRunEventJob), register(pruneTeamLogsJob), register(trialsMorningJob), register(planLimitsJob), register(printOrdersJob), register(printPrivacyJob)];
const byType = new Map(registered.map((job) => [job.type, job]));

export function findJobDefinition(type: string): RegisteredJob | undefined {
  return byType.get(type);
}
