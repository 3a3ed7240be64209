import { asc, eq, or } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { authEvents, mailOutbox, sessions } from "~/db/schema";

/**
 * Reads for the member's data export. Explicit columns only: session ids, token hashes and mail
 * bodies (which can hold live links) are never selected, so they cannot leak into the zip.
 */
export async function listSessionsForExport(db: Database, userId: string) {
  return db
    .select({
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      verifiedAt: sessions.verifiedAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(asc(sessions.createdAt))
    .all();
}

export async function listAuthEventsForExport(db: Database, userId: string) {
  return db
    .select({
      type: authEvents.type,
      ipAddress: authEvents.ipAddress,
      userAgent: authEvents.userAgent,
      detail: authEvents.detail,
      createdAt: authEvents.createdAt,
    })
    .from(authEvents)
    .where(eq(authEvents.userId, userId))
    .orderBy(asc(authEvents.createdAt))
    .all();
}

/** Mails linked to the member, or sent to their current address before the link existed. */
export async function listMailsForExport(db: Database, userId: string, email: string) {
  return db
    .select({
      template: mailOutbox.template,
      subject: mailOutbox.subject,
      toAddress: mailOutbox.toAddress,
      status: mailOutbox.status,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .where(or(eq(mailOutbox.userId, userId), eq(mailOutbox.toAddress, email)))
    .orderBy(asc(mailOutbox.createdAt))
    .all();
}
