import { and, asc, count, desc, eq, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import { spaceUnderLegalHold } from "~/features/teams/legal-hold.queries.server";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { dataroomMembers, datarooms, files, folders, spaceMembers, spaces, type DataroomRole } from "~/db/schema";
import { inPersonalWorkspace } from "~/features/teams/workspace.queries.server";

export type NewDataroom = { id: string; rootId: string; ownerId: string; name: string; description: string; now: Date; teamId?: string | null };

/**
 * A room in one batch: its space, the owner's space membership (the file manager's access), the
 * room row, the owner's room membership and the space's root folder.
 */
export async function insertDataroom(db: Database, room: NewDataroom): Promise<void> {
  const { id, ownerId, name, description, now } = room;
  await db.batch([
    db.insert(spaces).values({ id, kind: "dataroom", ownerId, name, createdAt: now, updatedAt: now }),
    db.insert(spaceMembers).values({ spaceId: id, userId: ownerId, role: "owner", createdAt: now }),
    db.insert(datarooms).values({ id, ownerId, description, teamId: room.teamId ?? null, createdAt: now, updatedAt: now }),
    db.insert(dataroomMembers).values({ dataroomId: id, userId: ownerId, role: "owner", overrides: {}, joinedAt: now }),
    db.insert(folders).values({ id: room.rootId, spaceId: id, parentId: null, kind: "root", label: name, createdBy: ownerId, createdAt: now, updatedAt: now }),
  ]);
}

/** Rooms the member owns that are not in the trash (archived rooms count: they still hold data). */
export async function countOwnedDatarooms(db: Database, ownerId: string): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(datarooms)
    .where(and(eq(datarooms.ownerId, ownerId), isNull(datarooms.trashedAt)))
    .get();
  return row?.n ?? 0;
}

const roomColumns = {
  id: datarooms.id,
  name: spaces.name,
  description: datarooms.description,
  ownerId: datarooms.ownerId,
  ownerName: sql<string>`(select name from users where users.id = ${datarooms.ownerId})`,
  archivedAt: datarooms.archivedAt,
  overPlanAt: spaces.overPlanAt,
  overPlanReason: spaces.overPlanReason,
  trashedAt: datarooms.trashedAt,
  logoKey: datarooms.logoKey,
  logoType: datarooms.logoType,
  logoUpdatedAt: datarooms.logoUpdatedAt,
  defaultRole: datarooms.defaultRole,
  teamId: datarooms.teamId,
  teamName: sql<string | null>`(select name from teams where teams.id = ${datarooms.teamId})`,
  createdAt: datarooms.createdAt,
  updatedAt: datarooms.updatedAt,
  role: dataroomMembers.role,
  overrides: dataroomMembers.overrides,
};

/** One room as the member sees it (with their role), or undefined when they are not in it. */
export async function findDataroomForMember(db: Database, id: string, userId: string) {
  return db
    .select({
      ...roomColumns,
      // Read with the room (G3: one query less on the room page): its top folder, and when this member last opened it.
      rootFolderId: sql<string | null>`(select ${folders.id} from ${folders} where ${folders.spaceId} = ${datarooms.id} and ${folders.kind} = 'root')`,
      lastSeenAt: dataroomMembers.lastSeenAt,
    })
    .from(dataroomMembers)
    .innerJoin(datarooms, eq(datarooms.id, dataroomMembers.dataroomId))
    .innerJoin(spaces, eq(spaces.id, datarooms.id))
    .where(and(eq(dataroomMembers.dataroomId, id), eq(dataroomMembers.userId, userId)))
    .get();
}
export type DataroomMemberRow = NonNullable<Awaited<ReturnType<typeof findDataroomForMember>>>;

export type DataroomListFilter = {
  userId: string;
  filter: "all" | "mine" | "shared" | "archived" | "trash";
  q?: string;
  sort: "updated" | "name" | "created";
  dir: "asc" | "desc";
  limit: number;
  /** One workspace's rooms: a team's (its id), the member's own (null: rooms of no team of theirs), or every room (undefined). */
  teamId?: string | null;
};

/** The member's live rooms (not trashed), searched by name or description and sorted. */
export async function listDataroomsForMember(db: Database, input: DataroomListFilter) {
  // The trash shows the rooms the member owns and deleted; every other view only live rooms:
  // archived ones in their own view (issue 36), out of the way of the rooms in use.
  const conditions: SQL[] =
    input.filter === "trash"
      ? [eq(dataroomMembers.userId, input.userId), eq(datarooms.ownerId, input.userId), isNotNull(datarooms.trashedAt)]
      : [eq(dataroomMembers.userId, input.userId), isNull(datarooms.trashedAt)];
  if (input.filter === "archived") conditions.push(isNotNull(datarooms.archivedAt));
  else if (input.filter !== "trash") conditions.push(isNull(datarooms.archivedAt));
  if (input.teamId === null) conditions.push(inPersonalWorkspace(datarooms.teamId, input.userId));
  else if (input.teamId !== undefined) conditions.push(eq(datarooms.teamId, input.teamId));
  if (input.filter === "mine") conditions.push(eq(datarooms.ownerId, input.userId));
  if (input.filter === "shared") conditions.push(sql`${datarooms.ownerId} <> ${input.userId}`);
  if (input.q) {
    const like = `%${input.q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    conditions.push(sql`(${spaces.name} LIKE ${like} ESCAPE '\\' OR ${datarooms.description} LIKE ${like} ESCAPE '\\')`);
  }
  const column = input.sort === "name" ? sql`${spaces.name} COLLATE NOCASE` : input.sort === "created" ? datarooms.createdAt : datarooms.updatedAt;
  const order = input.dir === "asc" ? asc : desc;
  return db
    .select({
      ...roomColumns,
      fileCount: sql<number>`(select count(*) from ${files} where ${files.spaceId} = ${datarooms.id} and ${files.trashedAt} is null)`,
      memberCount: sql<number>`(select count(*) from ${dataroomMembers} m where m.dataroom_id = ${datarooms.id})`,
    })
    .from(dataroomMembers)
    .innerJoin(datarooms, eq(datarooms.id, dataroomMembers.dataroomId))
    .innerJoin(spaces, eq(spaces.id, datarooms.id))
    .where(and(...conditions))
    .orderBy(order(column), asc(datarooms.id))
    .limit(input.limit)
    .all();
}

/** Name (on the space and its root folder) and description; the room's updated time moves. */
export async function updateDataroomProfile(db: Database, id: string, change: { name?: string; description?: string }, now: Date): Promise<void> {
  const statements = [db.update(datarooms).set({ updatedAt: now, ...(change.description !== undefined ? { description: change.description } : {}) }).where(eq(datarooms.id, id))];
  if (change.name !== undefined) {
    await db.batch([
      statements[0]!,
      db.update(spaces).set({ name: change.name, updatedAt: now }).where(eq(spaces.id, id)),
      db.update(folders).set({ label: change.name, updatedAt: now }).where(and(eq(folders.spaceId, id), eq(folders.kind, "root"))),
    ]);
    return;
  }
  await statements[0]!;
}

export async function setDataroomArchived(db: Database, id: string, archivedAt: Date | null, now: Date): Promise<void> {
  await db.update(datarooms).set({ archivedAt, updatedAt: now }).where(eq(datarooms.id, id));
}

export async function setDataroomTrashed(db: Database, id: string, trashedAt: Date | null, now: Date): Promise<void> {
  await db.update(datarooms).set({ trashedAt, updatedAt: now }).where(eq(datarooms.id, id));
}

/** Puts a room of no team into a team's workspace; false when it is in a team already. */
export async function setDataroomTeam(db: Database, id: string, teamId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(datarooms)
    .set({ teamId, updatedAt: now })
    .where(and(eq(datarooms.id, id), isNull(datarooms.teamId)))
    .returning({ id: datarooms.id });
  return rows.length > 0;
}

/** Rooms whose 30 days in the trash are over (trashed before `cutoff`), oldest first; none of a team under a legal hold. */
export async function findExpiredTrashedDatarooms(db: Database, cutoff: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: datarooms.id })
    .from(datarooms)
    .where(and(isNotNull(datarooms.trashedAt), lt(datarooms.trashedAt, cutoff), sql`NOT ${spaceUnderLegalHold(sql`${datarooms.id}`)}`))
    .orderBy(asc(datarooms.trashedAt))
    .limit(limit)
    .all();
  return rows.map((row) => row.id);
}

/**
 * Deletes a room for good in ONE batch: its R2 keys (files and their versions) go to r2_deletions
 * (the purge deletes the objects afterwards), its favorites go, and deleting the space cascades to
 * the room row, its people, folders, files, versions, tags, metadata and uploads; then its audit
 * log goes. Only a room that
 * is still in the trash is deleted (a restore that won the race keeps it). Safe to run twice.
 */
export async function deleteTrashedDataroom(db: Database, id: string, now: Date): Promise<void> {
  const inTrash = sql`EXISTS (SELECT 1 FROM datarooms WHERE id = ${id} AND trashed_at IS NOT NULL)`;
  await rawBatch(db, [
    sql`INSERT OR IGNORE INTO r2_deletions (key, created_at)
      SELECT logo_key, ${now.getTime()} FROM datarooms WHERE id = ${id} AND logo_key IS NOT NULL AND ${inTrash}`,
    sql`INSERT OR IGNORE INTO r2_deletions (key, created_at)
      SELECT r2_key, ${now.getTime()} FROM files WHERE space_id = ${id} AND ${inTrash}
      UNION SELECT v.r2_key, ${now.getTime()} FROM file_versions v JOIN files f ON f.id = v.file_id WHERE f.space_id = ${id} AND ${inTrash}`,
    sql`DELETE FROM favorites WHERE ${inTrash} AND (
      (item_type = 'file' AND item_id IN (SELECT id FROM files WHERE space_id = ${id}))
      OR (item_type = 'folder' AND item_id IN (SELECT id FROM folders WHERE space_id = ${id})))`,
    sql`DELETE FROM spaces WHERE id = ${id} AND kind = 'dataroom' AND ${inTrash}`,
    // Its audit log goes once the room is gone (the log's trigger refuses it while the room exists).
    sql`DELETE FROM dataroom_audit_log WHERE dataroom_id = ${id} AND NOT EXISTS (SELECT 1 FROM datarooms WHERE id = ${id})`,
  ]);
}

export type { DataroomRole };

/** A new logo (or none): the room's row points at the new object; returns the key it pointed at before. */
export async function setDataroomLogoRow(db: Database, id: string, logo: { key: string; type: string } | null, now: Date): Promise<string | null> {
  const before = await db.select({ key: datarooms.logoKey }).from(datarooms).where(eq(datarooms.id, id)).get();
  await db
    .update(datarooms)
    .set({ logoKey: logo?.key ?? null, logoType: logo?.type ?? null, logoUpdatedAt: logo ? now : null, updatedAt: now })
    .where(eq(datarooms.id, id));
  return before?.key ?? null;
}

/** Where a room's logo is and what it is (null fields when it has none). */
export async function findDataroomLogo(db: Database, id: string) {
  return db.select({ key: datarooms.logoKey, type: datarooms.logoType }).from(datarooms).where(eq(datarooms.id, id)).get();
}

/** The settings page: the role new invitations start with. */
export async function setDataroomDefaultRole(db: Database, id: string, role: "admin" | "member" | "guest", now: Date): Promise<void> {
  await db.update(datarooms).set({ defaultRole: role, updatedAt: now }).where(eq(datarooms.id, id));
}
