import { and, asc, desc, eq, gt, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { renameTeamDriveStatements, transferTeamDriveStatement } from "./team-drive.queries.server";
import { datarooms, spaces, teamCustomRoles, teamEvents, teamInvitations, teamMembers, teams, users, type TeamRole } from "~/db/schema";

/** Teams: the only place drizzle is called for them. */

export type TeamRow = typeof teams.$inferSelect;
export type TeamEventInsert = typeof teamEvents.$inferInsert;

/** A new team with its owner as its first member and the event that says so, in one batch. */
export async function insertTeam(db: Database, team: typeof teams.$inferInsert, event: TeamEventInsert): Promise<void> {
  await db.batch([
    db.insert(teams).values(team),
    db.insert(teamMembers).values({ teamId: team.id, userId: team.ownerId, role: "owner", joinedAt: team.createdAt }),
    db.insert(teamEvents).values(event),
  ]);
}

/** The teams someone is in, with their role there and how many people each has. */
export async function listTeamsOf(db: Database, userId: string) {
  return db
    .select({
      id: teams.id,
      name: teams.name,
      role: teamMembers.role,
      ownerName: sql<string>`(select name from users where users.id = ${teams.ownerId})`,
      memberCount: sql<number>`(select count(*) from team_members m where m.team_id = ${teams.id})`,
      createdAt: teams.createdAt,
    })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(teams.name))
    .all();
}

export type TeamCustomRoleRow = typeof teamCustomRoles.$inferSelect;
export type CustomRoleRef = { id: string; name: string; permissions: string[] };

export async function findTeamById(db: Database, teamId: string): Promise<TeamRow | undefined> {
  return db.select().from(teams).where(eq(teams.id, teamId)).get();
}

/** The team, the caller's role in it and their custom role if any: one read (nothing when they are not in it). */
export async function findTeamMembership(db: Database, teamId: string, userId: string): Promise<{ team: TeamRow; role: TeamRole; customRole: CustomRoleRef | null } | undefined> {
  const row = await db
    .select({ team: teams, role: teamMembers.role, customRoleId: teamCustomRoles.id, customRoleName: teamCustomRoles.name, customRolePermissions: teamCustomRoles.permissions })
    .from(teams)
    .innerJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, userId)))
    .leftJoin(teamCustomRoles, eq(teamCustomRoles.id, teamMembers.customRoleId))
    .where(eq(teams.id, teamId))
    .get();
  if (!row) return undefined;
  const customRole = row.customRoleId ? { id: row.customRoleId, name: row.customRoleName!, permissions: row.customRolePermissions! } : null;
  return { team: row.team, role: row.role, customRole };
}

export async function countTeamsOwnedBy(db: Database, userId: string): Promise<number> {
  return (await db.select({ n: sql<number>`count(*)` }).from(teams).where(eq(teams.ownerId, userId)).get())?.n ?? 0;
}

export async function listTeamsOwnedBy(db: Database, userId: string): Promise<{ id: string; name: string }[]> {
  return db.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.ownerId, userId)).orderBy(asc(teams.name)).all();
}

const memberColumns = {
  userId: teamMembers.userId,
  role: teamMembers.role,
  customRoleId: teamMembers.customRoleId,
  customRoleName: teamCustomRoles.name,
  customRolePermissions: teamCustomRoles.permissions,
  name: users.name,
  email: users.email,
};

export async function listTeamMembers(db: Database, teamId: string) {
  return db
    .select({ ...memberColumns, joinedAt: teamMembers.joinedAt })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .leftJoin(teamCustomRoles, eq(teamCustomRoles.id, teamMembers.customRoleId))
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(sql`case ${teamMembers.role} when 'owner' then 0 when 'admin' then 1 when 'member' then 2 else 3 end`, asc(users.name))
    .all();
}

export async function findTeamMember(db: Database, teamId: string, userId: string) {
  return db
    .select(memberColumns)
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .leftJoin(teamCustomRoles, eq(teamCustomRoles.id, teamMembers.customRoleId))
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .get();
}

export async function findTeamMemberEmails(db: Database, teamId: string): Promise<Set<string>> {
  const rows = await db.select({ email: users.email }).from(teamMembers).innerJoin(users, eq(users.id, teamMembers.userId)).where(eq(teamMembers.teamId, teamId)).all();
  return new Set(rows.map((row) => row.email.toLowerCase()));
}

/** Seats taken: the people in the team and the invitations still open (an expired one gave its seat back). */
export async function countSeatsTaken(db: Database, teamId: string, now: Date, exceptInvitationId?: string): Promise<number> {
  const members = (await db.select({ n: sql<number>`count(*)` }).from(teamMembers).where(eq(teamMembers.teamId, teamId)).get())?.n ?? 0;
  const open = await db
    .select({ n: sql<number>`count(*)` })
    .from(teamInvitations)
    .where(
      and(
        eq(teamInvitations.teamId, teamId),
        isNull(teamInvitations.acceptedAt),
        isNull(teamInvitations.revokedAt),
        gt(teamInvitations.expiresAt, now),
        exceptInvitationId ? ne(teamInvitations.id, exceptInvitationId) : undefined,
      ),
    )
    .get();
  return members + (open?.n ?? 0);
}

export async function renameTeamRow(db: Database, teamId: string, name: string, now: Date, event: TeamEventInsert): Promise<void> {
  await db.batch([db.update(teams).set({ name, updatedAt: now }).where(eq(teams.id, teamId)), ...renameTeamDriveStatements(db, teamId, name, now), db.insert(teamEvents).values(event)]);
}

/** A system role, and a custom role (members only) or none. The custom role must still be the team's. */
export async function setTeamMemberRole(db: Database, teamId: string, userId: string, role: TeamRole, customRoleId: string | null, event: TeamEventInsert): Promise<boolean> {
  const roleStillThere = customRoleId ? sql`exists (select 1 from team_roles where id = ${customRoleId} and team_id = ${teamId})` : sql`1`;
  const [changed] = await db.batch([
    db
      .update(teamMembers)
      .set({ role, customRoleId })
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId), roleStillThere))
      .returning({ userId: teamMembers.userId }),
    db.insert(teamEvents).values(event),
  ]);
  return changed.length > 0;
}

export async function deleteTeamMember(db: Database, teamId: string, userId: string, event: TeamEventInsert): Promise<boolean> {
  const [removed] = await db.batch([
    db.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId), ne(teamMembers.role, "owner"))).returning({ userId: teamMembers.userId }),
    db.insert(teamEvents).values(event),
  ]);
  return removed.length > 0;
}

/** The new owner takes the team; the old owner stays as an admin. One batch: there is always exactly one owner. */
export async function transferTeam(db: Database, teamId: string, from: string, to: string, now: Date, event: TeamEventInsert): Promise<void> {
  await db.batch([
    db.update(teams).set({ ownerId: to, updatedAt: now }).where(and(eq(teams.id, teamId), eq(teams.ownerId, from))),
    db.update(teamMembers).set({ role: "owner", customRoleId: null }).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, to))),
    db.update(teamMembers).set({ role: "admin" }).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, from))),
    transferTeamDriveStatement(db, teamId, to, now),
    db.insert(teamEvents).values(event),
  ]);
}

/** An activity entry written in a batch only when `condition` holds then (so it says what the batch did). */
function eventInsertWhere(event: TeamEventInsert, condition: SQL): SQL {
  return sql`insert into team_events (id, team_id, at, actor_id, actor_email, action, target_name, detail)
    select ${event.id}, ${event.teamId}, ${(event.at as Date).getTime()}, ${event.actorId ?? null}, ${event.actorEmail ?? null}, ${event.action}, ${event.targetName ?? null}, ${event.detail ?? null}
    where ${condition}`;
}

export async function insertTeamEvents(db: Database, events: TeamEventInsert[]): Promise<void> {
  if (events.length === 0) return;
  await db.insert(teamEvents).values(events);
}

export async function listTeamEvents(db: Database, teamId: string, limit: number) {
  return db
    .select({ id: teamEvents.id, at: teamEvents.at, actorEmail: teamEvents.actorEmail, action: teamEvents.action, targetName: teamEvents.targetName, detail: teamEvents.detail })
    .from(teamEvents)
    .where(eq(teamEvents.teamId, teamId))
    .orderBy(desc(teamEvents.at), desc(teamEvents.id))
    .limit(limit)
    .all();
}

// Custom roles

/** The team's custom roles, by name, with how many people hold each. */
export async function listTeamCustomRoles(db: Database, teamId: string) {
  return db
    .select({
      id: teamCustomRoles.id,
      name: teamCustomRoles.name,
      description: teamCustomRoles.description,
      permissions: teamCustomRoles.permissions,
      holders: sql<number>`(select count(*) from team_members m where m.custom_role_id = ${teamCustomRoles.id})`,
      updatedAt: teamCustomRoles.updatedAt,
    })
    .from(teamCustomRoles)
    .where(eq(teamCustomRoles.teamId, teamId))
    .orderBy(asc(sql`${teamCustomRoles.name} collate nocase`))
    .all();
}

export async function findTeamCustomRole(db: Database, teamId: string, roleId: string): Promise<TeamCustomRoleRow | undefined> {
  return db.select().from(teamCustomRoles).where(and(eq(teamCustomRoles.teamId, teamId), eq(teamCustomRoles.id, roleId))).get();
}

/** The custom roles of the teams someone is in (any place), with their team's name: what they may use as room templates. */
export async function listCustomRolesOfMember(db: Database, userId: string, roleId?: string) {
  return db
    .select({ id: teamCustomRoles.id, name: teamCustomRoles.name, permissions: teamCustomRoles.permissions, teamName: teams.name })
    .from(teamCustomRoles)
    .innerJoin(teamMembers, and(eq(teamMembers.teamId, teamCustomRoles.teamId), eq(teamMembers.userId, userId)))
    .innerJoin(teams, eq(teams.id, teamCustomRoles.teamId))
    .where(roleId ? eq(teamCustomRoles.id, roleId) : undefined)
    .orderBy(asc(sql`${teams.name} collate nocase`), asc(sql`${teamCustomRoles.name} collate nocase`))
    .all();
}

export async function findTeamCustomRoleByName(db: Database, teamId: string, name: string): Promise<{ id: string } | undefined> {
  return db
    .select({ id: teamCustomRoles.id })
    .from(teamCustomRoles)
    .where(and(eq(teamCustomRoles.teamId, teamId), sql`lower(${teamCustomRoles.name}) = lower(${name})`))
    .get();
}

export async function insertTeamCustomRole(db: Database, role: typeof teamCustomRoles.$inferInsert, event: TeamEventInsert): Promise<void> {
  await db.batch([db.insert(teamCustomRoles).values(role), db.insert(teamEvents).values(event)]);
}

export async function updateTeamCustomRole(db: Database, teamId: string, roleId: string, set: { name: string; description: string; permissions: string[]; updatedAt: Date }, event: TeamEventInsert): Promise<void> {
  await db.batch([db.update(teamCustomRoles).set(set).where(and(eq(teamCustomRoles.teamId, teamId), eq(teamCustomRoles.id, roleId))), db.insert(teamEvents).values(event)]);
}

/** Deletes the role only while nobody holds it (the event is written only if it went). Returns whether it did. */
export async function deleteUnheldTeamCustomRole(db: Database, teamId: string, roleId: string, event: TeamEventInsert): Promise<boolean> {
  const unheld = sql`not exists (select 1 from team_members where custom_role_id = ${roleId})`;
  const [, deleted] = await rawBatch(db, [
    eventInsertWhere(event, sql`exists (select 1 from team_roles where id = ${roleId} and team_id = ${teamId}) and ${unheld}`),
    sql`delete from team_roles where id = ${roleId} and team_id = ${teamId} and ${unheld}`,
  ]);
  return (deleted?.meta.changes ?? 0) > 0;
}

/** Who holds a custom role (their rooms follow it when it changes). */
export async function listCustomRoleHolders(db: Database, roleId: string): Promise<string[]> {
  const rows = await db.select({ userId: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.customRoleId, roleId)).all();
  return rows.map((row) => row.userId);
}

// Log retention and legal hold (ADR 039)

export async function setTeamRetention(db: Database, teamId: string, days: number, now: Date, event: TeamEventInsert): Promise<void> {
  await db.batch([db.update(teams).set({ logRetentionDays: days, updatedAt: now }).where(eq(teams.id, teamId)), db.insert(teamEvents).values(event)]);
}

/** Places a hold (only while none is placed) or releases it; the event is written only if it changed. Returns whether it did. */
export async function setTeamLegalHold(db: Database, teamId: string, hold: { at: Date; by: string; reason: string } | null, event: TeamEventInsert): Promise<boolean> {
  const condition = hold ? sql`legal_hold_at IS NULL` : sql`legal_hold_at IS NOT NULL`;
  const [, updated] = await rawBatch(db, [
    eventInsertWhere(event, sql`exists (select 1 from teams where id = ${teamId} and ${condition})`),
    hold
      ? sql`update teams set legal_hold_at = ${hold.at.getTime()}, legal_hold_by = ${hold.by}, legal_hold_reason = ${hold.reason} where id = ${teamId} and ${condition}`
      : sql`update teams set legal_hold_at = null, legal_hold_by = null, legal_hold_reason = '' where id = ${teamId} and ${condition}`,
  ]);
  return (updated?.meta.changes ?? 0) > 0;
}

/** Teams whose logs have a retention period and no legal hold: what the nightly pruning visits. */
export async function listTeamsToPrune(db: Database): Promise<{ id: string; name: string; logRetentionDays: number }[]> {
  return db
    .select({ id: teams.id, name: teams.name, logRetentionDays: teams.logRetentionDays })
    .from(teams)
    .where(and(gt(teams.logRetentionDays, 0), isNull(teams.legalHoldAt)))
    .all();
}

/** Removes up to `limit` of the team's activity entries older than `before`; returns how many went. */
export async function deleteTeamEventsBefore(db: Database, teamId: string, before: Date, limit: number): Promise<number> {
  const result = await db.run(sql`DELETE FROM team_events WHERE id IN (SELECT id FROM team_events WHERE team_id = ${teamId} AND at < ${before.getTime()} LIMIT ${limit})`);
  return result.meta.changes ?? 0;
}

// The team's data rooms

export async function listTeamRoomIds(db: Database, teamId: string): Promise<string[]> {
  const rows = await db.select({ id: datarooms.id }).from(datarooms).where(and(eq(datarooms.teamId, teamId), isNull(datarooms.trashedAt))).all();
  return rows.map((row) => row.id);
}

export async function listTeamRooms(db: Database, teamId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: datarooms.id, name: spaces.name })
    .from(datarooms)
    .innerJoin(spaces, eq(spaces.id, datarooms.id))
    .where(and(eq(datarooms.teamId, teamId), isNull(datarooms.trashedAt)))
    .orderBy(asc(spaces.name))
    .all();
}

// Invitations

export type NewTeamInvitation = { id: string; teamId: string; email: string; role: TeamRole; customRoleId: string | null; message: string; tokenHash: string; invitedBy: string; now: Date; expiresAt: Date };

/** A new invitation, or a new link for the open one of the same address (one open invitation per address). */
export async function upsertTeamInvitation(db: Database, invitation: NewTeamInvitation): Promise<void> {
  await db
    .insert(teamInvitations)
    .values({
      id: invitation.id,
      teamId: invitation.teamId,
      email: invitation.email,
      role: invitation.role,
      customRoleId: invitation.customRoleId,
      message: invitation.message,
      tokenHash: invitation.tokenHash,
      invitedBy: invitation.invitedBy,
      createdAt: invitation.now,
      sentAt: invitation.now,
      expiresAt: invitation.expiresAt,
    })
    .onConflictDoUpdate({
      target: [teamInvitations.teamId, teamInvitations.email],
      targetWhere: sql`accepted_at IS NULL AND revoked_at IS NULL`,
      set: { role: invitation.role, customRoleId: invitation.customRoleId, message: invitation.message, tokenHash: invitation.tokenHash, invitedBy: invitation.invitedBy, sentAt: invitation.now, expiresAt: invitation.expiresAt, sendCount: sql`${teamInvitations.sendCount} + 1` },
    });
}

const invitationColumns = {
  id: teamInvitations.id,
  teamId: teamInvitations.teamId,
  email: teamInvitations.email,
  role: teamInvitations.role,
  customRoleId: teamInvitations.customRoleId,
  customRoleName: sql<string | null>`(select name from team_roles where team_roles.id = ${teamInvitations.customRoleId})`,
  message: teamInvitations.message,
  tokenHash: teamInvitations.tokenHash,
  inviterName: sql<string | null>`(select name from users where users.id = ${teamInvitations.invitedBy})`,
  sentAt: teamInvitations.sentAt,
  sendCount: teamInvitations.sendCount,
  expiresAt: teamInvitations.expiresAt,
  acceptedAt: teamInvitations.acceptedAt,
  acceptedBy: teamInvitations.acceptedBy,
  revokedAt: teamInvitations.revokedAt,
};

export async function listOpenTeamInvitations(db: Database, teamId: string) {
  return db
    .select(invitationColumns)
    .from(teamInvitations)
    .where(and(eq(teamInvitations.teamId, teamId), isNull(teamInvitations.acceptedAt), isNull(teamInvitations.revokedAt)))
    .orderBy(desc(teamInvitations.sentAt))
    .all();
}
export type TeamInvitationRow = Awaited<ReturnType<typeof listOpenTeamInvitations>>[number];

export async function findTeamInvitation(db: Database, teamId: string, id: string): Promise<TeamInvitationRow | undefined> {
  return db.select(invitationColumns).from(teamInvitations).where(and(eq(teamInvitations.id, id), eq(teamInvitations.teamId, teamId))).get();
}

/** The invitation behind a link, with its team's name and owner. */
export async function findTeamInvitationByTokenHash(db: Database, tokenHash: string) {
  return db
    .select({ ...invitationColumns, teamName: teams.name, teamOwnerId: teams.ownerId })
    .from(teamInvitations)
    .innerJoin(teams, eq(teams.id, teamInvitations.teamId))
    .where(eq(teamInvitations.tokenHash, tokenHash))
    .get();
}
export type TeamInvitationWithTeam = NonNullable<Awaited<ReturnType<typeof findTeamInvitationByTokenHash>>>;

export async function rearmTeamInvitation(db: Database, id: string, tokenHash: string, now: Date, expiresAt: Date): Promise<boolean> {
  const rows = await db
    .update(teamInvitations)
    .set({ tokenHash, sentAt: now, expiresAt, sendCount: sql`${teamInvitations.sendCount} + 1` })
    .where(and(eq(teamInvitations.id, id), isNull(teamInvitations.acceptedAt), isNull(teamInvitations.revokedAt)))
    .returning({ id: teamInvitations.id });
  return rows.length > 0;
}

export async function revokeTeamInvitationRow(db: Database, teamId: string, id: string, now: Date, event: TeamEventInsert): Promise<boolean> {
  const [rows] = await db.batch([
    db
      .update(teamInvitations)
      .set({ revokedAt: now })
      .where(and(eq(teamInvitations.id, id), eq(teamInvitations.teamId, teamId), isNull(teamInvitations.acceptedAt), isNull(teamInvitations.revokedAt)))
      .returning({ id: teamInvitations.id }),
    db.insert(teamEvents).values(event),
  ]);
  return rows.length > 0;
}

/**
 * Uses a link once: the invitation is marked accepted only while still open (and its link the one
 * given), and the member row is written in the same batch only if that happened. Returns whether it did.
 */
export async function useTeamInvitation(db: Database, input: { invitationId: string; tokenHash: string; teamId: string; userId: string; role: TeamRole; now: Date }, event: TeamEventInsert): Promise<boolean> {
  const now = input.now.getTime();
  const used = sql`exists (select 1 from team_invitations where id = ${input.invitationId} and accepted_by = ${input.userId} and accepted_at = ${now})`;
  const [accepted] = await rawBatch(db, [
    sql`update team_invitations set accepted_at = ${now}, accepted_by = ${input.userId}
      where id = ${input.invitationId} and token_hash = ${input.tokenHash} and accepted_at is null and revoked_at is null and expires_at > ${now}`,
    sql`insert into team_members (team_id, user_id, role, custom_role_id, joined_at)
      select ${input.teamId}, ${input.userId}, ${input.role}, (select custom_role_id from team_invitations where id = ${input.invitationId}), ${now} where ${used}
      on conflict (team_id, user_id) do nothing`,
    eventInsertWhere(event, used),
  ]);
  return (accepted?.meta.changes ?? 0) > 0;
}

// Personal data

/**
 * Before an account is erased: the forms and receive pages it made in teams' workspaces go to each
 * team's owner, so the team keeps them (the account's own things are erased with it). Returns how
 * many were handed over.
 */
export async function handTeamThingsToOwners(db: Database, userId: string): Promise<number> {
  const owner = (table: string) => sql.raw(`(SELECT t.owner_id FROM teams t WHERE t.id = ${table}.team_id)`);
  const results = await rawBatch(db, [
    sql`UPDATE forms SET user_id = ${owner("forms")} WHERE user_id = ${userId} AND team_id IS NOT NULL AND ${owner("forms")} IS NOT NULL AND ${owner("forms")} <> ${userId}`,
    sql`UPDATE receive_pages SET user_id = ${owner("receive_pages")} WHERE user_id = ${userId} AND team_id IS NOT NULL AND ${owner("receive_pages")} IS NOT NULL AND ${owner("receive_pages")} <> ${userId}`,
  ]);
  return results.reduce((total, result) => total + (result.meta.changes ?? 0), 0);
}

export async function loadTeamDataOf(db: Database, userId: string) {
  const memberships = await listTeamsOf(db, userId);
  const events = await db
    .select({ teamId: teamEvents.teamId, at: teamEvents.at, action: teamEvents.action, targetName: teamEvents.targetName, detail: teamEvents.detail })
    .from(teamEvents)
    .where(eq(teamEvents.actorId, userId))
    .orderBy(desc(teamEvents.at))
    .limit(1000)
    .all();
  return { memberships, events };
}
