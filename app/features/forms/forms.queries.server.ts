import { and, desc, eq, gte, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { containsEvery } from "~/db/like.server";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { formShareOpenings, formSubmissionShares, formSubmissions, formVersions, formVisits, formWebhookDeliveries, formWebhooks, forms, teamCustomRoles, teamMembers, uploads, users, type FormSubmissionFile, type TeamRole } from "~/db/schema";
import type { FormDefinition } from "./form-definition";
import { inPersonalWorkspace } from "~/features/teams/workspace.queries.server";

/** Forms and their submissions: the only place drizzle is called for them. */

export type FormRow = Omit<typeof forms.$inferSelect, "draft"> & { draft: FormDefinition };
export type FormVersionRow = Omit<typeof formVersions.$inferSelect, "definition"> & { definition: FormDefinition };
export type FormSubmissionRow = typeof formSubmissions.$inferSelect;

// The stored JSON is written only after the feature's schema checked it.
const asForm = (row: typeof forms.$inferSelect): FormRow => row as unknown as FormRow;

export async function insertForm(db: Database, row: Omit<typeof forms.$inferInsert, "draft"> & { draft: FormDefinition }): Promise<void> {
  await db.insert(forms).values(row as typeof forms.$inferInsert).run();
}

export async function countLiveForms(db: Database, userId: string): Promise<number> {
  return (await db.select({ n: sql<number>`count(*)` }).from(forms).where(and(eq(forms.userId, userId), isNull(forms.deletedAt), eq(forms.isTemplate, false))).get())?.n ?? 0;
}

// Written out: drizzle renders a lone column as "id", which inside the subquery would mean the submission's.
const liveSubmissions = sql<number>`(SELECT count(*) FROM form_submissions s WHERE s.form_id = "forms"."id" AND s.is_test = 0 AND s.deleted_at IS NULL)`;
const lastSubmissionAt = sql<number | null>`(SELECT max(s.created_at) FROM form_submissions s WHERE s.form_id = "forms"."id" AND s.is_test = 0 AND s.deleted_at IS NULL)`;

/** The member's live forms (or own templates), most recently changed first, with their submission counts. */
export async function listFormsOf(db: Database, userId: string, templates: boolean, options: { personalOnly?: boolean } = {}) {
  const rows = await db
    .select({ form: forms, submissions: liveSubmissions, lastSubmissionAt })
    .from(forms)
    .where(and(eq(forms.userId, userId), isNull(forms.deletedAt), eq(forms.isTemplate, templates), options.personalOnly ? inPersonalWorkspace(forms.teamId, userId) : undefined))
    .orderBy(desc(forms.updatedAt), desc(forms.id))
    .all();
  return rows.map((row) => ({ ...row, form: asForm(row.form) }));
}

/**
 * A live form as someone may reach it: their own, or one of the workspace of a team they are in
 * (with their place in that team: role and custom role permissions). One read.
 */
export async function findFormForMember(db: Database, userId: string, id: string): Promise<{ form: FormRow; teamRole: TeamRole | null; customRolePermissions: string[] | null } | undefined> {
  const row = await db
    .select({ form: forms, teamRole: teamMembers.role, customRolePermissions: teamCustomRoles.permissions })
    .from(forms)
    .leftJoin(teamMembers, and(eq(teamMembers.teamId, forms.teamId), eq(teamMembers.userId, userId)))
    .leftJoin(teamCustomRoles, eq(teamCustomRoles.id, teamMembers.customRoleId))
    .where(and(eq(forms.id, id), isNull(forms.deletedAt)))
    .get();
  if (!row) return undefined;
  return { form: asForm(row.form), teamRole: row.teamRole ?? null, customRolePermissions: row.customRolePermissions ?? null };
}

/** A team's live forms (or templates) the way the member's own list reads them. */
export async function listTeamForms(db: Database, teamId: string, templates: boolean) {
  const rows = await db
    .select({ form: forms, submissions: liveSubmissions, lastSubmissionAt })
    .from(forms)
    .where(and(eq(forms.teamId, teamId), isNull(forms.deletedAt), eq(forms.isTemplate, templates)))
    .orderBy(desc(forms.updatedAt), desc(forms.id))
    .all();
  return rows.map((row) => ({ ...row, form: asForm(row.form) }));
}

/** Puts the maker's form of no team into a team's workspace; false when it is in a team already. */
export async function setFormTeam(db: Database, userId: string, id: string, teamId: string, now: Date): Promise<boolean> {
  const result = await db
    .update(forms)
    .set({ teamId, updatedAt: now })
    .where(and(eq(forms.id, id), eq(forms.userId, userId), isNull(forms.teamId), isNull(forms.deletedAt)))
    .run();
  return result.meta.changes === 1;
}

export async function findOwnForm(db: Database, userId: string, id: string): Promise<FormRow | undefined> {
  const row = await db
    .select()
    .from(forms)
    .where(and(eq(forms.id, id), eq(forms.userId, userId), isNull(forms.deletedAt)))
    .get();
  return row ? asForm(row) : undefined;
}

/** A saved change, only if the form is still at the revision the change was based on. */
export async function updateFormIfRevision(db: Database, userId: string, id: string, revision: number, set: Partial<Omit<typeof forms.$inferInsert, "draft">> & { draft?: FormDefinition }): Promise<boolean> {
  const result = await db
    .update(forms)
    .set({ ...(set as Partial<typeof forms.$inferInsert>), revision: revision + 1 })
    .where(and(eq(forms.id, id), eq(forms.userId, userId), eq(forms.revision, revision), isNull(forms.deletedAt)))
    .run();
  return result.meta.changes === 1;
}

export async function updateFormRow(db: Database, userId: string, id: string, set: Partial<Omit<typeof forms.$inferInsert, "draft">>): Promise<void> {
  await db
    .update(forms)
    .set(set)
    .where(and(eq(forms.id, id), eq(forms.userId, userId), isNull(forms.deletedAt)))
    .run();
}

/** Publishing: the new frozen version and the form pointing at it, in one batch. */
export async function insertVersionAndPublish(db: Database, form: FormRow, version: FormVersionRow, now: Date): Promise<void> {
  await db.batch([
    db.insert(formVersions).values(version as typeof formVersions.$inferInsert),
    db
      .update(forms)
      .set({ publishedVersion: version.version, publishedRevision: form.revision, updatedAt: now })
      .where(and(eq(forms.id, form.id), eq(forms.revision, form.revision))),
  ]);
}

/** A form as the public sees it: live, not a template, published; with its latest version and owner. */
export async function findPublishedForm(db: Database, id: string) {
  const row = await db
    .select({ form: forms, version: formVersions, ownerName: users.name })
    .from(forms)
    .innerJoin(formVersions, and(eq(formVersions.formId, forms.id), eq(formVersions.version, forms.publishedVersion)))
    .innerJoin(users, eq(users.id, forms.userId))
    .where(and(eq(forms.id, id), isNull(forms.deletedAt), eq(forms.isTemplate, false)))
    .get();
  return row ? { form: asForm(row.form), version: row.version as unknown as FormVersionRow, ownerName: row.ownerName } : undefined;
}

/** The member's live published forms with the definition of their newest version, in one query (not one per form). */
export async function listPublishedFormsOf(db: Database, userId: string): Promise<{ id: string; title: string; version: number; definition: FormDefinition }[]> {
  const rows = await db
    .select({ id: forms.id, title: forms.title, version: formVersions.version, definition: formVersions.definition })
    .from(forms)
    .innerJoin(formVersions, and(eq(formVersions.formId, forms.id), eq(formVersions.version, forms.publishedVersion)))
    .where(and(eq(forms.userId, userId), isNull(forms.deletedAt), eq(forms.isTemplate, false)))
    .orderBy(desc(forms.updatedAt), desc(forms.id))
    .all();
  return rows as unknown as { id: string; title: string; version: number; definition: FormDefinition }[];
}

export async function findVersion(db: Database, formId: string, version: number): Promise<FormVersionRow | undefined> {
  return (await db
    .select()
    .from(formVersions)
    .where(and(eq(formVersions.formId, formId), eq(formVersions.version, version)))
    .get()) as FormVersionRow | undefined;
}

export async function countFormViews(db: Database, id: string): Promise<void> {
  await db
    .update(forms)
    .set({ views: sql`${forms.views} + 1` })
    .where(eq(forms.id, id))
    .run();
}

function monthStart(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
}

/**
 * A submission, written only while the form takes more (its own maximum) and the owner's plan
 * allows more this month, decided in the same statement so two visitors cannot both take the last
 * place. Test submissions count against neither. Returns whether the row was written.
 */
export type NewFormUpload = { id: string; name: string; relativePath: string; length: number; partSize: number; r2Key: string };

/**
 * A submission, if the form's maximum and the owner's monthly limit still allow it (test
 * submissions count against neither), with its files' uploads when it has any: in one batch, so
 * the uploads exist only if the submission does (they reserve the owner's quota at once).
 */
export async function insertSubmissionWithinLimits(
  db: Database,
  row: { id: string; formId: string; ownerId: string; version: number; answers: Record<string, string | string[]>; isTest: boolean; pagesSeen: number; createdAt: Date; verifiedEmail?: string | null },
  limits: { maxSubmissions: number | null; perMonth: number },
  files?: { grantHash: string; entries: FormSubmissionFile[]; target: { spaceId: string; folderId: string; expiresAt: Date }; uploads: NewFormUpload[] },
): Promise<boolean> {
  const now = row.createdAt.getTime();
  const insert = sql`
    INSERT INTO form_submissions (id, form_id, version, answers, is_test, pages_seen, files, grant_hash, settled_at, verified_email, created_at)
    SELECT ${row.id}, ${row.formId}, CAST(${row.version} AS INTEGER), ${JSON.stringify(row.answers)}, CAST(${row.isTest ? 1 : 0} AS INTEGER), CAST(${row.pagesSeen} AS INTEGER),
           ${JSON.stringify(files?.entries ?? [])}, ${files?.grantHash ?? null}, ${files ? null : now}, ${row.verifiedEmail ?? null}, CAST(${now} AS INTEGER)
    WHERE (${row.verifiedEmail ?? null} IS NULL OR NOT EXISTS (SELECT 1 FROM form_submissions WHERE form_id = ${row.formId} AND verified_email = ${row.verifiedEmail ?? null} AND is_test = 0 AND deleted_at IS NULL))
    AND (${row.isTest ? 1 : 0} = 1 OR (
      (${limits.maxSubmissions} IS NULL OR (SELECT count(*) FROM form_submissions WHERE form_id = ${row.formId} AND is_test = 0) < CAST(${limits.maxSubmissions ?? 0} AS INTEGER))
      AND (CAST(${limits.perMonth} AS INTEGER) < 0 OR (SELECT count(*) FROM form_submissions s JOIN forms f ON f.id = s.form_id
             WHERE f.user_id = ${row.ownerId} AND s.is_test = 0 AND s.created_at >= CAST(${monthStart(row.createdAt)} AS INTEGER)) < CAST(${limits.perMonth} AS INTEGER))
    ))`;
  if (!files) return (await db.run(insert)).meta.changes === 1;
  const [inserted] = await rawBatch(db, [
    insert,
    sql`
      INSERT INTO uploads (id, space_id, folder_id, user_id, name, relative_path, length, part_size, "offset", r2_key, r2_upload_id, status, form_submission_id, created_at, updated_at, expires_at)
      SELECT json_extract(value, '$.id'), ${files.target.spaceId}, ${files.target.folderId}, ${row.ownerId}, json_extract(value, '$.name'), json_extract(value, '$.relativePath'),
             CAST(json_extract(value, '$.length') AS INTEGER), CAST(json_extract(value, '$.partSize') AS INTEGER), 0, json_extract(value, '$.r2Key'), NULL, 'active',
             ${row.id}, CAST(${now} AS INTEGER), CAST(${now} AS INTEGER), CAST(${files.target.expiresAt.getTime()} AS INTEGER)
      FROM json_each(${JSON.stringify(files.uploads)})
      WHERE EXISTS (SELECT 1 FROM form_submissions WHERE id = ${row.id})`,
  ]);
  return (inserted?.meta.changes ?? 0) === 1;
}

/** Whether a proven address has a live (not trashed, not test) submission to the form. */
export async function hasAnsweredAs(db: Database, formId: string, email: string): Promise<boolean> {
  const row = await db
    .select({ id: formSubmissions.id })
    .from(formSubmissions)
    .where(and(eq(formSubmissions.formId, formId), eq(formSubmissions.verifiedEmail, email), eq(formSubmissions.isTest, false), isNull(formSubmissions.deletedAt)))
    .limit(1)
    .get();
  return row !== undefined;
}

/** The submission a file grant was given for, with its form's owner. */
export async function findFormSubmissionByGrant(db: Database, grantHash: string): Promise<{ id: string; ownerId: string } | undefined> {
  return db
    .select({ id: formSubmissions.id, ownerId: forms.userId })
    .from(formSubmissions)
    .innerJoin(forms, eq(forms.id, formSubmissions.formId))
    .where(eq(formSubmissions.grantHash, grantHash))
    .get();
}

export async function findSubmissionWithForm(db: Database, id: string): Promise<{ submission: FormSubmissionRow; form: FormRow } | undefined> {
  const row = await db.select({ submission: formSubmissions, form: forms }).from(formSubmissions).innerJoin(forms, eq(forms.id, formSubmissions.formId)).where(eq(formSubmissions.id, id)).get();
  return row ? { submission: row.submission, form: asForm(row.form) } : undefined;
}

/** A submission's uploads still on their way (neither completed nor withdrawn). */
export async function countPendingFormUploads(db: Database, submissionId: string): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(uploads)
    .where(and(eq(uploads.formSubmissionId, submissionId), sql`${uploads.status} != 'completed'`))
    .get();
  return row?.n ?? 0;
}

/** The file an upload became, noted on its submission (a retried completion changes nothing). */
export async function recordFormFile(db: Database, submissionId: string, file: { uploadId: string; fileId: string; name: string }): Promise<void> {
  await db.run(sql`
    UPDATE form_submissions SET files = (
      SELECT json_group_array(CASE WHEN json_extract(value, '$.uploadId') = ${file.uploadId}
        THEN json_set(value, '$.fileId', ${file.fileId}, '$.name', ${file.name}) ELSE json(value) END)
      FROM json_each(form_submissions.files))
    WHERE id = ${submissionId}`);
}

/** Marks the submission's files settled (its owner told); true for the one call that did it. */
export async function markFormSubmissionSettled(db: Database, id: string, now: Date): Promise<boolean> {
  const result = await db.update(formSubmissions).set({ settledAt: now }).where(and(eq(formSubmissions.id, id), isNull(formSubmissions.settledAt))).run();
  return result.meta.changes > 0;
}

export async function countRealSubmissions(db: Database, formId: string): Promise<number> {
  return (await db.select({ n: sql<number>`count(*)` }).from(formSubmissions).where(and(eq(formSubmissions.formId, formId), eq(formSubmissions.isTest, false))).get())?.n ?? 0;
}

/** What the owner narrows a form's submissions to: words in the answers (or the confirmed address), a period (UTC, `to` inclusive), a version. */
export type SubmissionFilters = { terms?: string[]; from?: Date; before?: Date; version?: number };

const escapeLike = (term: string) => `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

function filterConditions(filters: SubmissionFilters | undefined): (SQL | undefined)[] {
  if (!filters) return [];
  return [
    // Each word in some answer's value (not in the questions' ids), or in the confirmed address.
    ...(filters.terms ?? []).map(
      (term) => sql`(EXISTS (SELECT 1 FROM json_each(${formSubmissions.answers}) WHERE json_each.value LIKE ${escapeLike(term)} ESCAPE '\\') OR ${formSubmissions.verifiedEmail} LIKE ${escapeLike(term)} ESCAPE '\\')`,
    ),
    filters.from ? gte(formSubmissions.createdAt, filters.from) : undefined,
    filters.before ? lt(formSubmissions.createdAt, filters.before) : undefined,
    filters.version !== undefined ? eq(formSubmissions.version, filters.version) : undefined,
  ];
}

/** One page of a form's submissions, newest first, after the keyset cursor (created_at, id), narrowed by the filters. */
export async function listSubmissionsPage(db: Database, formId: string, options: { test: boolean; limit: number; before?: { createdAt: number; id: string }; filters?: SubmissionFilters }): Promise<FormSubmissionRow[]> {
  const before = options.before;
  return db
    .select()
    .from(formSubmissions)
    .where(
      and(
        eq(formSubmissions.formId, formId),
        eq(formSubmissions.isTest, options.test),
        isNull(formSubmissions.deletedAt),
        before ? or(lt(formSubmissions.createdAt, new Date(before.createdAt)), and(eq(formSubmissions.createdAt, new Date(before.createdAt)), lt(formSubmissions.id, before.id))) : undefined,
        ...filterConditions(options.filters),
      ),
    )
    .orderBy(desc(formSubmissions.createdAt), desc(formSubmissions.id))
    .limit(options.limit)
    .all();
}

export async function findSubmission(db: Database, formId: string, id: string): Promise<FormSubmissionRow | undefined> {
  return db
    .select()
    .from(formSubmissions)
    .where(and(eq(formSubmissions.id, id), eq(formSubmissions.formId, formId), isNull(formSubmissions.deletedAt)))
    .get();
}

export async function trashSubmission(db: Database, formId: string, id: string, now: Date): Promise<boolean> {
  const result = await db
    .update(formSubmissions)
    .set({ deletedAt: now })
    .where(and(eq(formSubmissions.id, id), eq(formSubmissions.formId, formId), isNull(formSubmissions.deletedAt)))
    .run();
  return result.meta.changes === 1;
}

export async function deleteTestSubmissions(db: Database, formId: string): Promise<number> {
  const result = await db
    .delete(formSubmissions)
    .where(and(eq(formSubmissions.formId, formId), eq(formSubmissions.isTest, true)))
    .run();
  return result.meta.changes;
}

export type FormSearchRow = { id: string; title: string; status: string; updatedAt: number };

/** The search's statement (run in its one D1 batch): the member's live forms whose title holds every word. */
export function searchOwnFormsStatement(input: { userId: string; terms: readonly string[]; since: Date | null; limit: number }): SQL {
  const since = input.since ? sql` AND updated_at >= ${input.since.getTime()}` : sql``;
  return sql`SELECT id, title, CASE WHEN published_version IS NULL THEN 'Draft' WHEN is_open = 0 THEN 'Closed' ELSE 'Published' END AS status, updated_at AS updatedAt
    FROM forms WHERE user_id = ${input.userId} AND deleted_at IS NULL AND is_template = 0 AND ${containsEvery(forms.title, input.terms)}${since}
    ORDER BY updated_at DESC LIMIT ${input.limit}`;
}

export type RecentFormSubmission = { id: string; formId: string; formTitle: string; createdAt: string };

/** The dashboard's widget: the newest real submissions to the member's live forms (one round trip). */
export async function listRecentSubmissionsOf(db: Database, userId: string, limit: number): Promise<RecentFormSubmission[]> {
  const rows = await db
    .select({ id: formSubmissions.id, formId: forms.id, formTitle: forms.title, createdAt: formSubmissions.createdAt })
    .from(formSubmissions)
    .innerJoin(forms, eq(forms.id, formSubmissions.formId))
    .where(and(eq(forms.userId, userId), isNull(forms.deletedAt), eq(formSubmissions.isTest, false), isNull(formSubmissions.deletedAt)))
    .orderBy(desc(formSubmissions.createdAt))
    .limit(limit)
    .all();
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** A visit reached a page: made at its start, moved on to a later page (never back), in one statement. */
export async function recordVisitPage(db: Database, visit: { id: string; formId: string; version: number; page: number; now: Date }): Promise<void> {
  await db
    .insert(formVisits)
    .values({ id: visit.id, formId: visit.formId, version: visit.version, furthestPage: visit.page, createdAt: visit.now, updatedAt: visit.now })
    .onConflictDoUpdate({
      target: [formVisits.formId, formVisits.id],
      set: { furthestPage: sql`max(${formVisits.furthestPage}, excluded.furthest_page)`, updatedAt: visit.now },
      setWhere: sql`${formVisits.version} = excluded.version`,
    })
    .run();
}

/** The submission's visit, completed (a visit id the form never saw is ignored). */
export async function completeVisit(db: Database, formId: string, visitId: string, now: Date): Promise<void> {
  await db
    .update(formVisits)
    .set({ completed: true, updatedAt: now })
    .where(and(eq(formVisits.formId, formId), eq(formVisits.id, visitId)))
    .run();
}

/** The builder dashboard's figures for one version in one round trip: visits by furthest page and completion. */
export async function readVisitStats(db: Database, formId: string, version: number) {
  return db
    .select({ furthestPage: formVisits.furthestPage, completed: formVisits.completed, n: sql<number>`count(*)` })
    .from(formVisits)
    .where(and(eq(formVisits.formId, formId), eq(formVisits.version, version)))
    .groupBy(formVisits.furthestPage, formVisits.completed)
    .all();
}

export type SubmissionShareRow = typeof formSubmissionShares.$inferSelect;

export async function insertSubmissionShare(db: Database, row: typeof formSubmissionShares.$inferInsert): Promise<void> {
  await db.insert(formSubmissionShares).values(row).run();
}

export async function listSharesOfSubmission(db: Database, formId: string, submissionId: string): Promise<SubmissionShareRow[]> {
  return db
    .select()
    .from(formSubmissionShares)
    .where(and(eq(formSubmissionShares.formId, formId), eq(formSubmissionShares.submissionId, submissionId)))
    .orderBy(desc(formSubmissionShares.createdAt))
    .all();
}

export async function revokeShareRow(db: Database, formId: string, shareId: string, now: Date): Promise<boolean> {
  const result = await db
    .update(formSubmissionShares)
    .set({ revokedAt: now })
    .where(and(eq(formSubmissionShares.id, shareId), eq(formSubmissionShares.formId, formId), isNull(formSubmissionShares.revokedAt)))
    .run();
  return result.meta.changes === 1;
}

/** A share by its token's hash, with its form (live) and submission (not in the trash). */
export async function findShareByTokenHash(db: Database, tokenHash: string) {
  const row = await db
    .select({ share: formSubmissionShares, form: forms, submission: formSubmissions })
    .from(formSubmissionShares)
    .innerJoin(forms, and(eq(forms.id, formSubmissionShares.formId), isNull(forms.deletedAt)))
    .innerJoin(formSubmissions, and(eq(formSubmissions.id, formSubmissionShares.submissionId), isNull(formSubmissions.deletedAt)))
    .where(eq(formSubmissionShares.tokenHash, tokenHash))
    .get();
  return row ? { ...row, form: asForm(row.form) } : undefined;
}

/** An opening, written with the share's count in one batch. */
export async function recordShareOpening(db: Database, opening: typeof formShareOpenings.$inferInsert): Promise<void> {
  await db.batch([
    db.insert(formShareOpenings).values(opening),
    db
      .update(formSubmissionShares)
      .set({ opens: sql`${formSubmissionShares.opens} + 1`, lastOpenedAt: opening.openedAt })
      .where(eq(formSubmissionShares.id, opening.shareId)),
  ]);
}

export async function listShareOpenings(db: Database, shareIds: readonly string[], limit: number) {
  if (shareIds.length === 0) return [];
  return db
    .select()
    .from(formShareOpenings)
    .where(sql`${formShareOpenings.shareId} IN (SELECT value FROM json_each(${JSON.stringify(shareIds)}))`)
    .orderBy(desc(formShareOpenings.openedAt))
    .limit(limit)
    .all();
}

// ---- webhooks ------------------------------------------------------------------------------------

export type WebhookRow = typeof formWebhooks.$inferSelect;
export type WebhookDeliveryRow = typeof formWebhookDeliveries.$inferSelect;

export async function insertWebhook(db: Database, row: typeof formWebhooks.$inferInsert): Promise<void> {
  await db.insert(formWebhooks).values(row).run();
}

export async function countWebhooksOfForm(db: Database, formId: string): Promise<number> {
  return (await db.select({ n: sql<number>`count(*)` }).from(formWebhooks).where(eq(formWebhooks.formId, formId)).get())?.n ?? 0;
}

export async function listWebhooksOfForm(db: Database, formId: string): Promise<WebhookRow[]> {
  return db.select().from(formWebhooks).where(eq(formWebhooks.formId, formId)).orderBy(formWebhooks.createdAt).all();
}

export async function findWebhook(db: Database, formId: string, id: string): Promise<WebhookRow | undefined> {
  return db
    .select()
    .from(formWebhooks)
    .where(and(eq(formWebhooks.id, id), eq(formWebhooks.formId, formId)))
    .get();
}

/** A webhook with its form (live) for the delivery job. */
export async function findWebhookForDelivery(db: Database, id: string) {
  const row = await db
    .select({ webhook: formWebhooks, form: forms })
    .from(formWebhooks)
    .innerJoin(forms, and(eq(forms.id, formWebhooks.formId), isNull(forms.deletedAt)))
    .where(eq(formWebhooks.id, id))
    .get();
  return row ? { webhook: row.webhook, form: asForm(row.form) } : undefined;
}

export async function deleteWebhookRow(db: Database, formId: string, id: string): Promise<boolean> {
  const result = await db
    .delete(formWebhooks)
    .where(and(eq(formWebhooks.id, id), eq(formWebhooks.formId, formId)))
    .run();
  return result.meta.changes === 1;
}

export async function setWebhookEnabled(db: Database, formId: string, id: string, enabled: boolean, now: Date): Promise<void> {
  await db
    .update(formWebhooks)
    .set(enabled ? { isEnabled: true, consecutiveFailures: 0, disabledAt: null } : { isEnabled: false, disabledAt: now })
    .where(and(eq(formWebhooks.id, id), eq(formWebhooks.formId, formId)))
    .run();
}

/** The attempt's record, made once: false when this attempt was recorded already (a duplicate message). */
export async function insertDeliveryIfAbsent(db: Database, row: typeof formWebhookDeliveries.$inferInsert): Promise<boolean> {
  const result = await db.insert(formWebhookDeliveries).values(row).onConflictDoNothing({ target: formWebhookDeliveries.id }).run();
  return result.meta.changes === 1;
}

export async function findDelivery(db: Database, id: string): Promise<WebhookDeliveryRow | undefined> {
  return db.select().from(formWebhookDeliveries).where(eq(formWebhookDeliveries.id, id)).get();
}

/** A stale "sending" record taken over (its first run died before it finished). */
export async function restartDelivery(db: Database, id: string, staleBefore: Date, now: Date): Promise<boolean> {
  const result = await db
    .update(formWebhookDeliveries)
    .set({ createdAt: now })
    .where(and(eq(formWebhookDeliveries.id, id), eq(formWebhookDeliveries.status, "sending"), lt(formWebhookDeliveries.createdAt, staleBefore)))
    .run();
  return result.meta.changes === 1;
}

export async function finishDelivery(db: Database, id: string, outcome: { status: "succeeded" | "failed"; responseCode: number | null; error: string | null; durationMs: number; now: Date }): Promise<void> {
  await db
    .update(formWebhookDeliveries)
    .set({ status: outcome.status, responseCode: outcome.responseCode, error: outcome.error, durationMs: outcome.durationMs, finishedAt: outcome.now })
    .where(eq(formWebhookDeliveries.id, id))
    .run();
}

/** After an attempt: a success clears the run of failures; a failure adds one and returns the new count. */
export async function countWebhookOutcome(db: Database, id: string, succeeded: boolean): Promise<number> {
  const row = await db
    .update(formWebhooks)
    .set({ consecutiveFailures: succeeded ? 0 : sql`${formWebhooks.consecutiveFailures} + 1` })
    .where(eq(formWebhooks.id, id))
    .returning({ failures: formWebhooks.consecutiveFailures })
    .get();
  return row?.failures ?? 0;
}

/** Disabled after too many failures: only once (the caller tells the owner when this is true). */
export async function disableWebhookIfEnabled(db: Database, id: string, now: Date): Promise<boolean> {
  const result = await db
    .update(formWebhooks)
    .set({ isEnabled: false, disabledAt: now })
    .where(and(eq(formWebhooks.id, id), eq(formWebhooks.isEnabled, true)))
    .run();
  return result.meta.changes === 1;
}

export async function listDeliveriesOf(db: Database, webhookIds: readonly string[], limit: number): Promise<WebhookDeliveryRow[]> {
  if (webhookIds.length === 0) return [];
  return db
    .select()
    .from(formWebhookDeliveries)
    .where(sql`${formWebhookDeliveries.webhookId} IN (SELECT value FROM json_each(${JSON.stringify(webhookIds)}))`)
    .orderBy(desc(formWebhookDeliveries.createdAt), desc(formWebhookDeliveries.attempt))
    .limit(limit)
    .all();
}

export async function lastAttemptOf(db: Database, webhookId: string, submissionId: string): Promise<number> {
  return (
    (
      await db
        .select({ attempt: sql<number>`max(${formWebhookDeliveries.attempt})` })
        .from(formWebhookDeliveries)
        .where(and(eq(formWebhookDeliveries.webhookId, webhookId), eq(formWebhookDeliveries.submissionId, submissionId)))
        .get()
    )?.attempt ?? 0
  );
}

export async function findSubmissionById(db: Database, id: string): Promise<FormSubmissionRow | undefined> {
  return db.select().from(formSubmissions).where(eq(formSubmissions.id, id)).get();
}

// ---- the trash -----------------------------------------------------------------------------------

/** The member's forms in the trash (newest first), with when they went there. */
export async function listTrashedFormsOf(db: Database, userId: string, since: Date) {
  return db
    .select({ id: forms.id, title: forms.title, deletedAt: forms.deletedAt })
    .from(forms)
    .where(and(eq(forms.userId, userId), sql`${forms.deletedAt} IS NOT NULL`, sql`${forms.deletedAt} >= ${since.getTime()}`))
    .orderBy(desc(forms.deletedAt))
    .all();
}

export async function restoreFormRow(db: Database, userId: string, id: string, since: Date): Promise<boolean> {
  const result = await db
    .update(forms)
    .set({ deletedAt: null })
    .where(and(eq(forms.id, id), eq(forms.userId, userId), sql`${forms.deletedAt} IS NOT NULL`, sql`${forms.deletedAt} >= ${since.getTime()}`))
    .run();
  return result.meta.changes === 1;
}

export async function listTrashedSubmissions(db: Database, formId: string, since: Date, limit: number): Promise<FormSubmissionRow[]> {
  return db
    .select()
    .from(formSubmissions)
    .where(and(eq(formSubmissions.formId, formId), sql`${formSubmissions.deletedAt} IS NOT NULL`, sql`${formSubmissions.deletedAt} >= ${since.getTime()}`))
    .orderBy(desc(formSubmissions.deletedAt))
    .limit(limit)
    .all();
}

export async function restoreSubmissionRow(db: Database, formId: string, id: string, since: Date): Promise<boolean> {
  const result = await db
    .update(formSubmissions)
    .set({ deletedAt: null })
    .where(and(eq(formSubmissions.id, id), eq(formSubmissions.formId, formId), sql`${formSubmissions.deletedAt} IS NOT NULL`, sql`${formSubmissions.deletedAt} >= ${since.getTime()}`))
    .run();
  return result.meta.changes === 1;
}

/** Deletes for good what has been in the trash since before `before` (bounded; the cascades take versions, submissions, links, visits, webhooks). */
export async function purgeFormsTrash(db: Database, before: Date, limit: number): Promise<{ forms: number; submissions: number }> {
  const [formsResult, submissionsResult] = await db.batch([
    db.delete(forms).where(sql`${forms.id} IN (SELECT id FROM forms WHERE deleted_at IS NOT NULL AND deleted_at < ${before.getTime()} LIMIT ${limit})`),
    db.delete(formSubmissions).where(sql`${formSubmissions.id} IN (SELECT id FROM form_submissions WHERE deleted_at IS NOT NULL AND deleted_at < ${before.getTime()} LIMIT ${limit})`),
  ]);
  return { forms: formsResult.meta.changes, submissions: submissionsResult.meta.changes };
}
