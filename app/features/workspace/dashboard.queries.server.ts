import { and, desc, eq, gte, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { dataroomMembers, datarooms, notifications, shareLinks, shareLinkVisits, spaces, users } from "~/db/schema";
import { inWorkspace } from "~/features/teams/workspace.queries.server";

/** The dashboard's own reads (issue 36): each one D1 round trip whatever the member owns. */

export async function saveDashboardLayout(db: Database, userId: string, layout: string[], now: Date): Promise<void> {
  await db.update(users).set({ dashboardLayout: layout, updatedAt: now }).where(eq(users.id, userId)).run();
}

export async function findDashboardLayout(db: Database, userId: string) {
  return db.select({ layout: users.dashboardLayout }).from(users).where(eq(users.id, userId)).get();
}

/** The member's unread notices of the given kinds, newest first (rooms' and their own). */
export async function listUnreadNoticesOfKinds(db: Database, userId: string, kinds: readonly string[], limit: number) {
  return db
    .select({ id: notifications.id, kind: notifications.kind, title: notifications.title, excerpt: notifications.excerpt, link: notifications.link, createdAt: notifications.createdAt })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), inArray(notifications.kind, [...kinds])))
    .orderBy(desc(notifications.createdAt))
    .limit(limit)
    .all();
}

/** Live share links the member made that end between `from` and `until`, soonest first. */
export async function listShareLinksEndingBetween(db: Database, userId: string, from: Date, until: Date, limit: number) {
  return db
    .select({ id: shareLinks.id, name: shareLinks.name, targetType: shareLinks.targetType, expiresAt: shareLinks.expiresAt })
    .from(shareLinks)
    .where(and(eq(shareLinks.createdBy, userId), isNull(shareLinks.revokedAt), isNotNull(shareLinks.expiresAt), gte(shareLinks.expiresAt, from), lte(shareLinks.expiresAt, until)))
    .orderBy(shareLinks.expiresAt)
    .limit(limit)
    .all();
}

/** Visits to the member's share links since `since`, counted per UTC day (day = days since the epoch). */
export async function countShareVisitsPerDay(db: Database, userId: string, since: Date) {
  const day = sql<number>`cast(${shareLinkVisits.startedAt} / 86400000 as integer)`;
  return db
    .select({ day, visits: sql<number>`count(*)` })
    .from(shareLinkVisits)
    .innerJoin(shareLinks, eq(shareLinks.id, shareLinkVisits.linkId))
    .where(and(eq(shareLinks.createdBy, userId), gte(shareLinkVisits.startedAt, since)))
    .groupBy(day)
    .all();
}

/**
 * The member's live rooms (not archived, not in the trash) with when something last happened in
 * each (the newest audit entry, else the room's last change), most recent first. Only the time:
 * who did what is the audit log's, for those who may read it.
 */
export async function listRoomsByActivity(db: Database, userId: string, limit: number, workspace?: string | null) {
  const lastActivity = sql<number>`coalesce((select max(a.at) from dataroom_audit_log a where a.dataroom_id = ${datarooms.id}), ${datarooms.updatedAt})`;
  return db
    .select({ id: datarooms.id, name: spaces.name, ownerId: datarooms.ownerId, role: dataroomMembers.role, lastActivity })
    .from(dataroomMembers)
    .innerJoin(datarooms, eq(datarooms.id, dataroomMembers.dataroomId))
    .innerJoin(spaces, eq(spaces.id, datarooms.id))
    .where(and(eq(dataroomMembers.userId, userId), isNull(datarooms.trashedAt), isNull(datarooms.archivedAt), inWorkspace(datarooms.teamId, userId, workspace)))
    .orderBy(desc(lastActivity))
    .limit(limit)
    .all();
}
