/**
 * The browser's batch manager (spec §4 "Batch operation statuses", §9 "Batch"; issue 22): it
 * queues operations by priority, runs one at a time, cuts each into requests of a few items, keeps
 * to 10 requests a second (then a 1000 ms cooldown), retries failed requests three times with
 * exponential backoff, and lets the member pause, resume and cancel. It knows nothing of the
 * network: `send` carries one request (the server's batch endpoints, or any other transport), so
 * the rules are tested with fake timers.
 */

export const BATCH_PRIORITIES = { low: 0, normal: 1, high: 2, critical: 3 } as const;
export type BatchPriority = keyof typeof BATCH_PRIORITIES;

export const BATCH_LIMITS = {
  requestsPerSecond: 10,
  cooldownMs: 1000,
  maxRetries: 3,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
} as const;

export const batchStatuses = ["pending", "processing", "paused", "completed", "failed", "cancelled"] as const;
export type BatchStatus = (typeof batchStatuses)[number];

export const batchErrorTypes = ["VALIDATION_ERROR", "PERMISSION_ERROR", "NETWORK_ERROR", "TIMEOUT_ERROR", "CANCELLED", "RESOURCE_ERROR", "RATE_LIMIT_ERROR", "SYSTEM_ERROR", "UNKNOWN_ERROR"] as const;
export type BatchErrorType = (typeof batchErrorTypes)[number];

/** Items per request: 2 for uploads and downloads, 10 for deletes, 5 for everything else. */
export function itemsPerRequest(type: string): number {
  if (type === "upload" || type === "download") return 2;
  if (type === "delete" || type === "permanent-delete") return 10;
  return 5;
}

/** The wait before retry `attempt` (1, 2, 3, …): 1000 ms doubled each time, at most 30 000 ms. */
export function retryDelayMs(attempt: number): number {
  return Math.min(BATCH_LIMITS.baseDelayMs * 2 ** Math.max(0, attempt - 1), BATCH_LIMITS.maxDelayMs);
}

/** spec §3 "Operation item": what is acted on, and how to name it; `size` (bytes) feeds the progress record. */
export type OperationItem = { id: string; displayName: string; size?: number };
export type ItemError = { itemId: string; message: string };

/** spec §3 "Progress record". */
export type ProgressRecord = { current: number; total: number; percentage: number; remainingTime: number | null; speed: number; processedSize: number; totalSize: number; startTime: number | null };

/** spec §3 "Batch error". */
export class BatchError extends Error {
  readonly type: BatchErrorType;
  readonly operationId: string | null;
  readonly retryable: boolean;
  readonly itemErrors: ItemError[];
  readonly metadata: Record<string, unknown>;
  constructor(message: string, options: { type: BatchErrorType; operationId?: string | null; retryable?: boolean; itemErrors?: ItemError[]; metadata?: Record<string, unknown> }) {
    super(message);
    this.name = "BatchError";
    this.type = options.type;
    this.operationId = options.operationId ?? null;
    this.retryable = options.retryable ?? false;
    this.itemErrors = options.itemErrors ?? [];
    this.metadata = options.metadata ?? {};
  }
}

export const CANCELLED_MESSAGE = "Operation cancelled";
export const NOT_FOUND_MESSAGE = "Operation not found";

/** What a request failed with, as one of the spec's error types: network failures carry the server's message and are retryable unless 400 or 403. */
export function toBatchError(error: unknown, operationId: string | null = null): BatchError {
  if (error instanceof BatchError) return error;
  if (error instanceof DOMException && error.name === "AbortError") return new BatchError(CANCELLED_MESSAGE, { type: "CANCELLED", operationId });
  const status = typeof error === "object" && error !== null && "status" in error && typeof error.status === "number" ? error.status : null;
  const message = error instanceof Error && error.message ? error.message : "Something went wrong.";
  if (error instanceof Error && error.name === "TimeoutError") return new BatchError(message, { type: "TIMEOUT_ERROR", operationId, retryable: true });
  if (status === null) return new BatchError(message, { type: error instanceof TypeError ? "NETWORK_ERROR" : "UNKNOWN_ERROR", operationId, retryable: error instanceof TypeError });
  const retryable = status !== 400 && status !== 403;
  const type: BatchErrorType =
    status === 400 || status === 422
      ? "VALIDATION_ERROR"
      : status === 401 || status === 403
        ? "PERMISSION_ERROR"
        : status === 429
          ? "RATE_LIMIT_ERROR"
          : status === 408
            ? "TIMEOUT_ERROR"
            : status === 404 || status === 409 || status === 410 || status === 413
              ? "RESOURCE_ERROR"
              : status >= 500
                ? "SYSTEM_ERROR"
                : "NETWORK_ERROR";
  return new BatchError(message, { type, operationId, retryable });
}

/** A managed operation (spec §3 "Batch operation", the browser's side of it). */
export type ManagedOperation = {
  id: string;
  type: string;
  items: OperationItem[];
  status: BatchStatus;
  priority: number;
  progress: ProgressRecord;
  successCount: number;
  failureCount: number;
  errors: ItemError[];
  retryCount: number;
  lastError: string | null;
  metadata: Record<string, unknown>;
  startTime: number | null;
  endTime: number | null;
  /** Queue order among equal priorities. */
  sequence: number;
};

/** What one request answered: the items that failed (the others succeeded). */
export type ChunkResult = { itemErrors?: ItemError[] };

export type BatchTransport = (operation: Readonly<ManagedOperation>, chunk: OperationItem[], signal: AbortSignal) => Promise<ChunkResult>;

export type BatchManagerOptions = {
  send: BatchTransport;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  newId?: () => string;
};

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** The progress record of `done` of `total` items, `size` bytes done, since `startTime`. */
export function progressOf(total: number, done: number, processedSize: number, totalSize: number, startTime: number | null, now: number): ProgressRecord {
  const elapsed = startTime === null ? 0 : Math.max(0, now - startTime);
  const speed = elapsed > 0 ? (done * 1000) / elapsed : 0;
  const percentage = Math.min(100, Math.max(0, total === 0 ? 100 : Math.round((done / total) * 100)));
  const remainingTime = speed > 0 ? Math.round(((total - done) / speed) * 1000) : null;
  return { current: done, total, percentage, remainingTime, speed, processedSize, totalSize, startTime };
}

export function createBatchManager(options: BatchManagerOptions) {
  const now = options.now ?? (() => Date.now());
  const sleep = options.sleep ?? defaultSleep;
  const newId = options.newId ?? (() => crypto.randomUUID());
  const operations = new Map<string, ManagedOperation>();
  const listeners = new Set<(operations: ManagedOperation[]) => void>();
  const sentAt: number[] = [];
  let sequence = 0;
  let active: { id: string; controller: AbortController } | null = null;
  let running = false;

  const snapshot = () => [...operations.values()].map((operation) => ({ ...operation, progress: { ...operation.progress }, errors: [...operation.errors] }));
  const emit = () => {
    const list = snapshot();
    for (const listener of listeners) listener(list);
  };
  const update = (operation: ManagedOperation, change: Partial<ManagedOperation>) => {
    Object.assign(operation, change);
    emit();
  };
  const findOperation = (id: string) => {
    const operation = operations.get(id);
    if (!operation) throw new BatchError(NOT_FOUND_MESSAGE, { type: "RESOURCE_ERROR", operationId: id });
    return operation;
  };

  /** At most 10 requests in any second; at the limit, a 1000 ms cooldown from the oldest of them. */
  async function takeRequestSlot(signal: AbortSignal) {
    for (;;) {
      const t = now();
      while (sentAt.length > 0 && t - sentAt[0]! >= BATCH_LIMITS.cooldownMs) sentAt.shift();
      if (sentAt.length < BATCH_LIMITS.requestsPerSecond) {
        sentAt.push(t);
        return;
      }
      await sleep(BATCH_LIMITS.cooldownMs - (t - sentAt[0]!), signal);
      if (signal.aborted) return;
    }
  }

  /** The next operation to run: pending, highest priority first, then the oldest. */
  function next(): ManagedOperation | undefined {
    return [...operations.values()].filter((operation) => operation.status === "pending").sort((a, b) => b.priority - a.priority || a.sequence - b.sequence)[0];
  }

  async function run(operation: ManagedOperation) {
    const controller = new AbortController();
    active = { id: operation.id, controller };
    if (operation.startTime === null) operation.startTime = now();
    update(operation, { status: "processing" });
    const size = (items: OperationItem[]) => items.reduce((sum, item) => sum + (item.size ?? 0), 0);
    const perRequest = itemsPerRequest(operation.type);
    try {
      while (operation.progress.current < operation.items.length) {
        if (operation.status !== "processing") return; // paused or cancelled between requests
        const chunk = operation.items.slice(operation.progress.current, operation.progress.current + perRequest);
        let attempt = 0;
        for (;;) {
          await takeRequestSlot(controller.signal);
          if (controller.signal.aborted) throw new BatchError(CANCELLED_MESSAGE, { type: "CANCELLED", operationId: operation.id });
          try {
            const result = await options.send(operation, chunk, controller.signal);
            const itemErrors = result.itemErrors ?? [];
            const done = operation.progress.current + chunk.length;
            update(operation, {
              successCount: operation.successCount + chunk.length - itemErrors.length,
              failureCount: operation.failureCount + itemErrors.length,
              errors: [...operation.errors, ...itemErrors],
              progress: progressOf(operation.items.length, done, operation.progress.processedSize + size(chunk), size(operation.items), operation.startTime, now()),
            });
            break;
          } catch (error) {
            const failure = toBatchError(error, operation.id);
            if (controller.signal.aborted || failure.type === "CANCELLED") throw new BatchError(CANCELLED_MESSAGE, { type: "CANCELLED", operationId: operation.id });
            attempt++;
            if (!failure.retryable || attempt > BATCH_LIMITS.maxRetries) throw failure;
            update(operation, { retryCount: operation.retryCount + 1, lastError: failure.message });
            await sleep(retryDelayMs(attempt), controller.signal);
          }
        }
      }
      update(operation, { status: "completed", endTime: now() });
    } catch (error) {
      const failure = toBatchError(error, operation.id);
      if (failure.type === "CANCELLED") {
        if (operation.status !== "cancelled") update(operation, { status: "cancelled", endTime: now(), lastError: CANCELLED_MESSAGE });
      } else {
        update(operation, { status: "failed", endTime: now(), lastError: failure.message });
      }
    } finally {
      active = null;
    }
  }

  /** Runs operations one after another while any is pending. */
  async function pump() {
    if (running) return;
    running = true;
    try {
      for (let operation = next(); operation && !active; operation = next()) await run(operation);
    } finally {
      running = false;
    }
  }

  return {
    /** A new operation: pending, queued by priority; returns its id. */
    enqueue(type: string, items: OperationItem[], extra: { priority?: BatchPriority; metadata?: Record<string, unknown> } = {}): string {
      const id = newId();
      const operation: ManagedOperation = {
        id,
        type,
        items,
        status: "pending",
        priority: BATCH_PRIORITIES[extra.priority ?? "normal"],
        progress: progressOf(items.length, 0, 0, items.reduce((sum, item) => sum + (item.size ?? 0), 0), null, now()),
        successCount: 0,
        failureCount: 0,
        errors: [],
        retryCount: 0,
        lastError: null,
        metadata: extra.metadata ?? {},
        startTime: null,
        endTime: null,
        sequence: sequence++,
      };
      operations.set(id, operation);
      emit();
      void pump();
      return id;
    },
    /** Pause: only while processing; the current request finishes, the next is not sent. */
    pause(id: string) {
      const operation = findOperation(id);
      if (operation.status !== "processing") throw new BatchError("Only a running operation can be paused.", { type: "VALIDATION_ERROR", operationId: id });
      update(operation, { status: "paused" });
    },
    /** Resume: only while paused; back in the queue at high priority. */
    resume(id: string) {
      const operation = findOperation(id);
      if (operation.status !== "paused") throw new BatchError("Only a paused operation can be resumed.", { type: "VALIDATION_ERROR", operationId: id });
      update(operation, { status: "pending", priority: Math.max(operation.priority, BATCH_PRIORITIES.high) });
      void pump();
    },
    /** Cancel: not once completed; aborts the request in flight, marks it cancelled and takes it out of the queue. */
    cancel(id: string) {
      const operation = findOperation(id);
      if (operation.status === "completed") throw new BatchError("A completed operation cannot be cancelled.", { type: "VALIDATION_ERROR", operationId: id });
      if (operation.status === "cancelled") return;
      update(operation, { status: "cancelled", endTime: now(), lastError: CANCELLED_MESSAGE });
      if (active?.id === id) active.controller.abort();
    },
    get(id: string): ManagedOperation {
      return { ...findOperation(id) };
    },
    list: snapshot,
    subscribe(listener: (operations: ManagedOperation[]) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Resolves when nothing is pending or running (tests). */
    async idle() {
      while (running) await sleep(0);
    },
  };
}

export type BatchManager = ReturnType<typeof createBatchManager>;
