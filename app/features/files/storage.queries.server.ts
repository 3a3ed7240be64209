import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { fileVersions, files, folders, spaceMembers, spaces, uploads } from "~/db/schema";

/**
 * What a space stores, for quotas and the storage settings page. Everything a member keeps counts:
 * live files, earlier versions, the trash (until it is purged) and the declared length of every
 * upload still in progress (reserved at creation, so parallel uploads cannot overrun the quota).
 */
export type SpaceUsageRow = {
  ownerId: string | null;
  fileBytes: number;
  trashedBytes: number;
  versionBytes: number;
  reservedBytes: number;
  fileCount: number;
  folderCount: number;
  activeUploads: number;
};

/** One D1 round trip: the space's owner and every sum and count (each reads an index). */
export async function readSpaceUsage(db: Database, spaceId: string): Promise<SpaceUsageRow> {
  const [owner, fileSums, versionSums, uploadSums, folderCounts] = await db.batch([
    db.select({ ownerId: spaces.ownerId }).from(spaces).where(eq(spaces.id, spaceId)),
    db
      .select({
        bytes: sql<number>`coalesce(sum(${files.size}), 0)`,
        trashed: sql<number>`coalesce(sum(case when ${files.trashedAt} is not null then ${files.size} else 0 end), 0)`,
        count: sql<number>`count(*)`,
      })
      .from(files)
      .where(eq(files.spaceId, spaceId)),
    db
      .select({ bytes: sql<number>`coalesce(sum(${fileVersions.size}), 0)` })
      .from(fileVersions)
      .where(eq(fileVersions.spaceId, spaceId)),
    db
      .select({ bytes: sql<number>`coalesce(sum(${uploads.length}), 0)`, count: sql<number>`count(*)` })
      .from(uploads)
      .where(and(eq(uploads.spaceId, spaceId), ne(uploads.status, "completed"))),
    db
      .select({ count: sql<number>`count(*)` })
      .from(folders)
      .where(and(eq(folders.spaceId, spaceId), ne(folders.kind, "root"))),
  ]);
  return {
    ownerId: owner[0]?.ownerId ?? null,
    fileBytes: Number(fileSums[0]?.bytes ?? 0),
    trashedBytes: Number(fileSums[0]?.trashed ?? 0),
    versionBytes: Number(versionSums[0]?.bytes ?? 0),
    reservedBytes: Number(uploadSums[0]?.bytes ?? 0),
    fileCount: Number(fileSums[0]?.count ?? 0),
    folderCount: Number(folderCounts[0]?.count ?? 0),
    activeUploads: Number(uploadSums[0]?.count ?? 0),
  };
}

/** Bytes and file counts per sniffed type of live files (the trash and versions are summed apart). */
export async function readUsageByType(db: Database, spaceId: string) {
  return db
    .select({ contentType: files.contentType, bytes: sql<number>`sum(${files.size})`, count: sql<number>`count(*)` })
    .from(files)
    .where(and(eq(files.spaceId, spaceId), sql`${files.trashedAt} is null`))
    .groupBy(files.contentType)
    .all();
}

/** The spaces the member owns (their personal space and the data rooms they created). */
export async function listOwnedSpaces(db: Database, userId: string) {
  return db
    .select({ id: spaces.id, kind: spaces.kind, name: spaces.name })
    .from(spaces)
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, spaces.id), eq(spaceMembers.userId, userId)))
    .where(and(eq(spaces.ownerId, userId), eq(spaceMembers.role, "owner")))
    .orderBy(asc(spaces.kind), asc(spaces.name))
    .all();
}
