import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { datarooms, files, searchEntries, spaceMembers, spaces, type ContentState } from "~/db/schema";

/** The index's token for a space: its id without hyphens (one token for FTS5's tokenizer). */
export function scopeToken(spaceId: string): string {
  return spaceId.replaceAll("-", "");
}

// ---- the index's upkeep ----------------------------------------------------------------------------

/** What the extraction job needs about a file: its current object, type, size and where its text stands. */
export async function findFileForIndexing(db: Database, fileId: string) {
  return db
    .select({
      id: files.id,
      name: files.name,
      contentType: files.contentType,
      size: files.size,
      r2Key: files.r2Key,
      sha256: files.sha256,
      contentState: searchEntries.contentState,
      contentKey: searchEntries.contentKey,
    })
    .from(files)
    .innerJoin(searchEntries, eq(searchEntries.itemId, files.id))
    .where(eq(files.id, fileId))
    .get();
}

/** The text already read from the same bytes (another file with this digest): reading it again would find the same. */
export async function findIndexedTwin(db: Database, fileId: string, sha256: string): Promise<{ state: ContentState; body: string } | null> {
  const row = await db.get<{ state: ContentState; body: string }>(sql`
    SELECT e.content_state AS state, t.body AS body
    FROM files f JOIN search_entries e ON e.item_id = f.id JOIN search_text t ON t.rowid = e.doc_id
    WHERE f.space_id IN (SELECT space_id FROM files WHERE id = ${fileId}) AND f.sha256 = ${sha256} AND f.id <> ${fileId}
      AND e.content_state IN ('indexed', 'empty') AND e.content_key = f.r2_key
    LIMIT 1`);
  return row ?? null;
}

/**
 * Stores what was read from `contentKey`, only while that is still the file's current object (a
 * newer version arriving meanwhile keeps its own pending state). One batch: the entry and its text
 * change together. Returns whether it was stored.
 */
export async function saveExtraction(db: Database, input: { fileId: string; contentKey: string; state: ContentState; text: string; now: Date }): Promise<boolean> {
  const current = sql`item_id = ${input.fileId} AND content_key = ${input.contentKey} AND EXISTS (SELECT 1 FROM files WHERE id = ${input.fileId} AND r2_key = ${input.contentKey})`;
  const [entry] = await rawBatch(db, [
    sql`UPDATE search_entries SET content_state = ${input.state}, content_chars = ${input.text.length}, indexed_at = ${input.now.getTime()} WHERE ${current}`,
    sql`UPDATE search_text SET body = ${input.text} WHERE rowid = (SELECT doc_id FROM search_entries WHERE ${current})`,
  ]);
  return (entry?.meta.changes ?? 0) > 0;
}

/** Files still waiting for their text, oldest first (the catch-up job). */
export async function listPendingFiles(db: Database, limit: number): Promise<string[]> {
  const rows = await db
    .select({ itemId: searchEntries.itemId })
    .from(searchEntries)
    .where(and(eq(searchEntries.contentState, "pending"), eq(searchEntries.itemType, "file")))
    .orderBy(searchEntries.docId)
    .limit(limit)
    .all();
  return rows.map((row) => row.itemId);
}

export async function countPendingFiles(db: Database): Promise<number> {
  const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM search_entries WHERE content_state = 'pending'`);
  return Number(row?.n ?? 0);
}

// ---- searching -----------------------------------------------------------------------------------

/** The member's spaces: their personal space and the rooms they are in (not trashed), with names. */
export async function listSearchSpaces(db: Database, userId: string) {
  return db
    .select({
      id: spaces.id,
      name: spaces.name,
      kind: spaces.kind,
      roomArchivedAt: datarooms.archivedAt,
      roomUpdatedAt: datarooms.updatedAt,
      isRoom: sql<number>`${datarooms.id} IS NOT NULL`,
      roomTrashed: sql<number>`${datarooms.trashedAt} IS NOT NULL`,
    })
    .from(spaceMembers)
    .innerJoin(spaces, eq(spaces.id, spaceMembers.spaceId))
    .leftJoin(datarooms, eq(datarooms.id, spaces.id))
    .where(eq(spaceMembers.userId, userId))
    .all();
}

/** The spaces among `scopes` that hold at least one match (which rooms' authority to ask). */
export async function listSpacesWithMatches(db: Database, match: string): Promise<string[]> {
  const rows = await db.all<{ scope: string }>(sql`SELECT DISTINCT scope FROM search_text WHERE search_text MATCH ${match}`);
  return rows.map((row) => row.scope);
}

export type FileHitRow = {
  itemType: "file" | "folder";
  id: string;
  name: string;
  spaceId: string;
  folderId: string | null;
  contentType: string | null;
  size: number | null;
  updatedAt: number;
  ownerId: string | null;
  snippet: string;
};

/**
 * Ranked matches among live files and folders of `allowedSpaceIds` (the FTS query already names
 * only those spaces; the join checks the live row's space again, and that it is not in the
 * trash). Names weigh ten times a document's text. `snippet` marks matches with \u0001…\u0002.
 */
export async function searchFileIndex(
  db: Database,
  input: { match: string; allowedSpaceIds: string[]; itemType?: "file" | "folder"; owner: { userId: string; mine: boolean } | null; since: Date | null; limit: number },
): Promise<FileHitRow[]> {
  if (input.allowedSpaceIds.length === 0) return [];
  const conditions: SQL[] = [sql`search_text MATCH ${input.match}`, sql`COALESCE(f.space_id, d.space_id) IN (${sql.join(input.allowedSpaceIds.map((id) => sql`${id}`), sql`, `)})`];
  if (input.itemType) conditions.push(sql`e.item_type = ${input.itemType}`);
  if (input.owner) conditions.push(input.owner.mine ? sql`COALESCE(f.uploaded_by, d.created_by) = ${input.owner.userId}` : sql`COALESCE(f.uploaded_by, d.created_by, '') <> ${input.owner.userId}`);
  if (input.since) conditions.push(sql`COALESCE(f.updated_at, d.updated_at) >= ${input.since.getTime()}`);
  const rows = await db.all<FileHitRow>(sql`
    SELECT e.item_type AS itemType, e.item_id AS id, COALESCE(f.name, d.label) AS name, COALESCE(f.space_id, d.space_id) AS spaceId,
           COALESCE(f.folder_id, d.parent_id) AS folderId, f.content_type AS contentType, f.size AS size,
           COALESCE(f.updated_at, d.updated_at) AS updatedAt, COALESCE(f.uploaded_by, d.created_by) AS ownerId,
           snippet(search_text, 1, char(1), char(2), '…', 14) AS snippet
    FROM search_text
    JOIN search_entries e ON e.doc_id = search_text.rowid
    LEFT JOIN files f ON e.item_type = 'file' AND f.id = e.item_id AND f.trashed_at IS NULL
    LEFT JOIN folders d ON e.item_type = 'folder' AND d.id = e.item_id AND d.trashed_at IS NULL
    WHERE ${and(...conditions)}
    ORDER BY bm25(search_text, 10.0, 1.0, 0.0), e.doc_id
    LIMIT ${input.limit}`);
  return rows.map((row) => ({ ...row, updatedAt: Number(row.updatedAt), size: row.size === null ? null : Number(row.size) }));
}
