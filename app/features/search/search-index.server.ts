import { readStoredObject } from "~/features/files/encryption.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { extractText } from "./extract-text.server";
import { SEARCH_LIMITS } from "./search.constants";
import { findFileForIndexing, findIndexedTwin, listPendingFiles, saveExtraction } from "./search.queries.server";

export type IndexOutcome = "indexed" | "empty" | "unsupported" | "too_large" | "failed" | "gone" | "current";

/**
 * Reads one file's text into the index (ADR 028). Idempotent: a file whose current object is
 * already indexed is left alone, a file that is gone is nothing to do, and the text is stored
 * only while the object it was read from is still the file's (a newer version waits for its
 * own run). The same bytes elsewhere in the space (a copy) give their text without a read.
 */
export async function indexFileContent(ctx: ServiceContext, fileId: string): Promise<IndexOutcome> {
  const file = await findFileForIndexing(ctx.db, fileId);
  if (!file) return "gone";
  if (file.contentState !== "pending" && file.contentKey === file.r2Key) return "current";
  const twin = file.sha256 ? await findIndexedTwin(ctx.db, file.id, file.sha256) : null;
  const extraction = twin
    ? twin.state === "indexed"
      ? ({ state: "indexed", text: twin.body } as const)
      : ({ state: "empty", reason: "Same bytes as a file without text." } as const)
    : await extractText({
        contentType: file.contentType,
        name: file.name,
        size: file.size,
        open: (length) => readStoredObject(ctx, file.r2Key, file.size, length < file.size ? { offset: 0, length } : undefined),
      });
  const text = extraction.state === "indexed" ? extraction.text : "";
  if (extraction.state !== "indexed") ctx.logger.info("search: no text indexed", { fileId, state: extraction.state, reason: extraction.reason });
  const saved = await saveExtraction(ctx.db, { fileId, contentKey: file.r2Key, state: extraction.state, text, now: ctx.now() });
  return saved ? extraction.state : "current";
}

/**
 * Files whose text nobody asked for yet (copies, files from before the index, the demo): up to a
 * batch at a time; the job enqueues itself again while any remain. `runId` makes the job's id.
 */
export async function catchUpContentIndex(ctx: ServiceContext): Promise<{ indexed: number; remaining: boolean }> {
  const pending = await listPendingFiles(ctx.db, SEARCH_LIMITS.catchUpBatch + 1);
  const batch = pending.slice(0, SEARCH_LIMITS.catchUpBatch);
  let indexed = 0;
  for (const fileId of batch) {
    const outcome = await indexFileContent(ctx, fileId);
    if (outcome !== "gone" && outcome !== "current") indexed++;
  }
  return { indexed, remaining: pending.length > batch.length };
}
