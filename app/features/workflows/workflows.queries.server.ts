import { and, asc, desc, eq, gt, gte, inArray, isNull, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { dataroomMembers, datarooms, files, folders, forms, receivePages, spaces, signatureEnvelopes, users, workflowEvents, workflowLinks, workflowRuns, workflowTasks, workflowTemplates, type WorkflowRunStatus } from "~/db/schema";

/** Workflows: the only place drizzle is called for them. */

export type WorkflowTemplateRow = typeof workflowTemplates.$inferSelect;
export type WorkflowRunRow = typeof workflowRuns.$inferSelect;
export type WorkflowTaskRow = typeof workflowTasks.$inferSelect;

export async function insertTemplate(db: Database, row: typeof workflowTemplates.$inferInsert): Promise<void> {
  await db.insert(workflowTemplates).values(row);
}

export async function findTemplate(db: Database, id: string): Promise<WorkflowTemplateRow | undefined> {
  return db.select().from(workflowTemplates).where(eq(workflowTemplates.id, id)).get();
}

export async function countExistingUsers(db: Database, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM users WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
  return row?.n ?? 0;
}

/** Members by e-mail address (lower case), for the builder's "who approves". */
export async function findUsersByEmails(db: Database, emails: readonly string[]) {
  if (emails.length === 0) return [];
  return db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, [...emails])).all();
}

/** Names and addresses of the people a template names, for its pages. */
export async function findPeople(db: Database, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, [...ids])).all();
}

/**
 * A run and its first timeline entry. A run a trigger started (its `triggerRef`, say an upload)
 * is written once per workflow: a second delivery of the same trigger writes nothing. Whether it was written now.
 */
export async function insertRun(db: Database, run: typeof workflowRuns.$inferInsert, event: typeof workflowEvents.$inferInsert): Promise<boolean> {
  const [inserted] = await db.batch([
    db.insert(workflowRuns).values(run).onConflictDoNothing().returning({ id: workflowRuns.id }),
    // Only beside a run written now (a repeated trigger's fresh id has no run to belong to).
    db
      .insert(workflowEvents)
      .select(
        db
          .select({
            id: sql<string>`${event.id}`.as("id"),
            runId: workflowRuns.id,
            at: sql<number>`${event.at.getTime()}`.as("at"),
            kind: sql<string>`${event.kind}`.as("kind"),
            actorId: sql<string | null>`${event.actorId ?? null}`.as("actor_id"),
            detail: sql<string | null>`${event.detail ?? null}`.as("detail"),
          })
          .from(workflowRuns)
          .where(eq(workflowRuns.id, event.runId)),
      )
      .onConflictDoNothing(),
  ]);
  return inserted.length > 0;
}

export async function findRunByTrigger(db: Database, templateId: string, triggerRef: string): Promise<WorkflowRunRow | undefined> {
  return db.select().from(workflowRuns).where(and(eq(workflowRuns.templateId, templateId), eq(workflowRuns.triggerRef, triggerRef))).get();
}

/** The workflows a file arriving in this folder starts. */
export async function listUploadTriggered(db: Database, folderId: string): Promise<WorkflowTemplateRow[]> {
  return db.select().from(workflowTemplates).where(and(eq(workflowTemplates.triggerFolderId, folderId), eq(workflowTemplates.triggerKind, "upload"))).all();
}

/** The workflows a form's submissions (`form`) or a receive page's (`receive`) start. */
export async function listSourceTriggered(db: Database, kind: "form" | "receive", sourceId: string): Promise<WorkflowTemplateRow[]> {
  return db.select().from(workflowTemplates).where(and(eq(workflowTemplates.triggerSourceId, sourceId), eq(workflowTemplates.triggerKind, kind))).all();
}

/**
 * The member's forms (not templates, not deleted) and receive pages, by title: what may start their
 * workflows, or a case may send. `spaceId`: where each delivers its files (their own files, or a
 * data room's; a form without a folder, null), so a workflow it starts works there.
 */
export async function listTriggerSources(db: Database, userId: string): Promise<{ forms: TriggerSource[]; pages: TriggerSource[] }> {
  const [formRows, pages] = await Promise.all([
    db
      .select({ id: forms.id, title: forms.title, spaceId: folders.spaceId })
      .from(forms)
      .leftJoin(folders, eq(folders.id, forms.fileFolderId))
      .where(and(eq(forms.userId, userId), eq(forms.isTemplate, false), isNull(forms.deletedAt)))
      .orderBy(asc(forms.title))
      .all(),
    db.select({ id: receivePages.id, title: receivePages.title, spaceId: receivePages.spaceId }).from(receivePages).where(eq(receivePages.userId, userId)).orderBy(asc(receivePages.title)).all(),
  ]);
  return { forms: formRows, pages };
}
export type TriggerSource = { id: string; title: string; spaceId: string | null };

/** Every scheduled workflow (a small set: the morning's job reads them all). */
export async function listScheduledTemplates(db: Database): Promise<WorkflowTemplateRow[]> {
  return db.select().from(workflowTemplates).where(eq(workflowTemplates.triggerKind, "schedule")).all();
}

/** The documents a workflow's runs are still working on. */
export async function listRunningSubjects(db: Database, templateId: string): Promise<string[]> {
  const rows = await db.select({ fileId: workflowRuns.subjectFileId }).from(workflowRuns).where(and(eq(workflowRuns.templateId, templateId), eq(workflowRuns.status, "running"))).all();
  return rows.flatMap((row) => (row.fileId ? [row.fileId] : []));
}

/** The live documents of one folder itself (not its subfolders), newest first. */
export async function listLiveFilesInFolder(db: Database, spaceId: string, folderId: string, limit: number) {
  return db
    .select({ id: files.id, name: files.name })
    .from(files)
    .where(and(eq(files.spaceId, spaceId), eq(files.folderId, folderId), isNull(files.trashedAt)))
    .orderBy(desc(files.updatedAt), desc(files.id))
    .limit(limit)
    .all();
}

/** The workflows of a space that start when a document its owner sent for signature is completed. */
export async function listEnvelopeTriggered(db: Database, spaceId: string): Promise<WorkflowTemplateRow[]> {
  return db.select().from(workflowTemplates).where(and(eq(workflowTemplates.spaceId, spaceId), eq(workflowTemplates.triggerKind, "envelope"))).all();
}

export async function findEnvelopeForTrigger(db: Database, id: string) {
  return db
    .select({ id: signatureEnvelopes.id, status: signatureEnvelopes.status, userId: signatureEnvelopes.userId, spaceId: signatureEnvelopes.spaceId, sealedFileId: signatureEnvelopes.sealedFileId, title: signatureEnvelopes.title })
    .from(signatureEnvelopes)
    .where(eq(signatureEnvelopes.id, id))
    .get();
}

/** A workflow's latest runs with their documents' names, newest first. */
export async function listRunsOf(db: Database, templateId: string, limit: number) {
  return db
    .select({ id: workflowRuns.id, status: workflowRuns.status, stepIndex: workflowRuns.stepIndex, startedAt: workflowRuns.startedAt, endedAt: workflowRuns.endedAt, triggerKind: workflowRuns.triggerKind, fileName: files.name })
    .from(workflowRuns)
    .leftJoin(files, eq(files.id, workflowRuns.subjectFileId))
    .where(eq(workflowRuns.templateId, templateId))
    .orderBy(desc(workflowRuns.startedAt))
    .limit(limit)
    .all();
}

/** For the list of workflows: how many runs each has, and how many are under way. */
export async function countRunsByTemplate(db: Database, templateIds: readonly string[]) {
  if (templateIds.length === 0) return [];
  return db
    .select({ templateId: workflowRuns.templateId, total: sql<number>`count(*)`, running: sql<number>`sum(CASE WHEN ${workflowRuns.status} = 'running' THEN 1 ELSE 0 END)` })
    .from(workflowRuns)
    .where(inArray(workflowRuns.templateId, [...templateIds]))
    .groupBy(workflowRuns.templateId)
    .all();
}

export async function findRun(db: Database, id: string): Promise<WorkflowRunRow | undefined> {
  return db.select().from(workflowRuns).where(eq(workflowRuns.id, id)).get();
}

/** Moves a running run on to a step (never a run that ended). */
export async function setRunStep(db: Database, id: string, stepIndex: number): Promise<void> {
  await db.update(workflowRuns).set({ stepIndex }).where(and(eq(workflowRuns.id, id), eq(workflowRuns.status, "running")));
}

/** Ends a running run once (a second call, or a cancelled run, changes nothing); its open tasks close. Whether it ended now. */
export async function endRun(db: Database, id: string, status: Exclude<WorkflowRunStatus, "running">, now: Date, event: typeof workflowEvents.$inferInsert): Promise<boolean> {
  const [ended] = await db.batch([
    db.update(workflowRuns).set({ status, endedAt: now }).where(and(eq(workflowRuns.id, id), eq(workflowRuns.status, "running"))).returning({ id: workflowRuns.id }),
    db.update(workflowTasks).set({ status: "closed" }).where(and(eq(workflowTasks.runId, id), eq(workflowTasks.status, "open"))),
  ]);
  if (ended.length === 0) return false;
  await db.insert(workflowEvents).values(event);
  return true;
}

/** The step's tasks, one per person; a second call (a replayed step) adds nothing. Written ten at a time (D1 binds at most 100 values a statement). */
export async function insertTasks(db: Database, rows: (typeof workflowTasks.$inferInsert)[]): Promise<void> {
  for (let at = 0; at < rows.length; at += 10) await db.insert(workflowTasks).values(rows.slice(at, at + 10)).onConflictDoNothing();
}

/** The people of a data room with one of these roles whose access has not ended, the longest there first (a room role step's approvers). */
export async function listRoomPeopleWithRoles(db: Database, roomId: string, roles: readonly ("owner" | "admin" | "member" | "guest")[], now: Date, limit: number): Promise<string[]> {
  if (roles.length === 0) return [];
  const rows = await db
    .select({ userId: dataroomMembers.userId })
    .from(dataroomMembers)
    .where(and(eq(dataroomMembers.dataroomId, roomId), inArray(dataroomMembers.role, [...roles]), or(isNull(dataroomMembers.accessExpiresAt), gt(dataroomMembers.accessExpiresAt, now))))
    .orderBy(asc(dataroomMembers.joinedAt), asc(dataroomMembers.userId))
    .limit(limit)
    .all();
  return rows.map((row) => row.userId);
}

/** The live (not archived, not trashed) rooms a member is in, with their role and overrides: which of them they may build workflows for. */
export async function listLiveRoomStandings(db: Database, userId: string) {
  return db
    .select({ roomId: dataroomMembers.dataroomId, name: spaces.name, role: dataroomMembers.role, overrides: dataroomMembers.overrides })
    .from(dataroomMembers)
    .innerJoin(datarooms, eq(datarooms.id, dataroomMembers.dataroomId))
    .innerJoin(spaces, eq(spaces.id, dataroomMembers.dataroomId))
    .where(and(eq(dataroomMembers.userId, userId), isNull(datarooms.archivedAt), isNull(datarooms.trashedAt)))
    .orderBy(asc(spaces.name))
    .all();
}

export async function listStepTasks(db: Database, runId: string, stepIndex: number): Promise<WorkflowTaskRow[]> {
  return db.select().from(workflowTasks).where(and(eq(workflowTasks.runId, runId), eq(workflowTasks.stepIndex, stepIndex))).all();
}

export async function closeOpenTasks(db: Database, runId: string, stepIndex: number): Promise<void> {
  await db.update(workflowTasks).set({ status: "closed" }).where(and(eq(workflowTasks.runId, runId), eq(workflowTasks.stepIndex, stepIndex), eq(workflowTasks.status, "open")));
}

/** A task handed back to someone already in the step (their task had closed with the others'): open again. */
export async function reopenTaskOf(db: Database, runId: string, stepIndex: number, assigneeId: string): Promise<void> {
  await db
    .update(workflowTasks)
    .set({ status: "open" })
    .where(and(eq(workflowTasks.runId, runId), eq(workflowTasks.stepIndex, stepIndex), eq(workflowTasks.assigneeId, assigneeId), eq(workflowTasks.status, "closed")));
}

export async function findTask(db: Database, id: string): Promise<WorkflowTaskRow | undefined> {
  return db.select().from(workflowTasks).where(eq(workflowTasks.id, id)).get();
}

/** Records a decision on a task that is still open; whether it was open. */
export async function decideOpenTask(db: Database, id: string, decision: { status: "approved" | "rejected"; comment: string | null; at: Date }, event: typeof workflowEvents.$inferInsert): Promise<boolean> {
  const changed = await db
    .update(workflowTasks)
    .set({ status: decision.status, comment: decision.comment, decidedAt: decision.at })
    .where(and(eq(workflowTasks.id, id), eq(workflowTasks.status, "open")))
    .returning({ id: workflowTasks.id });
  if (changed.length === 0) return false;
  await db.insert(workflowEvents).values(event);
  return true;
}

export async function insertEvent(db: Database, event: typeof workflowEvents.$inferInsert): Promise<void> {
  await db.insert(workflowEvents).values(event).onConflictDoNothing();
}

export async function listRunEvents(db: Database, runId: string) {
  return db
    .select({ id: workflowEvents.id, at: workflowEvents.at, kind: workflowEvents.kind, detail: workflowEvents.detail, actorName: users.name })
    .from(workflowEvents)
    .leftJoin(users, eq(users.id, workflowEvents.actorId))
    .where(eq(workflowEvents.runId, runId))
    .orderBy(asc(workflowEvents.at), asc(workflowEvents.id))
    .all();
}

/** A member's open tasks, oldest first ("My tasks"). */
export async function listOpenTasksOf(db: Database, userId: string) {
  return db
    .select({ id: workflowTasks.id, runId: workflowTasks.runId, stepIndex: workflowTasks.stepIndex, createdAt: workflowTasks.createdAt, dueAt: workflowTasks.dueAt, templateName: workflowTemplates.name, definition: workflowTemplates.definition })
    .from(workflowTasks)
    .innerJoin(workflowRuns, eq(workflowRuns.id, workflowTasks.runId))
    .innerJoin(workflowTemplates, eq(workflowTemplates.id, workflowRuns.templateId))
    .where(and(eq(workflowTasks.assigneeId, userId), eq(workflowTasks.status, "open"), eq(workflowRuns.status, "running")))
    .orderBy(asc(workflowTasks.createdAt))
    .limit(500)
    .all();
}

/** Someone's tasks in one run (open or decided): whether they may see it, and what is theirs to decide. */
export async function listTasksOfIn(db: Database, runId: string, userId: string): Promise<WorkflowTaskRow[]> {
  return db.select().from(workflowTasks).where(and(eq(workflowTasks.runId, runId), eq(workflowTasks.assigneeId, userId))).all();
}

/** The workflows someone built, and those working in the given rooms (the rooms they manage), newest change first. */
export async function listTemplatesFor(db: Database, userId: string, roomIds: readonly string[]): Promise<WorkflowTemplateRow[]> {
  const mine = eq(workflowTemplates.createdBy, userId);
  return db
    .select()
    .from(workflowTemplates)
    .where(roomIds.length > 0 ? or(mine, inArray(workflowTemplates.spaceId, [...roomIds])) : mine)
    .orderBy(sql`${workflowTemplates.updatedAt} DESC`)
    .all();
}

// ---- personal data ---------------------------------------------------------------------------------

/** What a member's export holds of workflows: those they built, the runs they started, their tasks. */
export async function loadWorkflowDataOf(db: Database, userId: string) {
  const [templates, runs, tasks] = await Promise.all([
    db.select().from(workflowTemplates).where(eq(workflowTemplates.createdBy, userId)).all(),
    db.select().from(workflowRuns).where(eq(workflowRuns.startedBy, userId)).all(),
    db
      .select({ id: workflowTasks.id, runId: workflowTasks.runId, stepIndex: workflowTasks.stepIndex, status: workflowTasks.status, comment: workflowTasks.comment, createdAt: workflowTasks.createdAt, decidedAt: workflowTasks.decidedAt, workflow: workflowTemplates.name })
      .from(workflowTasks)
      .innerJoin(workflowRuns, eq(workflowRuns.id, workflowTasks.runId))
      .innerJoin(workflowTemplates, eq(workflowTemplates.id, workflowRuns.templateId))
      .where(eq(workflowTasks.assigneeId, userId))
      .all(),
  ]);
  return { templates, runs, tasks };
}

/** Erasure: the member leaves others' run timelines (their name and comments); their tasks go with their account. */
export async function forgetWorkflowActor(db: Database, userId: string): Promise<void> {
  await db.update(workflowEvents).set({ actorId: null, detail: null }).where(and(eq(workflowEvents.actorId, userId), sql`${workflowEvents.kind} LIKE 'task.%'`));
  await db.update(workflowEvents).set({ actorId: null }).where(eq(workflowEvents.actorId, userId));
}

/** A live (not trashed) file's id, name and space: the document an upload-triggered run is about. */
export async function findLiveFile(db: Database, id: string) {
  return db.select({ id: files.id, name: files.name, spaceId: files.spaceId }).from(files).where(and(eq(files.id, id), isNull(files.trashedAt))).get();
}

/** The newest live documents of a space (the choice for a run started by hand). */
export async function listRecentFilesIn(db: Database, spaceId: string, limit: number) {
  return db
    .select({ id: files.id, name: files.name })
    .from(files)
    .where(and(eq(files.spaceId, spaceId), isNull(files.trashedAt)))
    .orderBy(desc(files.updatedAt), desc(files.id))
    .limit(limit)
    .all();
}

// ---- links to other modules (a step's envelope) -----------------------------------------------------

export async function findStepLink(db: Database, runId: string, stepIndex: number) {
  return db.select().from(workflowLinks).where(and(eq(workflowLinks.runId, runId), eq(workflowLinks.stepIndex, stepIndex))).get();
}

export async function insertStepLink(db: Database, row: typeof workflowLinks.$inferInsert): Promise<void> {
  await db.insert(workflowLinks).values(row).onConflictDoNothing();
}

/** The run (and step) waiting on something another module made: an envelope's outcome finds who to tell. */
export async function findLinkByRef(db: Database, kind: "envelope" | "form", refId: string) {
  return db.select().from(workflowLinks).where(and(eq(workflowLinks.kind, kind), eq(workflowLinks.refId, refId))).get();
}

/**
 * An envelope a sign step sent but did not record (the step failed between sending and writing
 * the link): the builder's envelope of this document with this title, made since the step began.
 */
export async function findUnlinkedEnvelope(db: Database, query: { userId: string; sourceFileId: string; title: string; since: Date }) {
  return db
    .select({ id: signatureEnvelopes.id })
    .from(signatureEnvelopes)
    .leftJoin(workflowLinks, and(eq(workflowLinks.kind, "envelope"), eq(workflowLinks.refId, signatureEnvelopes.id)))
    .where(and(eq(signatureEnvelopes.userId, query.userId), eq(signatureEnvelopes.sourceFileId, query.sourceFileId), eq(signatureEnvelopes.title, query.title), gte(signatureEnvelopes.createdAt, query.since), isNull(workflowLinks.refId)))
    .get();
}

export async function findEnvelopeState(db: Database, id: string) {
  return db.select({ id: signatureEnvelopes.id, status: signatureEnvelopes.status, sealedFileId: signatureEnvelopes.sealedFileId, title: signatureEnvelopes.title }).from(signatureEnvelopes).where(eq(signatureEnvelopes.id, id)).get();
}

/** After signing, the steps that follow act on the signed copy. */
export async function setRunSubject(db: Database, runId: string, fileId: string): Promise<void> {
  await db.update(workflowRuns).set({ subjectFileId: fileId }).where(and(eq(workflowRuns.id, runId), eq(workflowRuns.status, "running")));
}

/** Live documents of one space among the ids given (one query for a selection). */
export async function listLiveFilesIn(db: Database, spaceId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.select({ id: files.id, name: files.name, contentType: files.contentType }).from(files).where(and(eq(files.spaceId, spaceId), inArray(files.id, [...ids]), isNull(files.trashedAt))).all();
}
