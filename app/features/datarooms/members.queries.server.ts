import { and, asc, desc, eq, gt, isNull, sql, type SQL } from "drizzle-orm";
import { createDb, type Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { dataroomInvitations, dataroomMembers, datarooms, spaceMembers, spaces, users, type DataroomRole, type SpaceRole } from "~/db/schema";
import { readProtection, type RoomProtection } from "./protection";

/**
 * The people of a room: its members (with their user), its invitations, and the writes that
 * change who is in it. A room member always has two rows: `dataroom_members` (role, overrides)
 * and `space_members` (what the file manager reads: owner → owner, admin and member → editor,
 * guest → viewer). Every write here changes both in one batch.
 */
/** A room role someone can be placed in (never the owner). */
export type PlacedRole = Exclude<DataroomRole, "owner">;

export const SPACE_ROLE_FOR: Record<DataroomRole, SpaceRole> = { owner: "owner", admin: "editor", member: "editor", guest: "viewer" };

export async function listDataroomMembers(db: Database, dataroomId: string) {
  return db
    .select({
      userId: dataroomMembers.userId,
      name: users.name,
      email: users.email,
      role: dataroomMembers.role,
      overrides: dataroomMembers.overrides,
      joinedAt: dataroomMembers.joinedAt,
      lastSeenAt: dataroomMembers.lastSeenAt,
      accessExpiresAt: dataroomMembers.accessExpiresAt,
    })
    .from(dataroomMembers)
    .innerJoin(users, eq(users.id, dataroomMembers.userId))
    .where(eq(dataroomMembers.dataroomId, dataroomId))
    .orderBy(sql`CASE ${dataroomMembers.role} WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'member' THEN 2 ELSE 3 END`, asc(sql`${users.name} COLLATE NOCASE`))
    .all();
}
export type DataroomMemberListRow = Awaited<ReturnType<typeof listDataroomMembers>>[number];

export async function findDataroomMember(db: Database, dataroomId: string, userId: string) {
  return db
    .select({ userId: dataroomMembers.userId, role: dataroomMembers.role, name: users.name, email: users.email })
    .from(dataroomMembers)
    .innerJoin(users, eq(users.id, dataroomMembers.userId))
    .where(and(eq(dataroomMembers.dataroomId, dataroomId), eq(dataroomMembers.userId, userId)))
    .get();
}

/** E-mail addresses (lower case) of the room's members, to refuse inviting someone already in it. */
export async function findMemberEmails(db: Database, dataroomId: string): Promise<Set<string>> {
  const rows = await db
    .select({ email: users.email })
    .from(dataroomMembers)
    .innerJoin(users, eq(users.id, dataroomMembers.userId))
    .where(eq(dataroomMembers.dataroomId, dataroomId))
    .all();
  return new Set(rows.map((row) => row.email.toLowerCase()));
}

/**
 * Seats taken in a room: guests and everyone else (owner included), each counting members and
 * invitations still open (not accepted, revoked or expired), so inviting cannot overbook a room.
 */
export async function countSeats(db: Database, dataroomId: string, now: Date, exceptInvitationId?: string): Promise<{ members: number; guests: number }> {
  const people = await db
    .select({ guests: sql<number>`sum(case when ${dataroomMembers.role} = 'guest' then 1 else 0 end)`, all: sql<number>`count(*)` })
    .from(dataroomMembers)
    .where(eq(dataroomMembers.dataroomId, dataroomId))
    .get();
  const invited = await db
    .select({ guests: sql<number>`sum(case when ${dataroomInvitations.role} = 'guest' then 1 else 0 end)`, all: sql<number>`count(*)` })
    .from(dataroomInvitations)
    .where(
      and(
        eq(dataroomInvitations.dataroomId, dataroomId),
        isNull(dataroomInvitations.acceptedAt),
        isNull(dataroomInvitations.revokedAt),
        gt(dataroomInvitations.expiresAt, now),
        exceptInvitationId ? sql`${dataroomInvitations.id} <> ${exceptInvitationId}` : undefined,
      ),
    )
    .get();
  const guests = Number(people?.guests ?? 0) + Number(invited?.guests ?? 0);
  const all = Number(people?.all ?? 0) + Number(invited?.all ?? 0);
  return { guests, members: all - guests };
}

/** Someone leaves or is removed: both rows go, so the very next request is refused. */
export async function deleteDataroomMember(db: Database, dataroomId: string, userId: string, now: Date): Promise<boolean> {
  const [removed] = await db.batch([
    db
      .delete(dataroomMembers)
      .where(and(eq(dataroomMembers.dataroomId, dataroomId), eq(dataroomMembers.userId, userId), sql`${dataroomMembers.role} <> 'owner'`))
      .returning({ userId: dataroomMembers.userId }),
    db.delete(spaceMembers).where(and(eq(spaceMembers.spaceId, dataroomId), eq(spaceMembers.userId, userId), sql`${spaceMembers.role} <> 'owner'`)),
    db.update(datarooms).set({ updatedAt: now }).where(eq(datarooms.id, dataroomId)),
  ]);
  return removed.length > 0;
}

/** A new role for someone who is not the owner (ownership moves only by transfer). */
export async function updateDataroomMemberRole(db: Database, dataroomId: string, userId: string, role: Exclude<DataroomRole, "owner">): Promise<boolean> {
  const [changed] = await db.batch([
    db
      .update(dataroomMembers)
      .set({ role })
      .where(and(eq(dataroomMembers.dataroomId, dataroomId), eq(dataroomMembers.userId, userId), sql`${dataroomMembers.role} <> 'owner'`))
      .returning({ userId: dataroomMembers.userId }),
    db
      .update(spaceMembers)
      .set({ role: SPACE_ROLE_FOR[role] })
      .where(and(eq(spaceMembers.spaceId, dataroomId), eq(spaceMembers.userId, userId), sql`${spaceMembers.role} <> 'owner'`)),
  ]);
  return changed.length > 0;
}

/**
 * Ownership moves in one batch: the new owner (already in the room) becomes owner of the room and
 * its space; the old owner stays in the room as an admin. Only while `fromUserId` still owns it.
 */
export async function transferDataroomOwnership(db: Database, dataroomId: string, fromUserId: string, toUserId: string, now: Date): Promise<boolean> {
  const owns = sql`EXISTS (SELECT 1 FROM datarooms WHERE id = ${dataroomId} AND owner_id = ${fromUserId})`;
  const results = await rawBatch(db, [
    sql`UPDATE dataroom_members SET role = 'owner', overrides = '{}', access_expires_at = NULL WHERE dataroom_id = ${dataroomId} AND user_id = ${toUserId} AND ${owns}`,
    sql`UPDATE space_members SET role = 'owner' WHERE space_id = ${dataroomId} AND user_id = ${toUserId} AND ${owns}`,
    sql`UPDATE dataroom_members SET role = 'admin' WHERE dataroom_id = ${dataroomId} AND user_id = ${fromUserId} AND ${owns}`,
    sql`UPDATE space_members SET role = 'editor' WHERE space_id = ${dataroomId} AND user_id = ${fromUserId} AND ${owns}`,
    sql`UPDATE spaces SET owner_id = ${toUserId}, updated_at = ${now.getTime()} WHERE id = ${dataroomId} AND ${owns}`,
    sql`UPDATE datarooms SET owner_id = ${toUserId}, updated_at = ${now.getTime()} WHERE id = ${dataroomId} AND owner_id = ${fromUserId}`,
  ]);
  return (results.at(-1)?.meta.changes ?? 0) > 0;
}

/** The member was here now; the row changes only when the last note is older than `everyMs`. */
export async function touchDataroomMember(db: Database, dataroomId: string, userId: string, now: Date, everyMs: number): Promise<void> {
  await db
    .update(dataroomMembers)
    .set({ lastSeenAt: now })
    .where(
      and(
        eq(dataroomMembers.dataroomId, dataroomId),
        eq(dataroomMembers.userId, userId),
        sql`(${dataroomMembers.lastSeenAt} IS NULL OR ${dataroomMembers.lastSeenAt} < ${now.getTime() - everyMs})`,
      ),
    );
}

// Invitations

export type NewInvitation = {
  id: string;
  dataroomId: string;
  email: string;
  role: DataroomRole;
  message: string;
  tokenHash: string;
  invitedBy: string;
  now: Date;
  expiresAt: Date;
  /** Time-limited access for the invitee once they join, or null. */
  accessExpiresAt: Date | null;
};

/**
 * Opens an invitation, or re-arms the open one the address already has in this room (new token,
 * role, message and expiry: the old link stops working). Returns the invitation's id.
 */
export async function upsertInvitation(db: Database, invitation: NewInvitation): Promise<string> {
  const row = await db
    .insert(dataroomInvitations)
    .values({
      id: invitation.id,
      dataroomId: invitation.dataroomId,
      email: invitation.email,
      role: invitation.role,
      message: invitation.message,
      tokenHash: invitation.tokenHash,
      invitedBy: invitation.invitedBy,
      createdAt: invitation.now,
      sentAt: invitation.now,
      expiresAt: invitation.expiresAt,
      accessExpiresAt: invitation.accessExpiresAt,
    })
    .onConflictDoUpdate({
      target: [dataroomInvitations.dataroomId, dataroomInvitations.email],
      targetWhere: sql`accepted_at IS NULL AND revoked_at IS NULL`,
      set: {
        role: invitation.role,
        message: invitation.message,
        tokenHash: invitation.tokenHash,
        invitedBy: invitation.invitedBy,
        sentAt: invitation.now,
        expiresAt: invitation.expiresAt,
        accessExpiresAt: invitation.accessExpiresAt,
        sendCount: sql`${dataroomInvitations.sendCount} + 1`,
      },
    })
    .returning({ id: dataroomInvitations.id })
    .get();
  return row!.id;
}

/** A new token and 7 more days for an open invitation (resend). */
export async function rearmInvitation(db: Database, id: string, tokenHash: string, now: Date, expiresAt: Date): Promise<boolean> {
  const rows = await db
    .update(dataroomInvitations)
    .set({ tokenHash, sentAt: now, expiresAt, sendCount: sql`${dataroomInvitations.sendCount} + 1` })
    .where(and(eq(dataroomInvitations.id, id), isNull(dataroomInvitations.acceptedAt), isNull(dataroomInvitations.revokedAt)))
    .returning({ id: dataroomInvitations.id });
  return rows.length > 0;
}

export async function revokeInvitationRow(db: Database, dataroomId: string, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(dataroomInvitations)
    .set({ revokedAt: now })
    .where(and(eq(dataroomInvitations.id, id), eq(dataroomInvitations.dataroomId, dataroomId), isNull(dataroomInvitations.acceptedAt), isNull(dataroomInvitations.revokedAt)))
    .returning({ id: dataroomInvitations.id });
  return rows.length > 0;
}

const invitationColumns = {
  id: dataroomInvitations.id,
  dataroomId: dataroomInvitations.dataroomId,
  email: dataroomInvitations.email,
  role: dataroomInvitations.role,
  message: dataroomInvitations.message,
  invitedBy: dataroomInvitations.invitedBy,
  inviterName: sql<string | null>`(select name from users where users.id = ${dataroomInvitations.invitedBy})`,
  createdAt: dataroomInvitations.createdAt,
  sentAt: dataroomInvitations.sentAt,
  sendCount: dataroomInvitations.sendCount,
  expiresAt: dataroomInvitations.expiresAt,
  acceptedAt: dataroomInvitations.acceptedAt,
  acceptedBy: dataroomInvitations.acceptedBy,
  revokedAt: dataroomInvitations.revokedAt,
  accessExpiresAt: dataroomInvitations.accessExpiresAt,
};

/** Invitations not yet accepted or revoked (expired ones included: they can be resent). */
export async function listOpenInvitations(db: Database, dataroomId: string) {
  return db
    .select(invitationColumns)
    .from(dataroomInvitations)
    .where(and(eq(dataroomInvitations.dataroomId, dataroomId), isNull(dataroomInvitations.acceptedAt), isNull(dataroomInvitations.revokedAt)))
    .orderBy(desc(dataroomInvitations.sentAt))
    .all();
}
export type InvitationRow = Awaited<ReturnType<typeof listOpenInvitations>>[number];

export async function findInvitation(db: Database, dataroomId: string, id: string) {
  return db
    .select(invitationColumns)
    .from(dataroomInvitations)
    .where(and(eq(dataroomInvitations.id, id), eq(dataroomInvitations.dataroomId, dataroomId)))
    .get();
}

/** An invitation with its room (name, owner, state) and its token's hash, whatever its state. */
function findInvitationWithRoom(db: Database, where: SQL) {
  return db
    .select({
      ...invitationColumns,
      tokenHash: dataroomInvitations.tokenHash,
      roomName: spaces.name,
      roomOwnerId: datarooms.ownerId,
      roomTrashedAt: datarooms.trashedAt,
      roomArchivedAt: datarooms.archivedAt,
    })
    .from(dataroomInvitations)
    .innerJoin(datarooms, eq(datarooms.id, dataroomInvitations.dataroomId))
    .innerJoin(spaces, eq(spaces.id, datarooms.id))
    .where(where)
    .get();
}

/** The invitation behind a link. */
export async function findInvitationByTokenHash(db: Database, tokenHash: string) {
  return findInvitationWithRoom(db, eq(dataroomInvitations.tokenHash, tokenHash));
}
export type InvitationWithRoom = NonNullable<Awaited<ReturnType<typeof findInvitationByTokenHash>>>;

/** One invitation by id (accepting from the invitee's dashboard, where no link was followed). */
export async function findInvitationWithRoomById(db: Database, id: string) {
  return findInvitationWithRoom(db, eq(dataroomInvitations.id, id));
}

/**
 * The open invitations sent to a member's address, once they have confirmed it (the address is the
 * only proof without the link), newest first: their dashboard's "Needs your attention".
 */
export async function listOpenInvitationsForMember(db: Database, userId: string, now: Date, limit: number) {
  return db
    .select({ id: dataroomInvitations.id, role: dataroomInvitations.role, roomName: spaces.name, inviterName: invitationColumns.inviterName, createdAt: dataroomInvitations.createdAt, expiresAt: dataroomInvitations.expiresAt })
    .from(dataroomInvitations)
    .innerJoin(datarooms, eq(datarooms.id, dataroomInvitations.dataroomId))
    .innerJoin(spaces, eq(spaces.id, datarooms.id))
    .where(
      and(
        sql`${dataroomInvitations.email} = (SELECT lower(email) FROM users WHERE id = ${userId} AND email_verified_at IS NOT NULL)`,
        isNull(dataroomInvitations.acceptedAt),
        isNull(dataroomInvitations.revokedAt),
        gt(dataroomInvitations.expiresAt, now),
        isNull(datarooms.trashedAt),
      ),
    )
    .orderBy(desc(dataroomInvitations.createdAt))
    .limit(limit)
    .all();
}

/**
 * Accepting is single-use and atomic: ONE batch marks the invitation accepted only while it is
 * still open and unexpired, and adds the person (both rows) only if that update happened. Someone
 * already in the room keeps their role. Returns whether this call used the invitation.
 */
export async function acceptInvitationRows(db: Database, input: { id: string; tokenHash: string; userId: string; now: Date }): Promise<boolean> {
  const { id, tokenHash, userId, now } = input;
  const t = now.getTime();
  const usedByThisCall = sql`EXISTS (SELECT 1 FROM dataroom_invitations WHERE id = ${id} AND accepted_by = ${userId} AND accepted_at = ${t})`;
  const results = await rawBatch(db, [
    sql`UPDATE dataroom_invitations SET accepted_at = ${t}, accepted_by = ${userId}
      WHERE id = ${id} AND token_hash = ${tokenHash} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${t}`,
    sql`INSERT OR IGNORE INTO dataroom_members (dataroom_id, user_id, role, overrides, joined_at, access_expires_at)
      SELECT dataroom_id, ${userId}, role, '{}', ${t}, access_expires_at FROM dataroom_invitations WHERE id = ${id} AND ${usedByThisCall}`,
    sql`INSERT OR IGNORE INTO space_members (space_id, user_id, role, created_at)
      SELECT dataroom_id, ${userId}, CASE role WHEN 'guest' THEN 'viewer' ELSE 'editor' END, ${t} FROM dataroom_invitations WHERE id = ${id} AND ${usedByThisCall}`,
    sql`UPDATE datarooms SET updated_at = ${t} WHERE id = (SELECT dataroom_id FROM dataroom_invitations WHERE id = ${id}) AND ${usedByThisCall}`,
  ]);
  return (results[0]?.meta.changes ?? 0) > 0;
}

/**
 * Someone placed in a room by the team whose workspace holds it (issue 42): in with this role and
 * these overrides, or moved to them when already in (never the room's owner). The member row and the
 * file manager's space membership in one batch. Returns whether anything was written.
 */
export async function placeDataroomMemberRows(db: Database, input: { dataroomId: string; userId: string; role: PlacedRole; overrides: Record<string, boolean>; now: Date }): Promise<boolean> {
  const t = input.now.getTime();
  const overrides = JSON.stringify(input.overrides);
  const results = await rawBatch(db, [
    sql`INSERT INTO dataroom_members (dataroom_id, user_id, role, overrides, joined_at) VALUES (${input.dataroomId}, ${input.userId}, ${input.role}, ${overrides}, ${t})
      ON CONFLICT (dataroom_id, user_id) DO UPDATE SET role = excluded.role, overrides = excluded.overrides
      WHERE dataroom_members.role <> 'owner' AND (dataroom_members.role <> excluded.role OR dataroom_members.overrides <> excluded.overrides)`,
    sql`INSERT INTO space_members (space_id, user_id, role, created_at) VALUES (${input.dataroomId}, ${input.userId}, ${SPACE_ROLE_FOR[input.role]}, ${t})
      ON CONFLICT (space_id, user_id) DO UPDATE SET role = excluded.role WHERE space_members.role NOT IN ('owner', excluded.role)`,
    sql`UPDATE datarooms SET updated_at = ${t} WHERE id = ${input.dataroomId}`,
  ]);
  return (results[0]?.meta.changes ?? 0) > 0;
}

// The room authority's copy (durable-objects/data-room.ts)

/** The D1 copy as the room's Durable Object writes it (it has the binding, not a request). */
export function roomCopyDatabase(d1: D1Database): Database {
  return createDb(d1);
}

/** Everyone in a room with role and overrides, as the D1 copy has them (the authority's first load). */
export async function loadRoomRoster(db: Database, dataroomId: string) {
  return db
    .select({ userId: dataroomMembers.userId, role: dataroomMembers.role, overrides: dataroomMembers.overrides, accessExpiresAt: dataroomMembers.accessExpiresAt })
    .from(dataroomMembers)
    .where(eq(dataroomMembers.dataroomId, dataroomId))
    .all();
}

/** The room's security settings the authority holds (IP restrictions; watermark, download and print protection). */
export async function loadRoomSecurity(db: Database, dataroomId: string): Promise<{ ipAllowlist: string[]; protection: RoomProtection; require2fa: boolean }> {
  const row = await db
    .select({ ipAllowlist: datarooms.ipAllowlist, protection: datarooms.protection, require2fa: datarooms.require2fa })
    .from(datarooms)
    .where(eq(datarooms.id, dataroomId))
    .get();
  return { ipAllowlist: row?.ipAllowlist ?? [], protection: readProtection(row?.protection ?? null), require2fa: row?.require2fa ?? false };
}

/** The room's 2FA requirement (the D1 copy; the authority writes it). */
export async function writeRoomTwoFactorRequirement(db: Database, dataroomId: string, required: boolean, now: Date): Promise<void> {
  await db.update(datarooms).set({ require2fa: required, updatedAt: now }).where(eq(datarooms.id, dataroomId));
}

/** The room's protection settings (the D1 copy; the authority writes it). */
export async function writeRoomProtection(db: Database, dataroomId: string, protection: RoomProtection, now: Date): Promise<void> {
  await db.update(datarooms).set({ protection, updatedAt: now }).where(eq(datarooms.id, dataroomId));
}

/** The room's IP allowlist (empty: anywhere). */
export async function writeRoomIpAllowlist(db: Database, dataroomId: string, ranges: string[], now: Date): Promise<void> {
  await db.update(datarooms).set({ ipAllowlist: ranges.length > 0 ? ranges : null, updatedAt: now }).where(eq(datarooms.id, dataroomId));
}

/** When someone's access to a room ends (null: it does not); false when they are not in it (or are its owner). */
export async function writeMemberAccessExpiry(db: Database, dataroomId: string, userId: string, expiresAt: Date | null): Promise<boolean> {
  const result = await db
    .update(dataroomMembers)
    .set({ accessExpiresAt: expiresAt })
    .where(and(eq(dataroomMembers.dataroomId, dataroomId), eq(dataroomMembers.userId, userId), sql`${dataroomMembers.role} <> 'owner'`))
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** The debounced copy of permission overrides: one D1 batch for every person changed in a burst. */
export async function writeMemberOverrides(db: Database, dataroomId: string, rows: { userId: string; overrides: Record<string, boolean> }[]): Promise<void> {
  if (rows.length === 0) return;
  const [first, ...rest] = rows.map((row) =>
    db
      .update(dataroomMembers)
      .set({ overrides: row.overrides })
      .where(and(eq(dataroomMembers.dataroomId, dataroomId), eq(dataroomMembers.userId, row.userId))),
  );
  await db.batch([first!, ...rest]);
}

/** A live (not trashed) room's id and name, for pages that explain a refusal at its door. */
export async function findRoomName(db: Database, dataroomId: string): Promise<{ id: string; name: string } | undefined> {
  return db
    .select({ id: datarooms.id, name: spaces.name })
    .from(datarooms)
    .innerJoin(spaces, eq(spaces.id, datarooms.id))
    .where(and(eq(datarooms.id, dataroomId), isNull(datarooms.trashedAt)))
    .get();
}
