import { and, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { containsEvery } from "~/db/like.server";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { SHARE_PRIVACY_DEFAULTS } from "./sharing.constants";
import { breadcrumbsQuery, filesInFolderQuery, subfoldersQuery } from "~/features/files/folders.queries.server";
import { files, folders, shareLinkAgreements, shareLinks, shareLinkVisits, sharePrivacy, shareVisitFiles, shareVisitPages, spaces, users } from "~/db/schema";

/** Share links: the only place drizzle is called for them. */

export type ShareLinkRow = typeof shareLinks.$inferSelect;
export type ShareLinkInsert = typeof shareLinks.$inferInsert;

export async function insertShareLink(db: Database, row: ShareLinkInsert): Promise<void> {
  await db.insert(shareLinks).values(row).run();
}

export async function findShareLink(db: Database, id: string): Promise<ShareLinkRow | undefined> {
  return db.select().from(shareLinks).where(eq(shareLinks.id, id)).get();
}

export async function isSlugTaken(db: Database, slug: string, exceptId?: string): Promise<boolean> {
  const row = await db.select({ id: shareLinks.id }).from(shareLinks).where(eq(shareLinks.slug, slug)).get();
  return row !== undefined && row.id !== exceptId;
}

export async function updateShareLinkRow(db: Database, id: string, set: Partial<ShareLinkInsert>): Promise<void> {
  await db.update(shareLinks).set(set).where(eq(shareLinks.id, id)).run();
}

/** A space's links, newest first (at most `limit`), with the name of who made each. */
export async function listSpaceShareLinks(db: Database, spaceId: string, limit: number) {
  return db
    .select({ link: shareLinks, creatorName: users.name })
    .from(shareLinks)
    .leftJoin(users, eq(users.id, shareLinks.createdBy))
    .where(eq(shareLinks.spaceId, spaceId))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id))
    .limit(limit)
    .all();
}

/** The ids of what links share, by kind, for one look-up of their names. */
export function targetIdsOf(links: readonly Pick<ShareLinkRow, "targetType" | "targetId">[]): { files: string[]; folders: string[]; spaces: string[] } {
  const of = (type: ShareLinkRow["targetType"]) => links.filter((link) => link.targetType === type).map((link) => link.targetId);
  return { files: of("file"), folders: of("folder"), spaces: of("room") };
}

/** The name of what one link shares, or null when it is gone. */
export async function findTargetName(db: Database, link: Pick<ShareLinkRow, "targetType" | "targetId">): Promise<string | null> {
  return (await findTargetNames(db, targetIdsOf([link]))).get(link.targetId) ?? null;
}

/** The names of shared things, by id (files, folders, rooms), for lists of links. */
export async function findTargetNames(db: Database, ids: { files: string[]; folders: string[]; spaces: string[] }): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const [fileRows, folderRows, spaceRows] = await Promise.all([
    ids.files.length ? db.select({ id: files.id, name: files.name }).from(files).where(inArray(files.id, ids.files.slice(0, 90))).all() : [],
    ids.folders.length ? db.select({ id: folders.id, name: folders.label }).from(folders).where(inArray(folders.id, ids.folders.slice(0, 90))).all() : [],
    ids.spaces.length ? db.select({ id: spaces.id, name: spaces.name }).from(spaces).where(inArray(spaces.id, ids.spaces.slice(0, 90))).all() : [],
  ]);
  for (const row of [...fileRows, ...folderRows, ...spaceRows]) names.set(row.id, row.name);
  return names;
}

/** A live link by its token's hash or its custom address. */
export async function findShareLinkByKey(db: Database, key: { tokenHash?: string; slug?: string }): Promise<ShareLinkRow | undefined> {
  if (key.tokenHash) return db.select().from(shareLinks).where(eq(shareLinks.tokenHash, key.tokenHash)).get();
  if (key.slug) return db.select().from(shareLinks).where(eq(shareLinks.slug, key.slug)).get();
  return undefined;
}

/** Counts a view unless the link's view limit is reached; false when it is (used up). */
export async function countShareView(db: Database, id: string, now: Date): Promise<boolean> {
  const result = await db
    .update(shareLinks)
    .set({ viewCount: sql`${shareLinks.viewCount} + 1`, lastViewedAt: now })
    .where(and(eq(shareLinks.id, id), isNull(shareLinks.revokedAt), sql`(${shareLinks.maxViews} IS NULL OR ${shareLinks.viewCount} < ${shareLinks.maxViews})`))
    .run();
  return (result.meta.changes ?? 0) > 0;
}

export async function insertAgreement(db: Database, row: typeof shareLinkAgreements.$inferInsert): Promise<void> {
  await db.insert(shareLinkAgreements).values(row).run();
}

/** A live file by id (a share link's visitor has no membership to join). */
export async function findLiveFile(db: Database, id: string) {
  return db.select().from(files).where(and(eq(files.id, id), isNull(files.trashedAt))).get();
}

/** Whether a folder is `ancestorId` or inside it (walking up the folder tree). */
export async function isFolderWithin(db: Database, folderId: string, ancestorId: string): Promise<boolean> {
  const row = await db.get<{ found: number }>(sql`
    WITH RECURSIVE up(id, parent_id, depth) AS (
      SELECT id, parent_id, 0 FROM folders WHERE id = ${folderId} AND trashed_at IS NULL
      UNION ALL
      SELECT f.id, f.parent_id, up.depth + 1 FROM folders f JOIN up ON f.id = up.parent_id WHERE f.trashed_at IS NULL AND up.depth < 64
    )
    SELECT 1 AS found FROM up WHERE id = ${ancestorId} LIMIT 1`);
  return row !== undefined && row !== null;
}

export async function findSpaceName(db: Database, id: string): Promise<string> {
  return (await db.select({ name: spaces.name }).from(spaces).where(eq(spaces.id, id)).get())?.name ?? "";
}

// ---- visits (analytics) -------------------------------------------------------------------------

/** Records a counted visit (once: the visit's id is its key). */
export async function insertShareVisit(db: Database, row: typeof shareLinkVisits.$inferInsert): Promise<void> {
  await db.insert(shareLinkVisits).values(row).onConflictDoNothing().run();
}

/**
 * Counts an opening or a download of a file by a visit (the server's count, as the bytes leave),
 * and notes that the visit was seen. A visit without its row (the link was counted, the row not
 * yet written) changes nothing.
 */
export async function countVisitFile(db: Database, row: { visitId: string; fileId: string; kind: "open" | "download"; now: Date }): Promise<void> {
  const opens = row.kind === "open" ? 1 : 0;
  const downloads = row.kind === "download" ? 1 : 0;
  await rawBatch(db, [
    sql`
      INSERT INTO share_visit_files (visit_id, file_id, opens, downloads, last_at)
      SELECT id, ${row.fileId}, ${opens}, ${downloads}, ${row.now.getTime()} FROM share_link_visits WHERE id = ${row.visitId}
      ON CONFLICT (visit_id, file_id) DO UPDATE SET opens = opens + excluded.opens, downloads = downloads + excluded.downloads, last_at = excluded.last_at`,
    sql`UPDATE share_link_visits SET last_seen_at = ${row.now.getTime()} WHERE id = ${row.visitId}`,
  ]);
}

/** Adds the viewer's time per page of one file to a visit, and the page count it saw. */
export async function addVisitPageTime(db: Database, row: { visitId: string; fileId: string; pageCount: number | null; pages: [number, number][]; now: Date }): Promise<void> {
  const statements = row.pages.map(([page, ms]) =>
    db
      .insert(shareVisitPages)
      .values({ visitId: row.visitId, fileId: row.fileId, page, ms })
      .onConflictDoUpdate({ target: [shareVisitPages.visitId, shareVisitPages.fileId, shareVisitPages.page], set: { ms: sql`${shareVisitPages.ms} + excluded.ms` } }),
  );
  const touch = db.update(shareLinkVisits).set({ lastSeenAt: row.now }).where(eq(shareLinkVisits.id, row.visitId));
  // The file's row of the visit (a report may arrive before the opening was counted), with the page count it saw.
  const fileRow = db
    .insert(shareVisitFiles)
    .values({ visitId: row.visitId, fileId: row.fileId, pageCount: row.pageCount, lastAt: row.now })
    .onConflictDoUpdate({ target: [shareVisitFiles.visitId, shareVisitFiles.fileId], set: { pageCount: sql`coalesce(excluded.page_count, ${shareVisitFiles.pageCount})`, lastAt: row.now } });
  await db.batch([touch, fileRow, ...statements]);
}

/** Whether a visit has its row (page time is kept only for counted visits). */
export async function hasShareVisit(db: Database, visitId: string, linkId: string): Promise<boolean> {
  return (await db.select({ id: shareLinkVisits.id }).from(shareLinkVisits).where(and(eq(shareLinkVisits.id, visitId), eq(shareLinkVisits.linkId, linkId))).get()) !== undefined;
}

// ---- what a visitor browses --------------------------------------------------------------------

/** A live folder of a space (a visitor's folder link or a room link's root). */
export async function findLiveFolder(db: Database, id: string) {
  return db.select({ id: folders.id, spaceId: folders.spaceId, label: folders.label, kind: folders.kind }).from(folders).where(and(eq(folders.id, id), isNull(folders.trashedAt))).get();
}

/** A folder's ancestors (root first), subfolders and files by name, in one round trip; `limit` each (one more to tell there is more). */
export async function loadVisitorFolder(db: Database, folder: { id: string; spaceId: string }, limit: number) {
  const [crumbs, subfolders, fileRows] = await db.batch([
    breadcrumbsQuery(db, folder.id),
    subfoldersQuery(db, folder.spaceId, folder.id, null, limit + 1),
    filesInFolderQuery(db, folder.id, "name", "asc", null, limit + 1),
  ]);
  return { crumbs, subfolders, files: fileRows };
}

// ---- a link's analytics (its manager's page) ------------------------------------------------------

export type LinkVisitRow = { id: string; email: string | null; ip: string | null; userAgent: string | null; startedAt: number; lastSeenAt: number };
export type VisitFileRow = { visitId: string; fileId: string; name: string | null; opens: number; downloads: number; pageCount: number | null };
export type VisitPageRow = { visitId: string; fileId: string; page: number; ms: number };
export type LinkTotalsRow = { views: number; visitors: number; downloads: number; agreements: number };
export type AgreementRow = { name: string; email: string | null; ip: string | null; acceptedAt: number };

/**
 * A link's newest visits (at most `limit`) with what each did per file and page, its agreements,
 * and its totals over every visit, in one round trip.
 */
export async function loadLinkAnalytics(db: Database, linkId: string, limit: number) {
  const recent = sql`SELECT id FROM share_link_visits WHERE link_id = ${linkId} ORDER BY started_at DESC, id DESC LIMIT ${limit}`;
  const [visits, fileRows, pageRows, totals, agreements] = await rawBatch(db, [
    sql`SELECT id, email, ip, user_agent AS userAgent, started_at AS startedAt, last_seen_at AS lastSeenAt FROM share_link_visits WHERE link_id = ${linkId} ORDER BY started_at DESC, id DESC LIMIT ${limit}`,
    sql`SELECT f.visit_id AS visitId, f.file_id AS fileId, files.name AS name, f.opens, f.downloads, f.page_count AS pageCount
        FROM share_visit_files f LEFT JOIN files ON files.id = f.file_id WHERE f.visit_id IN (${recent}) ORDER BY f.last_at`,
    sql`SELECT visit_id AS visitId, file_id AS fileId, page, ms FROM share_visit_pages WHERE visit_id IN (${recent}) ORDER BY file_id, page`,
    sql`SELECT
          (SELECT count(*) FROM share_link_visits WHERE link_id = ${linkId}) AS views,
          (SELECT count(DISTINCT coalesce(email, id)) FROM share_link_visits WHERE link_id = ${linkId}) AS visitors,
          (SELECT coalesce(sum(f.downloads), 0) FROM share_visit_files f JOIN share_link_visits v ON v.id = f.visit_id WHERE v.link_id = ${linkId}) AS downloads,
          (SELECT count(*) FROM share_link_agreements WHERE link_id = ${linkId}) AS agreements`,
    sql`SELECT name, email, ip, accepted_at AS acceptedAt FROM share_link_agreements WHERE link_id = ${linkId} ORDER BY accepted_at DESC LIMIT ${limit}`,
  ]);
  return {
    visits: (visits!.results ?? []) as LinkVisitRow[],
    files: (fileRows!.results ?? []) as VisitFileRow[],
    pages: (pageRows!.results ?? []) as VisitPageRow[],
    totals: ((totals!.results ?? [])[0] ?? { views: 0, visitors: 0, downloads: 0, agreements: 0 }) as LinkTotalsRow,
    agreements: (agreements!.results ?? []) as AgreementRow[],
  };
}

/** Per link of a space: how many different visitors each had (the sharing page's list). */
export async function countVisitorsByLink(db: Database, linkIds: readonly string[]): Promise<Map<string, number>> {
  if (linkIds.length === 0) return new Map();
  const rows = await db.all<{ linkId: string; visitors: number }>(sql`
    SELECT link_id AS linkId, count(DISTINCT coalesce(email, id)) AS visitors FROM share_link_visits
    WHERE link_id IN (SELECT value FROM json_each(${JSON.stringify(linkIds)})) GROUP BY link_id`);
  return new Map(rows.map((row) => [row.linkId, row.visitors]));
}

// ---- visitor privacy --------------------------------------------------------------------------------

export async function findSharePrivacy(db: Database, spaceId: string) {
  return db.select().from(sharePrivacy).where(eq(sharePrivacy.spaceId, spaceId)).get();
}

export async function upsertSharePrivacy(db: Database, row: typeof sharePrivacy.$inferInsert): Promise<void> {
  await db
    .insert(sharePrivacy)
    .values(row)
    .onConflictDoUpdate({ target: sharePrivacy.spaceId, set: { ipMode: row.ipMode, retentionDays: row.retentionDays, updatedAt: row.updatedAt } })
    .run();
}

/** The privacy of a link's space as it applies (no row: the defaults), for writes. */
const privacyOf = (alias: string) => sql`coalesce((SELECT ip_mode FROM share_privacy p WHERE p.space_id = ${sql.raw(alias)}.space_id), ${SHARE_PRIVACY_DEFAULTS.ipMode})`;

/**
 * The nightly pass over stored visitor data (at most `limit` rows of each kind per run): visits
 * older than their space's retention are deleted (with their files and pages), addresses are
 * dropped where the space keeps none, and the addresses to shorten are returned for the caller
 * to rewrite (SQLite cannot cut them by itself).
 */
export async function purgeExpiredVisits(db: Database, now: Date, limit: number): Promise<number> {
  const result = await db.run(sql`
    DELETE FROM share_link_visits WHERE id IN (
      SELECT v.id FROM share_link_visits v JOIN share_links l ON l.id = v.link_id
      WHERE v.started_at < ${now.getTime()} - 86400000 * coalesce((SELECT retention_days FROM share_privacy p WHERE p.space_id = l.space_id), ${SHARE_PRIVACY_DEFAULTS.retentionDays})
        AND NOT EXISTS (SELECT 1 FROM share_privacy p WHERE p.space_id = l.space_id AND p.retention_days IS NULL)
      LIMIT ${limit})`);
  return result.meta.changes ?? 0;
}

export async function dropAddresses(db: Database, limit: number): Promise<number> {
  const [visits, agreements] = await rawBatch(db, [
    sql`UPDATE share_link_visits SET ip = NULL WHERE id IN (
      SELECT v.id FROM share_link_visits v JOIN share_links l ON l.id = v.link_id WHERE v.ip IS NOT NULL AND ${privacyOf("l")} = 'none' LIMIT ${limit})`,
    sql`UPDATE share_link_agreements SET ip = NULL WHERE id IN (
      SELECT a.id FROM share_link_agreements a JOIN share_links l ON l.id = a.link_id WHERE a.ip IS NOT NULL AND ${privacyOf("l")} = 'none' LIMIT ${limit})`,
  ]);
  return (visits!.meta.changes ?? 0) + (agreements!.meta.changes ?? 0);
}

/** Stored addresses not yet shortened where the space keeps them shortened. */
export async function findAddressesToShorten(db: Database, limit: number) {
  const notShort = (column: string) => sql.raw(`${column} IS NOT NULL AND ${column} NOT LIKE '%.0' AND ${column} NOT LIKE '%::'`);
  const [visits, agreements] = await rawBatch(db, [
    sql`SELECT v.id, v.ip FROM share_link_visits v JOIN share_links l ON l.id = v.link_id WHERE ${notShort("v.ip")} AND ${privacyOf("l")} = 'truncated' LIMIT ${limit}`,
    sql`SELECT a.id, a.ip FROM share_link_agreements a JOIN share_links l ON l.id = a.link_id WHERE ${notShort("a.ip")} AND ${privacyOf("l")} = 'truncated' LIMIT ${limit}`,
  ]);
  return { visits: (visits!.results ?? []) as { id: string; ip: string }[], agreements: (agreements!.results ?? []) as { id: string; ip: string }[] };
}

export async function rewriteAddresses(db: Database, rows: { table: "visits" | "agreements"; id: string; ip: string | null }[]): Promise<void> {
  if (rows.length === 0) return;
  await rawBatch(
    db,
    rows.map((row) => (row.table === "visits" ? sql`UPDATE share_link_visits SET ip = ${row.ip} WHERE id = ${row.id}` : sql`UPDATE share_link_agreements SET ip = ${row.ip} WHERE id = ${row.id}`)),
  );
}

// ---- personal data ----------------------------------------------------------------------------------

/** The links a member made (export): what each shares, its name, options in short, views and dates. */
export async function listLinksMadeBy(db: Database, userId: string) {
  return db
    .select({
      id: shareLinks.id,
      name: shareLinks.name,
      targetType: shareLinks.targetType,
      targetId: shareLinks.targetId,
      spaceName: spaces.name,
      slug: shareLinks.slug,
      expiresAt: shareLinks.expiresAt,
      maxViews: shareLinks.maxViews,
      viewCount: shareLinks.viewCount,
      revokedAt: shareLinks.revokedAt,
      createdAt: shareLinks.createdAt,
    })
    .from(shareLinks)
    .innerJoin(spaces, eq(spaces.id, shareLinks.spaceId))
    .where(eq(shareLinks.createdBy, userId))
    .orderBy(desc(shareLinks.createdAt))
    .all();
}

/** Erasure: the member's name leaves the links they made in rooms (the room keeps its links); their own space's links go with the space. */
export async function forgetLinkMaker(db: Database, userId: string): Promise<void> {
  await db.update(shareLinks).set({ createdBy: null }).where(eq(shareLinks.createdBy, userId)).run();
}

// ---- search ---------------------------------------------------------------------------------------

export type ShareLinkSearchRow = { id: string; name: string; targetType: string; revokedAt: number | null; expiresAt: number | null; updatedAt: number };

/**
 * The member's own links (their personal space's) whose name holds every term, newest first: a
 * statement for the search's one D1 batch (search.sources.server.ts).
 */
export function searchOwnShareLinksStatement(input: { userId: string; terms: readonly string[]; since: Date | null; limit: number }): SQL {
  const since = input.since ? sql` AND updated_at >= ${input.since.getTime()}` : sql``;
  return sql`SELECT id, name, target_type AS targetType, revoked_at AS revokedAt, expires_at AS expiresAt, updated_at AS updatedAt FROM share_links
    WHERE space_id = (SELECT id FROM spaces WHERE owner_id = ${input.userId} AND kind = 'personal') AND ${containsEvery(shareLinks.name, input.terms)}${since}
    ORDER BY created_at DESC LIMIT ${input.limit}`;
}
