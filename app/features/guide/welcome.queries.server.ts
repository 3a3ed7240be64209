import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { receivePages, shareLinks, users } from "~/db/schema";

/** What the welcome checklist ticks from real state, in one round trip. */
export async function readFirstSteps(db: Database, userId: string) {
  return db
    .select({
      hasFile: sql<number>`exists (select 1 from files f join spaces s on s.id = f.space_id where s.owner_id = ${userId})`,
      hasRoom: sql<number>`exists (select 1 from datarooms d where d.owner_id = ${userId})`,
      hasShareLink: sql<number>`exists (select 1 from share_links l where l.created_by = ${userId})`,
    })
    .from(users)
    .where(eq(users.id, userId))
    .get();
}

export async function setWelcomeDismissed(db: Database, userId: string, at: Date | null): Promise<void> {
  await db.update(users).set({ welcomeDismissedAt: at }).where(eq(users.id, userId)).run();
}

export async function setReleasesSeen(db: Database, userId: string, releaseId: string): Promise<void> {
  await db.update(users).set({ whatsNewSeen: releaseId }).where(eq(users.id, userId)).run();
}

/** The demo's live examples the showcase links to, when they exist and are open. */
export async function findOpenExamples(db: Database, shareSlug: string, receiveSlug: string, now: Date) {
  const [share, receive] = await db.batch([
    db
      .select({ slug: shareLinks.slug })
      .from(shareLinks)
      .where(and(eq(shareLinks.slug, shareSlug), isNull(shareLinks.revokedAt), or(isNull(shareLinks.expiresAt), gt(shareLinks.expiresAt, now))))
      .limit(1),
    db
      .select({ slug: receivePages.slug })
      .from(receivePages)
      .where(and(eq(receivePages.slug, receiveSlug), eq(receivePages.isOpen, true), or(isNull(receivePages.deadlineAt), gt(receivePages.deadlineAt, now))))
      .limit(1),
  ]);
  return { shareLink: share[0]?.slug ?? null, receivePage: receive[0]?.slug ?? null };
}
