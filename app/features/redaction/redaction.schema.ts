import { z } from "zod";
import { REDACTION_MARKS_MAX } from "./redaction-types";

const fraction = z.number().min(0).max(1);

export const markSchema = z
  .object({ page: z.number().int().min(0).max(9_999), x: fraction, y: fraction, w: z.number().gt(0).max(1), h: z.number().gt(0).max(1) })
  .refine((mark) => mark.x + mark.w <= 1.0001 && mark.y + mark.h <= 1.0001, { message: "A mark must lie on its page." });

export const applyRedactionSchema = z.object({
  /** The file's version the marks were made on: a newer one is refused, never redacted blind. */
  version: z.number().int().min(1),
  /** Turn the marked pages into pictures first (offered when the check could not prove a redaction). */
  flatten: z.boolean().default(false),
  marks: z.array(markSchema).min(1, "Mark at least one area to redact.").max(REDACTION_MARKS_MAX, `Apply at most ${REDACTION_MARKS_MAX} marks at once.`),
});
