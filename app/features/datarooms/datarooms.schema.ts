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
