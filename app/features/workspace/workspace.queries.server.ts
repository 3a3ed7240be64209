import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { users } from "~/db/schema";

/** The member's workspace preferences live on their account row (read with the session, no extra round trip). */
export async function updateSidebarCollapsed(db: Database, userId: string, collapsed: boolean, now: Date): Promise<void> {
  await db.update(users).set({ sidebarCollapsed: collapsed, updatedAt: now }).where(eq(users.id, userId)).run();
}

export async function findWorkspacePreferences(db: Database, userId: string) {
  return db.select({ sidebarCollapsed: users.sidebarCollapsed }).from(users).where(eq(users.id, userId)).get();
}
