import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { requireDataroom } from "~/features/datarooms/datarooms.server";
import { roomAuthority } from "~/features/datarooms/room-authority.server";
import { findFileObjectKeyUnchecked, moveFilesUnchecked } from "./system.queries.server";

/**
 * The R2 key behind a file for `npm run bench`'s bare R2 baseline (QUALITY G8). No permission
 * layer on purpose, so it exists only in development; the API route also requires a member.
 */
export async function fileObjectKeyForBaseline(ctx: ServiceContext, fileId: string): Promise<string> {
  if (ctx.env.APP_ENV !== "development") throw new AppError("NOT_FOUND", "There is no such API endpoint.");
  const key = await findFileObjectKeyUnchecked(ctx.db, fileId);
  if (!key) throw new AppError("NOT_FOUND");
  return key;
}

/**
 * The counters of a room's authority (QUALITY G10), and the time one decision takes seen from the
 * Worker (`n` decisions for `userId` in a row, average ms). Development only; the caller must be in
 * the room.
 */
export async function roomAuthorityBench(ctx: ServiceContext, userId: string, roomId: string, options: { samples: number; reload: boolean }) {
  if (ctx.env.APP_ENV !== "development") throw new AppError("NOT_FOUND", "There is no such API endpoint.");
  const room = await requireDataroom(ctx, userId, roomId);
  const stub = roomAuthority(ctx, room.id);
  if (options.reload) await stub.reload(room.id);
  const samples = options.samples;
  const n = Math.min(Math.max(Math.trunc(samples) || 0, 0), 1000);
  const started = performance.now();
  for (let i = 0; i < n; i++) await stub.decide(room.id, userId);
  const elapsed = performance.now() - started;
  let inside: { members: number; msPerDecision: number } | null = null;
  if (n > 0) {
    const timed = async (count: number) => {
      const begun = performance.now();
      const result = await stub.decideMany(room.id, userId, count);
      return { ms: performance.now() - begun, members: result.members };
    };
    const many = 20 * n;
    const empty = await timed(0);
    const full = await timed(many);
    inside = { members: full.members, msPerDecision: Math.max(0, full.ms - empty.ms) / many };
  }
  return { stats: await stub.stats(), decisions: n, msPerDecision: n > 0 ? elapsed / n : null, inside };
}

/**
 * G9: a batch move run to the end inside one request (development only): the operation is made as
 * POST /api/batch/move makes it, its queue messages are caught instead of sent, and each chunk is
 * run by the consumer's own code, one after another. With X-Bench-D1 the request's D1 statements
 * are the whole operation's. Also the baseline: the same rows moved by one UPDATE.
 */
export async function batchMoveBench(ctx: ServiceContext, userId: string, input: { items: string[]; targetFolderId: string; baseline: boolean }) {
  const started = performance.now();
  if (input.baseline) {
    const moved = await moveFilesUnchecked(ctx.db, input.items, input.targetFolderId, ctx.now());
    return { moved, messages: 0, ms: performance.now() - started };
  }
  const { startBatchOperation, runBatchChunks, getBatchOperation, QUEUE_BATCH_SIZE } = await import("~/features/batch/batch.server");
  const messages: { payload: { operationId: string; chunk: number } }[] = [];
  const queue = {
    send: async (body: { payload: { operationId: string; chunk: number } }) => void messages.push(body),
    sendBatch: async (batch: { body: { payload: { operationId: string; chunk: number } } }[]) => void messages.push(...batch.map((message) => message.body)),
  };
  const local = { ...ctx, env: { ...ctx.env, BATCH_JOBS: queue as unknown as Queue } };
  const operation = await startBatchOperation(local, userId, null, "move", { items: input.items, targetFolderId: input.targetFolderId });
  // Delivered as Queues delivers them: in batches of the consumer's max_batch_size.
  for (let start = 0; start < messages.length; start += QUEUE_BATCH_SIZE) await runBatchChunks(local, messages.slice(start, start + QUEUE_BATCH_SIZE).map((message) => message.payload));
  const done = await getBatchOperation(local, userId, operation.id);
  return { moved: done.successCount, messages: messages.length, status: done.status, ms: performance.now() - started };
}
