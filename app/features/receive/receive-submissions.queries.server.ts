import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { receivePages, receiveSubmissions, uploads, users } from "~/db/schema";

/** Receive pages' public side and their submissions: the only place drizzle is called for them. */

export type ReceiveSubmissionRow = typeof receiveSubmissions.$inferSelect;

/** A page by its address (a token's hash or a custom address), with its owner's name. */
export async function findReceivePageByAddress(db: Database, key: { tokenHash: string } | { slug: string }) {
  return db
    .select({ page: receivePages, ownerName: users.name })
    .from(receivePages)
    .innerJoin(users, eq(users.id, receivePages.userId))
    .where("tokenHash" in key ? eq(receivePages.tokenHash, key.tokenHash) : eq(receivePages.slug, key.slug))
    .get();
}

/**
 * How many files one address has sent to a page so far (its files-per-person limit): those
 * delivered, and those of submissions still on their way; files withdrawn or abandoned do not count.
 */
export async function countFilesFromEmail(db: Database, pageId: string, email: string): Promise<number> {
  const row = await db
    // The outer table is named in full inside the subquery (drizzle writes its columns unqualified).
    .select({
      n: sql<number>`coalesce(sum(CASE WHEN EXISTS (SELECT 1 FROM uploads WHERE uploads.receive_submission_id = "receive_submissions"."id" AND uploads.status != 'completed')
        THEN "receive_submissions"."file_count" ELSE json_array_length("receive_submissions"."delivered") END), 0)`,
    })
    .from(receiveSubmissions)
    .where(and(eq(receiveSubmissions.pageId, pageId), eq(receiveSubmissions.uploaderEmail, email)))
    .get();
  return row?.n ?? 0;
}

export type NewReceivedUpload = { id: string; name: string; relativePath: string; length: number; partSize: number; r2Key: string };

/**
 * The submission and every upload it declares, in one batch: all of it is reserved against the
 * quota at once, or nothing is (the uploads go in as one statement reading a JSON list, so the
 * 100-parameter limit holds for any number of files).
 */
export async function insertSubmissionWithUploads(
  db: Database,
  submission: NewReceiveSubmission,
  target: { spaceId: string; folderId: string; expiresAt: Date },
  files: readonly NewReceivedUpload[],
): Promise<void> {
  const now = submission.createdAt.getTime();
  await rawBatch(db, [
    sql`INSERT INTO receive_submissions (id, page_id, user_id, page_title, uploader_name, uploader_email, answers, grant_hash, folder_label, file_count, bytes, created_at)
        VALUES (${submission.id}, ${submission.pageId}, ${submission.userId}, ${submission.pageTitle}, ${submission.uploaderName}, ${submission.uploaderEmail}, ${JSON.stringify(submission.answers)},
                ${submission.grantHash}, ${submission.folderLabel}, CAST(${submission.fileCount} AS INTEGER), CAST(${submission.bytes} AS INTEGER), CAST(${now} AS INTEGER))`,
    sql`
      INSERT INTO uploads (id, space_id, folder_id, user_id, name, relative_path, length, part_size, "offset", r2_key, r2_upload_id, status, receive_submission_id, created_at, updated_at, expires_at)
      SELECT json_extract(value, '$.id'), ${target.spaceId}, ${target.folderId}, ${submission.userId}, json_extract(value, '$.name'), json_extract(value, '$.relativePath'),
             CAST(json_extract(value, '$.length') AS INTEGER), CAST(json_extract(value, '$.partSize') AS INTEGER), 0, json_extract(value, '$.r2Key'), NULL, 'active',
             ${submission.id}, CAST(${now} AS INTEGER), CAST(${now} AS INTEGER), CAST(${target.expiresAt.getTime()} AS INTEGER)
      FROM json_each(${JSON.stringify(files)})`,
  ]);
}

export type NewReceiveSubmission = {
  id: string;
  pageId: string;
  userId: string;
  pageTitle: string;
  uploaderName: string | null;
  uploaderEmail: string | null;
  answers: { label: string; value: string }[];
  grantHash: string;
  folderLabel: string | null;
  fileCount: number;
  bytes: number;
  createdAt: Date;
};

export async function findSubmissionByGrant(db: Database, grantHash: string): Promise<ReceiveSubmissionRow | undefined> {
  return db.select().from(receiveSubmissions).where(eq(receiveSubmissions.grantHash, grantHash)).get();
}

/** A submission with what its page (if it still exists) allows. */
export async function findSubmissionWithPage(db: Database, id: string) {
  return db
    .select({ submission: receiveSubmissions, allowedTypes: receivePages.allowedTypes, caseTypeId: receivePages.caseTypeId })
    .from(receiveSubmissions)
    .leftJoin(receivePages, eq(receivePages.id, receiveSubmissions.pageId))
    .where(eq(receiveSubmissions.id, id))
    .get();
}

/** Its uploads still on their way (neither completed nor withdrawn). */
export async function countPendingSubmissionUploads(db: Database, submissionId: string): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(uploads)
    .where(and(eq(uploads.receiveSubmissionId, submissionId), sql`${uploads.status} != 'completed'`))
    .get();
  return row?.n ?? 0;
}

/** Adds a delivered file to its submission's record, once (a retried completion adds nothing). */
export async function recordDeliveredFile(db: Database, submissionId: string, file: { fileId: string; name: string }): Promise<void> {
  await rawBatch(db, [
    sql`UPDATE receive_submissions SET delivered = json_insert(delivered, '$[#]', json_object('fileId', ${file.fileId}, 'name', ${file.name}))
        WHERE id = ${submissionId} AND NOT EXISTS (SELECT 1 FROM json_each(receive_submissions.delivered) WHERE json_extract(value, '$.fileId') = ${file.fileId})`,
  ]);
}

/** Marks the owner told; true for the one call that did it. */
export async function markSubmissionNotified(db: Database, id: string, now: Date): Promise<boolean> {
  const result = await db
    .update(receiveSubmissions)
    .set({ notifiedAt: now })
    .where(and(eq(receiveSubmissions.id, id), isNull(receiveSubmissions.notifiedAt)))
    .run();
  return result.meta.changes > 0;
}

/** The uploader's details on a received file; a retry adds nothing twice. */
export async function insertReceivedMetadata(db: Database, fileId: string, entries: readonly { key: string; value: string }[], now: Date): Promise<void> {
  if (entries.length === 0) return;
  await rawBatch(db, [
    sql`INSERT INTO file_metadata (file_id, key, value, updated_at)
        SELECT ${fileId}, json_extract(value, '$.key'), json_extract(value, '$.value'), CAST(${now.getTime()} AS INTEGER)
        FROM json_each(${JSON.stringify(entries)})
        WHERE EXISTS (SELECT 1 FROM files WHERE id = ${fileId})
        ON CONFLICT DO NOTHING`,
  ]);
}

/** A page's submissions, newest first (its owner's view). */
export async function listSubmissionsOfPage(db: Database, userId: string, pageId: string, limit: number) {
  return db
    .select()
    .from(receiveSubmissions)
    .where(and(eq(receiveSubmissions.userId, userId), eq(receiveSubmissions.pageId, pageId)))
    .orderBy(desc(receiveSubmissions.createdAt), desc(receiveSubmissions.id))
    .limit(limit)
    .all();
}

/** Every submission a member received (personal data export). */
export async function listSubmissionsOf(db: Database, userId: string) {
  return db.select().from(receiveSubmissions).where(eq(receiveSubmissions.userId, userId)).orderBy(desc(receiveSubmissions.createdAt)).all();
}

export async function deleteSubmissionsOf(db: Database, userId: string): Promise<void> {
  await db.delete(receiveSubmissions).where(eq(receiveSubmissions.userId, userId)).run();
}
