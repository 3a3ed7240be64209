import type { ServiceContext } from "~/lib/service-context.server";
import { auditActionLabel, type AuditAction } from "./audit.constants";
import { listRecentChanges } from "./audit.queries.server";
import { requireDataroom, type DataroomSummary } from "./datarooms.server";
import { ROLE_LABELS } from "./datarooms.permissions";
import { listDataroomMembers } from "./members.queries.server";
import { roomAuthority } from "./room-authority.server";

/**
 * /dataroom/{id}/collaboration (spec §2 "collaboration"): who is working in the room — open now
 * (from its Durable Object's sockets) and lately (when each person was last seen) — and the
 * latest changes to its contents (from the audit log: uploads, renames, moves, deletions,
 * folders, comments, people joining). Everyone in the room with `view`, on every plan: it shows
 * names and what changed, never addresses, browsers or who viewed what (that is the audit log).
 */

/** The kinds of change the page lists. */
export const COLLABORATION_ACTIONS: readonly AuditAction[] = [
  "file.upload",
  "file.rename",
  "items.move",
  "items.copy",
  "items.delete",
  "items.restore",
  "folder.create",
  "folder.edit",
  "comment.add",
  "comment.resolve",
  "comment.reopen",
  "member.join",
];
export const RECENT_CHANGES_MAX = 50;
/** "Recently active": people seen in the room within this many days. */
export const RECENTLY_ACTIVE_DAYS = 7;

export type Collaboration = {
  room: DataroomSummary;
  activeNow: { userId: string; name: string; roleLabel: string; since: string; isYou: boolean }[];
  recentlyActive: { userId: string; name: string; roleLabel: string; lastSeenAt: string; isYou: boolean }[];
  changes: { seq: number; at: string; who: string; action: string; actionLabel: string; target: { type: string | null; id: string | null; name: string | null } }[];
};

export async function getRoomCollaboration(ctx: ServiceContext, userId: string, roomId: unknown): Promise<Collaboration> {
  const room = await requireDataroom(ctx, userId, roomId, "view");
  const authority = roomAuthority(ctx, room.id);
  // What happened a moment ago is in the list: the object copies what waits first.
  await authority.flushAudit();
  const [present, members, changes] = await Promise.all([authority.sessions(), listDataroomMembers(ctx.db, room.id), listRecentChanges(ctx.db, room.id, COLLABORATION_ACTIONS, RECENT_CHANGES_MAX)]);
  const byId = new Map(members.map((member) => [member.userId, member]));
  const presentIds = new Set(present.map((entry) => entry.userId));
  const since = ctx.now().getTime() - RECENTLY_ACTIVE_DAYS * 24 * 3600_000;
  return {
    room,
    activeNow: present.flatMap((entry) => {
      const member = byId.get(entry.userId);
      return member ? [{ userId: member.userId, name: member.name, roleLabel: ROLE_LABELS[member.role], since: new Date(entry.since).toISOString(), isYou: member.userId === userId }] : [];
    }),
    recentlyActive: members
      .filter((member) => !presentIds.has(member.userId) && member.lastSeenAt !== null && member.lastSeenAt.getTime() >= since)
      .sort((a, b) => b.lastSeenAt!.getTime() - a.lastSeenAt!.getTime())
      .map((member) => ({ userId: member.userId, name: member.name, roleLabel: ROLE_LABELS[member.role], lastSeenAt: member.lastSeenAt!.toISOString(), isYou: member.userId === userId })),
    changes: changes.map((row) => ({
      seq: row.seq,
      at: new Date(row.at).toISOString(),
      who: row.actorName ?? "Former member",
      action: row.action,
      actionLabel: auditActionLabel(row.action),
      target: { type: row.targetType, id: row.targetId, name: row.targetName },
    })),
  };
}
