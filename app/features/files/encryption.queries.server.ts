import { and, eq, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { spaceKeys } from "~/db/schema";

/** A space's wrapped key, or undefined before its first sealed object. */
export async function findSpaceKey(db: Database, spaceId: string): Promise<{ wrapped: string; kekId: string } | undefined> {
  return db.select({ wrapped: spaceKeys.wrappedKey, kekId: spaceKeys.kekId }).from(spaceKeys).where(eq(spaceKeys.spaceId, spaceId)).get();
}

/** The first key of a space; two first uploads at once keep one (the other is ignored and reads it). */
export async function insertSpaceKeyIfAbsent(db: Database, row: { spaceId: string; wrapped: string; kekId: string; now: Date }): Promise<void> {
  await db.insert(spaceKeys).values({ spaceId: row.spaceId, wrappedKey: row.wrapped, kekId: row.kekId, createdAt: row.now, updatedAt: row.now }).onConflictDoNothing().run();
}

export async function listSpaceKeysNotWrappedWith(db: Database, kekId: string, limit: number) {
  return db.select({ spaceId: spaceKeys.spaceId, wrapped: spaceKeys.wrappedKey, kekId: spaceKeys.kekId }).from(spaceKeys).where(ne(spaceKeys.kekId, kekId)).limit(limit).all();
}

/** Re-wraps one key, only if it is still wrapped by `fromKekId` (a second run changes nothing). */
export async function updateSpaceKeyWrapping(db: Database, row: { spaceId: string; fromKekId: string; wrapped: string; kekId: string; now: Date }): Promise<boolean> {
  const result = await db
    .update(spaceKeys)
    .set({ wrappedKey: row.wrapped, kekId: row.kekId, updatedAt: row.now })
    .where(and(eq(spaceKeys.spaceId, row.spaceId), eq(spaceKeys.kekId, row.fromKekId)))
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** Live files of a space whose content is not sealed (uploaded before its room sealed files). */
export async function countUnsealedFiles(db: Database, spaceId: string): Promise<number> {
  const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM files WHERE space_id = ${spaceId} AND trashed_at IS NULL AND r2_key NOT LIKE ${"%/e1-%"}`);
  return row?.n ?? 0;
}
