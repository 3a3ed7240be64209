import { and, asc, eq, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { fileVersions, files, folders, spaceMembers, uploadParts, uploads } from "~/db/schema";
import type { EffectiveSpaceRole } from "./files.permissions";
import { effectiveSpaceRole } from "./space-role.queries.server";

/** The uploads table (tus state) and the rows a completed upload writes. Drizzle stays here. */

export type UploadRow = typeof uploads.$inferSelect;

export type NewUpload = {
  id: string;
  spaceId: string;
  folderId: string;
  userId: string;
  name: string;
  relativePath: string;
  length: number;
  partSize: number;
  r2Key: string;
  r2UploadId: string | null;
  now: Date;
  expiresAt: Date;
  /** A secret's sealed file (issue 23) instead of a file in a folder. */
  secretFileId?: string | null;
};

export async function insertUpload(db: Database, upload: NewUpload): Promise<void> {
  await db
    .insert(uploads)
    .values({
      id: upload.id,
      spaceId: upload.spaceId,
      folderId: upload.folderId,
      userId: upload.userId,
      name: upload.name,
      relativePath: upload.relativePath,
      length: upload.length,
      partSize: upload.partSize,
      offset: 0,
      r2Key: upload.r2Key,
      r2UploadId: upload.r2UploadId,
      secretFileId: upload.secretFileId ?? null,
      status: "active",
      createdAt: upload.now,
      updatedAt: upload.now,
      expiresAt: upload.expiresAt,
    })
    .run();
}

/**
 * The caller's own upload with the caller's current role in its space (null when they left
 * it). Anyone else's upload is simply not found.
 */
export async function findOwnUpload(db: Database, uploadId: string, userId: string): Promise<{ upload: UploadRow; role: EffectiveSpaceRole | null } | undefined> {
  return db
    .select({ upload: uploads, role: sql<EffectiveSpaceRole | null>`CASE WHEN ${spaceMembers.role} IS NULL THEN NULL ELSE ${effectiveSpaceRole} END` })
    .from(uploads)
    .leftJoin(spaceMembers, and(eq(spaceMembers.spaceId, uploads.spaceId), eq(spaceMembers.userId, userId)))
    .where(and(eq(uploads.id, uploadId), eq(uploads.userId, userId)))
    .get();
}

export async function findUploadById(db: Database, uploadId: string): Promise<UploadRow | undefined> {
  return db.select().from(uploads).where(eq(uploads.id, uploadId)).get();
}

// Multi-statement writes whose later statements depend on the earlier ones (`changes()`,
// INSERT … SELECT) go through D1's own batch: drizzle cannot batch raw statements with parameters.

/**
 * Records one stored part and moves the offset from `from` to `to`, atomically and only if the
 * offset is still `from`: a retried or duplicated PATCH cannot count the same bytes twice. The
 * part row is written only when the offset moved (`changes()` of the UPDATE just before it).
 * Reaching the length marks the upload "completing". Returns whether this call advanced it.
 */
export async function recordPart(
  db: Database,
  part: { uploadId: string; partNumber: number; etag: string; size: number; from: number; to: number; now: Date; expiresAt: Date },
): Promise<boolean> {
  const d1 = db.$client;
  const [update] = await d1.batch([
    d1
      .prepare(
        `update uploads set "offset" = ?1, updated_at = ?2, expires_at = ?3,
           status = case when ?1 >= "length" then 'completing' else status end
         where id = ?4 and "offset" = ?5 and status = 'active'`,
      )
      .bind(part.to, part.now.getTime(), part.expiresAt.getTime(), part.uploadId, part.from),
    d1
      .prepare(
        `insert into upload_parts (upload_id, part_number, etag, size)
         select ?1, ?2, ?3, ?4 where changes() = 1
         on conflict (upload_id, part_number) do update set etag = excluded.etag, size = excluded.size`,
      )
      .bind(part.uploadId, part.partNumber, part.etag, part.size),
  ]);
  return update?.meta.changes === 1;
}

/** An upload of zero bytes is complete on creation. */
export async function markUploadCompleting(db: Database, uploadId: string, now: Date): Promise<void> {
  await db
    .update(uploads)
    .set({ status: "completing", updatedAt: now })
    .where(and(eq(uploads.id, uploadId), eq(uploads.status, "active"), sql`${uploads.offset} >= ${uploads.length}`))
    .run();
}

export async function listUploadParts(db: Database, uploadId: string) {
  return db
    .select({ partNumber: uploadParts.partNumber, etag: uploadParts.etag, size: uploadParts.size })
    .from(uploadParts)
    .where(eq(uploadParts.uploadId, uploadId))
    .orderBy(asc(uploadParts.partNumber))
    .all();
}

export async function deleteUploadRow(db: Database, uploadId: string): Promise<void> {
  await db.batch([db.delete(uploadParts).where(eq(uploadParts.uploadId, uploadId)), db.delete(uploads).where(eq(uploads.id, uploadId))]);
}

/** Uploads whose time is up (any status): the purge aborts the unfinished and forgets the finished. */
export async function listExpiredUploads(db: Database, now: Date, limit: number) {
  return db
    .select({ id: uploads.id, r2Key: uploads.r2Key, r2UploadId: uploads.r2UploadId, status: uploads.status, receiveSubmissionId: uploads.receiveSubmissionId, formSubmissionId: uploads.formSubmissionId, spaceId: uploads.spaceId, folderId: uploads.folderId })
    .from(uploads)
    .where(lt(uploads.expiresAt, now))
    .orderBy(asc(uploads.expiresAt))
    .limit(limit)
    .all();
}

/** The digest of the content an upload produced, once known (null while the hash job runs). */
export async function findUploadedHash(db: Database, fileId: string, r2Key: string): Promise<string | null> {
  const [file, version] = await db.batch([
    db.select({ sha256: files.sha256 }).from(files).where(and(eq(files.id, fileId), eq(files.r2Key, r2Key))),
    db
      .select({ sha256: fileVersions.sha256 })
      .from(fileVersions)
      .where(and(eq(fileVersions.fileId, fileId), eq(fileVersions.r2Key, r2Key))),
  ]);
  return file[0]?.sha256 ?? version[0]?.sha256 ?? null;
}

/** A live file with this exact name in the folder (a new upload of it becomes a new version). */
export async function findLiveFileByName(db: Database, folderId: string, name: string) {
  return db
    .select({ id: files.id, r2Key: files.r2Key, version: files.version })
    .from(files)
    .where(and(eq(files.folderId, folderId), eq(files.name, name), isNull(files.trashedAt)))
    .orderBy(asc(files.createdAt), asc(files.id))
    .get();
}

export async function findLiveFolderByLabel(db: Database, spaceId: string, parentId: string, label: string) {
  return db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.spaceId, spaceId), eq(folders.parentId, parentId), eq(folders.label, label), isNull(folders.trashedAt)))
    .get();
}

/** Inserts a folder unless its (deterministic) id exists: concurrent uploads of one dropped folder create it once. */
export async function insertFolderIfAbsent(db: Database, folder: { id: string; spaceId: string; parentId: string; label: string; userId: string; now: Date }) {
  await db
    .insert(folders)
    .values({
      id: folder.id,
      spaceId: folder.spaceId,
      parentId: folder.parentId,
      kind: "regular",
      label: folder.label,
      createdBy: folder.userId,
      createdAt: folder.now,
      updatedAt: folder.now,
    })
    .onConflictDoNothing({ target: folders.id })
    .run();
}

export type CompletedContent = {
  uploadId: string;
  spaceId: string;
  folderId: string;
  name: string;
  size: number;
  contentType: string;
  sha256: string | null;
  r2Key: string;
  userId: string;
  now: Date;
};

/**
 * The new file (its id is the upload's id) and the upload marked completed, in one batch. Safe to
 * run again, even concurrently: the insert happens only while the upload is not completed yet
 * (and ignores an existing id), and the status update is conditional.
 */
export async function insertCompletedFile(db: Database, content: CompletedContent): Promise<void> {
  const d1 = db.$client;
  const now = content.now.getTime();
  await d1.batch([
    d1
      .prepare(
        `insert into files (id, space_id, folder_id, name, size, content_type, sha256, r2_key, version, uploaded_by, is_template, created_at, updated_at)
         select ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1, ?9, 0, ?10, ?10
         where exists (select 1 from uploads where id = ?1 and status != 'completed')
         on conflict do nothing`,
      )
      .bind(content.uploadId, content.spaceId, content.folderId, content.name, content.size, content.contentType, content.sha256, content.r2Key, content.userId, now),
    markCompleted(d1, content.uploadId, content.uploadId, now),
  ]);
}

/**
 * A new version of an existing file: its current content moves to file_versions, the file points
 * at the new object and its version goes up, and the upload is marked completed; one batch. Every
 * statement is conditional on the file not pointing at the new object yet, so a retry is a no-op.
 */
export async function insertVersionedFile(db: Database, content: CompletedContent & { fileId: string }): Promise<void> {
  const d1 = db.$client;
  const now = content.now.getTime();
  await d1.batch([
    d1
      .prepare(
        `insert into file_versions (id, file_id, space_id, version, r2_key, size, content_type, sha256, created_by, created_at)
         select ?1, id, space_id, version, r2_key, size, content_type, sha256, uploaded_by, updated_at
         from files where id = ?2 and r2_key != ?3
         on conflict do nothing`,
      )
      .bind(content.uploadId, content.fileId, content.r2Key),
    d1
      .prepare(
        `update files set r2_key = ?1, size = ?2, content_type = ?3, sha256 = ?4, version = version + 1, uploaded_by = ?5, updated_at = ?6
         where id = ?7 and r2_key != ?1`,
      )
      .bind(content.r2Key, content.size, content.contentType, content.sha256, content.userId, now, content.fileId),
    markCompleted(d1, content.uploadId, content.fileId, now),
  ]);
}

function markCompleted(d1: D1Database, uploadId: string, fileId: string, now: number): D1PreparedStatement {
  return d1.prepare(`update uploads set status = 'completed', file_id = ?1, updated_at = ?2 where id = ?3 and status != 'completed'`).bind(fileId, now, uploadId);
}

/**
 * The hash job's result, for the file if it still holds that object, else for the version that
 * now does (a newer upload may have replaced it meanwhile); only where it is still unknown.
 */
export async function setSha256ForKey(db: Database, fileId: string, r2Key: string, sha256: string): Promise<number> {
  const [fileUpdate, versionUpdate] = await db.batch([
    db
      .update(files)
      .set({ sha256 })
      .where(and(eq(files.id, fileId), eq(files.r2Key, r2Key), isNull(files.sha256))),
    db
      .update(fileVersions)
      .set({ sha256 })
      .where(and(eq(fileVersions.fileId, fileId), eq(fileVersions.r2Key, r2Key), isNull(fileVersions.sha256))),
  ]);
  return fileUpdate.meta.changes + versionUpdate.meta.changes;
}

/** A secret file's upload is done: the upload completed, pointing at the secret file. */
export async function markSecretUploadCompleted(db: Database, uploadId: string, secretFileId: string, now: Date): Promise<void> {
  await db.update(uploads).set({ status: "completed", fileId: secretFileId, updatedAt: now }).where(eq(uploads.id, uploadId)).run();
}

/** Records the R2 multipart upload started for an upload made without one; false when another request did first. */
export async function setUploadMultipart(db: Database, uploadId: string, r2UploadId: string): Promise<boolean> {
  const result = await db
    .update(uploads)
    .set({ r2UploadId })
    .where(and(eq(uploads.id, uploadId), isNull(uploads.r2UploadId)))
    .run();
  return result.meta.changes > 0;
}
