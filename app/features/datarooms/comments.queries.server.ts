import { and, asc, desc, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Database } from "~/db/client.server";
import { dataroomComments, files, users } from "~/db/schema";

/**
 * Comments on a room's files: the only place drizzle is called for them. A thread's root holds
 * its state; replies are added in the same batch that moves the root's activity and count.
 */

export type CommentInsert = typeof dataroomComments.$inferInsert;

/** A new thread (root), or a reply with its root's count and activity moved in the same batch. */
export async function insertComment(db: Database, row: CommentInsert & { threadId: string; createdAt: Date }): Promise<void> {
  if (row.threadId === row.id) {
    await db.insert(dataroomComments).values(row).run();
    return;
  }
  await db.batch([
    db.insert(dataroomComments).values(row),
    db
      .update(dataroomComments)
      .set({ replyCount: sql`${dataroomComments.replyCount} + 1`, lastActivityAt: row.createdAt })
      .where(and(eq(dataroomComments.id, row.threadId), eq(dataroomComments.threadId, row.threadId))),
  ]);
}

export async function findComment(db: Database, id: string) {
  return db.select().from(dataroomComments).where(eq(dataroomComments.id, id)).get();
}

export async function countFileComments(db: Database, fileId: string): Promise<number> {
  const row = await db.select({ count: sql<number>`count(*)` }).from(dataroomComments).where(eq(dataroomComments.fileId, fileId)).get();
  return Number(row?.count ?? 0);
}

const resolver = alias(users, "resolver");

/** Every comment on a file (at most `limit`), threads in the order they were started, replies in order. */
export async function listFileComments(db: Database, fileId: string, limit: number) {
  const root = alias(dataroomComments, "root");
  return db
    .select({
      id: dataroomComments.id,
      threadId: dataroomComments.threadId,
      authorId: dataroomComments.authorId,
      authorName: users.name,
      body: dataroomComments.body,
      mentions: dataroomComments.mentions,
      createdAt: dataroomComments.createdAt,
      deletedAt: dataroomComments.deletedAt,
      resolvedAt: dataroomComments.resolvedAt,
      resolvedByName: sql<string | null>`${resolver.name}`.as("resolved_by_name"),
    })
    .from(dataroomComments)
    .innerJoin(root, eq(root.id, dataroomComments.threadId))
    .leftJoin(users, eq(users.id, dataroomComments.authorId))
    .leftJoin(resolver, eq(resolver.id, dataroomComments.resolvedBy))
    .where(eq(dataroomComments.fileId, fileId))
    .orderBy(asc(root.createdAt), asc(root.id), asc(dataroomComments.createdAt), asc(dataroomComments.id))
    .limit(limit)
    .all();
}

/** Everyone who wrote in a thread (and has an account still). */
export async function listThreadAuthors(db: Database, threadId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ authorId: dataroomComments.authorId })
    .from(dataroomComments)
    .where(and(eq(dataroomComments.threadId, threadId), isNotNull(dataroomComments.authorId)))
    .all();
  return rows.flatMap((row) => (row.authorId ? [row.authorId] : []));
}

/** Resolves (with who) or reopens (null) a thread; returns whether its state changed. */
export async function setThreadResolved(db: Database, input: { threadId: string; by: string | null; now: Date }): Promise<boolean> {
  const result = await db
    .update(dataroomComments)
    .set({ resolvedAt: input.by ? input.now : null, resolvedBy: input.by, lastActivityAt: input.now })
    .where(and(eq(dataroomComments.id, input.threadId), eq(dataroomComments.threadId, input.threadId), input.by ? isNull(dataroomComments.resolvedAt) : isNotNull(dataroomComments.resolvedAt)))
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** A deleted comment keeps its place in its thread; its words and mentions are gone. */
export async function markCommentDeleted(db: Database, id: string, now: Date): Promise<boolean> {
  const result = await db
    .update(dataroomComments)
    .set({ deletedAt: now, body: "", mentions: [] })
    .where(and(eq(dataroomComments.id, id), isNull(dataroomComments.deletedAt)))
    .run();
  return (result.meta.changes ?? 0) > 0;
}

export type ThreadFilter = "open" | "resolved" | "all" | "mentions";
export type ThreadKeyset = { at: number; id: string };

/**
 * The threads of a room's live files, latest activity first (keyset by activity, id): open,
 * resolved, all, or those that mention `userId` anywhere.
 */
export async function listRoomThreads(db: Database, input: { dataroomId: string; filter: ThreadFilter; userId: string; after: ThreadKeyset | null; limit: number }) {
  const conditions: SQL[] = [eq(dataroomComments.dataroomId, input.dataroomId), sql`${dataroomComments.id} = ${dataroomComments.threadId}`];
  if (input.filter === "open") conditions.push(isNull(dataroomComments.resolvedAt));
  if (input.filter === "resolved") conditions.push(isNotNull(dataroomComments.resolvedAt));
  if (input.filter === "mentions") {
    conditions.push(
      sql`EXISTS (SELECT 1 FROM dataroom_comments AS c, json_each(c.mentions) AS m WHERE c.thread_id = ${dataroomComments.id} AND m.value = ${input.userId})`,
    );
  }
  if (input.after) conditions.push(sql`(${dataroomComments.lastActivityAt}, ${dataroomComments.id}) < (${input.after.at}, ${input.after.id})`);
  return db
    .select({
      id: dataroomComments.id,
      fileId: dataroomComments.fileId,
      fileName: files.name,
      authorName: users.name,
      body: dataroomComments.body,
      deletedAt: dataroomComments.deletedAt,
      createdAt: dataroomComments.createdAt,
      lastActivityAt: dataroomComments.lastActivityAt,
      replyCount: dataroomComments.replyCount,
      resolvedAt: dataroomComments.resolvedAt,
    })
    .from(dataroomComments)
    .innerJoin(files, and(eq(files.id, dataroomComments.fileId), isNull(files.trashedAt)))
    .leftJoin(users, eq(users.id, dataroomComments.authorId))
    .where(and(...conditions))
    .orderBy(desc(dataroomComments.lastActivityAt), desc(dataroomComments.id))
    .limit(input.limit)
    .all();
}

// ---- personal data -------------------------------------------------------------------------------

/** Every comment a person wrote, with its room and file (their account export). */
export async function listCommentsByAuthor(db: Database, userId: string) {
  return db
    .select({
      roomName: sql<string>`(SELECT name FROM spaces WHERE spaces.id = ${dataroomComments.dataroomId})`.as("room_name"),
      fileName: files.name,
      body: dataroomComments.body,
      isReply: sql<number>`${dataroomComments.id} <> ${dataroomComments.threadId}`.as("is_reply"),
      createdAt: dataroomComments.createdAt,
      deletedAt: dataroomComments.deletedAt,
    })
    .from(dataroomComments)
    .innerJoin(files, eq(files.id, dataroomComments.fileId))
    .where(eq(dataroomComments.authorId, userId))
    .orderBy(asc(dataroomComments.createdAt))
    .all();
}

/** Erasure: a person's comments lose their words and mentions (their places in threads stay, without a name). */
export async function eraseCommentsByAuthor(db: Database, userId: string, now: Date): Promise<void> {
  await db.update(dataroomComments).set({ body: "", mentions: [], deletedAt: now, authorId: null }).where(eq(dataroomComments.authorId, userId)).run();
}
