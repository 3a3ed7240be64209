import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";
import { notifyRoom } from "~/features/notifications/notifications.server";
import { findUserForMail } from "~/features/notifications/notifications.queries.server";

/** While a "… added files" notice is unread and younger than this, the next upload adds to it. */
export const FILES_ADDED_GROUP_WINDOW_MS = 60 * 60_000;

/**
 * Files added to a room (issue 20 notifications): everyone else in the room with view hears that
 * someone added a file — one notice per person that counts on ("Olga added 12 files") while it is
 * unread and under an hour old, so a folder upload is one notice and at most one e-mail each.
 * Runs in the queue, off the upload's request. Idempotent: the notice counts each file once.
 */
export const notifyFilesAddedJob = defineJob({
  type: "datarooms.notify-files-added",
  version: 1,
  payloadSchema: z.object({ roomId: z.uuid(), actorId: z.string().min(1).max(64), uploadId: z.string().min(1).max(64), fileId: z.string().min(1).max(64), fileName: z.string().min(1).max(1_000) }),
  async run(ctx, payload) {
    const actor = await findUserForMail(ctx.db, payload.actorId);
    const name = actor?.name ?? "Someone";
    const told = await notifyRoom(
      ctx,
      { roomId: payload.roomId, actorId: payload.actorId, kind: "file.upload", title: `${name} added ${payload.fileName}`, link: `/files/${payload.fileId}` },
      "everyone",
      {
        key: `files.added:${payload.roomId}:${payload.actorId}`,
        subjectId: payload.uploadId,
        windowMs: FILES_ADDED_GROUP_WINDOW_MS,
        titlePrefix: `${name} added `,
        titleSuffix: " files",
        groupedExcerpt: `Latest: ${payload.fileName}`,
        groupedLink: `/dataroom/${payload.roomId}/recent-uploads`,
      },
    );
    return { processedItems: 1, successCount: told.length, failureCount: 0 };
  },
});
