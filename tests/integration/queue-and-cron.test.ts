import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { enqueueJob } from "~/features/jobs/enqueue-job.server";
import { pruneJobsJob } from "~/features/maintenance/maintenance.jobs";
import { createServiceContext } from "~/lib/service-context.server";
import { makeJobMessage, makeJobRow } from "~tests/factories/jobs";
import worker from "~workers/app";
import { countRows, insertJobRow, jobStatus, testEnv } from "./helpers";

const DAY = 24 * 60 * 60 * 1000;

/** Delivers messages to the real Worker entry's queue handler, as the runtime does. */
async function deliver(queue: string, bodies: { body: unknown; attempts?: number }[]) {
  const batch = createMessageBatch(
    queue,
    bodies.map((entry, index) => ({
      id: `m-${index}-${crypto.randomUUID()}`,
      timestamp: new Date(),
      attempts: entry.attempts ?? 1,
      body: entry.body,
    })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, testEnv, ctx);
  await waitOnExecutionContext(ctx);
  return getQueueResult(batch, ctx);
}

async function seedPendingJob(id: string) {
  await insertJobRow({ id, type: "maintenance.prune-jobs", status: "pending", createdAt: Date.now(), updatedAt: Date.now() });
}

beforeEach(async () => {
  await testEnv.DB.prepare("delete from jobs").run();
});

describe("the queue consumer", () => {
  it("runs a pending job, prunes finished jobs older than 30 days and leaves recent and unfinished ones", async () => {
    const old = Date.now() - 40 * DAY;
    await insertJobRow(makeJobRow({ id: "old-completed", status: "completed", updatedAt: old }));
    await insertJobRow(makeJobRow({ id: "old-failed", status: "failed", updatedAt: old }));
    await insertJobRow(makeJobRow({ id: "old-processing", status: "processing", updatedAt: old }));
    await insertJobRow(makeJobRow({ id: "recent-completed", status: "completed" }));
    await seedPendingJob("prune-1");

    const result = await deliver("batch-jobs", [{ body: makeJobMessage({ jobId: "prune-1" }) }]);

    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toHaveLength(0);
    const remaining = await testEnv.DB.prepare("select id from jobs order by id").all<{ id: string }>();
    expect(remaining.results.map((row) => row.id)).toEqual(["old-processing", "prune-1", "recent-completed"]);
    expect(await jobStatus("prune-1")).toMatchObject({ status: "completed" });
  });

  it("delivering the same message twice runs the job once and ends with the same rows", async () => {
    await insertJobRow(makeJobRow({ id: "old", status: "completed", updatedAt: Date.now() - 40 * DAY }));
    const message = makeJobMessage({ jobId: "prune-twice" });
    await seedPendingJob("prune-twice");

    const first = await deliver("batch-jobs", [{ body: message }]);
    const rowsAfterFirst = await countRows("jobs");
    const second = await deliver("batch-jobs", [{ body: message }]);

    expect(first.explicitAcks).toHaveLength(1);
    expect(second.explicitAcks).toHaveLength(1);
    expect(await countRows("jobs")).toBe(rowsAfterFirst);
    expect(await jobStatus("prune-twice")).toMatchObject({ status: "completed" });
  });

  it("acknowledges a malformed message instead of retrying it forever, and changes no row", async () => {
    await insertJobRow(makeJobRow({ id: "keep" }));
    const result = await deliver("batch-jobs", [{ body: { hello: "world" } }, { body: "not even an object" }]);
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toHaveLength(0);
    expect(await countRows("jobs")).toBe(1);
  });

  it("fails the job of an unknown type with 'Unsupported operation type'", async () => {
    await seedPendingJob("mystery");
    const result = await deliver("batch-jobs", [{ body: makeJobMessage({ jobId: "mystery", type: "watermark" }) }]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await jobStatus("mystery")).toMatchObject({ status: "failed", lastError: "Unsupported operation type: watermark" });
  });

  it("fails a job whose payload does not match its schema, without running it", async () => {
    await insertJobRow(makeJobRow({ id: "old", status: "completed", updatedAt: Date.now() - 40 * DAY }));
    await seedPendingJob("bad-payload");
    await deliver("batch-jobs", [{ body: makeJobMessage({ jobId: "bad-payload", payload: { olderThanDays: -5 } }) }]);
    expect(await jobStatus("bad-payload")).toMatchObject({ status: "failed" });
    expect(await jobStatus("old")).not.toBeNull();
  });

  it("does not run a job that is already finished when its message arrives again", async () => {
    await insertJobRow(makeJobRow({ id: "done", status: "cancelled" }));
    const result = await deliver("batch-jobs", [{ body: makeJobMessage({ jobId: "done" }) }]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await jobStatus("done")).toMatchObject({ status: "cancelled" });
  });

  it("marks the job of a dead-lettered message failed, once", async () => {
    await seedPendingJob("gave-up");
    const message = makeJobMessage({ jobId: "gave-up" });
    const result = await deliver("batch-jobs-dlq", [{ body: message }, { body: message }]);
    expect(result.explicitAcks).toHaveLength(2);
    expect(await jobStatus("gave-up")).toMatchObject({ status: "failed", lastError: "The job gave up after repeated failures." });
  });
});

describe("when a job fails", () => {
  it("a throwing run is retried and records each attempt, then fails after 3 retries", async () => {
    const spy = vi.spyOn(pruneJobsJob, "run").mockRejectedValue(new Error("R2 hiccup"));
    try {
      await seedPendingJob("flaky");
      const message = makeJobMessage({ jobId: "flaky" });
      const first = await deliver("batch-jobs", [{ body: message, attempts: 1 }]);
      expect(first.retryMessages).toHaveLength(1);
      expect(first.explicitAcks).toHaveLength(0);
      expect(await jobStatus("flaky")).toMatchObject({ status: "processing", retryCount: 1, lastError: "The job stopped unexpectedly." });

      const third = await deliver("batch-jobs", [{ body: message, attempts: 3 }]);
      expect(third.retryMessages).toHaveLength(1);
      expect(await jobStatus("flaky")).toMatchObject({ retryCount: 2 });

      const last = await deliver("batch-jobs", [{ body: message, attempts: 4 }]);
      expect(last.explicitAcks).toHaveLength(1);
      expect(await jobStatus("flaky")).toMatchObject({ status: "failed" });
    } finally {
      spy.mockRestore();
    }
  });

  it("when the database is unavailable the message is retried, never dropped", async () => {
    await seedPendingJob("db-down");
    await testEnv.DB.prepare("alter table jobs rename to jobs_away").run();
    try {
      const result = await deliver("batch-jobs", [{ body: makeJobMessage({ jobId: "db-down" }) }]);
      expect(result.explicitAcks).toHaveLength(0);
      expect(result.retryMessages).toHaveLength(1);
    } finally {
      await testEnv.DB.prepare("alter table jobs_away rename to jobs").run();
    }
  });
});

describe("enqueueing a job", () => {
  it("with a deterministic id records it once however often it is asked", async () => {
    const ctx = createServiceContext(testEnv, { requestId: "test" });
    const first = await enqueueJob(ctx, { definition: pruneJobsJob, jobId: "same-id", payload: { olderThanDays: 30 } });
    const second = await enqueueJob(ctx, { definition: pruneJobsJob, jobId: "same-id", payload: { olderThanDays: 30 } });
    expect(first.isNew).toBe(true);
    expect(second.isNew).toBe(false);
    expect(await countRows("jobs")).toBe(1);
    expect(await jobStatus("same-id")).toMatchObject({ status: "pending" });
  });

  it("refuses an invalid payload with a validation error and records nothing", async () => {
    const ctx = createServiceContext(testEnv, { requestId: "test" });
    await expect(enqueueJob(ctx, { definition: pruneJobsJob, payload: { olderThanDays: 0 } })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
    expect(await countRows("jobs")).toBe(0);
  });
});

describe("the cron handler", () => {
  it("the nightly trigger enqueues exactly one of each housekeeping job per day, even if it fires twice", async () => {
    const scheduledTime = Date.UTC(2026, 10, 21, 3, 43);
    // The queue is captured, not delivered: a real delivery would run the jobs after this file's
    // storage is torn down. Running them is the consumer tests' business.
    const sent: unknown[] = [];
    const queue = { send: async (body: unknown) => void sent.push(body), sendBatch: async (messages: { body: unknown }[]) => void sent.push(...messages.map((m) => m.body)) };
    const env = { ...testEnv, BATCH_JOBS: queue as unknown as Queue };
    for (let i = 0; i < 2; i++) {
      const controller = createScheduledController({ cron: "43 3 * * *", scheduledTime });
      await worker.scheduled(controller, env, createExecutionContext());
    }
    // A second firing sends again (a lost first send must not lose the night); the rows and the
    // consumer's conditional updates keep it to one run per job.
    expect(new Set(sent.map((body) => (body as { jobId: string }).jobId)).size).toBe(11);
    const rows = await testEnv.DB.prepare("select id, type, status, priority from jobs order by id").all();
    expect(rows.results).toEqual([
      { id: "cron:accounts.prune-expired:2026-11-21", type: "accounts.prune-expired", status: "pending", priority: 0 },
      { id: "cron:billing.print-privacy:2026-11-21", type: "billing.print-privacy", status: "pending", priority: 0 },
      { id: "cron:files.purge-trash:2026-11-21", type: "files.purge-trash", status: "pending", priority: 0 },
      { id: "cron:files.rewrap-keys:2026-11-21", type: "files.rewrap-keys", status: "pending", priority: 0 },
      { id: "cron:forms.purge-trash:2026-11-21", type: "forms.purge-trash", status: "pending", priority: 0 },
      { id: "cron:mail.prune-old:2026-11-21", type: "mail.prune-old", status: "pending", priority: 0 },
      { id: "cron:maintenance.prune-jobs:2026-11-21", type: "maintenance.prune-jobs", status: "pending", priority: 0 },
      { id: "cron:search.catch-up:2026-11-21", type: "search.catch-up", status: "pending", priority: 0 },
      { id: "cron:secrets.purge:2026-11-21", type: "secrets.purge", status: "pending", priority: 0 },
      { id: "cron:sharing.apply-privacy:2026-11-21", type: "sharing.apply-privacy", status: "pending", priority: 0 },
      { id: "cron:teams.prune-logs:2026-11-21", type: "teams.prune-logs", status: "pending", priority: 0 },
    ]);
  });

  it("an unknown cron expression does nothing and does not throw", async () => {
    const controller = createScheduledController({ cron: "0 0 1 1 *", scheduledTime: Date.now() });
    await worker.scheduled(controller, testEnv, createExecutionContext());
    expect(await countRows("jobs")).toBe(0);
  });
});
