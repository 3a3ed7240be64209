import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { files, mediaItems } from "~/db/schema";
import type { Keyset } from "~/features/files/folders.queries.server";

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

/**
 * A folder's pictures and videos in date order, newest first: the date a picture was taken (its
 * EXIF), else when it was uploaded; keyset on (that date, id). With what its derivatives job
 * found (null until it ran): the gallery's grid.
 */
export async function listFolderMedia(db: Database, folderId: string, after: Keyset | null, limit: number) {
  const shotAt = sql<number>`coalesce(${mediaItems.takenAtMs}, ${files.createdAt})`;
  const afterCondition = after ? sql`(${shotAt} < ${Number(after.value)} OR (${shotAt} = ${Number(after.value)} AND ${files.id} < ${after.id}))` : undefined;
  return db
    .select({
      id: files.id,
      name: files.name,
      size: files.size,
      contentType: files.contentType,
      createdAt: files.createdAt,
      version: files.version,
      status: mediaItems.status,
      width: mediaItems.width,
      height: mediaItems.height,
      takenAt: mediaItems.takenAt,
      camera: mediaItems.camera,
      latitude: mediaItems.latitude,
      longitude: mediaItems.longitude,
      shotAt,
    })
    .from(files)
    .leftJoin(mediaItems, eq(mediaItems.sourceKey, files.r2Key))
    .where(and(eq(files.folderId, folderId), isNull(files.trashedAt), sql`(${files.contentType} LIKE 'image/%' OR ${files.contentType} LIKE 'video/%')`, afterCondition))
    .orderBy(desc(shotAt), desc(files.id))
    .limit(limit)
    .all();
}
