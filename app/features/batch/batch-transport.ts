import { HttpError, readCsrfToken } from "~/lib/http";
import { createBatchManager, type BatchManager, type BatchTransport, type ItemError } from "./batch-manager";

/**
 * The batch manager's transport to the server (issue 22): one request is one server operation of
 * a few items (POST /dataroom/{id}/batch/{op}, or /api/batch/{op} for the member's own files),
 * followed until the queue has handled it (GET /api/batch-operations/{id}); its refused items come
 * back as item errors. Aborting (cancel) cancels the server's operation too.
 */

const POLL_MS = 300;
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

type ServerOperation = { id: string; status: string; lastError: string | null; errors: { itemId: string; message: string }[] };

async function call(url: string, init: RequestInit & { signal?: AbortSignal }): Promise<ServerOperation> {
  const response = await fetch(url, {
    ...init,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-TOKEN": readCsrfToken(), "X-Requested-With": "XMLHttpRequest" },
  });
  const body = (await response.json().catch(() => ({}))) as { operation?: ServerOperation; message?: string };
  if (!response.ok || !body.operation) throw new HttpError(body.message ?? `The server answered ${response.status}.`, { status: response.status, url, body });
  return body.operation;
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new DOMException("The operation was aborted.", "AbortError"));
    });
  });

export const serverTransport: BatchTransport = async (operation, chunk, signal) => {
  const roomId = typeof operation.metadata.roomId === "string" ? operation.metadata.roomId : null;
  const url = roomId ? `/dataroom/${encodeURIComponent(roomId)}/batch/${encodeURIComponent(operation.type)}` : `/api/batch/${encodeURIComponent(operation.type)}`;
  const body = { items: chunk.map((item) => item.id), targetFolderId: operation.metadata.targetFolderId, options: operation.metadata.options };
  let server = await call(url, { method: "POST", body: JSON.stringify(body), signal });
  try {
    while (!TERMINAL.has(server.status)) {
      await wait(POLL_MS, signal);
      server = await call(`/api/batch-operations/${server.id}`, { method: "GET", signal });
    }
  } catch (error) {
    if (signal.aborted) void call(`/api/batch-operations/${server.id}/cancel`, { method: "POST" }).catch(() => undefined);
    throw error;
  }
  if (server.status !== "completed") throw new HttpError(server.lastError ?? "The operation stopped.", { status: 500, url });
  const itemErrors: ItemError[] = server.errors.map((error) => ({ itemId: error.itemId, message: error.message }));
  return { itemErrors };
};

let manager: BatchManager | null = null;

/** The page's one batch manager (created on first use, in the browser). */
export function batchManager(): BatchManager {
  manager ??= createBatchManager({ send: serverTransport });
  return manager;
}
