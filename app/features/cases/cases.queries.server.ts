import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { caseEvents, caseParticipants, caseRequests, cases, caseTasks, caseTypes, files, folders, forms, formSubmissions, formVersions, receivePages, receiveSubmissions, users, workflowEvents, workflowRuns, workflowTemplates, type CaseStatus } from "~/db/schema";

/** Cases: the only place drizzle is called for them. */

export type CaseTypeRow = typeof caseTypes.$inferSelect;
export type CaseRow = typeof cases.$inferSelect;

export async function insertCaseType(db: Database, row: typeof caseTypes.$inferInsert): Promise<void> {
  await db.insert(caseTypes).values(row);
}

export async function updateCaseTypeRow(db: Database, id: string, set: Pick<CaseTypeRow, "name" | "description" | "fields" | "folders" | "defaultWorkflowId" | "updatedAt">): Promise<void> {
  await db.update(caseTypes).set(set).where(eq(caseTypes.id, id));
}

export async function findCaseType(db: Database, id: string): Promise<CaseTypeRow | undefined> {
  return db.select().from(caseTypes).where(eq(caseTypes.id, id)).get();
}

export async function listCaseTypesBy(db: Database, userId: string): Promise<CaseTypeRow[]> {
  return db.select().from(caseTypes).where(eq(caseTypes.createdBy, userId)).orderBy(asc(caseTypes.name)).all();
}

export async function countCasesOf(db: Database, ownerId: string): Promise<number> {
  return (await db.select({ n: sql<number>`count(*)` }).from(cases).where(eq(cases.ownerId, ownerId)).get())?.n ?? 0;
}

/** A new case with its first timeline entry (and, when a workflow step opens it, the step's link in the same batch). */
export async function insertCase(db: Database, row: typeof cases.$inferInsert, event: typeof caseEvents.$inferInsert): Promise<void> {
  await db.batch([db.insert(cases).values(row), db.insert(caseEvents).values(event)]);
}

export async function findCase(db: Database, id: string): Promise<CaseRow | undefined> {
  return db.select().from(cases).where(eq(cases.id, id)).get();
}

/** The case a workflow step (or a submission) opened, if it did already. */
export async function findCaseBySource(db: Database, kind: "workflow" | "form" | "receive", ref: string): Promise<CaseRow | undefined> {
  return db.select().from(cases).where(and(eq(cases.sourceKind, kind), eq(cases.sourceRef, ref))).get();
}

export async function findParticipant(db: Database, caseId: string, userId: string) {
  return db.select().from(caseParticipants).where(and(eq(caseParticipants.caseId, caseId), eq(caseParticipants.userId, userId))).get();
}

export async function listParticipants(db: Database, caseId: string) {
  return db.select().from(caseParticipants).where(eq(caseParticipants.caseId, caseId)).orderBy(asc(caseParticipants.addedAt)).all();
}

export async function insertParticipant(db: Database, row: typeof caseParticipants.$inferInsert, event: typeof caseEvents.$inferInsert): Promise<boolean> {
  const [added] = await db.batch([db.insert(caseParticipants).values(row).onConflictDoNothing().returning({ email: caseParticipants.email }), db.update(cases).set({ updatedAt: row.addedAt }).where(eq(cases.id, row.caseId))]);
  if (added.length > 0) await db.insert(caseEvents).values(event);
  return added.length > 0;
}

/** A case's title, values, assignee or due date changed, with its timeline entry. */
export async function updateCaseRow(db: Database, id: string, patch: Partial<Pick<CaseRow, "title" | "values" | "assigneeId" | "dueAt">>, now: Date, event: typeof caseEvents.$inferInsert): Promise<void> {
  await db.batch([db.update(cases).set({ ...patch, updatedAt: now }).where(eq(cases.id, id)), db.insert(caseEvents).values(event)]);
}

export async function setCaseStatusRow(db: Database, id: string, status: CaseStatus, now: Date, event: typeof caseEvents.$inferInsert): Promise<void> {
  await db.batch([db.update(cases).set({ status, updatedAt: now, closedAt: status === "closed" ? now : null }).where(eq(cases.id, id)), db.insert(caseEvents).values(event)]);
}

export async function insertCaseTask(db: Database, row: typeof caseTasks.$inferInsert, event: typeof caseEvents.$inferInsert): Promise<void> {
  await db.batch([db.insert(caseTasks).values(row), db.insert(caseEvents).values(event), db.update(cases).set({ updatedAt: row.createdAt }).where(eq(cases.id, row.caseId))]);
}

export async function findCaseTask(db: Database, id: string) {
  return db.select().from(caseTasks).where(eq(caseTasks.id, id)).get();
}

/** Marks a task done once; whether it was open. */
export async function completeCaseTaskRow(db: Database, id: string, now: Date, event: typeof caseEvents.$inferInsert): Promise<boolean> {
  const done = await db.update(caseTasks).set({ doneAt: now }).where(and(eq(caseTasks.id, id), isNull(caseTasks.doneAt))).returning({ id: caseTasks.id });
  if (done.length === 0) return false;
  await db.insert(caseEvents).values(event);
  return true;
}

export async function listCaseTasks(db: Database, caseId: string) {
  return db
    .select({ id: caseTasks.id, kind: caseTasks.kind, title: caseTasks.title, dueAt: caseTasks.dueAt, doneAt: caseTasks.doneAt, assigneeName: users.name })
    .from(caseTasks)
    .leftJoin(users, eq(users.id, caseTasks.assigneeId))
    .where(eq(caseTasks.caseId, caseId))
    .orderBy(asc(caseTasks.createdAt))
    .all();
}

export async function insertCaseEvent(db: Database, event: typeof caseEvents.$inferInsert): Promise<void> {
  await db.insert(caseEvents).values(event).onConflictDoNothing();
}

/** The case's own entries and those of the workflow runs filed into it, oldest first. */
export async function listCaseTimeline(db: Database, caseId: string) {
  const [own, fromRuns] = await db.batch([
    db
      .select({ id: caseEvents.id, at: caseEvents.at, kind: caseEvents.kind, detail: caseEvents.detail, actorName: users.name, fileId: caseEvents.fileId })
      .from(caseEvents)
      .leftJoin(users, eq(users.id, caseEvents.actorId))
      .where(eq(caseEvents.caseId, caseId)),
    db
      // Two columns named "name": each gets an alias of its own, or one would read the other.
      .select({ id: workflowEvents.id, at: workflowEvents.at, kind: workflowEvents.kind, detail: workflowEvents.detail, actorName: sql<string | null>`${users.name}`.as("actor_name"), runId: workflowEvents.runId, workflow: sql<string>`${workflowTemplates.name}`.as("workflow_name") })
      .from(workflowEvents)
      .innerJoin(workflowRuns, eq(workflowRuns.id, workflowEvents.runId))
      .innerJoin(workflowTemplates, eq(workflowTemplates.id, workflowRuns.templateId))
      .leftJoin(users, eq(users.id, workflowEvents.actorId))
      .where(eq(workflowRuns.caseId, caseId)),
  ]);
  return { own, fromRuns };
}

/** The live files of the case file (its folder and the folders in it, one level down), newest first. */
export async function listCaseFiles(db: Database, folderIds: readonly string[], limit: number) {
  if (folderIds.length === 0) return [];
  return db
    .select({ id: files.id, name: files.name, folderId: files.folderId, createdAt: files.createdAt })
    .from(files)
    .where(and(inArray(files.folderId, [...folderIds]), isNull(files.trashedAt)))
    .orderBy(desc(files.createdAt))
    .limit(limit)
    .all();
}

export type CaseListFilter = { userId: string; typeId?: string; status?: CaseStatus; assignee?: "me" | "anyone" | "nobody"; dueBefore?: Date };

/** The cases a member owns, is assigned or takes part in, filtered, most recently changed first. */
export async function listCasesFor(db: Database, filter: CaseListFilter, limit: number) {
  const visible = or(eq(cases.ownerId, filter.userId), eq(cases.assigneeId, filter.userId), sql`${cases.id} IN (SELECT case_id FROM case_participants WHERE user_id = ${filter.userId})`);
  const conditions: (SQL | undefined)[] = [visible];
  if (filter.typeId) conditions.push(eq(cases.typeId, filter.typeId));
  if (filter.status) conditions.push(eq(cases.status, filter.status));
  if (filter.assignee === "me") conditions.push(eq(cases.assigneeId, filter.userId));
  if (filter.assignee === "nobody") conditions.push(isNull(cases.assigneeId));
  if (filter.dueBefore) conditions.push(and(isNotNull(cases.dueAt), lte(cases.dueAt, filter.dueBefore)));
  return db
    .select({
      id: cases.id,
      reference: cases.reference,
      title: cases.title,
      status: cases.status,
      dueAt: cases.dueAt,
      updatedAt: cases.updatedAt,
      typeName: caseTypes.name,
      assigneeName: users.name,
    })
    .from(cases)
    .innerJoin(caseTypes, eq(caseTypes.id, cases.typeId))
    .leftJoin(users, eq(users.id, cases.assigneeId))
    .where(and(...conditions))
    .orderBy(desc(cases.updatedAt))
    .limit(limit)
    .all();
}

/** Links a workflow run to the case its document was filed into. */
export async function setRunCase(db: Database, runId: string, caseId: string): Promise<void> {
  await db.update(workflowRuns).set({ caseId }).where(eq(workflowRuns.id, runId));
}

export async function findUserByEmail(db: Database, email: string) {
  return db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.email, email)).get();
}

export async function findUserById(db: Database, id: string) {
  return db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.id, id)).get();
}

/** The folders directly in a case file (the type's folders). */
export async function listChildFolderIds(db: Database, folderId: string): Promise<string[]> {
  return (await db.select({ id: folders.id }).from(folders).where(and(eq(folders.parentId, folderId), isNull(folders.trashedAt))).all()).map((row) => row.id);
}

// ---- personal data ---------------------------------------------------------------------------------

export async function loadCaseDataOf(db: Database, userId: string) {
  const [types, owned, takingPart, tasks] = await db.batch([
    db.select().from(caseTypes).where(eq(caseTypes.createdBy, userId)),
    db.select().from(cases).where(eq(cases.ownerId, userId)),
    db.select({ caseId: caseParticipants.caseId, email: caseParticipants.email, name: caseParticipants.name, addedAt: caseParticipants.addedAt }).from(caseParticipants).where(eq(caseParticipants.userId, userId)),
    db.select({ id: caseTasks.id, caseId: caseTasks.caseId, kind: caseTasks.kind, title: caseTasks.title, dueAt: caseTasks.dueAt, doneAt: caseTasks.doneAt }).from(caseTasks).where(eq(caseTasks.assigneeId, userId)),
  ]);
  return { types, owned, takingPart, tasks };
}

/** Erasure: the member leaves others' case timelines (their name on what they did, and what their comments said). */
export async function forgetCaseActor(db: Database, userId: string): Promise<void> {
  await db.batch([
    db.update(caseEvents).set({ detail: null }).where(and(eq(caseEvents.actorId, userId), eq(caseEvents.kind, "case.comment"))),
    db.update(caseEvents).set({ actorId: null }).where(eq(caseEvents.actorId, userId)),
  ]);
}

/** What opening a case from a receive page submission needs: the page's owner, title and case type; the sender; the files delivered. */
export async function findReceiveSubmissionForCase(db: Database, submissionId: string) {
  return db
    .select({
      pageId: receiveSubmissions.pageId,
      ownerId: receivePages.userId,
      caseTypeId: receivePages.caseTypeId,
      pageTitle: receivePages.title,
      /** Where the page delivers: the owner's files, or a data room's. */
      filesSpaceId: receivePages.spaceId,
      uploaderName: receiveSubmissions.uploaderName,
      uploaderEmail: receiveSubmissions.uploaderEmail,
      delivered: receiveSubmissions.delivered,
    })
    .from(receiveSubmissions)
    .innerJoin(receivePages, eq(receivePages.id, receiveSubmissions.pageId))
    .where(eq(receiveSubmissions.id, submissionId))
    .get();
}

/** A live file of one space (a received file still where it can be filed from). */
export async function findLiveFileIn(db: Database, fileId: string, spaceId: string) {
  return db.select({ id: files.id, name: files.name }).from(files).where(and(eq(files.id, fileId), eq(files.spaceId, spaceId), isNull(files.trashedAt))).get();
}

/** What opening a case from a form submission needs: the form's owner, title and case type; the answers and files; the questions' labels. */
export async function findFormSubmissionForCase(db: Database, submissionId: string) {
  return db
    .select({
      formId: forms.id,
      ownerId: forms.userId,
      caseTypeId: forms.caseTypeId,
      formTitle: forms.title,
      isTest: formSubmissions.isTest,
      answers: formSubmissions.answers,
      files: formSubmissions.files,
      verifiedEmail: formSubmissions.verifiedEmail,
      definition: formVersions.definition,
      /** Where the form files answers' files (its folder's space: the owner's files, or a data room's); null without a folder. */
      filesSpaceId: folders.spaceId,
    })
    .from(formSubmissions)
    .innerJoin(forms, eq(forms.id, formSubmissions.formId))
    .leftJoin(formVersions, and(eq(formVersions.formId, formSubmissions.formId), eq(formVersions.version, formSubmissions.version)))
    .leftJoin(folders, eq(folders.id, forms.fileFolderId))
    .where(eq(formSubmissions.id, submissionId))
    .get();
}

// ---- forms sent for a case (case_requests) -----------------------------------------------------

export type CaseRequestRow = typeof caseRequests.$inferSelect;

export async function insertCaseRequest(db: Database, row: typeof caseRequests.$inferInsert, event: typeof caseEvents.$inferInsert): Promise<void> {
  await db.batch([db.insert(caseRequests).values(row), db.insert(caseEvents).values(event), db.update(cases).set({ updatedAt: row.createdAt }).where(eq(cases.id, row.caseId))]);
}

export async function findCaseRequestByTokenHash(db: Database, tokenHash: string): Promise<CaseRequestRow | undefined> {
  return db.select().from(caseRequests).where(eq(caseRequests.tokenHash, tokenHash)).get();
}

/** The request a submission answered (bound when it was sent), if any. */
export async function findCaseRequestBySubmission(db: Database, submissionId: string): Promise<CaseRequestRow | undefined> {
  return db.select().from(caseRequests).where(eq(caseRequests.submissionId, submissionId)).get();
}

/** The first submission with the ticket answers the request; a later one changes nothing. Whether this one did. */
export async function bindCaseRequest(db: Database, id: string, submissionId: string, at: Date): Promise<boolean> {
  const changed = await db.update(caseRequests).set({ submissionId, answeredAt: at }).where(and(eq(caseRequests.id, id), isNull(caseRequests.submissionId))).returning({ id: caseRequests.id });
  return changed.length > 0;
}

/** The forms and receive pages sent for a case, newest first, with their titles. */
export async function listCaseRequests(db: Database, caseId: string) {
  return db
    .select({ id: caseRequests.id, form: forms.title, page: receivePages.title, email: caseRequests.email, name: caseRequests.name, createdAt: caseRequests.createdAt, answeredAt: caseRequests.answeredAt })
    .from(caseRequests)
    .leftJoin(forms, eq(forms.id, caseRequests.formId))
    .leftJoin(receivePages, eq(receivePages.id, caseRequests.receivePageId))
    .where(eq(caseRequests.caseId, caseId))
    .orderBy(desc(caseRequests.createdAt))
    .all();
}

/** A timeline entry written once (its id names what it is about); whether it was written now. */
export async function insertCaseEventOnce(db: Database, event: typeof caseEvents.$inferInsert): Promise<boolean> {
  const written = await db.insert(caseEvents).values(event).onConflictDoNothing().returning({ id: caseEvents.id });
  if (written.length > 0) await db.update(cases).set({ updatedAt: event.at }).where(eq(cases.id, event.caseId));
  return written.length > 0;
}
