import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { datarooms } from "~/db/schema";
import { spaceMembers } from "~/db/schema";
import type { EffectiveSpaceRole } from "./files.permissions";

/**
 * The caller's effective role in a space, for every query that decides what they may do with its
 * files: their membership role, or "archived" while the space is an archived data room. `m` is the
 * alias of space_members in the raw queries.
 */
export const effectiveSpaceRole = sql<EffectiveSpaceRole>`CASE WHEN EXISTS (SELECT 1 FROM datarooms r WHERE r.id = ${spaceMembers.spaceId} AND r.archived_at IS NOT NULL) THEN 'archived' ELSE ${spaceMembers.role} END`;

export const effectiveSpaceRoleOfM = sql.raw(
  "CASE WHEN EXISTS (SELECT 1 FROM datarooms r WHERE r.id = m.space_id AND r.archived_at IS NOT NULL) THEN 'archived' ELSE m.role END",
);

/** 1 when the space is a data room (its authority then decides the finer permissions), else 0. */
export const isDataroomSpace = sql<number>`EXISTS (SELECT 1 FROM datarooms r WHERE r.id = ${spaceMembers.spaceId})`;

/** Whether a space is a data room, for the few callers whose query does not say so. */
export async function findIsDataroomSpace(db: Database, spaceId: string): Promise<boolean> {
  const row = await db.select({ id: datarooms.id }).from(datarooms).where(eq(datarooms.id, spaceId)).get();
  return row !== undefined;
}
