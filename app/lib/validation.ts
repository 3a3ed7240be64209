import type { z } from "zod";
import { AppError, type FieldErrors } from "./errors";

/**
 * Parses untrusted input with a zod schema. Failure becomes a 400 AppError whose message names
 * the first problem in words a person can act on, with every field's messages attached.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  const first = result.error.issues[0];
  const where = first && first.path.length ? `${first.path.join(".")}: ` : "";
  throw new AppError("VALIDATION_ERROR", `${where}${first?.message ?? "Invalid input"}`, { fieldErrors });
}
