import { sql } from "drizzle-orm";
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
