import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { files, mediaItems } from "~/db/schema";

export type MediaItemRow = typeof mediaItems.$inferSelect;

export async function findMediaItem(db: Database, sourceKey: string): Promise<MediaItemRow | undefined> {
  return db.select().from(mediaItems).where(eq(mediaItems.sourceKey, sourceKey)).get();
}

/** Once per stored object: a second writer (a redelivered job) changes nothing. */
export async function insertMediaItem(db: Database, row: MediaItemRow): Promise<void> {
  await db.insert(mediaItems).values(row).onConflictDoNothing({ target: mediaItems.sourceKey });
}

/** What the derivatives job needs of a file (trashed or not: its pictures are made either way). */
export async function findFileSource(db: Database, fileId: string) {
  return db.select({ id: files.id, r2Key: files.r2Key, size: files.size, contentType: files.contentType }).from(files).where(eq(files.id, fileId)).get();
}
