import { z } from "zod";
import { consumeAttempt } from "~/features/auth/attempt-limits.server";
import { requireDataroom } from "~/features/datarooms/datarooms.server";
import { roomAuthority } from "~/features/datarooms/room-authority.server";
import { copyItemRefs } from "~/features/files/copy.server";
import { createFolder } from "~/features/files/folders.server";
import { findFolderByLabel, findRootFolder } from "~/features/files/folders.queries.server";
import { moveItemRefs } from "~/features/files/move.server";
import { ARCHIVE_FOLDER_LABEL } from "~/features/files/trash.constants";
import { ensurePersonalSpace } from "~/features/files/spaces.server";
import { deleteItemRefs, restoreItems } from "~/features/files/trash.server";
import { findItemsWithRole } from "~/features/files/trash.queries.server";
import { findJobById, insertJobIfAbsent, type JobRecord } from "~/features/jobs/jobs.queries.server";
import type { JobResult } from "~/features/jobs/job-definition";
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
/** The batch-jobs consumer's max_batch_size in wrangler.toml: chunks of one operation arriving together run together. */
export const QUEUE_BATCH_SIZE = 10;
/** Operations a member may start per minute: the browser's manager sends at most 10 a second. */
export const BATCH_OPERATIONS_PER_MINUTE = 600;

export const SUPPORTED_BATCH_OPS = ["move", "copy", "delete", "permanent-delete", "share", "restore", "archive"] as const;
export type BatchOp = (typeof SUPPORTED_BATCH_OPS)[number];
/** Spec §7: declared, never supported. */
const UNSUPPORTED_BATCH_OPS = new Set(["download", "upload", "classify", "change-metadata", "apply-retention", "change-visibility", "change-permissions", "export", "watermark", "ocr", "import"]);

const NOT_FOUND_ITEM = "This item does not exist or you don't have access to it.";
export const OPERATION_NOT_FOUND = "Operation not found";

/** The op from the path: a supported one, or the spec's refusal. */
export function batchOpOf(raw: string): BatchOp {
  if ((SUPPORTED_BATCH_OPS as readonly string[]).includes(raw)) return raw as BatchOp;
  if (UNSUPPORTED_BATCH_OPS.has(raw)) throw new AppError("VALIDATION_ERROR", "Unsupported operation type");
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
  if ((op === "move" || op === "copy") && !body.targetFolderId) throw new AppError("VALIDATION_ERROR", `targetFolderId: Choose the folder to ${op} the items into.`);
  const place = await spaceFor(ctx, userId, roomId);
  await consumeAttempt(ctx.env, "batch", { account: userId }, { limit: BATCH_OPERATIONS_PER_MINUTE, windowMs: 60_000 }, (minutes) =>
    `You started ${BATCH_OPERATIONS_PER_MINUTE} batch operations in the last minute, the most at a time. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
  );
  const { refs, missing } = await resolveItems(ctx, userId, place.spaceId, body.items);
  const id = crypto.randomUUID();
  const now = ctx.now();
  const targetFolderId = op === "archive" && !body.targetFolderId ? await archiveFolderOf(ctx, userId, place.spaceId) : body.targetFolderId;
  const metadata: Record<string, unknown> = { op, spaceId: place.spaceId, roomId: place.roomId, ...(targetFolderId ? { targetFolderId } : {}), ...(op === "share" ? { options: body.options ?? {} } : {}) };
  await insertJobIfAbsent(ctx.db, { id, type: `batch.${op}`, priority: jobPriorities.normal, totalItems: refs.length, metadata, userId, now });
  await insertBatchItems(ctx.db, id, refs);
  // Items that are not in this space (or not visible to the member) fail at once, by name.
  const absent = refs.flatMap((ref, seq) => (missing.has(ref.id) ? [{ seq, state: "failed" as const, error: NOT_FOUND_ITEM }] : []));
  if (absent.length > 0) await settleItems(ctx.db, id, absent, now);
  await sendChunks(ctx, id, [...Array(Math.ceil(refs.length / BATCH_CHUNK_SIZE)).keys()]);
  ctx.logger.info("batch operation started", { id, op, items: refs.length });
  return toOperationView((await findJobById(ctx.db, id))!);
}

/** The space's "Archive" folder at its top, made (with the member's right to make folders there) when there is none. */
async function archiveFolderOf(ctx: ServiceContext, userId: string, spaceId: string): Promise<string> {
  const root = await findRootFolder(ctx.db, spaceId);
  if (!root) throw new AppError("NOT_FOUND", "This space does not exist or you don't have access to it.");
  const existing = await findFolderByLabel(ctx.db, spaceId, root.id, ARCHIVE_FOLDER_LABEL);
  if (existing) return existing.id;
  return (await createFolder(ctx, userId, { parentId: root.id, label: ARCHIVE_FOLDER_LABEL })).uid;
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
export type ChunkPayload = z.infer<typeof chunkPayloadSchema>;

type PendingItem = { seq: number; type: "file" | "folder"; id: string };

/**
 * Items per service call in a chunk run: the set-based ops (their lists travel as one JSON
 * parameter, so D1's 100-parameter limit holds) take a whole queue batch of chunks at once; the
 * ops that work item by item (restore finds each item's place, share makes each link) take 100.
 */
const ITEMS_PER_CALL: Record<BatchOp, number> = { move: 1000, archive: 1000, delete: 1000, "permanent-delete": 1000, copy: 100, restore: 100, share: 100 };

function isRefusal(error: unknown): error is AppError {
  return error instanceof AppError && error.status < 500;
}

/**
 * Runs the service on all items; when it refuses (the services are all or nothing), on each half,
 * and so on down to single items, so refusals are per item and a clean run is one call. A refused
 * single item fails with the service's message; anything else (a 5xx, a bug) throws for a retry.
 */
async function allOrSplit(items: PendingItem[], run: (refs: BatchItemRef[]) => Promise<unknown>): Promise<ItemOutcome[]> {
  if (items.length === 0) return [];
  try {
    await run(items.map((item) => ({ type: item.type, id: item.id })));
    return items.map((item) => ({ seq: item.seq, state: "done", error: null }));
  } catch (error) {
    if (!isRefusal(error)) throw error;
    if (items.length === 1) return [{ seq: items[0]!.seq, state: "failed", error: error.message }];
  }
  const half = Math.ceil(items.length / 2);
  return [...(await allOrSplit(items.slice(0, half), run)), ...(await allOrSplit(items.slice(half), run))];
}

/** `run` on each slice of `size` items in turn. */
async function inSlices(items: PendingItem[], size: number, run: (slice: PendingItem[]) => Promise<ItemOutcome[]>): Promise<ItemOutcome[]> {
  const outcomes: ItemOutcome[] = [];
  for (let start = 0; start < items.length; start += size) outcomes.push(...(await run(items.slice(start, start + size))));
  return outcomes;
}

async function processItems(ctx: ServiceContext, job: JobRecord, items: PendingItem[]): Promise<ItemOutcome[]> {
  const userId = job.userId!;
  const op = job.metadata.op as BatchOp;
  // The items as they are now (one statement): gone ones fail (or are done, for
  // permanent-delete) without reaching the service, and the trash state decides what is left to do.
  const found = await findItemsWithRole(ctx.db, userId, items.filter((item) => item.type === "file").map((item) => item.id), items.filter((item) => item.type === "folder").map((item) => item.id));
  const rows = new Map(found.map((row) => [row.id, row]));
  const outcome = (list: PendingItem[], state: "done" | "failed", error: string | null = null): ItemOutcome[] => list.map((item) => ({ seq: item.seq, state, error }));
  const present = items.filter((item) => rows.has(item.id));
  const gone = items.filter((item) => !rows.has(item.id));
  const call = (list: PendingItem[], run: (refs: BatchItemRef[]) => Promise<unknown>) => inSlices(list, ITEMS_PER_CALL[op], (slice) => allOrSplit(slice, run));
  switch (op) {
    case "move":
    case "archive":
      return [...outcome(gone, "failed", NOT_FOUND_ITEM), ...(await call(present, (refs) => moveItemRefs(ctx, userId, { items: refs, targetFolderId: String(job.metadata.targetFolderId) })))];
    case "copy":
      // The copies' ids derive from the operation's, so a redelivery writes the same rows and keys.
      return [...outcome(gone, "failed", NOT_FOUND_ITEM), ...(await call(present, (refs) => copyItemRefs(ctx, userId, { items: refs, targetFolderId: String(job.metadata.targetFolderId), seed: job.id })))];
    case "delete": {
      // Already in the trash (by this operation's earlier delivery, or with its folder): done.
      const inTrash = present.filter((item) => rows.get(item.id)!.trashedAt != null);
      const live = present.filter((item) => rows.get(item.id)!.trashedAt == null);
      return [...outcome(gone, "failed", NOT_FOUND_ITEM), ...outcome(inTrash, "done"), ...(await call(live, (refs) => deleteItemRefs(ctx, userId, { items: refs, permanent: false })))];
    }
    case "permanent-delete":
      // Gone already (it existed when the operation was made): done.
      return [...outcome(gone, "done"), ...(await call(present, (refs) => deleteItemRefs(ctx, userId, { items: refs, permanent: true })))];
    case "restore": {
      const live = present.filter((item) => rows.get(item.id)!.trashedAt == null);
      const trashed = present.filter((item) => rows.get(item.id)!.trashedAt != null);
      return [...outcome(gone, "failed", NOT_FOUND_ITEM), ...outcome(live, "done"), ...(await call(trashed, (refs) => restoreItems(ctx, userId, { items: refs })))];
    }
    case "share": {
      const options = (job.metadata.options ?? {}) as Record<string, unknown>;
      const outcomes: ItemOutcome[] = [];
      // One link per item, each settled at once so a redelivery does not make it twice.
      for (const item of items) {
        const [settled] = await allOrSplit([item], (refs) => createShareLink(ctx, userId, { ...options, target: refs[0] }));
        await settleItems(ctx.db, job.id, [settled!], ctx.now());
        outcomes.push(settled!);
      }
      return outcomes;
    }
  }
}

/** One chunk message (see runBatchChunks). */
export async function runBatchChunk(ctx: ServiceContext, payload: ChunkPayload): Promise<JobResult> {
  return runBatchChunks(ctx, [payload]);
}

/**
 * The chunks of one operation that arrived in one queue batch (one, or up to the consumer's batch
 * size): their pending items, with the member's rights; then the counters, completion and the
 * room's progress event, once for them all.
 */
export async function runBatchChunks(ctx: ServiceContext, payloads: readonly ChunkPayload[]): Promise<JobResult> {
  const none = { processedItems: 0, successCount: 0, failureCount: 0 };
  const operationId = payloads[0]?.operationId;
  if (!operationId || payloads.some((payload) => payload.operationId !== operationId)) return none;
  const job = await findJobById(ctx.db, operationId);
  if (!job || !job.type.startsWith("batch.") || !job.userId) return none;
  const chunks = [...new Set(payloads.map((payload) => payload.chunk))];
  if (!(await startProcessing(ctx.db, job.id, ctx.now()))) {
    ctx.logger.info("batch chunks skipped", { id: job.id, status: job.status, chunks });
    return none;
  }
  const items = await findPendingItems(ctx.db, job.id, chunks, BATCH_CHUNK_SIZE);
  const outcomes = await processItems(ctx, job, items);
  await settleItems(ctx.db, job.id, outcomes, ctx.now());
  await completeIfDone(ctx.db, job.id, ctx.now());
  await announce(ctx, job.id);
  const failed = outcomes.filter((outcome) => outcome.state === "failed").length;
  return { processedItems: outcomes.length, successCount: outcomes.length - failed, failureCount: failed };
}
