import { sql, type SQL } from "drizzle-orm";

/**
 * A legal hold (issue 42, ADR 039) stops every cleanup of what the team holds: its logs' pruning,
 * and the trash purge of its rooms and of the files and folders in them. This is the condition the
 * cleanups add: true when the space (a room's id, or a team's drive, whose id is the team's) belongs
 * to a team under a legal hold.
 */
export function spaceUnderLegalHold(spaceId: SQL): SQL {
  return sql`(EXISTS (SELECT 1 FROM datarooms held_room JOIN teams held_team ON held_team.id = held_room.team_id WHERE held_room.id = ${spaceId} AND held_team.legal_hold_at IS NOT NULL) OR EXISTS (SELECT 1 FROM teams held_drive WHERE held_drive.id = ${spaceId} AND held_drive.legal_hold_at IS NOT NULL))`;
}
