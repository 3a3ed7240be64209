import { and, eq, inArray, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { datarooms } from "~/db/schema";
import { spaceMembers, spaces } from "~/db/schema";
import type { EffectiveSpaceRole } from "./files.permissions";

/**
 * The caller's effective role in a space, for every query that decides what they may do with its
 * files: their membership role, "archived" while the space is an archived data room, or
 * "over_plan" while it is over its owner's plan (read-only until it fits, issue 43). `m` is the
 * alias of space_members in the raw queries.
 */
export const effectiveSpaceRole = sql<EffectiveSpaceRole>`CASE WHEN EXISTS (SELECT 1 FROM datarooms r WHERE r.id = ${spaceMembers.spaceId} AND r.archived_at IS NOT NULL) THEN 'archived' WHEN EXISTS (SELECT 1 FROM spaces o WHERE o.id = ${spaceMembers.spaceId} AND o.over_plan_at IS NOT NULL) THEN 'over_plan' ELSE ${spaceMembers.role} END`;

export const effectiveSpaceRoleOfM = sql.raw(
  "CASE WHEN EXISTS (SELECT 1 FROM datarooms r WHERE r.id = m.space_id AND r.archived_at IS NOT NULL) THEN 'archived' WHEN EXISTS (SELECT 1 FROM spaces o WHERE o.id = m.space_id AND o.over_plan_at IS NOT NULL) THEN 'over_plan' ELSE m.role END",
);

/** 1 when the space is a data room (its authority then decides the finer permissions), else 0. */
export const isDataroomSpace = sql<number>`EXISTS (SELECT 1 FROM datarooms r WHERE r.id = ${spaceMembers.spaceId})`;

/** Whether a space is a data room, for the few callers whose query does not say so. */
export async function findIsDataroomSpace(db: Database, spaceId: string): Promise<boolean> {
  const row = await db.select({ id: datarooms.id }).from(datarooms).where(eq(datarooms.id, spaceId)).get();
  return row !== undefined;
}

/** The team whose workspace holds a space: a team's drive is its own; a data room says; a personal space has none. */
export const spaceTeamId = sql<string | null>`(CASE ${spaces.kind} WHEN 'team' THEN ${spaces.id} WHEN 'dataroom' THEN (SELECT team_id FROM datarooms WHERE datarooms.id = ${spaces.id}) END)`;

/** The same for a space named by id (a file's or a folder's `space_id`). */
export function teamOfSpace(spaceId: SQLWrapper): SQL<string | null> {
  return sql<string | null>`(SELECT CASE ws_space.kind WHEN 'team' THEN ws_space.id WHEN 'dataroom' THEN (SELECT team_id FROM datarooms WHERE datarooms.id = ws_space.id) END FROM spaces ws_space WHERE ws_space.id = ${spaceId})`;
}

/** A space's kind (personal, dataroom, team), or undefined when there is no such space. */
export async function findSpaceKind(db: Database, spaceId: string): Promise<string | undefined> {
  return (await db.select({ kind: spaces.kind }).from(spaces).where(eq(spaces.id, spaceId)).get())?.kind;
}

/** The kind of each space and the team whose workspace holds it, by id. */
export async function listSpaceTeams(db: Database, spaceIds: readonly string[]): Promise<Map<string, { kind: string; teamId: string | null }>> {
  if (spaceIds.length === 0) return new Map();
  const rows = await db
    .select({ id: spaces.id, kind: spaces.kind, teamId: spaceTeamId })
    .from(spaces)
    .where(inArray(spaces.id, [...new Set(spaceIds)]))
    .all();
  return new Map(rows.map((row) => [row.id, { kind: row.kind, teamId: row.teamId }]));
}

/** The teams' drives the member owns (the team's owner and admins): where they build and share the team's workflows. */
export async function listOwnedTeamDrives(db: Database, userId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: spaces.id, name: spaces.name })
    .from(spaceMembers)
    .innerJoin(spaces, eq(spaces.id, spaceMembers.spaceId))
    .where(and(eq(spaceMembers.userId, userId), eq(spaceMembers.role, "owner"), eq(spaces.kind, "team")))
    .all();
}
