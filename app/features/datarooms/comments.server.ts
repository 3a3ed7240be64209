import { z } from "zod";
import { consumeAttempt } from "~/features/auth/attempt-limits.server";
import { decodeCursor, encodeCursor, requireFileAccess } from "~/features/files/spaces.server";
import { clip, notifyRoom } from "~/features/notifications/notifications.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { auditRoom } from "./audit-record.server";
import { COMMENT_MENTIONS_MAX, COMMENT_WINDOW_MS, COMMENTS_PER_WINDOW, FILE_COMMENTS_MAX, THREADS_PAGE_SIZE, THREAD_FILTERS } from "./comments.constants";
import {
  countFileComments,
  findComment,
  insertComment,
  listFileComments,
  listRoomThreads,
  listThreadAuthors,
  markCommentDeleted,
  setThreadResolved,
  type ThreadFilter,
} from "./comments.queries.server";
import { addCommentSchema } from "./comments.schema";
import { assertRoomWritable, readOnlyReason, effectivePermissions } from "./datarooms.permissions";
import { requireDataroom, type DataroomSummary } from "./datarooms.server";
import { listDataroomMembers } from "./members.queries.server";
import { roomAuthority } from "./room-authority.server";

/**
 * Comments on a room's files (issue 20 "comments"): threads on a file, replies, mentions that
 * notify (in-app and by e-mail, as each person chose), resolve and reopen, delete. Reading needs
 * `view` of the file; writing, resolving and deleting one's own comment need `comment` and a room
 * that is not archived; the room's managers (`manage_settings`) may delete anyone's comment.
 * Every change is in the room's audit log. Outsiders get 404 for the file and every comment.
 */

export type Person = { id: string; name: string };
export type CommentView = { id: string; threadId: string; author: Person | null; body: string; mentions: Person[]; createdAt: string; deleted: boolean; canDelete: boolean };
export type ThreadView = CommentView & { resolved: { at: string; byName: string | null } | null; replies: CommentView[] };
export type FileComments = { fileId: string; roomId: string; threads: ThreadView[]; canComment: boolean; reason: string | null; people: Person[]; total: number };

const commentNotFound = () => new AppError("NOT_FOUND", "This comment does not exist or you don't have access to it.");
const NOT_IN_ROOM_MESSAGE = "Comments are for files in data rooms. Move the file into a data room to discuss it there.";

/** The file (live, visible to the caller, in a room) and the room as the caller sees it. */
async function fileInRoom(ctx: ServiceContext, userId: string, fileId: string) {
  const { file, roomPermissions } = await requireFileAccess(ctx, userId, fileId, "files.view");
  if (!roomPermissions) throw new AppError("CONFLICT", NOT_IN_ROOM_MESSAGE);
  const room = await requireDataroom(ctx, userId, file.spaceId, "view");
  return { file, room };
}

/** People of the room who may see its files (the ones a comment can mention). */
async function roomPeople(ctx: ServiceContext, roomId: string): Promise<Person[]> {
  const members = await listDataroomMembers(ctx.db, roomId);
  return members.filter((member) => effectivePermissions(member.role, member.overrides).view).map((member) => ({ id: member.userId, name: member.name }));
}

function commentRefusal(room: DataroomSummary): string | null {
  if (!room.permissions.comment) return "You don't have permission to comment in this data room.";
  const readOnly = readOnlyReason(room);
  if (readOnly) return readOnly;
  return null;
}

async function requireCommentRight(ctx: ServiceContext, userId: string, room: DataroomSummary): Promise<void> {
  if (!room.permissions.comment) await requireDataroom(ctx, userId, room.id, "comment");
  assertRoomWritable(room);
}

/** GET /api/files/{id}/comments and the file page: the file's threads with their replies. */
export async function getFileComments(ctx: ServiceContext, userId: string, fileId: string): Promise<FileComments> {
  const { file, room } = await fileInRoom(ctx, userId, fileId);
  const [rows, people] = await Promise.all([listFileComments(ctx.db, file.id, FILE_COMMENTS_MAX), roomPeople(ctx, room.id)]);
  const names = new Map(people.map((person) => [person.id, person.name]));
  const reason = commentRefusal(room);
  const toView = (row: (typeof rows)[number]): CommentView => ({
    id: row.id,
    threadId: row.threadId,
    author: row.authorId ? { id: row.authorId, name: row.authorName ?? "Former member" } : null,
    body: row.deletedAt ? "" : row.body,
    mentions: row.deletedAt ? [] : row.mentions.map((id) => ({ id, name: names.get(id) ?? "Former member" })),
    createdAt: row.createdAt.toISOString(),
    deleted: row.deletedAt !== null,
    canDelete: row.deletedAt === null && !readOnlyReason(room) && ((row.authorId === userId && room.permissions.comment) || room.permissions.manage_settings),
  });
  const threads: ThreadView[] = [];
  const byId = new Map<string, ThreadView>();
  for (const row of rows) {
    if (row.id === row.threadId) {
      const thread: ThreadView = { ...toView(row), resolved: row.resolvedAt ? { at: row.resolvedAt.toISOString(), byName: row.resolvedByName } : null, replies: [] };
      threads.push(thread);
      byId.set(row.id, thread);
    } else byId.get(row.threadId)?.replies.push(toView(row));
  }
  return { fileId: file.id, roomId: room.id, threads, canComment: reason === null, reason, people: reason === null ? people : [], total: rows.length };
}

/**
 * POST /api/files/{id}/comments: a new thread or a reply. Mentioned people must be in the room
 * with view; they are told (comment.mention), the thread's other writers are told of a reply
 * (comment.reply), and the file's uploader of a new thread (comment.new).
 */
export async function addComment(ctx: ServiceContext, userId: string, fileId: string, input: unknown): Promise<{ comment: CommentView; notified: string[] }> {
  const { file, room } = await fileInRoom(ctx, userId, fileId);
  await requireCommentRight(ctx, userId, room);
  const { body, mentions: mentionIds, threadId } = parseInput(addCommentSchema, input);
  if (threadId) {
    const root = await findComment(ctx.db, threadId);
    if (!root || root.fileId !== file.id || root.threadId !== root.id) throw new AppError("VALIDATION_ERROR", "threadId: That thread is not on this file. Reload the page and try again.");
  }
  if ((await countFileComments(ctx.db, file.id)) >= FILE_COMMENTS_MAX) {
    throw new AppError("CONFLICT", `This file has ${FILE_COMMENTS_MAX.toLocaleString("en-US")} comments, the most a file can hold. Resolve the discussion in an existing thread.`);
  }
  const people = await roomPeople(ctx, room.id);
  const byId = new Map(people.map((person) => [person.id, person]));
  const mentions = [...new Set(mentionIds)];
  const outsider = mentions.find((id) => !byId.has(id));
  if (outsider) throw new AppError("VALIDATION_ERROR", "mentions: You can only mention people who can see this room's files. Pick them from the list.");
  if (mentions.length > COMMENT_MENTIONS_MAX) throw new AppError("VALIDATION_ERROR", `mentions: A comment can mention at most ${COMMENT_MENTIONS_MAX} people.`);

  // Every comment counts against the writer's window: mentions e-mail people (S28).
  await consumeAttempt(ctx.env, "comment", { account: userId }, { limit: COMMENTS_PER_WINDOW, windowMs: COMMENT_WINDOW_MS }, (minutes) =>
    `You have written ${COMMENTS_PER_WINDOW} comments in the last 15 minutes, the most at a time. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
  );
  const id = crypto.randomUUID();
  const now = ctx.now();
  await insertComment(ctx.db, { id, dataroomId: room.id, fileId: file.id, threadId: threadId ?? id, authorId: userId, body, mentions, createdAt: now, lastActivityAt: now });
  await auditRoom(ctx, room.id, userId, { action: "comment.add", target: { type: "file", id: file.id, name: file.name }, detail: threadId ? "reply" : "new thread" });

  const actorName = byId.get(userId)?.name ?? "Someone";
  const link = `/files/${file.id}#comment-${id}`;
  const excerpt = clip(body);
  const notified = await notifyRoom(ctx, { roomId: room.id, actorId: userId, kind: "comment.mention", title: `${actorName} mentioned you on ${file.name}`, excerpt, link }, mentions);
  const others = threadId ? await listThreadAuthors(ctx.db, threadId) : file.uploadedBy ? [file.uploadedBy] : [];
  const rest = others.filter((other) => !mentions.includes(other));
  notified.push(
    ...(await notifyRoom(
      ctx,
      threadId
        ? { roomId: room.id, actorId: userId, kind: "comment.reply", title: `${actorName} replied on ${file.name}`, excerpt, link }
        : { roomId: room.id, actorId: userId, kind: "comment.new", title: `${actorName} commented on ${file.name}`, excerpt, link },
      rest,
    )),
  );
  await announceComments(ctx, room.id, file.id);
  return {
    comment: {
      id,
      threadId: threadId ?? id,
      author: { id: userId, name: actorName },
      body,
      mentions: mentions.map((mentioned) => byId.get(mentioned)!),
      createdAt: now.toISOString(),
      deleted: false,
      canDelete: true,
    },
    notified,
  };
}

/** Open pages of the file and the room's comments page reload. */
async function announceComments(ctx: ServiceContext, roomId: string, fileId: string): Promise<void> {
  await roomAuthority(ctx, roomId)
    .publish({ name: "comments.changed", data: { fileId } })
    .catch(() => undefined);
}

/** The comment as the caller may reach it (404 for anyone who cannot see its file), with its file and room. */
async function reachComment(ctx: ServiceContext, userId: string, commentId: unknown) {
  const parsed = z.uuid().safeParse(commentId);
  if (!parsed.success) throw commentNotFound();
  const comment = await findComment(ctx.db, parsed.data);
  if (!comment) throw commentNotFound();
  try {
    const { file, room } = await fileInRoom(ctx, userId, comment.fileId);
    return { comment, file, room };
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") throw commentNotFound();
    throw error;
  }
}

/** POST /api/comments/{id}/resolve and /reopen: a thread's state (anyone who may comment). */
export async function setCommentThreadResolved(ctx: ServiceContext, userId: string, commentId: unknown, resolved: boolean): Promise<{ threadId: string; resolved: boolean }> {
  const { comment, file, room } = await reachComment(ctx, userId, commentId);
  await requireCommentRight(ctx, userId, room);
  const changed = await setThreadResolved(ctx.db, { threadId: comment.threadId, by: resolved ? userId : null, now: ctx.now() });
  if (changed) {
    await auditRoom(ctx, room.id, userId, { action: resolved ? "comment.resolve" : "comment.reopen", target: { type: "file", id: file.id, name: file.name } });
    await announceComments(ctx, room.id, file.id);
  }
  return { threadId: comment.threadId, resolved };
}

/** DELETE /api/comments/{id}: the author (who may comment) or the room's managers. */
export async function deleteComment(ctx: ServiceContext, userId: string, commentId: unknown): Promise<{ deleted: true }> {
  const { comment, file, room } = await reachComment(ctx, userId, commentId);
  assertRoomWritable(room);
  const isAuthor = comment.authorId === userId && room.permissions.comment;
  if (!isAuthor && !room.permissions.manage_settings) {
    throw new AppError("FORBIDDEN", comment.authorId === userId ? "You don't have permission to comment in this data room." : "Only the comment's author or the room's managers can delete it.");
  }
  if (await markCommentDeleted(ctx.db, comment.id, ctx.now())) {
    await auditRoom(ctx, room.id, userId, { action: "comment.delete", target: { type: "file", id: file.id, name: file.name } });
    await announceComments(ctx, room.id, file.id);
  }
  return { deleted: true };
}

// ---- the room's comments page --------------------------------------------------------------------

export type ThreadSummary = {
  id: string;
  file: { id: string; name: string };
  authorName: string | null;
  excerpt: string;
  deleted: boolean;
  createdAt: string;
  lastActivityAt: string;
  replies: number;
  resolved: boolean;
};
export type RoomThreads = { room: DataroomSummary; threads: ThreadSummary[]; filter: ThreadFilter; nextCursor: string | null };

const threadQuerySchema = z.object({
  filter: z.enum(Object.keys(THREAD_FILTERS) as [ThreadFilter, ...ThreadFilter[]]).catch("open").default("open"),
  cursor: z.string().max(200).optional().catch(undefined),
});

/** The page's keyset (last activity, id) from the shared cursor format; anything else is the first page. */
function threadKeysetOf(cursor: string | undefined) {
  const keyset = decodeCursor(cursor);
  return keyset && typeof keyset.value === "number" ? { at: keyset.value, id: keyset.id } : null;
}

/**
 * /dataroom/{id}/comments (spec §2 "comments"): the room's threads, latest activity first, open
 * (default), resolved, all, or the ones mentioning the caller; 50 a page. Everyone with `view`.
 */
export async function getRoomThreads(ctx: ServiceContext, userId: string, roomId: unknown, rawQuery: unknown): Promise<RoomThreads> {
  const room = await requireDataroom(ctx, userId, roomId, "view");
  const query = parseInput(threadQuerySchema, rawQuery ?? {});
  const rows = await listRoomThreads(ctx.db, { dataroomId: room.id, filter: query.filter, userId, after: threadKeysetOf(query.cursor), limit: THREADS_PAGE_SIZE + 1 });
  const visible = rows.slice(0, THREADS_PAGE_SIZE);
  const last = visible.at(-1);
  return {
    room,
    filter: query.filter,
    threads: visible.map((row) => ({
      id: row.id,
      file: { id: row.fileId, name: row.fileName },
      authorName: row.authorName,
      excerpt: row.deletedAt ? "" : clip(row.body),
      deleted: row.deletedAt !== null,
      createdAt: row.createdAt.toISOString(),
      lastActivityAt: row.lastActivityAt.toISOString(),
      replies: row.replyCount,
      resolved: row.resolvedAt !== null,
    })),
    nextCursor: rows.length > THREADS_PAGE_SIZE && last ? encodeCursor({ value: last.lastActivityAt.getTime(), id: last.id }) : null,
  };
}
