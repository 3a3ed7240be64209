import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { containsEvery } from "~/db/like.server";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { secretEvents, secretFiles, secrets, type SecretEventKind } from "~/db/schema";

/** Secrets: the only place drizzle is called for them. Every state change is one conditional statement (or one batch). */

export type SecretRow = typeof secrets.$inferSelect;
export type SecretInsert = typeof secrets.$inferInsert;

/** The secret, its "created" event and its files (pending until uploaded), in one batch. */
export async function insertSecret(db: Database, row: SecretInsert, files: (typeof secretFiles.$inferInsert)[] = []): Promise<void> {
  const event = db.insert(secretEvents).values({ secretId: row.id, userId: row.userId, kind: "created", createdAt: row.createdAt });
  if (files.length > 0) await db.batch([db.insert(secrets).values(row), event, db.insert(secretFiles).values(files)]);
  else await db.batch([db.insert(secrets).values(row), event]);
}

/** Secrets still readable: content kept, not burned, not expired, views left. */
export async function countLiveSecrets(db: Database, userId: string, now: Date): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(secrets)
    .where(and(eq(secrets.userId, userId), sql`${secrets.ciphertext} IS NOT NULL AND ${secrets.burnedAt} IS NULL AND ${secrets.expiresAt} > ${now.getTime()} AND ${secrets.viewCount} < ${secrets.maxViews}`))
    .get();
  return row?.n ?? 0;
}

/** What lists and receipts show of a secret: never its ciphertext. */
const summaryColumns = {
  id: secrets.id,
  label: secrets.label,
  size: secrets.size,
  hasContent: sql<number>`${secrets.ciphertext} IS NOT NULL`,
  hasPassphrase: sql<number>`${secrets.kdf} IS NOT NULL`,
  // Written out: drizzle names the outer column unqualified, which the subquery would take for its own.
  files: sql<number>`(SELECT count(*) FROM secret_files sf WHERE sf.secret_id = "secrets"."id")`,
  maxViews: secrets.maxViews,
  viewCount: secrets.viewCount,
  failedAttempts: secrets.failedAttempts,
  expiresAt: secrets.expiresAt,
  lastViewedAt: secrets.lastViewedAt,
  burnedAt: secrets.burnedAt,
  burnReason: secrets.burnReason,
  createdAt: secrets.createdAt,
};

/** The member's secrets, newest first (without their ciphertext). */
export async function listSecretsOf(db: Database, userId: string, limit: number) {
  return db
    .select(summaryColumns)
    .from(secrets)
    .where(eq(secrets.userId, userId))
    .orderBy(desc(secrets.createdAt), desc(secrets.id))
    .limit(limit)
    .all();
}
export type SecretSummaryRow = Awaited<ReturnType<typeof listSecretsOf>>[number];

export async function findOwnSecret(db: Database, userId: string, id: string): Promise<SecretSummaryRow | undefined> {
  return db.select(summaryColumns).from(secrets).where(and(eq(secrets.id, id), eq(secrets.userId, userId))).get();
}

export async function listSecretEvents(db: Database, secretId: string, limit: number) {
  return db.select({ kind: secretEvents.kind, detail: secretEvents.detail, createdAt: secretEvents.createdAt }).from(secretEvents).where(eq(secretEvents.secretId, secretId)).orderBy(desc(secretEvents.createdAt), desc(secretEvents.id)).limit(limit).all();
}

/** The member's latest secret events across their secrets, with each secret's label. */
export async function listMemberSecretActivity(db: Database, userId: string, limit: number) {
  return db
    .select({ secretId: secretEvents.secretId, label: secrets.label, kind: secretEvents.kind, createdAt: secretEvents.createdAt })
    .from(secretEvents)
    .innerJoin(secrets, eq(secrets.id, secretEvents.secretId))
    .where(eq(secretEvents.userId, userId))
    .orderBy(desc(secretEvents.createdAt), desc(secretEvents.id))
    .limit(limit)
    .all();
}

/** What a visitor's page needs before revealing (never the ciphertext). */
export async function findSecretByTokenHash(db: Database, tokenHash: string) {
  return db
    .select({
      id: secrets.id,
      userId: secrets.userId,
      hasContent: sql<number>`${secrets.ciphertext} IS NOT NULL`,
      kdf: secrets.kdf,
      maxViews: secrets.maxViews,
      viewCount: secrets.viewCount,
      expiresAt: secrets.expiresAt,
      burnedAt: secrets.burnedAt,
      // Written out: drizzle names the outer column unqualified, which the subquery would take for its own.
      fileCount: sql<number>`(SELECT count(*) FROM secret_files sf WHERE sf.secret_id = "secrets"."id")`,
      pendingFiles: sql<number>`(SELECT count(*) FROM secret_files sf WHERE sf.secret_id = "secrets"."id" AND sf.status = 'pending')`,
    })
    .from(secrets)
    .where(eq(secrets.tokenHash, tokenHash))
    .get();
}

/**
 * One view, atomically (one D1 batch, one transaction): the view is counted only while the
 * secret is readable and the proof matches; its event is written only when it was; and the
 * ciphertext is removed in the same step once no view is left. Two reveals of a one-view secret
 * get exactly one ciphertext.
 */
export async function consumeView(db: Database, tokenHash: string, proofHash: string, now: Date): Promise<{ id: string; ciphertext: string; viewCount: number; maxViews: number } | null> {
  const at = now.getTime();
  const [counted] = await rawBatch(db, [
    sql`UPDATE secrets SET view_count = view_count + 1, last_viewed_at = ${at}, updated_at = ${at}
        WHERE token_hash = ${tokenHash} AND proof_hash = ${proofHash} AND ciphertext IS NOT NULL AND burned_at IS NULL
          AND expires_at > ${at} AND view_count < max_views
          AND NOT EXISTS (SELECT 1 FROM secret_files WHERE secret_files.secret_id = secrets.id AND secret_files.status = 'pending')
        RETURNING id, ciphertext, view_count AS viewCount, max_views AS maxViews`,
    sql`INSERT INTO secret_events (secret_id, user_id, kind, detail, created_at)
        SELECT id, user_id, 'viewed', CAST(view_count AS TEXT) || ' of ' || CAST(max_views AS TEXT), ${at} FROM secrets
        WHERE token_hash = ${tokenHash} AND changes() > 0`,
    sql`UPDATE secrets SET ciphertext = NULL WHERE token_hash = ${tokenHash} AND ciphertext IS NOT NULL AND view_count >= max_views`,
  ]);
  const row = counted?.results?.[0] as { id: string; ciphertext: string; viewCount: number; maxViews: number } | undefined;
  return row ?? null;
}

/** A wrong proof: counted; at the limit the secret burns (its ciphertext goes in the same step). */
export async function recordFailedReveal(db: Database, tokenHash: string, limit: number, now: Date): Promise<{ failedAttempts: number; burned: boolean } | null> {
  const at = now.getTime();
  const [updated] = await rawBatch(db, [
    sql`UPDATE secrets SET failed_attempts = failed_attempts + 1, updated_at = ${at},
          burned_at = CASE WHEN failed_attempts + 1 >= ${limit} THEN ${at} ELSE burned_at END,
          burn_reason = CASE WHEN failed_attempts + 1 >= ${limit} THEN 'attempts' ELSE burn_reason END,
          ciphertext = CASE WHEN failed_attempts + 1 >= ${limit} THEN NULL ELSE ciphertext END
        WHERE token_hash = ${tokenHash} AND ciphertext IS NOT NULL AND burned_at IS NULL
        RETURNING failed_attempts AS failedAttempts, burned_at IS NOT NULL AS burned`,
    sql`INSERT INTO secret_events (secret_id, user_id, kind, detail, created_at)
        SELECT id, user_id, 'failed', 'wrong passphrase or link', ${at} FROM secrets WHERE token_hash = ${tokenHash} AND changes() > 0`,
    sql`INSERT INTO secret_events (secret_id, user_id, kind, detail, created_at)
        SELECT id, user_id, 'burned', 'too many wrong attempts', ${at} FROM secrets WHERE token_hash = ${tokenHash} AND burned_at = ${at} AND burn_reason = 'attempts'`,
  ]);
  const row = updated?.results?.[0] as { failedAttempts: number; burned: number } | undefined;
  return row ? { failedAttempts: row.failedAttempts, burned: Boolean(row.burned) } : null;
}

/** The owner burns it now: content gone, the link dead. False when it had already ended. */
export async function burnSecret(db: Database, userId: string, id: string, now: Date): Promise<boolean> {
  const at = now.getTime();
  const [burned] = await rawBatch(db, [
    sql`UPDATE secrets SET burned_at = ${at}, burn_reason = 'owner', ciphertext = NULL, updated_at = ${at}
        WHERE id = ${id} AND user_id = ${userId} AND ciphertext IS NOT NULL AND burned_at IS NULL`,
    sql`INSERT INTO secret_events (secret_id, user_id, kind, detail, created_at) SELECT id, user_id, 'burned', 'by you', ${at} FROM secrets WHERE id = ${id} AND changes() > 0`,
  ]);
  return (burned?.meta.changes ?? 0) > 0;
}

/** A live secret's new expiry and/or views left (counted from the views already used). */
export async function changeSecret(db: Database, userId: string, id: string, change: { expiresAt?: Date; viewsLeft?: number; label?: string; detail: string }, now: Date): Promise<boolean> {
  const at = now.getTime();
  const [changed] = await rawBatch(db, [
    sql`UPDATE secrets SET
          expires_at = coalesce(${change.expiresAt?.getTime() ?? null}, expires_at),
          max_views = coalesce(view_count + ${change.viewsLeft ?? null}, max_views),
          label = coalesce(${change.label ?? null}, label),
          updated_at = ${at}
        WHERE id = ${id} AND user_id = ${userId} AND ciphertext IS NOT NULL AND burned_at IS NULL AND expires_at > ${at}`,
    sql`INSERT INTO secret_events (secret_id, user_id, kind, detail, created_at) SELECT id, user_id, 'changed', ${change.detail}, ${at} FROM secrets WHERE id = ${id} AND changes() > 0`,
  ]);
  return (changed?.meta.changes ?? 0) > 0;
}

/**
 * The nightly purge: expired secrets lose their ciphertext (with an "expired" event), and
 * receipts of secrets that ended more than `keepDays` ago go. Both idempotent.
 */
export async function purgeSecrets(db: Database, now: Date, keepDays: number): Promise<{ expired: number; removed: number }> {
  const at = now.getTime();
  const before = at - keepDays * 86_400_000;
  const [, expired, removed] = await rawBatch(db, [
    sql`INSERT INTO secret_events (secret_id, user_id, kind, created_at)
        SELECT id, user_id, 'expired', expires_at FROM secrets WHERE ciphertext IS NOT NULL AND expires_at <= ${at}`,
    sql`UPDATE secrets SET ciphertext = NULL, updated_at = ${at} WHERE ciphertext IS NOT NULL AND expires_at <= ${at}`,
    sql`DELETE FROM secrets WHERE ciphertext IS NULL AND updated_at < ${before}`,
  ]);
  return { expired: expired?.meta.changes ?? 0, removed: removed?.meta.changes ?? 0 };
}

/** The personal-data export: the member's secrets without content. */
export async function listSecretsForExport(db: Database, userId: string) {
  return db.select({ id: secrets.id, label: secrets.label, maxViews: secrets.maxViews, viewCount: secrets.viewCount, expiresAt: secrets.expiresAt, burnedAt: secrets.burnedAt, createdAt: secrets.createdAt }).from(secrets).where(eq(secrets.userId, userId)).all();
}

/** Erasure: the member's secrets and (by cascade) their events. */
export async function deleteSecretsOf(db: Database, userId: string): Promise<void> {
  await db.delete(secrets).where(eq(secrets.userId, userId)).run();
}

export type { SecretEventKind };

// ---- attached files ------------------------------------------------------------------------------

/** A member's own pending secret file (to upload into), with its secret still waiting. */
export async function findPendingSecretFile(db: Database, userId: string, secretFileId: string) {
  return db
    .select({ id: secretFiles.id, secretId: secretFiles.secretId, storedSize: secretFiles.storedSize, r2Key: secretFiles.r2Key })
    .from(secretFiles)
    .innerJoin(secrets, eq(secrets.id, secretFiles.secretId))
    .where(and(eq(secretFiles.id, secretFileId), eq(secrets.userId, userId), eq(secretFiles.status, "pending"), sql`${secrets.ciphertext} IS NOT NULL`))
    .get();
}

/** True when it was a secret's file (else it may be an answer's). */
export async function markSecretFileReady(db: Database, secretFileId: string): Promise<boolean> {
  const result = await db.update(secretFiles).set({ status: "ready" }).where(eq(secretFiles.id, secretFileId)).run();
  return (result.meta.changes ?? 0) > 0;
}

export async function listSecretFiles(db: Database, secretId: string) {
  return db.select({ id: secretFiles.id, storedSize: secretFiles.storedSize, r2Key: secretFiles.r2Key, status: secretFiles.status }).from(secretFiles).where(eq(secretFiles.secretId, secretId)).orderBy(secretFiles.seq).all();
}

/** Files whose secret has ended (its content gone): their objects are to be deleted, then their rows. */
export async function listEndedSecretFiles(db: Database, limit: number) {
  return db
    .select({ id: secretFiles.id, r2Key: secretFiles.r2Key })
    .from(secretFiles)
    .innerJoin(secrets, eq(secrets.id, secretFiles.secretId))
    .where(sql`${secrets.ciphertext} IS NULL`)
    .limit(limit)
    .all();
}

export async function deleteSecretFileRows(db: Database, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.run(sql`DELETE FROM secret_files WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
}

/** The R2 keys of a member's secret files (erasure). */
export async function listSecretFileKeysOf(db: Database, userId: string): Promise<string[]> {
  const rows = await db.select({ r2Key: secretFiles.r2Key }).from(secretFiles).innerJoin(secrets, eq(secrets.id, secretFiles.secretId)).where(eq(secrets.userId, userId)).all();
  return rows.map((row) => row.r2Key);
}

export type SecretSearchRow = { id: string; label: string; hasContent: number; createdAt: number };

/** The member's secrets whose label holds every term, newest first (never the ciphertext): a statement for the search's one D1 batch. */
export function searchOwnSecretsStatement(input: { userId: string; terms: readonly string[]; since: Date | null; limit: number }): SQL {
  const since = input.since ? sql` AND created_at >= ${input.since.getTime()}` : sql``;
  return sql`SELECT id, label, ciphertext IS NOT NULL AS hasContent, created_at AS createdAt FROM secrets WHERE user_id = ${input.userId} AND ${containsEvery(secrets.label, input.terms)}${since}
    ORDER BY created_at DESC LIMIT ${input.limit}`;
}
