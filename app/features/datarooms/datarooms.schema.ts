import { z } from "zod";
import { DATAROOM_ID_PATTERN } from "./datarooms.constants";

export { DATAROOM_ID_PATTERN };

export const dataroomIdSchema = z
  .string({ error: "A data room id is required." })
  .trim()
  .refine((value) => value !== "" && value !== "undefined" && value !== "null", "A data room id is required.")
  .refine((value) => DATAROOM_ID_PATTERN.test(value), "A data room id is 36 hexadecimal characters and dashes.");

export function isDataroomId(value: unknown): value is string {
  return dataroomIdSchema.safeParse(value).success;
}

export const DATAROOM_NAME_MAX = 120;
export const DATAROOM_DESCRIPTION_MAX = 2000;

export const dataroomNameSchema = z
  .string({ error: "Name is required." })
  .trim()
  .min(1, "Name is required.")
  .max(DATAROOM_NAME_MAX, `Name is at most ${DATAROOM_NAME_MAX} characters.`)
  .refine((name) => !/[\u0000-\u001f]/.test(name), "Name cannot contain control characters.");

export const dataroomDescriptionSchema = z
  .string({ error: "Description must be text." })
  .trim()
  .max(DATAROOM_DESCRIPTION_MAX, `Description is at most ${DATAROOM_DESCRIPTION_MAX} characters.`);

export const createDataroomSchema = z.object({
  name: dataroomNameSchema,
  description: dataroomDescriptionSchema.optional().default(""),
});

export const updateDataroomSchema = z
  .object({ name: dataroomNameSchema.optional(), description: dataroomDescriptionSchema.optional() })
  .refine((value) => value.name !== undefined || value.description !== undefined, "Send a name or a description to change.");

export const DATAROOM_SORTS = ["updated", "name", "created"] as const;
export const DATAROOM_FILTERS = ["all", "mine", "shared", "trash"] as const;

/** The index's query: search text, which rooms, sort and direction; anything unknown falls back. */
export const listDataroomsQuerySchema = z.object({
  q: z.string().trim().max(120).optional().catch(undefined),
  filter: z.enum(DATAROOM_FILTERS).optional().catch(undefined).transform((value) => value ?? "all"),
  sort: z.enum(DATAROOM_SORTS).optional().catch(undefined).transform((value) => value ?? "updated"),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
});
export type ListDataroomsQuery = z.output<typeof listDataroomsQuerySchema>;
