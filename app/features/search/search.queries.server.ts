import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { files, searchEntries, type ContentState } from "~/db/schema";

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

// ---- searching (statements for the search's one D1 batch, ADR 028) ---------------------------------

export type SearchSpaceRow = { id: string; name: string; isRoom: number; isPersonal: number; archivedAt: number | null; roomUpdatedAt: number | null };

/** The member's live spaces: their personal space, their teams' drives and the rooms they are in that are not in the trash. */
export function searchSpacesStatement(userId: string): SQL {
  return sql`SELECT s.id AS id, s.name AS name, d.id IS NOT NULL AS isRoom, s.kind = 'personal' AS isPersonal, d.archived_at AS archivedAt, d.updated_at AS roomUpdatedAt
    FROM space_members sm JOIN spaces s ON s.id = sm.space_id LEFT JOIN datarooms d ON d.id = sm.space_id
    WHERE sm.user_id = ${userId} AND d.trashed_at IS NULL`;
}

/** Which of the member's spaces a search covers: all, their personal space, or one space (a room, a team's drive); never the excluded ones. */
export type SearchScope = { userId: string; place: "personal" | string | null; excluded: readonly string[] };

/**
 * The FTS5 clause naming the member's spaces, built inside the statement from space_members (no
 * round trip to learn them first): `scope : ("a1b2…" OR "c3d4…")`; a member with none gets a token
 * no space has.
 */
function scopeClause(scope: SearchScope): SQL {
  const conditions: SQL[] = [sql`msm.user_id = ${scope.userId}`, sql`mroom.trashed_at IS NULL`];
  if (scope.place === "personal") conditions.push(sql`EXISTS (SELECT 1 FROM spaces mown WHERE mown.id = msm.space_id AND mown.kind = 'personal')`);
  else if (scope.place) conditions.push(sql`msm.space_id = ${scope.place}`);
  if (scope.excluded.length > 0) conditions.push(sql`msm.space_id NOT IN (${sql.join(scope.excluded.map((id) => sql`${id}`), sql`, `)})`);
  return sql`'scope : (' || COALESCE((SELECT group_concat('"' || replace(msm.space_id, '-', '') || '"', ' OR ') FROM space_members msm LEFT JOIN datarooms mroom ON mroom.id = msm.space_id WHERE ${and(...conditions)}), '"none"') || ')'`;
}

export type FileHitRow = {
  itemType: "file" | "folder";
  id: string;
  name: string;
  spaceId: string;
  contentType: string | null;
  size: number | null;
  updatedAt: number;
  snippet: string;
};

/**
 * Live files and folders of the member's spaces matching `words` (an FTS5 expression) in their
 * name only, or in their name or text; newest first (rowid order lets SQLite stop at the page:
 * G11 reads in proportion to the page, where bm25 would score every match). `snippet` marks the
 * matches in the text with \u0001…\u0002.
 */
export function fileHitsStatement(input: {
  words: string;
  columns: "name" | "name body";
  scope: SearchScope;
  itemType?: "file" | "folder";
  owner: { userId: string; mine: boolean } | null;
  since: Date | null;
  limit: number;
}): SQL {
  const conditions: SQL[] = [sql`search_text MATCH ${`{${input.columns}} : (${input.words})`} || ' AND ' || ${scopeClause(input.scope)}`];
  if (input.itemType) conditions.push(sql`e.item_type = ${input.itemType}`);
  if (input.owner) conditions.push(input.owner.mine ? sql`COALESCE(f.uploaded_by, d.created_by) = ${input.owner.userId}` : sql`COALESCE(f.uploaded_by, d.created_by, '') <> ${input.owner.userId}`);
  if (input.since) conditions.push(sql`COALESCE(f.updated_at, d.updated_at) >= ${input.since.getTime()}`);
  return sql`
    SELECT e.item_type AS itemType, e.item_id AS id, COALESCE(f.name, d.label) AS name, COALESCE(f.space_id, d.space_id) AS spaceId,
           f.content_type AS contentType, f.size AS size, COALESCE(f.updated_at, d.updated_at) AS updatedAt,
           snippet(search_text, 1, char(1), char(2), '…', 14) AS snippet
    FROM search_text
    JOIN search_entries e ON e.doc_id = search_text.rowid
    LEFT JOIN files f ON e.item_type = 'file' AND f.id = e.item_id AND f.trashed_at IS NULL
    LEFT JOIN folders d ON e.item_type = 'folder' AND d.id = e.item_id AND d.trashed_at IS NULL
    JOIN space_members sm ON sm.space_id = COALESCE(f.space_id, d.space_id) AND sm.user_id = ${input.scope.userId}
    WHERE ${and(...conditions)}
    ORDER BY search_text.rowid DESC
    LIMIT ${input.limit}`;
}

/** Runs statements in one D1 batch and gives each one's rows. */
export async function runSearchBatch(db: Database, statements: readonly SQL[]): Promise<unknown[][]> {
  if (statements.length === 0) return [];
  const results = await rawBatch(db, statements);
  return results.map((result) => result.results ?? []);
}
