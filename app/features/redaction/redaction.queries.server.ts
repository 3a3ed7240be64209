import { and, desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { fileRedactions, fileVersions } from "~/db/schema";

export type RedactedContent = {
  fileId: string;
  /** The object the member marked: nothing is written when the file holds another one by now. */
  expectedR2Key: string;
  r2Key: string;
  size: number;
  contentType: string;
  sha256: string;
  userId: string;
  now: Date;
  reportId: string;
  report: Record<string, unknown>;
};

/**
 * The redacted content becomes the file's new version, in one batch: the current content moves
 * to file_versions (it stays the previous version), the file points at the redacted object and
 * its version goes up, and the report is kept with that version. Every statement is conditional
 * on the file still holding the marked object, so a concurrent change (or a retry) writes nothing.
 */
export async function replaceWithRedacted(db: Database, content: RedactedContent): Promise<boolean> {
  const d1 = db.$client;
  const now = content.now.getTime();
  const [, update] = await d1.batch([
    d1
      .prepare(
        `insert into file_versions (id, file_id, space_id, version, r2_key, size, content_type, sha256, created_by, created_at)
         select ?1, id, space_id, version, r2_key, size, content_type, sha256, uploaded_by, updated_at
         from files where id = ?2 and r2_key = ?3 and trashed_at is null
         on conflict do nothing`,
      )
      .bind(crypto.randomUUID(), content.fileId, content.expectedR2Key),
    d1
      .prepare(
        `update files set r2_key = ?1, size = ?2, content_type = ?8, sha256 = ?3, version = version + 1, uploaded_by = ?4, updated_at = ?5
         where id = ?6 and r2_key = ?7 and trashed_at is null`,
      )
      .bind(content.r2Key, content.size, content.sha256, content.userId, now, content.fileId, content.expectedR2Key, content.contentType),
    d1
      .prepare(
        `insert into file_redactions (id, file_id, space_id, version, report, created_by, created_at)
         select ?1, id, space_id, version, ?2, ?3, ?4 from files where id = ?5 and r2_key = ?6`,
      )
      .bind(content.reportId, JSON.stringify(content.report), content.userId, now, content.fileId, content.r2Key),
  ]);
  return (update?.meta.changes ?? 0) > 0;
}

/** A file's redaction reports, newest first. */
export async function listRedactionsOf(db: Database, fileId: string) {
  return db.select().from(fileRedactions).where(and(eq(fileRedactions.fileId, fileId))).orderBy(desc(fileRedactions.version)).limit(50).all();
}

/** One earlier version of a file (its content key), or undefined. */
export async function findFileVersion(db: Database, fileId: string, versionId: string) {
  return db
    .select({ id: fileVersions.id, version: fileVersions.version, r2Key: fileVersions.r2Key, size: fileVersions.size, contentType: fileVersions.contentType })
    .from(fileVersions)
    .where(and(eq(fileVersions.fileId, fileId), eq(fileVersions.id, versionId)))
    .get();
}
