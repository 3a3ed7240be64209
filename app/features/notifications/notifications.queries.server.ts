import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "~/db/client.server";
import { dataroomMembers, dataroomNotificationPrefs, datarooms, memberNotificationPrefs, notifications, spaces, users, type NotificationMode } from "~/db/schema";

/**
 * Notifications and how members hear about rooms: the only place drizzle is called for them.
 * Every read is keyed by the member, so nobody else's rows can appear.
 */

/** D1 binds at most 100 parameters per statement: multi-row inserts are cut below that. */
const ROWS_PER_INSERT = 8;

export type NotificationRow = typeof notifications.$inferInsert;

export async function insertNotifications(db: Database, rows: readonly NotificationRow[]): Promise<void> {
  if (rows.length === 0) return;
  const statements: BatchItem<"sqlite">[] = [];
  for (let index = 0; index < rows.length; index += ROWS_PER_INSERT) statements.push(db.insert(notifications).values(rows.slice(index, index + ROWS_PER_INSERT)).onConflictDoNothing());
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/**
 * Adds one more thing to each person's open group notice (unread, of the same group, newer than
 * `since`, not already counting this subject): count + 1, the title for the new count, the latest
 * excerpt and link, and it moves to the top. Returns the people who had no such notice.
 */
export async function addToGroupedNotifications(
  db: Database,
  input: { userIds: readonly string[]; dataroomId: string; groupKey: string; subjectId: string; since: Date; now: Date; titlePrefix: string; titleSuffix: string; excerpt: string; link: string },
): Promise<string[]> {
  if (input.userIds.length === 0) return [];
  const statements = input.userIds.map((userId) =>
    db
      .update(notifications)
      .set({
        count: sql`${notifications.count} + 1`,
        title: sql`${input.titlePrefix} || (${notifications.count} + 1) || ${input.titleSuffix}`,
        excerpt: input.excerpt,
        link: input.link,
        subjectId: input.subjectId,
        createdAt: input.now,
      })
      .where(
        and(
          eq(notifications.userId, userId),
          eq(notifications.dataroomId, input.dataroomId),
          eq(notifications.groupKey, input.groupKey),
          isNull(notifications.readAt),
          sql`${notifications.createdAt} > ${input.since.getTime()}`,
          sql`coalesce(${notifications.subjectId}, '') <> ${input.subjectId}`,
        ),
      ),
  );
  const results = (await db.batch(statements as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown as { meta?: { changes?: number } }[];
  return input.userIds.filter((_, index) => (results[index]?.meta?.changes ?? 0) === 0);
}

/** Whether a person already has the notice of a subject in a group (a message delivered twice). */
export async function findGroupedSubject(db: Database, input: { groupKey: string; subjectId: string }): Promise<Set<string>> {
  const rows = await db
    .select({ userId: notifications.userId })
    .from(notifications)
    .where(and(eq(notifications.groupKey, input.groupKey), eq(notifications.subjectId, input.subjectId)))
    .all();
  return new Set(rows.map((row) => row.userId));
}

/** The people who would be told, with their address and how they hear about the room (their choice, or the room's default). */
export async function findRecipients(db: Database, dataroomId: string, userIds: readonly string[] | "everyone") {
  if (userIds !== "everyone" && userIds.length === 0) return [];
  return db
    .select({
      userId: dataroomMembers.userId,
      role: dataroomMembers.role,
      overrides: dataroomMembers.overrides,
      name: users.name,
      email: users.email,
      mode: sql<NotificationMode>`coalesce(${dataroomNotificationPrefs.mode}, ${datarooms.notificationDefault})`,
      roomName: sql<string>`${spaces.name}`.as("room_name"),
    })
    .from(dataroomMembers)
    .innerJoin(users, eq(users.id, dataroomMembers.userId))
    .innerJoin(datarooms, eq(datarooms.id, dataroomMembers.dataroomId))
    .innerJoin(spaces, eq(spaces.id, datarooms.id))
    .leftJoin(dataroomNotificationPrefs, and(eq(dataroomNotificationPrefs.dataroomId, dataroomMembers.dataroomId), eq(dataroomNotificationPrefs.userId, dataroomMembers.userId)))
    .where(and(eq(dataroomMembers.dataroomId, dataroomId), userIds === "everyone" ? undefined : inArray(dataroomMembers.userId, [...userIds])))
    .all();
}
export type RecipientRow = Awaited<ReturnType<typeof findRecipients>>[number];

export type NotificationKeyset = { createdAt: number; id: string };

/** One member's notifications of one room, newest first (only unread ones on request), keyset by (created, id). */
/** A room's notifications, or (null) the member's own outside any room (their share links…). */
const inRoom = (dataroomId: string | null) => (dataroomId === null ? isNull(notifications.dataroomId) : eq(notifications.dataroomId, dataroomId));

export async function listNotifications(db: Database, input: { userId: string; dataroomId: string | null; unreadOnly: boolean; after: NotificationKeyset | null; limit: number }) {
  const conditions: SQL[] = [eq(notifications.userId, input.userId), inRoom(input.dataroomId)];
  if (input.unreadOnly) conditions.push(isNull(notifications.readAt));
  if (input.after) conditions.push(sql`(${notifications.createdAt}, ${notifications.id}) < (${input.after.createdAt}, ${input.after.id})`);
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      title: notifications.title,
      excerpt: notifications.excerpt,
      link: notifications.link,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .where(and(...conditions))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(input.limit)
    .all();
}

export async function countUnreadNotifications(db: Database, userId: string, dataroomId: string | null): Promise<number> {
  const row = await db
    .select({ count: sql<number>`count(*)` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), inRoom(dataroomId), isNull(notifications.readAt)))
    .get();
  return Number(row?.count ?? 0);
}

/** Marks a member's notifications of a room read: the ones named, or all of them. Returns how many changed. */
export async function markNotificationsRead(db: Database, input: { userId: string; dataroomId: string | null; ids: readonly string[] | "all"; now: Date }): Promise<number> {
  const conditions: SQL[] = [eq(notifications.userId, input.userId), inRoom(input.dataroomId), isNull(notifications.readAt)];
  if (input.ids !== "all") conditions.push(inArray(notifications.id, [...input.ids]));
  const result = await db.update(notifications).set({ readAt: input.now }).where(and(...conditions)).run();
  return result.meta.changes ?? 0;
}

/** Marks read a member's unread notifications of a room that point at a page (its path, any #fragment). */
export async function markNotificationsReadAt(db: Database, input: { userId: string; dataroomId: string | null; path: string; now: Date }): Promise<number> {
  const result = await db
    .update(notifications)
    .set({ readAt: input.now })
    .where(
      and(
        eq(notifications.userId, input.userId),
        inRoom(input.dataroomId),
        isNull(notifications.readAt),
        sql`(${notifications.link} = ${input.path} OR substr(${notifications.link}, 1, ${input.path.length + 1}) = ${`${input.path}#`})`,
      ),
    )
    .run();
  return result.meta.changes ?? 0;
}

/** Marks one of a member's notifications unread again. */
export async function markNotificationUnread(db: Database, input: { userId: string; dataroomId: string | null; id: string }): Promise<number> {
  const result = await db
    .update(notifications)
    .set({ readAt: null })
    .where(and(eq(notifications.userId, input.userId), inRoom(input.dataroomId), eq(notifications.id, input.id)))
    .run();
  return result.meta.changes ?? 0;
}

// ---- preferences ---------------------------------------------------------------------------------

/** A member's own choice for a room (null: the room's default applies) and the room's default. */
export async function findNotificationMode(db: Database, dataroomId: string, userId: string) {
  const row = await db
    .select({ own: dataroomNotificationPrefs.mode, roomDefault: datarooms.notificationDefault })
    .from(datarooms)
    .leftJoin(dataroomNotificationPrefs, and(eq(dataroomNotificationPrefs.dataroomId, datarooms.id), eq(dataroomNotificationPrefs.userId, userId)))
    .where(eq(datarooms.id, dataroomId))
    .get();
  return row ? { own: row.own ?? null, roomDefault: row.roomDefault } : null;
}

/** Sets (or, with null, clears back to the room's default) a member's choice for a room. */
export async function saveNotificationMode(db: Database, input: { dataroomId: string; userId: string; mode: NotificationMode | null; now: Date }): Promise<void> {
  if (input.mode === null) {
    await db.delete(dataroomNotificationPrefs).where(and(eq(dataroomNotificationPrefs.dataroomId, input.dataroomId), eq(dataroomNotificationPrefs.userId, input.userId))).run();
    return;
  }
  await db
    .insert(dataroomNotificationPrefs)
    .values({ dataroomId: input.dataroomId, userId: input.userId, mode: input.mode, updatedAt: input.now })
    .onConflictDoUpdate({ target: [dataroomNotificationPrefs.dataroomId, dataroomNotificationPrefs.userId], set: { mode: input.mode, updatedAt: input.now } })
    .run();
}

/** A member's choice for notices outside rooms (null: none made, instant applies). */
export async function findMemberNotificationMode(db: Database, userId: string): Promise<NotificationMode | null> {
  return (await db.select({ mode: memberNotificationPrefs.mode }).from(memberNotificationPrefs).where(eq(memberNotificationPrefs.userId, userId)).get())?.mode ?? null;
}

export async function saveMemberNotificationMode(db: Database, input: { userId: string; mode: NotificationMode; now: Date }): Promise<void> {
  await db
    .insert(memberNotificationPrefs)
    .values({ userId: input.userId, mode: input.mode, updatedAt: input.now })
    .onConflictDoUpdate({ target: memberNotificationPrefs.userId, set: { mode: input.mode, updatedAt: input.now } })
    .run();
}

/** Who to tell outside a room: the member's address, name and choice. */
export async function findMemberRecipient(db: Database, userId: string) {
  return db
    .select({ userId: users.id, name: users.name, email: users.email, mode: sql<NotificationMode>`coalesce(${memberNotificationPrefs.mode}, 'instant')` })
    .from(users)
    .leftJoin(memberNotificationPrefs, eq(memberNotificationPrefs.userId, users.id))
    .where(eq(users.id, userId))
    .get();
}

export async function saveRoomNotificationDefault(db: Database, input: { dataroomId: string; mode: NotificationMode; now: Date }): Promise<void> {
  await db.update(datarooms).set({ notificationDefault: input.mode, updatedAt: input.now }).where(eq(datarooms.id, input.dataroomId)).run();
}

// ---- the daily digest ----------------------------------------------------------------------------

/** Up to `limit` members with notifications waiting for the digest (created before `before`). */
export async function listDigestRecipients(db: Database, before: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .where(and(eq(notifications.emailState, "pending"), sql`${notifications.createdAt} < ${before.getTime()}`))
    .limit(limit)
    .all();
  return rows.map((row) => row.userId);
}

/**
 * Claims a member's waiting notifications for their digest: marks them sent and returns them
 * (oldest first), in one statement, so a second run (a redelivered message) finds nothing left.
 */
export async function claimDigestNotifications(db: Database, userId: string, before: Date) {
  return db
    .update(notifications)
    .set({ emailState: "sent" })
    .where(and(eq(notifications.userId, userId), eq(notifications.emailState, "pending"), sql`${notifications.createdAt} < ${before.getTime()}`))
    .returning({ id: notifications.id, title: notifications.title, excerpt: notifications.excerpt, link: notifications.link, dataroomId: notifications.dataroomId, createdAt: notifications.createdAt })
    .all();
}

export async function findUserForMail(db: Database, userId: string) {
  return db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId)).get();
}

/** Room names by id (for the digest's lines). */
export async function findRoomNames(db: Database, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db.select({ id: spaces.id, name: spaces.name }).from(spaces).where(inArray(spaces.id, [...ids])).orderBy(asc(spaces.name)).all();
  return new Map(rows.map((row) => [row.id, row.name]));
}

// ---- personal data -------------------------------------------------------------------------------

export async function listNotificationsForExport(db: Database, userId: string) {
  return db
    .select({ kind: notifications.kind, title: notifications.title, excerpt: notifications.excerpt, link: notifications.link, createdAt: notifications.createdAt, readAt: notifications.readAt })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notifications.createdAt))
    .all();
}

/** The member's choices: per room, and (roomName null) for notices outside rooms. */
export async function listNotificationPrefsForExport(db: Database, userId: string) {
  const [rooms, member] = await Promise.all([
    db
      .select({ roomName: spaces.name, mode: dataroomNotificationPrefs.mode, updatedAt: dataroomNotificationPrefs.updatedAt })
      .from(dataroomNotificationPrefs)
      .innerJoin(spaces, eq(spaces.id, dataroomNotificationPrefs.dataroomId))
      .where(eq(dataroomNotificationPrefs.userId, userId))
      .all(),
    db.select({ mode: memberNotificationPrefs.mode, updatedAt: memberNotificationPrefs.updatedAt }).from(memberNotificationPrefs).where(eq(memberNotificationPrefs.userId, userId)).all(),
  ]);
  return [...rooms, ...member.map((row) => ({ roomName: null as string | null, ...row }))];
}

/**
 * Erasure: the person's own notifications and choices go; in other people's lists, notices they
 * caused no longer carry their name ("A former member mentioned you …") or their words.
 */
export async function eraseNotificationsOf(db: Database, userId: string, name: string): Promise<void> {
  await db.batch([
    db.delete(notifications).where(eq(notifications.userId, userId)),
    db.delete(dataroomNotificationPrefs).where(eq(dataroomNotificationPrefs.userId, userId)),
    db.delete(memberNotificationPrefs).where(eq(memberNotificationPrefs.userId, userId)),
    db
      .update(notifications)
      .set({ title: sql`'A former member' || substr(${notifications.title}, ${name.length + 1})` })
      .where(and(eq(notifications.actorId, userId), sql`substr(${notifications.title}, 1, ${name.length}) = ${name}`)),
    db.update(notifications).set({ actorId: null, excerpt: "" }).where(eq(notifications.actorId, userId)),
  ]);
}
