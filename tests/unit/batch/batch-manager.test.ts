import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  BatchError,
  createBatchManager,
  itemsPerRequest,
  progressOf,
  retryDelayMs,
  toBatchError,
  type BatchTransport,
  type ManagedOperation,
  type OperationItem,
} from "~/features/batch/batch-manager";
import { HttpError } from "~/lib/http";

/** The browser's batch manager (spec §4 "Batch operation statuses", §9 "Batch"), with fake timers. */

const items = (count: number, prefix = "item"): OperationItem[] => Array.from({ length: count }, (_, index) => ({ id: `${prefix}-${index + 1}`, displayName: `${prefix} ${index + 1}.pdf`, size: 100 }));

/** A transport that records each request (operation type and item ids) and when it was sent. */
function recorder(answer: (operation: Readonly<ManagedOperation>, chunk: OperationItem[], signal: AbortSignal) => Promise<{ itemErrors?: { itemId: string; message: string }[] }> = async () => ({})) {
  const calls: { type: string; ids: string[]; at: number }[] = [];
  const send: BatchTransport = (operation, chunk, signal) => {
    calls.push({ type: operation.type, ids: chunk.map((item) => item.id), at: Date.now() });
    return answer(operation, chunk, signal);
  };
  return { calls, send };
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-11-26T10:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the batch manager's rules", () => {
  it("cuts operations into requests of 2 items for uploads and downloads, 10 for deletes and 5 for everything else", () => {
    expect(["upload", "download", "delete", "permanent-delete", "move", "copy", "share", "restore", "archive"].map(itemsPerRequest)).toEqual([2, 2, 10, 10, 5, 5, 5, 5, 5]);
  });

  it("waits 1000 ms before the first retry, doubling each time, never more than 30 000 ms", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it("keeps the progress percentage within 0..100 and estimates speed and time left", () => {
    expect(progressOf(10, 5, 500, 1000, 0, 2000)).toEqual({ current: 5, total: 10, percentage: 50, remainingTime: 2000, speed: 2.5, processedSize: 500, totalSize: 1000, startTime: 0 });
    expect(progressOf(4, 9, 0, 0, 0, 1000).percentage).toBe(100);
    expect(progressOf(0, 0, 0, 0, null, 0)).toMatchObject({ percentage: 100, remainingTime: null, speed: 0 });
  });

  it("turns failures into the spec's error types, retryable unless the server said 400 or 403", () => {
    const http = (status: number) => toBatchError(new HttpError(`Server says ${status}`, { status, url: "/x" }));
    expect([400, 403, 401, 404, 429, 500].map((status) => [http(status).type, http(status).retryable, http(status).message])).toEqual([
      ["VALIDATION_ERROR", false, "Server says 400"],
      ["PERMISSION_ERROR", false, "Server says 403"],
      ["PERMISSION_ERROR", true, "Server says 401"],
      ["RESOURCE_ERROR", true, "Server says 404"],
      ["RATE_LIMIT_ERROR", true, "Server says 429"],
      ["SYSTEM_ERROR", true, "Server says 500"],
    ]);
    expect(toBatchError(new TypeError("Failed to fetch"))).toMatchObject({ type: "NETWORK_ERROR", retryable: true });
    expect(toBatchError(new DOMException("aborted", "AbortError"))).toMatchObject({ type: "CANCELLED", message: "Operation cancelled", retryable: false });
    expect(toBatchError("what")).toMatchObject({ type: "UNKNOWN_ERROR" });
  });
});

describe("running operations", () => {
  it("runs one operation at a time, highest priority first, the oldest first among equals, and counts every item", async () => {
    const { calls, send } = recorder();
    const manager = createBatchManager({ send, newId: (() => { let n = 0; return () => `op-${++n}`; })() });
    // A long first operation keeps the manager busy while the others queue.
    manager.enqueue("move", items(5, "first"));
    manager.enqueue("copy", items(1, "low"), { priority: "low" });
    manager.enqueue("delete", items(1, "normal"));
    manager.enqueue("share", items(1, "critical"), { priority: "critical" });
    await vi.runAllTimersAsync();
    expect(calls.map((call) => call.ids[0])).toEqual(["first-1", "critical-1", "normal-1", "low-1"]);
    expect(manager.list().map((operation) => [operation.id, operation.status, operation.successCount, operation.progress.percentage])).toEqual([
      ["op-1", "completed", 5, 100],
      ["op-2", "completed", 1, 100],
      ["op-3", "completed", 1, 100],
      ["op-4", "completed", 1, 100],
    ]);
  });

  it("sends at most 10 requests a second, then waits out the 1000 ms cooldown", async () => {
    const { calls, send } = recorder();
    const manager = createBatchManager({ send });
    manager.enqueue("move", items(60));
    await vi.runAllTimersAsync();
    expect(calls).toHaveLength(12);
    const start = calls[0]!.at;
    expect(calls.slice(0, 10).every((call) => call.at === start)).toBe(true);
    expect(calls[10]!.at - start).toBe(1000);
    expect(calls[11]!.at - start).toBe(1000);
  });

  it("reports the items a request refused, and goes on with the others", async () => {
    const { send } = recorder(async (_operation, chunk) => ({ itemErrors: chunk.filter((item) => item.id === "item-3").map((item) => ({ itemId: item.id, message: "You can't move this file." })) }));
    const manager = createBatchManager({ send });
    const id = manager.enqueue("move", items(7));
    await vi.runAllTimersAsync();
    expect(manager.get(id)).toMatchObject({ status: "completed", successCount: 6, failureCount: 1, errors: [{ itemId: "item-3", message: "You can't move this file." }] });
  });

  it("retries a failed request 3 times with backoff, then marks the operation failed with the server's message", async () => {
    const { calls, send } = recorder(async () => {
      throw new HttpError("The service is busy.", { status: 503, url: "/batch" });
    });
    const manager = createBatchManager({ send });
    const id = manager.enqueue("move", items(3));
    await vi.runAllTimersAsync();
    expect(calls).toHaveLength(4);
    expect(calls.slice(1).map((call, index) => call.at - calls[index]!.at)).toEqual([1000, 2000, 4000]);
    expect(manager.get(id)).toMatchObject({ status: "failed", retryCount: 3, lastError: "The service is busy." });
  });

  it("does not retry a request the server refused with 400 or 403", async () => {
    const { calls, send } = recorder(async () => {
      throw new HttpError("Invalid operation type: rename", { status: 400, url: "/batch" });
    });
    const manager = createBatchManager({ send });
    const id = manager.enqueue("move", items(3));
    await vi.runAllTimersAsync();
    expect(calls).toHaveLength(1);
    expect(manager.get(id)).toMatchObject({ status: "failed", retryCount: 0, lastError: "Invalid operation type: rename" });
  });

  it("recovers when a retry succeeds", async () => {
    let failures = 1;
    const { send } = recorder(async () => {
      if (failures-- > 0) throw new TypeError("Failed to fetch");
      return {};
    });
    const manager = createBatchManager({ send });
    const id = manager.enqueue("delete", items(3));
    await vi.runAllTimersAsync();
    expect(manager.get(id)).toMatchObject({ status: "completed", retryCount: 1, successCount: 3 });
  });
});

describe("pause, resume and cancel", () => {
  it("pauses only while processing, after the request in flight; resumes only while paused, ahead of the queue at high priority", async () => {
    let release: () => void = () => undefined;
    const { calls, send } = recorder(() => new Promise((resolve) => (release = () => resolve({}))));
    const manager = createBatchManager({ send });
    const first = manager.enqueue("move", items(10));
    const second = manager.enqueue("move", items(5, "other"));
    expect(() => manager.resume(first)).toThrow("Only a paused operation can be resumed.");
    await vi.advanceTimersByTimeAsync(0);
    expect(manager.get(first).status).toBe("processing");
    expect(() => manager.pause(second)).toThrow(BatchError);
    manager.pause(first);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(manager.get(first)).toMatchObject({ status: "paused", progress: { current: 5 } });
    // The next one runs while the first is paused.
    expect(manager.get(second).status).toBe("processing");
    manager.resume(first);
    expect(manager.get(first)).toMatchObject({ status: "pending", priority: 2 });
    release();
    for (let round = 0; round < 5; round++) {
      await vi.advanceTimersByTimeAsync(0);
      release();
    }
    await vi.runAllTimersAsync();
    expect(calls.map((call) => call.ids[0])).toEqual(["item-1", "other-1", "item-6"]);
    expect(manager.get(first)).toMatchObject({ status: "completed", progress: { current: 10, percentage: 100 } });
  });

  it("cancels by aborting the request in flight, with 'Operation cancelled', and takes the operation out of the queue; a completed one cannot be cancelled", async () => {
    const { send } = recorder(
      (_operation, _chunk, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")));
        }),
    );
    const manager = createBatchManager({ send });
    const running = manager.enqueue("move", items(5));
    const queued = manager.enqueue("copy", items(5));
    await vi.advanceTimersByTimeAsync(0);
    manager.cancel(queued);
    manager.cancel(running);
    await vi.runAllTimersAsync();
    expect(manager.get(running)).toMatchObject({ status: "cancelled", lastError: "Operation cancelled" });
    expect(manager.get(queued).status).toBe("cancelled");

    const done = createBatchManager({ send: async () => ({}) });
    const id = done.enqueue("move", items(1));
    await vi.runAllTimersAsync();
    expect(() => done.cancel(id)).toThrow("A completed operation cannot be cancelled.");
    expect(() => done.get("nope")).toThrow("Operation not found");
  });
});
