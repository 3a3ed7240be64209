import { z } from "zod";
import { COMMENT_MAX_LENGTH, COMMENT_MENTIONS_MAX } from "./comments.constants";

// Comments may span lines and hold tabs, but nothing else invisible.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** POST /api/files/{id}/comments: a new thread, or a reply (threadId of the thread). */
export const addCommentSchema = z.object({
  body: z
    .string({ error: "Write a comment." })
    .trim()
    .min(1, "Write a comment.")
    .max(COMMENT_MAX_LENGTH, `A comment is at most ${COMMENT_MAX_LENGTH.toLocaleString("en-US")} characters.`)
    .refine((body) => !CONTROL_CHARACTERS.test(body), "A comment cannot contain control characters."),
  mentions: z
    .array(z.uuid({ error: "Mention people from the list of this room's people." }), { error: "mentions must be a list of people's ids." })
    .max(COMMENT_MENTIONS_MAX, `A comment can mention at most ${COMMENT_MENTIONS_MAX} people.`)
    .default([]),
  threadId: z.uuid({ error: "threadId must be the id of a thread on this file." }).optional(),
});
export type AddCommentInput = z.input<typeof addCommentSchema>;
