import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * Which workspace a thing is listed in (ADR 040): a thing of a team is in that team's workspace for
 * the team's people. For everyone else (a guest invited into one team room, a maker who has left
 * the team) it is in their own workspace, where they would look for it: the personal workspace
 * holds things of no team and of teams the member is not in.
 */
export function inPersonalWorkspace(teamId: SQLWrapper, userId: string): SQL {
  return sql`(${teamId} IS NULL OR NOT EXISTS (SELECT 1 FROM team_members ws_member WHERE ws_member.team_id = ${teamId} AND ws_member.user_id = ${userId}))`;
}

/** The condition "in this workspace" for a thing whose team is `teamId`: a team's (its id), the member's own (null), or no condition (undefined: every workspace). */
export function inWorkspace(teamId: SQLWrapper, userId: string, workspace: string | null | undefined): SQL | undefined {
  if (workspace === undefined) return undefined;
  return workspace === null ? inPersonalWorkspace(teamId, userId) : sql`${teamId} = ${workspace}`;
}
