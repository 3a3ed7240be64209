import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { eraseCommentsByAuthor, listCommentsByAuthor } from "./comments.queries.server";

/**
 * Comments a member wrote in data rooms: the export lists them with their room and file; erasure
 * removes their words and their name (each keeps its place in its thread as a deleted comment, so
 * the others' replies still read in order).
 */
export const commentsPersonalData = definePersonalDataSource({
  name: "dataroom-comments",
  async export(ctx, userId) {
    const rows = await listCommentsByAuthor(ctx.db, userId);
    if (rows.length === 0) return [];
    return [
      {
        path: "datarooms/comments.json",
        description: "The comments you wrote on data room files, with the room, the file and when.",
        data: rows.map((row) => ({
          dataroom: row.roomName,
          file: row.fileName,
          reply: Boolean(row.isReply),
          text: row.deletedAt ? null : row.body,
          createdAt: row.createdAt.toISOString(),
          deletedAt: row.deletedAt?.toISOString() ?? null,
        })),
      },
    ];
  },
  async erase(ctx, userId) {
    await eraseCommentsByAuthor(ctx.db, userId, ctx.now());
    return { r2Keys: [] };
  },
});
