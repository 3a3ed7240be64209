import { and, asc, desc, eq, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { containsEvery } from "~/db/like.server";
import { rawBatch } from "~/db/raw-batch.server";
import { files, folders, signatureEnvelopes, signatureEvents, signatureRecipients, signatureTemplates, users } from "~/db/schema";
import type { SignField, SignRole } from "./signature-fields";

/** E-signature templates, envelopes, recipients and events: the only place drizzle is called for them. */

export type TemplateRow = Omit<typeof signatureTemplates.$inferSelect, "fields" | "roles"> & { fields: SignField[]; roles: SignRole[] };
export type EnvelopeRow = Omit<typeof signatureEnvelopes.$inferSelect, "fields"> & { fields: SignField[] };
export type RecipientRow = typeof signatureRecipients.$inferSelect;
export type EventRow = typeof signatureEvents.$inferSelect;

// The stored JSON is written only after the feature's checks.
const asTemplate = (row: typeof signatureTemplates.$inferSelect) => row as unknown as TemplateRow;
const asEnvelope = (row: typeof signatureEnvelopes.$inferSelect) => row as unknown as EnvelopeRow;

// ---- templates -------------------------------------------------------------------------------

export async function insertTemplate(db: Database, row: typeof signatureTemplates.$inferInsert): Promise<void> {
  await db.insert(signatureTemplates).values(row).run();
}

export async function findOwnTemplate(db: Database, userId: string, id: string): Promise<TemplateRow | undefined> {
  const row = await db
    .select()
    .from(signatureTemplates)
    .where(and(eq(signatureTemplates.id, id), eq(signatureTemplates.userId, userId), isNull(signatureTemplates.deletedAt)))
    .get();
  return row ? asTemplate(row) : undefined;
}

export async function listOwnTemplates(db: Database, userId: string): Promise<TemplateRow[]> {
  const rows = await db
    .select()
    .from(signatureTemplates)
    .where(and(eq(signatureTemplates.userId, userId), isNull(signatureTemplates.deletedAt)))
    .orderBy(desc(signatureTemplates.updatedAt), desc(signatureTemplates.id))
    .all();
  return rows.map(asTemplate);
}

/** A saved change, only if the template is still at the revision the change was based on (two tabs). */
export async function updateTemplateIfRevision(db: Database, userId: string, id: string, revision: number, set: Partial<typeof signatureTemplates.$inferInsert>): Promise<boolean> {
  const result = await db
    .update(signatureTemplates)
    .set({ ...set, revision: revision + 1 })
    .where(and(eq(signatureTemplates.id, id), eq(signatureTemplates.userId, userId), eq(signatureTemplates.revision, revision), isNull(signatureTemplates.deletedAt)))
    .run();
  return result.meta.changes === 1;
}

/** Sends a template to the trash, or brings it back (only the member's own). */
export async function setTemplateTrashed(db: Database, userId: string, id: string, deletedAt: Date | null): Promise<boolean> {
  const result = await db
    .update(signatureTemplates)
    .set({ deletedAt })
    .where(and(eq(signatureTemplates.id, id), eq(signatureTemplates.userId, userId), deletedAt ? isNull(signatureTemplates.deletedAt) : sql`${signatureTemplates.deletedAt} IS NOT NULL`))
    .run();
  return result.meta.changes === 1;
}

export async function listTrashedTemplatesOf(db: Database, userId: string, since: Date) {
  return db
    .select({ id: signatureTemplates.id, name: signatureTemplates.name, deletedAt: signatureTemplates.deletedAt })
    .from(signatureTemplates)
    .where(and(eq(signatureTemplates.userId, userId), sql`${signatureTemplates.deletedAt} >= ${since.getTime()}`))
    .orderBy(desc(signatureTemplates.deletedAt))
    .all();
}

/** Templates in the trash since before `before`: deleted for good; the R2 keys of their PDFs. */
export async function purgeTrashedTemplates(db: Database, before: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: signatureTemplates.id, documentKey: signatureTemplates.documentKey })
    .from(signatureTemplates)
    .where(sql`${signatureTemplates.deletedAt} < ${before.getTime()}`)
    .limit(limit)
    .all();
  if (rows.length) await db.delete(signatureTemplates).where(inArray(signatureTemplates.id, rows.map((row) => row.id))).run();
  return rows.map((row) => row.documentKey);
}

// ---- envelopes -------------------------------------------------------------------------------

export async function insertEnvelope(db: Database, envelope: typeof signatureEnvelopes.$inferInsert, recipients: (typeof signatureRecipients.$inferInsert)[], event: typeof signatureEvents.$inferInsert): Promise<void> {
  await db.batch([
    db.insert(signatureEnvelopes).values(envelope),
    ...(recipients.length ? [db.insert(signatureRecipients).values(recipients)] : []),
    db.insert(signatureEvents).values(event),
  ]);
}

export async function findEnvelope(db: Database, id: string): Promise<EnvelopeRow | undefined> {
  const row = await db
    .select()
    .from(signatureEnvelopes)
    .where(and(eq(signatureEnvelopes.id, id), isNull(signatureEnvelopes.deletedAt)))
    .get();
  return row ? asEnvelope(row) : undefined;
}

export async function findEnvelopeWithPeople(db: Database, id: string) {
  const [envelope, recipients, events] = await db.batch([
    db.select().from(signatureEnvelopes).where(and(eq(signatureEnvelopes.id, id), isNull(signatureEnvelopes.deletedAt))),
    db.select().from(signatureRecipients).where(eq(signatureRecipients.envelopeId, id)).orderBy(asc(signatureRecipients.position)),
    db.select().from(signatureEvents).where(eq(signatureEvents.envelopeId, id)).orderBy(asc(signatureEvents.at), asc(signatureEvents.id)),
  ]);
  const row = envelope[0];
  return row ? { envelope: asEnvelope(row), recipients, events } : undefined;
}

export async function findSenderOf(db: Database, userId: string): Promise<{ name: string; email: string } | undefined> {
  return db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId)).get();
}

/**
 * Replaces a draft's editable parts and its recipients in one batch, if it is still the draft at
 * `revision`: the recipients change only when the envelope row did (the guard reads the new revision).
 */
export async function replaceDraft(
  db: Database,
  id: string,
  revision: number,
  set: { title: string; message: string; signingOrder: "parallel" | "sequential"; fields: SignField[]; expiresAt: Date | null; reminderFirstDays: number | null; reminderEveryDays: number | null; updatedAt: Date },
  recipients: { id: string; roleId: string; position: number; name: string; email: string; kind: string; requireCode: boolean }[],
): Promise<boolean> {
  const guard = sql`EXISTS (SELECT 1 FROM signature_envelopes WHERE id = ${id} AND status = 'draft' AND revision = ${revision + 1} AND updated_at = ${set.updatedAt.getTime()})`;
  const results = await rawBatch(db, [
    sql`UPDATE signature_envelopes SET title = ${set.title}, message = ${set.message}, signing_order = ${set.signingOrder}, fields = ${JSON.stringify(set.fields)},
        expires_at = ${set.expiresAt?.getTime() ?? null}, reminder_first_days = ${set.reminderFirstDays}, reminder_every_days = ${set.reminderEveryDays},
        updated_at = ${set.updatedAt.getTime()}, revision = ${revision + 1}
        WHERE id = ${id} AND status = 'draft' AND revision = ${revision} AND deleted_at IS NULL`,
    sql`DELETE FROM signature_recipients WHERE envelope_id = ${id} AND ${guard}`,
    ...recipients.map(
      (recipient) =>
        sql`INSERT INTO signature_recipients (id, envelope_id, role_id, position, name, email, kind, require_code, status, reminders_sent)
            SELECT ${recipient.id}, ${id}, ${recipient.roleId}, ${recipient.position}, ${recipient.name}, ${recipient.email}, ${recipient.kind}, ${recipient.requireCode ? 1 : 0}, 'waiting', 0 WHERE ${guard}`,
    ),
  ]);
  return (results[0]?.meta.changes ?? 0) === 1;
}

/** Moves an envelope from one status to another; false when it was no longer in `from` (a race lost). */
export async function moveEnvelope(db: Database, id: string, from: readonly string[], set: Partial<typeof signatureEnvelopes.$inferInsert>): Promise<boolean> {
  const result = await db
    .update(signatureEnvelopes)
    .set(set)
    .where(and(eq(signatureEnvelopes.id, id), inArray(signatureEnvelopes.status, from as never[]), isNull(signatureEnvelopes.deletedAt)))
    .run();
  return result.meta.changes === 1;
}

export async function findEnvelopeBySealedSha(db: Database, sha256: string) {
  return db
    .select({ id: signatureEnvelopes.id, title: signatureEnvelopes.title, completedAt: signatureEnvelopes.completedAt, userId: signatureEnvelopes.userId, dataroomId: signatureEnvelopes.dataroomId })
    .from(signatureEnvelopes)
    .where(and(eq(signatureEnvelopes.sealedSha256, sha256), isNull(signatureEnvelopes.deletedAt)))
    .get();
}

/** Records the sealed object once: false when another run already did (that run's object stands). */
export async function claimSealedObject(db: Database, id: string, sealed: { key: string; sha256: string; size: number }): Promise<boolean> {
  const result = await db
    .update(signatureEnvelopes)
    .set({ sealedKey: sealed.key, sealedSha256: sealed.sha256, sealedSize: sealed.size })
    .where(and(eq(signatureEnvelopes.id, id), eq(signatureEnvelopes.status, "sealing"), isNull(signatureEnvelopes.sealedKey)))
    .run();
  return result.meta.changes === 1;
}

/** Where the sealed file goes: the original's folder while it is live, else the space's top folder. */
export async function folderForSealedFile(db: Database, spaceId: string, folderId: string | null): Promise<string | undefined> {
  const rows = await db
    .select({ id: folders.id, parentId: folders.parentId })
    .from(folders)
    .where(and(eq(folders.spaceId, spaceId), isNull(folders.trashedAt), or(folderId ? eq(folders.id, folderId) : undefined, isNull(folders.parentId))))
    .all();
  return (rows.find((row) => row.id === folderId) ?? rows.find((row) => row.parentId === null))?.id;
}

/** The sealed file's row (its id derived from the envelope's, so a second run adds nothing); false when it existed. */
export async function insertSealedFile(db: Database, row: typeof files.$inferInsert): Promise<boolean> {
  const result = await db.insert(files).values(row).onConflictDoNothing({ target: files.id }).run();
  return result.meta.changes === 1;
}

// ---- recipients and events -------------------------------------------------------------------

export async function findRecipientByToken(db: Database, tokenHash: string) {
  const recipient = await db.select().from(signatureRecipients).where(eq(signatureRecipients.tokenHash, tokenHash)).get();
  if (!recipient) return undefined;
  const found = await findEnvelopeWithPeople(db, recipient.envelopeId);
  return found ? { ...found, recipient: found.recipients.find((one) => one.id === recipient.id)! } : undefined;
}

export async function updateRecipient(db: Database, id: string, set: Partial<typeof signatureRecipients.$inferInsert>, onlyIfStatus?: readonly string[]): Promise<boolean> {
  const result = await db
    .update(signatureRecipients)
    .set(set)
    .where(and(eq(signatureRecipients.id, id), onlyIfStatus ? inArray(signatureRecipients.status, onlyIfStatus as never[]) : undefined))
    .run();
  return result.meta.changes === 1;
}

/** A recipient's answer (signed or declined), written only while the envelope is still out for signature. */
export async function markRecipient(db: Database, envelopeId: string, id: string, fromStatus: readonly string[], set: Partial<typeof signatureRecipients.$inferInsert>): Promise<boolean> {
  const result = await db
    .update(signatureRecipients)
    .set(set)
    .where(
      and(
        eq(signatureRecipients.id, id),
        eq(signatureRecipients.envelopeId, envelopeId),
        inArray(signatureRecipients.status, fromStatus as never[]),
        sql`EXISTS (SELECT 1 FROM signature_envelopes e WHERE e.id = ${envelopeId} AND e.status = 'sent' AND e.deleted_at IS NULL)`,
      ),
    )
    .run();
  return result.meta.changes === 1;
}

export async function insertEvents(db: Database, events: (typeof signatureEvents.$inferInsert)[]): Promise<void> {
  if (events.length) await db.insert(signatureEvents).values(events).run();
}

// ---- lists -----------------------------------------------------------------------------------

export const LIST_VIEWS = ["waiting_for_me", "waiting_for_others", "completed", "declined", "expired", "drafts", "all"] as const;
export type ListView = (typeof LIST_VIEWS)[number];

export type ListRequest = {
  view: ListView;
  /** The member's own e-mail: envelopes sent to it count as theirs. */
  email: string;
  userId: string;
  /** A room's list instead of the member's own. */
  dataroomId: string | null;
  words: string[];
  after: { value: number; id: string } | null;
  limit: number;
};

const waitingOnMe = (email: string) =>
  sql`EXISTS (SELECT 1 FROM signature_recipients r WHERE r.envelope_id = ${signatureEnvelopes.id} AND r.email = ${email} AND r.status IN ('sent', 'opened') AND r.kind <> 'viewer')`;
const sentToMe = (email: string) => sql`EXISTS (SELECT 1 FROM signature_recipients r WHERE r.envelope_id = ${signatureEnvelopes.id} AND r.email = ${email} AND r.status <> 'waiting')`;

/** One page of envelopes, most recently changed first (keyset on updated_at, id). */
export async function listEnvelopes(db: Database, request: ListRequest) {
  const scope: SQL = request.dataroomId
    ? eq(signatureEnvelopes.dataroomId, request.dataroomId)
    : or(eq(signatureEnvelopes.userId, request.userId), and(sentToMe(request.email), sql`${signatureEnvelopes.status} <> 'draft'`))!;
  const byView: Record<ListView, SQL | undefined> = {
    waiting_for_me: and(eq(signatureEnvelopes.status, "sent"), waitingOnMe(request.email)),
    waiting_for_others: and(inArray(signatureEnvelopes.status, ["sent", "sealing"]), sql`NOT ${waitingOnMe(request.email)}`),
    completed: eq(signatureEnvelopes.status, "completed"),
    declined: eq(signatureEnvelopes.status, "declined"),
    expired: inArray(signatureEnvelopes.status, ["expired", "voided"]),
    drafts: eq(signatureEnvelopes.status, "draft"),
    all: undefined,
  };
  const after = request.after ? sql`(${signatureEnvelopes.updatedAt}, ${signatureEnvelopes.id}) < (${request.after.value}, ${request.after.id})` : undefined;
  const rows = await db
    .select({
      envelope: signatureEnvelopes,
      recipients: sql<string>`(SELECT json_group_array(json_object('name', r.name, 'email', r.email, 'kind', r.kind, 'status', r.status)) FROM (SELECT * FROM signature_recipients WHERE envelope_id = ${signatureEnvelopes.id} ORDER BY position) r)`,
    })
    .from(signatureEnvelopes)
    .where(and(isNull(signatureEnvelopes.deletedAt), scope, byView[request.view], request.words.length ? containsEvery(signatureEnvelopes.title, request.words) : undefined, after))
    .orderBy(desc(signatureEnvelopes.updatedAt), desc(signatureEnvelopes.id))
    .limit(request.limit + 1)
    .all();
  return rows.map((row) => ({ envelope: asEnvelope(row.envelope), recipients: JSON.parse(row.recipients) as { name: string; email: string; kind: string; status: string }[] }));
}

/**
 * Envelopes that wait on the member's own signature (the dashboard's attention feed), newest
 * first: their account's address is a recipient whose turn it is. One round trip.
 */
export async function listWaitingForMember(db: Database, userId: string, limit: number) {
  return db
    .select({ id: signatureEnvelopes.id, title: signatureEnvelopes.title, sentAt: signatureRecipients.sentAt, expiresAt: signatureEnvelopes.expiresAt, kind: signatureRecipients.kind, tokenSealed: signatureRecipients.tokenSealed, senderName: users.name })
    .from(signatureRecipients)
    .innerJoin(signatureEnvelopes, eq(signatureEnvelopes.id, signatureRecipients.envelopeId))
    .innerJoin(users, eq(users.id, signatureEnvelopes.userId))
    .where(
      and(
        sql`${signatureRecipients.email} = (SELECT lower(email) FROM users WHERE id = ${userId})`,
        inArray(signatureRecipients.status, ["sent", "opened"]),
        sql`${signatureRecipients.kind} <> 'viewer'`,
        eq(signatureEnvelopes.status, "sent"),
        isNull(signatureEnvelopes.deletedAt),
      ),
    )
    .orderBy(desc(signatureRecipients.sentAt))
    .limit(limit)
    .all();
}

// ---- cron ------------------------------------------------------------------------------------

/** Sent envelopes whose expiry has passed. */
export async function listExpiredEnvelopes(db: Database, now: Date, limit: number) {
  return db
    .select({ id: signatureEnvelopes.id })
    .from(signatureEnvelopes)
    .where(and(eq(signatureEnvelopes.status, "sent"), lt(signatureEnvelopes.expiresAt, now), isNull(signatureEnvelopes.deletedAt)))
    .limit(limit)
    .all();
}

/** Recipients of sent envelopes with reminders on, who have not acted yet (the job decides who is due). */
export async function listReminderCandidates(db: Database, limit: number) {
  return db
    .select({ recipient: signatureRecipients, envelope: signatureEnvelopes })
    .from(signatureRecipients)
    .innerJoin(signatureEnvelopes, eq(signatureEnvelopes.id, signatureRecipients.envelopeId))
    .where(
      and(
        eq(signatureEnvelopes.status, "sent"),
        isNull(signatureEnvelopes.deletedAt),
        sql`${signatureEnvelopes.reminderFirstDays} IS NOT NULL`,
        inArray(signatureRecipients.status, ["sent", "opened"]),
        sql`${signatureRecipients.kind} <> 'viewer'`,
      ),
    )
    .limit(limit)
    .all()
    .then((rows) => rows.map((row) => ({ recipient: row.recipient, envelope: asEnvelope(row.envelope) })));
}

// ---- personal data ---------------------------------------------------------------------------

/** Everything a member sent for signature, with its people and history (their export). */
export async function listEnvelopesSentBy(db: Database, userId: string) {
  const envelopes = (await db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.userId, userId)).orderBy(asc(signatureEnvelopes.createdAt)).all()).map(asEnvelope);
  if (envelopes.length === 0) return [];
  const ids = envelopes.map((envelope) => envelope.id);
  const [recipients, events] = await db.batch([
    db.select().from(signatureRecipients).where(inArray(signatureRecipients.envelopeId, ids)).orderBy(asc(signatureRecipients.position)),
    db.select().from(signatureEvents).where(inArray(signatureEvents.envelopeId, ids)).orderBy(asc(signatureEvents.at)),
  ]);
  return envelopes.map((envelope) => ({ envelope, recipients: recipients.filter((one) => one.envelopeId === envelope.id), events: events.filter((one) => one.envelopeId === envelope.id) }));
}

/** Deletes a member's envelopes (their people and history with them) and templates; the R2 keys they held. */
export async function deleteSignatureDataOf(db: Database, userId: string): Promise<{ keys: string[]; envelopes: { id: string; spaceId: string }[] }> {
  const [envelopes, templates] = await db.batch([
    db.select({ id: signatureEnvelopes.id, spaceId: signatureEnvelopes.spaceId, documentKey: signatureEnvelopes.documentKey, sealedKey: signatureEnvelopes.sealedKey }).from(signatureEnvelopes).where(eq(signatureEnvelopes.userId, userId)),
    db.select({ documentKey: signatureTemplates.documentKey }).from(signatureTemplates).where(eq(signatureTemplates.userId, userId)),
  ]);
  await db.batch([db.delete(signatureEnvelopes).where(eq(signatureEnvelopes.userId, userId)), db.delete(signatureTemplates).where(eq(signatureTemplates.userId, userId))]);
  return {
    keys: [...envelopes.flatMap((row) => [row.documentKey, ...(row.sealedKey ? [row.sealedKey] : [])]), ...templates.map((row) => row.documentKey)],
    envelopes: envelopes.map((row) => ({ id: row.id, spaceId: row.spaceId })),
  };
}

export type SignatureSearchRow = { id: string; title: string; status: string; isTemplate: number; dataroomId: string | null; updatedAt: number };

/**
 * Search (issue 36's registry): the member's own envelopes by title or document name, and their
 * templates by name, newest first, as one statement for the search's batch. `place`: undefined is
 * anywhere, "personal" their own (templates too), a room's id that room's envelopes only.
 */
export function searchOwnSignaturesStatement(input: { userId: string; terms: readonly string[]; since: Date | null; limit: number; place: string | undefined }): SQL {
  const since = (column: SQL) => (input.since ? sql` AND ${column} >= ${input.since.getTime()}` : sql``);
  const envelopePlace = input.place === undefined ? sql`` : input.place === "personal" ? sql` AND dataroom_id IS NULL` : sql` AND dataroom_id = ${input.place}`;
  const envelopes = sql`SELECT id, title, status, 0 AS isTemplate, dataroom_id AS dataroomId, updated_at AS updatedAt FROM signature_envelopes
    WHERE user_id = ${input.userId} AND (${containsEvery(signatureEnvelopes.title, input.terms)} OR ${containsEvery(signatureEnvelopes.documentName, input.terms)})${envelopePlace}${since(sql`updated_at`)}`;
  if (input.place !== undefined && input.place !== "personal") return sql`${envelopes} ORDER BY updated_at DESC LIMIT ${input.limit}`;
  return sql`SELECT * FROM (${envelopes}
    UNION ALL SELECT id, name AS title, 'template' AS status, 1 AS isTemplate, NULL AS dataroomId, updated_at AS updatedAt FROM signature_templates
    WHERE user_id = ${input.userId} AND deleted_at IS NULL AND ${containsEvery(signatureTemplates.name, input.terms)}${since(sql`updated_at`)})
    ORDER BY updatedAt DESC LIMIT ${input.limit}`;
}
