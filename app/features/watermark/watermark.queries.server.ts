import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";

/** The viewer's e-mail and the room's name, for a watermark's {{email}} and {{room}} (one round trip). */
export async function findWatermarkNames(db: Database, userId: string, spaceId: string): Promise<{ email: string; roomName: string }> {
  const row = await db.get<{ email: string | null; roomName: string | null }>(sql`
    SELECT (SELECT email FROM users WHERE id = ${userId}) AS email, (SELECT name FROM spaces WHERE id = ${spaceId}) AS roomName`);
  return { email: row?.email ?? "unknown viewer", roomName: row?.roomName ?? "" };
}
