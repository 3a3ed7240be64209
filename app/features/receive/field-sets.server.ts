import { z } from "zod";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { countFieldSets, deleteFieldSetRow, insertFieldSet, listFieldSetsOf, updateFieldSetRow, type FieldSetRow } from "./receive.queries.server";
import { fieldSetSchema } from "./receive.schema";

/**
 * "Settings: receive page forms" (issue 24): named sets of fields a member keeps and puts on a
 * form page in one step. A page copies the fields (changing a set later leaves pages as they are).
 */

export const FIELD_SETS_MAX = 50;
const NOT_FOUND = "This set of fields does not exist or you don't have access to it.";

export type FieldSetView = { id: string; name: string; fields: FieldSetRow["fields"]; updatedAt: string };

const toView = (row: FieldSetRow): FieldSetView => ({ id: row.id, name: row.name, fields: row.fields, updatedAt: row.updatedAt.toISOString() });

export async function listFieldSets(ctx: ServiceContext, userId: string): Promise<FieldSetView[]> {
  return (await listFieldSetsOf(ctx.db, userId)).map(toView);
}

export async function createFieldSet(ctx: ServiceContext, userId: string, input: unknown): Promise<void> {
  const data = parseInput(fieldSetSchema, input);
  if ((await countFieldSets(ctx.db, userId)) >= FIELD_SETS_MAX) throw new AppError("FORBIDDEN", `You keep at most ${FIELD_SETS_MAX} sets of fields. Delete one you no longer use.`);
  const now = ctx.now();
  await insertFieldSet(ctx.db, { id: crypto.randomUUID(), userId, name: data.name, fields: data.fields, createdAt: now, updatedAt: now });
}

export async function updateFieldSet(ctx: ServiceContext, userId: string, rawId: unknown, input: unknown): Promise<void> {
  const id = z.uuid().safeParse(rawId);
  const data = parseInput(fieldSetSchema, input);
  if (!id.success || !(await updateFieldSetRow(ctx.db, userId, id.data, { name: data.name, fields: data.fields, updatedAt: ctx.now() }))) throw new AppError("NOT_FOUND", NOT_FOUND);
}

export async function deleteFieldSet(ctx: ServiceContext, userId: string, rawId: unknown): Promise<void> {
  const id = z.uuid().safeParse(rawId);
  if (!id.success || !(await deleteFieldSetRow(ctx.db, userId, id.data))) throw new AppError("NOT_FOUND", NOT_FOUND);
}
