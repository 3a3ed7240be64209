import { z } from "zod";
import { consumeAttempt } from "~/features/auth/attempt-limits.server";
import { requireDataroom } from "~/features/datarooms/datarooms.server";
import { roomAuthority } from "~/features/datarooms/room-authority.server";
import { moveItems } from "~/features/files/move.server";
import { ensurePersonalSpace } from "~/features/files/spaces.server";
import { deleteItems, restoreItems } from "~/features/files/trash.server";
import { findItemsWithRole } from "~/features/files/trash.queries.server";
import { findJobById, insertJobIfAbsent, type JobRecord } from "~/features/jobs/jobs.queries.server";
import { jobPriorities, type JobMessage } from "~/features/jobs/jobs.schema";
import { createShareLink } from "~/features/sharing/sharing.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { changeStatus, completeIfDone, findPendingChunks, findPendingItems, insertBatchItems, settleItems, startProcessing, type BatchItemRef, type ItemOutcome } from "./batch.queries.server";

/**
 * Batch operations on the server (issue 22, spec §7 "Batch operations"): POST
 * /dataroom/{id}/batch/{op} (and /api/batch/{op} for the member's own files) records the operation
 * (its `jobs` row, spec §3 "Batch operation") and its items, then sends one queue message per 100
 * items, carrying ids only. The consumer handles a chunk with the member's own rights: every item
 * is checked, and what they may not touch is reported per item. Idempotent: items move from
 * pending to done or failed once, counters are counted from them, and a finished or paused
 * operation ignores its messages. Pause, resume and cancel change the status; the consumer honours
 * it between chunks. Progress goes to the room's channel as `batch.progress`.
 */

export const BATCH_CHUNK_SIZE = 100;
export const BATCH_MAX_ITEMS = 10_000;
export const BATCH_CHUNK_JOB = "batch.chunk";
/** Operations a member may start per minute: the browser's manager sends at most 10 a second. */
export const BATCH_OPERATIONS_PER_MINUTE = 600;

export const SUPPORTED_BATCH_OPS = ["move", "delete", "permanent-delete", "restore", "share"] as const;
export type BatchOp = (typeof SUPPORTED_BATCH_OPS)[number];
/** Spec §7: supported by the spec, and taken by this server in a later step. */
const LATER_BATCH_OPS = new Set(["copy", "archive"]);
/** Spec §7: declared, never supported. */
const UNSUPPORTED_BATCH_OPS = new Set(["download", "upload", "classify", "change-metadata", "apply-retention", "change-visibility", "change-permissions", "export", "watermark", "ocr", "import"]);

const NOT_FOUND_ITEM = "This item does not exist or you don't have access to it.";
export const OPERATION_NOT_FOUND = "Operation not found";

/** The op from the path: a supported one, or the spec's refusal. */
export function batchOpOf(raw: string): BatchOp {
  if ((SUPPORTED_BATCH_OPS as readonly string[]).includes(raw)) return raw as BatchOp;
  if (UNSUPPORTED_BATCH_OPS.has(raw)) throw new AppError("VALIDATION_ERROR", "Unsupported operation type");
  if (LATER_BATCH_OPS.has(raw)) throw new AppError("VALIDATION_ERROR", `Batch ${raw} is not available yet. Select fewer items and use the item's own ${raw === "copy" ? "download and upload" : "actions"}.`);
  throw new AppError("VALIDATION_ERROR", `Invalid operation type: ${raw.slice(0, 40)}`);
}

const itemSchema = z.union([z.uuid({ error: "Each item is an id." }), z.object({ type: z.enum(["file", "folder"]), id: z.uuid() })]);
const bodySchema = z.object(
  {
    items: z.array(itemSchema, { error: "items must be a list of ids." }).min(1, "Choose at least one item.").max(BATCH_MAX_ITEMS, `At most ${BATCH_MAX_ITEMS.toLocaleString("en-US")} items at a time.`),
    targetFolderId: z.uuid({ error: "targetFolderId is the folder to move the items into." }).optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  },
  { error: "The request body must be an object with items." },
);

export type BatchOperationView = {
  id: string;
  type: BatchOp;
  status: JobRecord["status"];
  progress: number;
  totalItems: number;
  processedItems: number;
  successCount: number;
  failureCount: number;
  errors: { itemId: string; message: string }[];
  startTime: string | null;
  endTime: string | null;
  metadata: Record<string, unknown>;
  retryCount: number;
  lastError: string | null;
  userId: string | null;
  createdAt: string;
  updatedAt: string;
};

export function toOperationView(job: JobRecord): BatchOperationView {
  return {
    id: job.id,
    type: String(job.metadata.op) as BatchOp,
    status: job.status,
    progress: job.totalItems === 0 ? 100 : Math.min(100, Math.max(0, Math.round((job.processedItems / job.totalItems) * 100))),
    totalItems: job.totalItems,
    processedItems: job.processedItems,
    successCount: job.successCount,
    failureCount: job.failureCount,
    errors: job.errors.map((error) => ({ itemId: error.itemId, message: error.message })),
    startTime: job.startedAt?.toISOString() ?? null,
    endTime: job.endedAt?.toISOString() ?? null,
    metadata: job.metadata,
    retryCount: job.retryCount,
    lastError: job.lastError,
    userId: job.userId,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}

async function spaceFor(ctx: ServiceContext, userId: string, roomId: string | null): Promise<{ spaceId: string; roomId: string | null }> {
  if (roomId === null) return { spaceId: (await ensurePersonalSpace(ctx, userId)).id, roomId: null };
  const room = await requireDataroom(ctx, userId, roomId, "view");
  return { spaceId: room.id, roomId: room.id };
}

/** Plain ids become { type, id } by looking them up in the space (an unknown one stays a file and fails as not found). */
async function resolveItems(ctx: ServiceContext, userId: string, spaceId: string, raw: z.infer<typeof itemSchema>[]): Promise<{ refs: BatchItemRef[]; missing: Set<string> }> {
  const ids = [...new Set(raw.map((item) => (typeof item === "string" ? item : item.id)))];
  const known = new Map<string, "file" | "folder">();
  for (let start = 0; start < ids.length; start += 500) {
    const slice = ids.slice(start, start + 500);
    for (const row of await findItemsWithRole(ctx.db, userId, slice, slice)) if (row.spaceId === spaceId) known.set(row.id, row.type);
  }
  const seen = new Set<string>();
  const refs: BatchItemRef[] = [];
  for (const item of raw) {
    const id = typeof item === "string" ? item : item.id;
    if (seen.has(id)) continue;
    seen.add(id);
    refs.push({ type: known.get(id) ?? (typeof item === "string" ? "file" : item.type), id });
  }
  return { refs, missing: new Set(ids.filter((id) => !known.has(id))) };
}

/** POST /dataroom/{id}/batch/{op} (roomId) or /api/batch/{op} (null: the member's own files) → 202 with the operation. */
export async function startBatchOperation(ctx: ServiceContext, userId: string, roomId: string | null, rawOp: string, input: unknown): Promise<BatchOperationView> {
  const op = batchOpOf(rawOp);
  const body = parseInput(bodySchema, input);
  if (op === "move" && !body.targetFolderId) throw new AppError("VALIDATION_ERROR", "targetFolderId: Choose the folder to move the items into.");
  const place = await spaceFor(ctx, userId, roomId);
  await consumeAttempt(ctx.env, "batch", { account: userId }, { limit: BATCH_OPERATIONS_PER_MINUTE, windowMs: 60_000 }, (minutes) =>
    `You started ${BATCH_OPERATIONS_PER_MINUTE} batch operations in the last minute, the most at a time. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
  );
  const { refs, missing } = await resolveItems(ctx, userId, place.spaceId, body.items);
  const id = crypto.randomUUID();
  const now = ctx.now();
  const metadata: Record<string, unknown> = { op, spaceId: place.spaceId, roomId: place.roomId, ...(body.targetFolderId ? { targetFolderId: body.targetFolderId } : {}), ...(op === "share" ? { options: body.options ?? {} } : {}) };
  await insertJobIfAbsent(ctx.db, { id, type: `batch.${op}`, priority: jobPriorities.normal, totalItems: refs.length, metadata, userId, now });
  await insertBatchItems(ctx.db, id, refs);
  // Items that are not in this space (or not visible to the member) fail at once, by name.
  const absent = refs.flatMap((ref, seq) => (missing.has(ref.id) ? [{ seq, state: "failed" as const, error: NOT_FOUND_ITEM }] : []));
  if (absent.length > 0) await settleItems(ctx.db, id, absent, now);
  await sendChunks(ctx, id, [...Array(Math.ceil(refs.length / BATCH_CHUNK_SIZE)).keys()]);
  ctx.logger.info("batch operation started", { id, op, items: refs.length });
  return toOperationView((await findJobById(ctx.db, id))!);
}

/** One message per chunk (ids only: the operation and the chunk number), ≤ 100 a send. */
async function sendChunks(ctx: ServiceContext, operationId: string, chunks: number[]): Promise<void> {
  const messages = chunks.map((chunk) => ({ body: { jobId: operationId, type: BATCH_CHUNK_JOB, version: 1, payload: { operationId, chunk } } satisfies JobMessage, contentType: "json" as const }));
  for (let start = 0; start < messages.length; start += 100) await ctx.env.BATCH_JOBS.sendBatch(messages.slice(start, start + 100));
}

/** The caller's own operation (anyone else's is "Operation not found"). */
async function ownOperation(ctx: ServiceContext, userId: string, rawId: unknown): Promise<JobRecord> {
  const id = z.uuid().safeParse(rawId);
  const job = id.success ? await findJobById(ctx.db, id.data) : null;
  if (!job || job.userId !== userId || !job.type.startsWith("batch.")) throw new AppError("NOT_FOUND", OPERATION_NOT_FOUND);
  return job;
}

export async function getBatchOperation(ctx: ServiceContext, userId: string, rawId: unknown): Promise<BatchOperationView> {
  return toOperationView(await ownOperation(ctx, userId, rawId));
}

/** Pause: only while processing. */
export async function pauseBatchOperation(ctx: ServiceContext, userId: string, rawId: unknown): Promise<BatchOperationView> {
  const job = await ownOperation(ctx, userId, rawId);
  if (!(await changeStatus(ctx.db, job.id, ["processing"], "paused", ctx.now()))) throw new AppError("CONFLICT", "Only a running operation can be paused.");
  return announce(ctx, job.id);
}

/** Resume: only while paused; requeued at high priority (its pending chunks are sent again). */
export async function resumeBatchOperation(ctx: ServiceContext, userId: string, rawId: unknown): Promise<BatchOperationView> {
  const job = await ownOperation(ctx, userId, rawId);
  if (!(await changeStatus(ctx.db, job.id, ["paused"], "pending", ctx.now(), { priority: jobPriorities.high }))) throw new AppError("CONFLICT", "Only a paused operation can be resumed.");
  await sendChunks(ctx, job.id, await findPendingChunks(ctx.db, job.id, BATCH_CHUNK_SIZE));
  return announce(ctx, job.id);
}

/** Cancel: not once completed; what is done stays done, the rest is not touched. */
export async function cancelBatchOperation(ctx: ServiceContext, userId: string, rawId: unknown): Promise<BatchOperationView> {
  const job = await ownOperation(ctx, userId, rawId);
  if (job.status === "completed") throw new AppError("CONFLICT", "A completed operation cannot be cancelled.");
  await changeStatus(ctx.db, job.id, ["pending", "processing", "paused", "failed"], "cancelled", ctx.now());
  return announce(ctx, job.id);
}

/** The operation now, told to the room's open pages. */
async function announce(ctx: ServiceContext, jobId: string): Promise<BatchOperationView> {
  const view = toOperationView((await findJobById(ctx.db, jobId))!);
  const roomId = typeof view.metadata.roomId === "string" ? view.metadata.roomId : null;
  if (roomId) await roomAuthority(ctx, roomId).publish({ name: "batch.progress", data: { id: view.id, type: view.type, status: view.status, progress: view.progress, processedItems: view.processedItems, totalItems: view.totalItems, failureCount: view.failureCount, userId: view.userId } }).catch(() => undefined);
  return view;
}

// ---- the consumer ----------------------------------------------------------------------------------

export const chunkPayloadSchema = z.object({ operationId: z.uuid(), chunk: z.number().int().min(0).max(BATCH_MAX_ITEMS / BATCH_CHUNK_SIZE) });

/** Runs the service on all items; when it refuses, on each item alone, so refusals are per item. */
async function allThenEach(items: { seq: number; type: "file" | "folder"; id: string }[], run: (refs: BatchItemRef[]) => Promise<unknown>): Promise<ItemOutcome[]> {
  if (items.length === 0) return [];
  try {
    await run(items.map((item) => ({ type: item.type, id: item.id })));
    return items.map((item) => ({ seq: item.seq, state: "done", error: null }));
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
  }
  const outcomes: ItemOutcome[] = [];
  for (const item of items) {
    try {
      await run([{ type: item.type, id: item.id }]);
      outcomes.push({ seq: item.seq, state: "done", error: null });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      outcomes.push({ seq: item.seq, state: "failed", error: error.message });
    }
  }
  return outcomes;
}

async function processItems(ctx: ServiceContext, job: JobRecord, items: { seq: number; type: "file" | "folder"; id: string }[]): Promise<ItemOutcome[]> {
  const userId = job.userId!;
  const op = job.metadata.op as BatchOp;
  // The items' trash state, for the ops that depend on it (move and share do not need the read).
  const needsState = op === "delete" || op === "permanent-delete" || op === "restore";
  const found = needsState ? await findItemsWithRole(ctx.db, userId, items.filter((item) => item.type === "file").map((item) => item.id), items.filter((item) => item.type === "folder").map((item) => item.id)) : [];
  const rows = new Map(found.map((row) => [row.id, row]));
  const already = (seqs: { seq: number }[]): ItemOutcome[] => seqs.map((item) => ({ seq: item.seq, state: "done", error: null }));
  switch (op) {
    case "move":
      return allThenEach(items, (refs) => moveItems(ctx, userId, { items: refs, targetFolderId: job.metadata.targetFolderId }));
    case "delete": {
      // Already in the trash (by this operation's earlier delivery, or with its folder): done.
      const inTrash = items.filter((item) => rows.get(item.id)?.trashedAt != null);
      return [...already(inTrash), ...(await allThenEach(items.filter((item) => !inTrash.includes(item)), (refs) => deleteItems(ctx, userId, { items: refs, permanent: false })))];
    }
    case "permanent-delete": {
      // Gone already (it existed when the operation was made): done.
      const gone = items.filter((item) => !rows.has(item.id));
      return [...already(gone), ...(await allThenEach(items.filter((item) => rows.has(item.id)), (refs) => deleteItems(ctx, userId, { items: refs, permanent: true })))];
    }
    case "restore": {
      const live = items.filter((item) => rows.has(item.id) && rows.get(item.id)!.trashedAt == null);
      return [...already(live), ...(await allThenEach(items.filter((item) => !live.includes(item)), (refs) => restoreItems(ctx, userId, { items: refs })))];
    }
    case "share": {
      const options = (job.metadata.options ?? {}) as Record<string, unknown>;
      const outcomes: ItemOutcome[] = [];
      // One link per item, each settled at once so a redelivery does not make it twice.
      for (const item of items) {
        const outcome = (await allThenEach([item], (refs) => createShareLink(ctx, userId, { ...options, target: refs[0] })))[0]!;
        await settleItems(ctx.db, job.id, [outcome], ctx.now());
        outcomes.push(outcome);
      }
      return outcomes;
    }
  }
}

/** One chunk message: its pending items, with the member's rights; then the counters, completion and the room's progress event. */
export async function runBatchChunk(ctx: ServiceContext, payload: z.infer<typeof chunkPayloadSchema>): Promise<{ processedItems: number; successCount: number; failureCount: number }> {
  const job = await findJobById(ctx.db, payload.operationId);
  if (!job || !job.type.startsWith("batch.") || !job.userId) return { processedItems: 0, successCount: 0, failureCount: 0 };
  if (!(await startProcessing(ctx.db, job.id, ctx.now()))) {
    ctx.logger.info("batch chunk skipped", { id: job.id, status: job.status, chunk: payload.chunk });
    return { processedItems: 0, successCount: 0, failureCount: 0 };
  }
  const from = payload.chunk * BATCH_CHUNK_SIZE;
  const items = await findPendingItems(ctx.db, job.id, from, from + BATCH_CHUNK_SIZE - 1);
  const outcomes = await processItems(ctx, job, items);
  await settleItems(ctx.db, job.id, outcomes, ctx.now());
  await completeIfDone(ctx.db, job.id, ctx.now());
  await announce(ctx, job.id);
  const failed = outcomes.filter((outcome) => outcome.state === "failed").length;
  return { processedItems: outcomes.length, successCount: outcomes.length - failed, failureCount: failed };
}
