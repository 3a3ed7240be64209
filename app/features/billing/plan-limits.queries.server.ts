import { and, asc, eq, inArray, isNotNull, isNull, notInArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { datarooms, spaces } from "~/db/schema";

/** The owner's rooms outside the trash, oldest first (the first ones the plan holds stay writable). */
export async function listOwnedLiveRooms(db: Database, ownerId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: datarooms.id, name: spaces.name })
    .from(datarooms)
    .innerJoin(spaces, eq(spaces.id, datarooms.id))
    .where(and(eq(datarooms.ownerId, ownerId), isNull(datarooms.trashedAt)))
    .orderBy(asc(datarooms.createdAt), asc(datarooms.id))
    .all();
}

/**
 * The owner's spaces over the plan, marked read-only (keeping when each first went over), and every
 * other space of theirs writable again — one batch, so a second run with the same answer changes
 * nothing.
 */
export async function writeOverPlan(db: Database, ownerId: string, over: ReadonlyMap<string, string>, now: Date): Promise<void> {
  const ids = [...over.keys()];
  const clear = db
    .update(spaces)
    .set({ overPlanAt: null, overPlanReason: null })
    .where(and(eq(spaces.ownerId, ownerId), isNotNull(spaces.overPlanAt), ...(ids.length > 0 ? [notInArray(spaces.id, ids)] : [])));
  const marks = ids.map((id) =>
    db
      .update(spaces)
      .set({ overPlanAt: sql`coalesce(${spaces.overPlanAt}, ${now.getTime()})`, overPlanReason: over.get(id)! })
      .where(and(eq(spaces.id, id), eq(spaces.ownerId, ownerId))),
  );
  await db.batch([clear, ...marks]);
}

/** Owners with something read-only over their plan (the nightly look: has it come to fit?). */
export async function listOwnersOverPlan(db: Database, limit: number): Promise<string[]> {
  const rows = await db.selectDistinct({ ownerId: spaces.ownerId }).from(spaces).where(isNotNull(spaces.overPlanAt)).limit(limit).all();
  return rows.map((row) => row.ownerId);
}

export async function hasOverPlan(db: Database, ownerId: string): Promise<boolean> {
  return Boolean(await db.select({ id: spaces.id }).from(spaces).where(and(eq(spaces.ownerId, ownerId), isNotNull(spaces.overPlanAt))).limit(1).get());
}

/** The owners of those of `spaceIds` that are read-only over their plan. */
export async function listOverPlanOwnersOf(db: Database, spaceIds: readonly string[]): Promise<string[]> {
  if (spaceIds.length === 0) return [];
  const rows = await db.selectDistinct({ ownerId: spaces.ownerId }).from(spaces).where(and(inArray(spaces.id, [...spaceIds]), isNotNull(spaces.overPlanAt))).all();
  return rows.map((row) => row.ownerId);
}
