import { catchUpIndexJob } from "~/features/search/search.jobs";
import { purgeSecretsJob } from "~/features/secrets/secrets.jobs";
import { AUTH_TOKEN_RETENTION_DAYS, pruneAuthRecordsJob } from "~/features/auth/auth.jobs";
import { rewrapKeysJob } from "~/features/files/files.jobs";
import { purgeTrashJob } from "~/features/files/trash.jobs";
import { purgeFormsTrashJob } from "~/features/forms/forms-trash.server";
import { enqueueJob } from "~/features/jobs/enqueue-job.server";
import { MAIL_RETENTION_DAYS, pruneMailJob } from "~/features/mail/mail.jobs";
import { JOB_RETENTION_DAYS, pruneJobsJob } from "~/features/maintenance/maintenance.jobs";
import { sendDigestsJob } from "~/features/notifications/notifications.jobs";
import { applySharePrivacyJob } from "~/features/sharing/sharing.jobs";
import { signatureRemindersJob } from "~/features/signatures/signatures.jobs";
import { pruneTeamLogsJob } from "~/features/teams/teams.jobs";
import { planLimitsJob, printOrdersJob, printPrivacyJob, trialsMorningJob } from "~/features/billing/billing.jobs";
import { startScheduledRunsJob } from "~/features/workflows/workflows.jobs";
import { createLogger } from "~/lib/log.server";
import { createServiceContext, type ServiceContext } from "~/lib/service-context.server";

type CronTask = (ctx: ServiceContext, scheduledTime: Date) => Promise<unknown>;

/**
 * Cron only enqueues (STYLE): the work itself runs in the queue consumer, with retries and a
 * dead-letter queue. Job ids derive from the schedule, so a trigger that fires twice enqueues once.
 * Keys must match `[triggers] crons` in wrangler.toml (a unit test checks both ways).
 */
export const cronSchedule: Record<string, CronTask[]> = {
  "43 3 * * *": [
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: pruneJobsJob,
        jobId: `cron:${pruneJobsJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: { olderThanDays: JOB_RETENTION_DAYS },
        priority: "low",
      }),
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: pruneAuthRecordsJob,
        jobId: `cron:${pruneAuthRecordsJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: { tokenRetentionDays: AUTH_TOKEN_RETENTION_DAYS },
        priority: "low",
      }),
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: pruneMailJob,
        jobId: `cron:${pruneMailJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: { olderThanDays: MAIL_RETENTION_DAYS },
        priority: "low",
      }),
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: rewrapKeysJob,
        jobId: `cron:${rewrapKeysJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: {},
        priority: "low",
      }),
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: purgeTrashJob,
        jobId: `cron:${purgeTrashJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: {},
        priority: "low",
      }),
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: purgeFormsTrashJob,
        jobId: `cron:${purgeFormsTrashJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: {},
        priority: "low",
      }),
    // Finished print orders forget where they went after their retention (issue 43).
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: printPrivacyJob,
        jobId: `cron:${printPrivacyJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: {},
        priority: "low",
      }),
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: applySharePrivacyJob,
        jobId: `cron:${applySharePrivacyJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: {},
        priority: "low",
      }),
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: purgeSecretsJob,
        jobId: `cron:${purgeSecretsJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: {},
        priority: "low",
      }),
    // Teams' activity and their rooms' audit logs past each team's retention period, unless on legal hold (ADR 039).
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: pruneTeamLogsJob,
        jobId: `cron:${pruneTeamLogsJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: {},
        priority: "low",
      }),
    // Files whose text was never asked for (ADR 028): the index catches up nightly.
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: catchUpIndexJob,
        jobId: `cron:${catchUpIndexJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: {},
        priority: "low",
      }),
  ],
  // The daily digest of notifications, in the European morning and the American night.
  "0 7 * * *": [
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: sendDigestsJob,
        jobId: `cron:${sendDigestsJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: {},
        priority: "normal",
      }),
    // Expired envelopes close and signature reminders go out with the morning digest (issue 38).
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: signatureRemindersJob,
        jobId: `cron:${signatureRemindersJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: {},
        priority: "normal",
      }),
    // Free trials (issue 43): reminders before the end, and trials past their end closed.
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: trialsMorningJob,
        jobId: `cron:${trialsMorningJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: {},
        priority: "normal",
      }),
    // What is read-only over its owner's plan, looked at again (issue 43): it may fit now.
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: planLimitsJob,
        jobId: `cron:${planLimitsJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: {},
        priority: "low",
      }),
    // Scheduled workflows (issue 41): each due one starts a run on each document of its folder.
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: startScheduledRunsJob,
        jobId: `cron:${startScheduledRunsJob.type}:${scheduledTime.toISOString().slice(0, 10)}`,
        payload: { day: scheduledTime.toISOString().slice(0, 10) },
        priority: "normal",
      }),
  ],
  // Every hour (issue 43): print orders whose news from Stripe or the lab may have been lost, looked at again.
  "17 * * * *": [
    (ctx, scheduledTime) =>
      enqueueJob(ctx, {
        definition: printOrdersJob,
        jobId: `cron:${printOrdersJob.type}:${scheduledTime.toISOString().slice(0, 13)}`,
        payload: {},
        priority: "normal",
      }),
  ],
};

export async function handleScheduled(controller: ScheduledController, env: Env): Promise<void> {
  const requestId = `cron:${controller.cron}:${controller.scheduledTime}`;
  const logger = createLogger({ requestId });
  const tasks = cronSchedule[controller.cron];
  if (!tasks) {
    logger.warn("no tasks for cron expression", { cron: controller.cron });
    return;
  }
  const ctx = createServiceContext(env, { requestId, logger });
  const scheduledTime = new Date(controller.scheduledTime);
  // Tasks are independent: one failing must not stop the others, but the failure is surfaced.
  const results = await Promise.allSettled(tasks.map((task) => task(ctx, scheduledTime)));
  const failures = results.filter((result) => result.status === "rejected");
  logger.info("cron ran", { cron: controller.cron, tasks: tasks.length, failures: failures.length });
  if (failures.length > 0) throw new AggregateError(failures.map((f) => f.reason), "cron task failed");
}
