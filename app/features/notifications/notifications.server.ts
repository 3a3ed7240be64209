import { z } from "zod";
import { notificationModes, type NotificationMode } from "~/db/schema";
import { effectivePermissions } from "~/features/datarooms/datarooms.permissions";
import { roomAuthority } from "~/features/datarooms/room-authority.server";
import { sendMail } from "~/features/mail/mailer.server";
import { decodeCursor, encodeCursor } from "~/features/files/spaces.server";
import { readConfig } from "~/lib/config.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { DIGEST_MAX_ITEMS, EXCERPT_MAX, NOTIFICATIONS_PAGE_SIZE, type NotificationKind } from "./notifications.constants";
import {
  addToGroupedNotifications,
  claimDigestNotifications,
  findGroupedSubject,
  findMemberNotificationMode,
  findMemberRecipient,
  countUnreadNotifications,
  findRecipients,
  findRoomNames,
  findUserForMail,
  insertNotifications,
  listDigestRecipients,
  listNotifications,
  markNotificationsRead,
  markNotificationsReadAt,
  markNotificationUnread,
  saveMemberNotificationMode,
  type NotificationRow,
} from "./notifications.queries.server";

/**
 * Notifications (issue 20 "notifications"): something happened that a member should hear about
 * (a mention, a reply, a comment on their file). Each goes into the member's in-app list; how it
 * is e-mailed follows their choice for the room, or the room's default: at once (instant), in the
 * daily digest, or not at all (off). Only people still in the room with `view` are told.
 */

/** Where links in e-mail point: APP_URL, else the request's origin, else the local dev server. */
export function mailOrigin(ctx: ServiceContext): string {
  const configured = readConfig(ctx.env).APP_URL;
  return configured ? new URL(configured).origin : (ctx.client.origin ?? "http://localhost:5173");
}

export const clip = (text: string, max = EXCERPT_MAX) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/**
 * A grouped notice (files added): while a person's notice of the group is unread and younger than
 * `windowMs`, the next one adds to it ("… added 3 files") instead of making another and mailing
 * again. `subjectId` names what this one counts, so a message delivered twice counts it once.
 */
export type NoticeGroup = { key: string; subjectId: string; windowMs: number; titlePrefix: string; titleSuffix: string; groupedExcerpt: string; groupedLink: string };

export type RoomNotice = {
  roomId: string;
  /** Who did it (never told); null for someone without an account (a share link's visitor). */
  actorId: string | null;
  kind: NotificationKind;
  title: string;
  excerpt?: string;
  /** A path in the app, such as /files/{id}#comment-{id}. */
  link: string;
};

/**
 * Tells people in a room about something (never the person who did it; only those still in the
 * room with `view`). Never fails what already happened: a notice that could not be recorded or
 * mailed is logged. Returns who was told.
 */
export async function notifyRoom(ctx: ServiceContext, notice: RoomNotice, userIds: Iterable<string> | "everyone", group?: NoticeGroup): Promise<string[]> {
  const wanted = userIds === "everyone" ? "everyone" : [...new Set(userIds)].filter((id) => id !== notice.actorId);
  if (wanted !== "everyone" && wanted.length === 0) return [];
  try {
    let recipients = (await findRecipients(ctx.db, notice.roomId, wanted)).filter((row) => row.userId !== notice.actorId && effectivePermissions(row.role, row.overrides).view);
    const now = ctx.now();
    if (group && recipients.length > 0) {
      const counted = await findGroupedSubject(ctx.db, { groupKey: group.key, subjectId: group.subjectId });
      const fresh = await addToGroupedNotifications(ctx.db, {
        userIds: recipients.filter((row) => !counted.has(row.userId)).map((row) => row.userId),
        dataroomId: notice.roomId,
        groupKey: group.key,
        subjectId: group.subjectId,
        since: new Date(now.getTime() - group.windowMs),
        now,
        titlePrefix: group.titlePrefix,
        titleSuffix: group.titleSuffix,
        excerpt: clip(group.groupedExcerpt),
        link: group.groupedLink,
      });
      const needNew = new Set(fresh);
      recipients = recipients.filter((row) => needNew.has(row.userId));
    }
    if (recipients.length === 0) return [];
    const excerpt = clip(notice.excerpt ?? "");
    const rows: NotificationRow[] = recipients.map((recipient) => ({
      id: crypto.randomUUID(),
      userId: recipient.userId,
      dataroomId: notice.roomId,
      kind: notice.kind,
      actorId: notice.actorId,
      title: notice.title,
      excerpt,
      link: notice.link,
      createdAt: now,
      emailState: recipient.mode === "instant" ? "sent" : recipient.mode === "daily" ? "pending" : "none",
      groupKey: group?.key ?? null,
      subjectId: group?.subjectId ?? null,
    }));
    await insertNotifications(ctx.db, rows);
    const origin = mailOrigin(ctx);
    for (const recipient of recipients) {
      if (recipient.mode !== "instant") continue;
      await sendMail(ctx, {
        to: recipient.email,
        userId: recipient.userId,
        template: {
          kind: "notification",
          name: recipient.name,
          title: notice.title,
          excerpt,
          link: `${origin}${notice.link}`,
          roomName: recipient.roomName,
          settingsLink: `${origin}/dataroom/${notice.roomId}/notifications`,
        },
      }).catch((error: unknown) => ctx.logger.error("notification e-mail not recorded", { error: error instanceof Error ? error.message : String(error) }));
    }
    // Open notification pages of the room reload (the event names nobody: each page reads its own list).
    await roomAuthority(ctx, notice.roomId)
      .publish({ name: "notifications.changed", data: {} })
      .catch(() => undefined);
    return recipients.map((recipient) => recipient.userId);
  } catch (error) {
    ctx.logger.error("notifications not recorded", { roomId: notice.roomId, kind: notice.kind, error: error instanceof Error ? error.message : String(error) });
    return [];
  }
}

/** A notice for one member outside any room (the first opening of a share link of their own files). */
export type MemberNotice = { userId: string; actorId: string | null; kind: NotificationKind; title: string; excerpt?: string; link: string };

/**
 * Tells one member about something outside a room: in their list at /notifications, live in
 * their open tabs (their own realtime channel), and by e-mail as they chose there (instant by default, the daily digest, or off). Never fails what
 * already happened: a notice that could not be recorded or mailed is logged.
 */
export async function notifyMember(ctx: ServiceContext, notice: MemberNotice): Promise<boolean> {
  try {
    const recipient = await findMemberRecipient(ctx.db, notice.userId);
    if (!recipient || recipient.userId === notice.actorId) return false;
    const excerpt = clip(notice.excerpt ?? "");
    await insertNotifications(ctx.db, [
      {
        id: crypto.randomUUID(),
        userId: recipient.userId,
        dataroomId: null,
        kind: notice.kind,
        actorId: notice.actorId,
        title: notice.title,
        excerpt,
        link: notice.link,
        createdAt: ctx.now(),
        emailState: recipient.mode === "instant" ? "sent" : recipient.mode === "daily" ? "pending" : "none",
      },
    ]);
    // Their open tabs hear it at once (their own channel); a tab that is not open finds it in the list.
    await ctx.env.MEMBER_CHANNEL.getByName(recipient.userId)
      .publish({ name: "notification", data: { kind: notice.kind, title: notice.title, link: notice.link } })
      .catch((error: unknown) => ctx.logger.warn("live notice not delivered", { error: error instanceof Error ? error.message : String(error) }));
    if (recipient.mode === "instant") {
      const origin = mailOrigin(ctx);
      await sendMail(ctx, {
        to: recipient.email,
        userId: recipient.userId,
        template: { kind: "notification", name: recipient.name, title: notice.title, excerpt, link: `${origin}${notice.link}`, roomName: null, settingsLink: `${origin}/notifications` },
      }).catch((error: unknown) => ctx.logger.error("notification e-mail not recorded", { error: error instanceof Error ? error.message : String(error) }));
    }
    return true;
  } catch (error) {
    ctx.logger.error("notification not recorded", { kind: notice.kind, error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}

/** /notifications: the member's notices outside rooms, and how they hear about them. */
export async function getMemberNotifications(ctx: ServiceContext, userId: string, rawQuery: unknown): Promise<NotificationPage & { mode: NotificationMode }> {
  const [page, mode] = await Promise.all([listRoomNotificationsFor(ctx, userId, null, rawQuery), findMemberNotificationMode(ctx.db, userId)]);
  return { ...page, mode: mode ?? "instant" };
}

export async function setMemberNotificationMode(ctx: ServiceContext, userId: string, input: unknown): Promise<NotificationMode> {
  const { mode } = parseInput(z.object({ mode: notificationModeSchema }, { error: "Choose instant, daily or off." }), input);
  await saveMemberNotificationMode(ctx.db, { userId, mode, now: ctx.now() });
  return mode;
}

// ---- the member's list ---------------------------------------------------------------------------

export type NotificationItem = { id: string; kind: string; title: string; excerpt: string; link: string; createdAt: string; read: boolean };
export type NotificationPage = { notifications: NotificationItem[]; unread: number; nextCursor: string | null; filter: "all" | "unread" };

const listQuerySchema = z.object({
  filter: z.enum(["all", "unread"]).catch("all").default("all"),
  cursor: z.string().max(200).optional().catch(undefined),
});

/** The page's keyset (created, id) from the shared cursor format; anything else is the first page. */
function keysetOf(cursor: string | undefined): { createdAt: number; id: string } | null {
  const keyset = decodeCursor(cursor);
  return keyset && typeof keyset.value === "number" ? { createdAt: keyset.value, id: keyset.id } : null;
}

/** A member's notifications of one room (the caller has checked the room), or (null) outside rooms; newest first, 50 a page. */
export async function listRoomNotificationsFor(ctx: ServiceContext, userId: string, roomId: string | null, rawQuery: unknown): Promise<NotificationPage> {
  const query = parseInput(listQuerySchema, rawQuery ?? {});
  const [rows, unread] = await Promise.all([
    listNotifications(ctx.db, { userId, dataroomId: roomId, unreadOnly: query.filter === "unread", after: keysetOf(query.cursor), limit: NOTIFICATIONS_PAGE_SIZE + 1 }),
    countUnreadNotifications(ctx.db, userId, roomId),
  ]);
  const visible = rows.slice(0, NOTIFICATIONS_PAGE_SIZE);
  const last = visible.at(-1);
  return {
    notifications: visible.map((row) => ({ id: row.id, kind: row.kind, title: row.title, excerpt: row.excerpt, link: row.link, createdAt: row.createdAt.toISOString(), read: row.readAt !== null })),
    unread,
    nextCursor: rows.length > NOTIFICATIONS_PAGE_SIZE && last ? encodeCursor({ value: last.createdAt.getTime(), id: last.id }) : null,
    filter: query.filter,
  };
}

/** Opening the page a notification points at (a file's comments) marks it read, as a read receipt. */
export async function markReadOnVisit(ctx: ServiceContext, userId: string, roomId: string, path: string): Promise<void> {
  await markNotificationsReadAt(ctx.db, { userId, dataroomId: roomId, path, now: ctx.now() }).catch((error: unknown) =>
    ctx.logger.warn("notifications not marked read", { error: error instanceof Error ? error.message : String(error) }),
  );
}

export function unreadCountFor(ctx: ServiceContext, userId: string, roomId: string | null): Promise<number> {
  return countUnreadNotifications(ctx.db, userId, roomId);
}

const markSchema = z.object({
  ids: z
    .union([z.literal("all"), z.array(z.uuid({ error: "Each notification id must be an id from the list." }), { error: "ids must be a list of notification ids, or \"all\"." }).min(1).max(NOTIFICATIONS_PAGE_SIZE)], {
      error: 'ids must be a list of notification ids, or "all".',
    }),
  read: z.boolean({ error: "read must be true or false." }).default(true),
});

/** Marks a member's notifications of a room (null: outside rooms) read (some, or all) or one unread again. Returns the unread count after. */
export async function markRoomNotifications(ctx: ServiceContext, userId: string, roomId: string | null, input: unknown): Promise<{ changed: number; unread: number }> {
  const { ids, read } = parseInput(markSchema, input);
  let changed = 0;
  if (read) changed = await markNotificationsRead(ctx.db, { userId, dataroomId: roomId, ids, now: ctx.now() });
  else for (const id of ids === "all" ? [] : ids) changed += await markNotificationUnread(ctx.db, { userId, dataroomId: roomId, id });
  return { changed, unread: await countUnreadNotifications(ctx.db, userId, roomId) };
}

export const notificationModeSchema = z.enum(notificationModes, { error: "Choose instant, daily or off." });

// ---- the daily digest ----------------------------------------------------------------------------

/** Members handled per digest run (a run with more left enqueues nothing: tomorrow's run picks them up first). */
export const DIGEST_RECIPIENTS_PER_RUN = 500;

/**
 * The daily digest: every member with notifications waiting gets one e-mail listing them (the 20
 * newest, then how many more). Each member's notifications are claimed (marked sent) in the same
 * statement that reads them, so a redelivered message mails nobody twice; a mail that fails after
 * its claim is logged (at most once, never twice).
 */
export async function sendDailyDigests(ctx: ServiceContext): Promise<{ recipients: number; notifications: number }> {
  const before = ctx.now();
  const userIds = await listDigestRecipients(ctx.db, before, DIGEST_RECIPIENTS_PER_RUN);
  const origin = mailOrigin(ctx);
  let count = 0;
  let recipients = 0;
  for (const userId of userIds) {
    const claimed = await claimDigestNotifications(ctx.db, userId, before);
    if (claimed.length === 0) continue;
    count += claimed.length;
    const user = await findUserForMail(ctx.db, userId);
    if (!user) continue;
    const newest = claimed.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, DIGEST_MAX_ITEMS);
    const rooms = await findRoomNames(ctx.db, [...new Set(newest.flatMap((row) => (row.dataroomId ? [row.dataroomId] : [])))]);
    try {
      await sendMail(ctx, {
        to: user.email,
        userId,
        template: {
          kind: "notification-digest",
          name: user.name,
          items: newest.map((row) => ({ title: row.title, excerpt: row.excerpt, link: `${origin}${row.link}`, roomName: (row.dataroomId && rooms.get(row.dataroomId)) || "Strongroom" })),
          more: claimed.length - newest.length,
          settingsLink: `${origin}/datarooms`,
        },
      });
      recipients++;
    } catch (error) {
      ctx.logger.error("digest e-mail not recorded", { userId, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { recipients, notifications: count };
}
