import { and, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { containsEvery } from "~/db/like.server";
import type { Database } from "~/db/client.server";
import { folders, receiveFieldSets, receivePages, spaces, teamCustomRoles, teamMembers } from "~/db/schema";
import { inPersonalWorkspace } from "~/features/teams/workspace.queries.server";

/** Receive pages: the only place drizzle is called for them. */

export type ReceivePageRow = typeof receivePages.$inferSelect;

export async function insertReceivePage(db: Database, row: typeof receivePages.$inferInsert): Promise<void> {
  await db.insert(receivePages).values(row).run();
}

export async function countReceivePages(db: Database, userId: string): Promise<number> {
  return (await db.select({ n: sql<number>`count(*)` }).from(receivePages).where(eq(receivePages.userId, userId)).get())?.n ?? 0;
}

/**
 * Pages newest first, with where their files go (the space's name and the folder's): the member's
 * (`personalOnly`: those of no team), or a team's (`teamId`).
 */
export async function listReceivePagesOf(db: Database, userId: string, options: { personalOnly?: boolean; teamId?: string } = {}) {
  return db
    .select({ page: receivePages, spaceName: spaces.name, spaceKind: spaces.kind, folderLabel: folders.label })
    .from(receivePages)
    .innerJoin(spaces, eq(spaces.id, receivePages.spaceId))
    .leftJoin(folders, eq(folders.id, receivePages.folderId))
    .where(options.teamId ? eq(receivePages.teamId, options.teamId) : and(eq(receivePages.userId, userId), options.personalOnly ? inPersonalWorkspace(receivePages.teamId, userId) : undefined))
    .orderBy(desc(receivePages.createdAt), desc(receivePages.id))
    .all();
}

/** A page as someone may reach it: with their place in the team whose workspace holds it (null when none). One read. */
export async function findReceivePageForMember(db: Database, userId: string, id: string) {
  return db
    .select({ page: receivePages, spaceName: spaces.name, spaceKind: spaces.kind, folderLabel: folders.label, teamRole: teamMembers.role, customRolePermissions: teamCustomRoles.permissions })
    .from(receivePages)
    .innerJoin(spaces, eq(spaces.id, receivePages.spaceId))
    .leftJoin(folders, eq(folders.id, receivePages.folderId))
    .leftJoin(teamMembers, and(eq(teamMembers.teamId, receivePages.teamId), eq(teamMembers.userId, userId)))
    .leftJoin(teamCustomRoles, eq(teamCustomRoles.id, teamMembers.customRoleId))
    .where(eq(receivePages.id, id))
    .get();
}

export async function findOwnReceivePage(db: Database, userId: string, id: string) {
  return db
    .select({ page: receivePages, spaceName: spaces.name, spaceKind: spaces.kind, folderLabel: folders.label })
    .from(receivePages)
    .innerJoin(spaces, eq(spaces.id, receivePages.spaceId))
    .leftJoin(folders, eq(folders.id, receivePages.folderId))
    .where(and(eq(receivePages.id, id), eq(receivePages.userId, userId)))
    .get();
}

/** Puts the maker's page of no team into a team's workspace; false when it is in a team already. */
export async function setReceivePageTeam(db: Database, userId: string, id: string, teamId: string, now: Date): Promise<boolean> {
  const result = await db
    .update(receivePages)
    .set({ teamId, updatedAt: now })
    .where(and(eq(receivePages.id, id), eq(receivePages.userId, userId), isNull(receivePages.teamId)))
    .run();
  return result.meta.changes === 1;
}

export async function isReceiveSlugTaken(db: Database, slug: string, exceptId: string | null): Promise<boolean> {
  const row = await db.select({ id: receivePages.id }).from(receivePages).where(eq(receivePages.slug, slug)).get();
  return Boolean(row && row.id !== exceptId);
}

export async function updateReceivePageRow(db: Database, userId: string, id: string, set: Partial<typeof receivePages.$inferInsert>): Promise<void> {
  await db.update(receivePages).set(set).where(and(eq(receivePages.id, id), eq(receivePages.userId, userId))).run();
}

export async function setReceivePageLogo(db: Database, userId: string, id: string, logo: { key: string; type: string } | null, now: Date): Promise<void> {
  await db
    .update(receivePages)
    .set({ logoKey: logo?.key ?? null, logoType: logo?.type ?? null, updatedAt: now })
    .where(and(eq(receivePages.id, id), eq(receivePages.userId, userId)))
    .run();
}

export async function deleteReceivePageRow(db: Database, userId: string, id: string): Promise<void> {
  await db.delete(receivePages).where(and(eq(receivePages.id, id), eq(receivePages.userId, userId))).run();
}

export async function deleteReceivePagesOf(db: Database, userId: string): Promise<void> {
  await db.delete(receivePages).where(eq(receivePages.userId, userId)).run();
}

// ---- field sets ("Settings: receive page forms") ---------------------------------------------------

export type FieldSetRow = typeof receiveFieldSets.$inferSelect;

export async function listFieldSetsOf(db: Database, userId: string): Promise<FieldSetRow[]> {
  return db.select().from(receiveFieldSets).where(eq(receiveFieldSets.userId, userId)).orderBy(receiveFieldSets.name, receiveFieldSets.id).all();
}

export async function countFieldSets(db: Database, userId: string): Promise<number> {
  return (await db.select({ n: sql<number>`count(*)` }).from(receiveFieldSets).where(eq(receiveFieldSets.userId, userId)).get())?.n ?? 0;
}

export async function insertFieldSet(db: Database, row: typeof receiveFieldSets.$inferInsert): Promise<void> {
  await db.insert(receiveFieldSets).values(row).run();
}

export async function updateFieldSetRow(db: Database, userId: string, id: string, set: { name: string; fields: FieldSetRow["fields"]; updatedAt: Date }): Promise<boolean> {
  const result = await db.update(receiveFieldSets).set(set).where(and(eq(receiveFieldSets.id, id), eq(receiveFieldSets.userId, userId))).run();
  return (result.meta.changes ?? 0) > 0;
}

export async function deleteFieldSetRow(db: Database, userId: string, id: string): Promise<boolean> {
  const result = await db.delete(receiveFieldSets).where(and(eq(receiveFieldSets.id, id), eq(receiveFieldSets.userId, userId))).run();
  return (result.meta.changes ?? 0) > 0;
}

export async function deleteFieldSetsOf(db: Database, userId: string): Promise<void> {
  await db.delete(receiveFieldSets).where(eq(receiveFieldSets.userId, userId)).run();
}

export type ReceivePageSearchRow = { id: string; title: string; updatedAt: number };

/** The member's receive pages whose title holds every term, newest first: a statement for the search's one D1 batch. */
export function searchOwnReceivePagesStatement(input: { userId: string; terms: readonly string[]; since: Date | null; limit: number }): SQL {
  const since = input.since ? sql` AND updated_at >= ${input.since.getTime()}` : sql``;
  return sql`SELECT id, title, updated_at AS updatedAt FROM receive_pages WHERE user_id = ${input.userId} AND ${containsEvery(receivePages.title, input.terms)}${since}
    ORDER BY created_at DESC LIMIT ${input.limit}`;
}
