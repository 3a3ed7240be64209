import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { files } from "~/db/schema";

/** One round trip to D1 that touches no table. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.get(sql`select 1`);
}

/** A file's R2 key, with no permission check: only for the development benchmark baselines. */
export async function findFileObjectKeyUnchecked(db: Database, fileId: string): Promise<string | null> {
  const row = await db.select({ key: files.r2Key }).from(files).where(eq(files.id, fileId)).get();
  return row?.key ?? null;
}

/** G9's baseline: the same rows moved by one SQL UPDATE, with no checks at all (development only). */
export async function moveFilesUnchecked(db: Database, fileIds: readonly string[], folderId: string, now: Date): Promise<number> {
  const result = await db.run(sql`UPDATE files SET folder_id = ${folderId}, updated_at = ${now.getTime()} WHERE id IN (SELECT value FROM json_each(${JSON.stringify(fileIds)}))`);
  return result.meta.changes ?? 0;
}
