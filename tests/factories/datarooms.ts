import type { DataroomRole } from "~/db/schema";
import { SPACE_ROLE_FOR } from "~/features/datarooms/members.queries.server";
import { testEnv } from "~tests/integration/helpers";


/**
 * Puts someone in a room with a role (and optional permission overrides), as an accepted
 * invitation does: the room membership and the file manager's space membership in D1, then the
 * room's authority reloads its roster from that copy.
 */
export async function addDataroomMember(dataroomId: string, userId: string, role: DataroomRole, overrides: Record<string, boolean> = {}) {
  const now = Date.now();
  await testEnv.DB.batch([
    testEnv.DB.prepare("insert into dataroom_members (dataroom_id, user_id, role, overrides, joined_at) values (?, ?, ?, ?, ?)").bind(
      dataroomId,
      userId,
      role,
      JSON.stringify(overrides),
      now,
    ),
    testEnv.DB.prepare("insert into space_members (space_id, user_id, role, created_at) values (?, ?, ?, ?)").bind(dataroomId, userId, SPACE_ROLE_FOR[role], now),
  ]);
  // The room's Durable Object is the authority: it reads the copy again, as an operator's reload does.
  await testEnv.DATA_ROOM.getByName(dataroomId).reload(dataroomId);
}

/** The room's row as stored (null when there is none). */
export async function dataroomRow(id: string) {
  return testEnv.DB.prepare("select d.id, s.name, d.description, d.owner_id as ownerId, d.archived_at as archivedAt, d.updated_at as updatedAt from datarooms d join spaces s on s.id = d.id where d.id = ?")
    .bind(id)
    .first<{ id: string; name: string; description: string; ownerId: string; archivedAt: number | null; updatedAt: number }>();
}
