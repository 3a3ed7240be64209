import type { CaseField, CaseStatus, CaseValues } from "~/db/schema";
import { checkFeature as hasFeature } from "~/features/access/access-check";
import { loadMemberAccess } from "~/features/access/access.server";
import { createFolder, personalRootFolderId } from "~/features/files/folders.server";
import { findFolderByLabel, findRootFolder } from "~/features/files/folders.queries.server";
import { moveItemRefs } from "~/features/files/move.server";
import { ensurePersonalSpace, requireFileAccess, requireFolderAccess } from "~/features/files/spaces.server";
import { auditRoom } from "~/features/datarooms/audit-record.server";
import { createDataroom, newRoomAllowance } from "~/features/datarooms/datarooms.server";
import { DATAROOM_NAME_MAX } from "~/features/datarooms/datarooms.schema";
import { findRoomName } from "~/features/datarooms/members.queries.server";
import { findIsDataroomSpace } from "~/features/files/space-role.queries.server";
import { findTemplate, listTriggerSources } from "~/features/workflows/workflows.queries.server";
import { requireWorkflows, startRun } from "~/features/workflows/workflows.server";
import { managedRooms } from "~/features/workflows/workflow-room.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { addCaseTaskSchema, addParticipantSchema, caseCommentSchema, caseListQuerySchema, caseStatusSchema, CASE_STATUS_LABELS, createCaseTypeSchema, fieldKey, openCaseSchema, updateCaseSchema } from "./cases.schema";
import {
  completeCaseTaskRow,
  countCasesOf,
  findCase,
  findCaseBySource,
  findCaseRequestBySubmission,
  listCaseRequests,
  insertCaseEventOnce,
  type CaseRequestRow,
  findFormSubmissionForCase,
  findLiveFileIn,
  findReceiveSubmissionForCase,
  findCaseTask,
  findCaseType,
  findParticipant,
  findUserByEmail,
  findUserById,
  insertCase,
  insertCaseEvent,
  insertCaseTask,
  insertCaseType,
  insertParticipant,
  listCaseFiles,
  listCasesFor,
  listCaseTasks,
  listCaseTimeline,
  listCaseTypesBy,
  listParticipants,
  listChildFolderIds,
  setCaseStatusRow,
  updateCaseRow,
  updateCaseTypeRow,
  setRunCase,
  type CaseRow,
  type CaseTypeRow,
} from "./cases.queries.server";

/**
 * Cases (issue 41, ADR 036): case types (fields, the case file's folders, a default workflow) and
 * cases (values, status, people, case file, tasks and milestones, timeline). Cases are part of the
 * Business plan with workflows (`workflows`), checked at every entry point. A case is seen by its
 * owner, its assignee and the members taking part (404 for anyone else); its owner and assignee
 * manage it. Its case file is a folder of the owner's files ("Cases / CASE-0001 Title").
 */

const typeNotFound = () => new AppError("NOT_FOUND", "This case type does not exist or you don't have access to it.");
const caseNotFound = () => new AppError("NOT_FOUND", "This case does not exist or you don't have access to it.");
const CASES_FOLDER = "Cases";
const DAY_MS = 24 * 60 * 60 * 1000;

const requireCases = requireWorkflows;

const idOk = (id: unknown): id is string => typeof id === "string" && id.length > 0 && id.length <= 64;
const dateOf = (text: string | null) => (text ? new Date(`${text}T23:59:59.999Z`) : null);

export type CaseTypeView = { id: string; name: string; description: string; fields: CaseField[]; folders: string[]; defaultWorkflowId: string | null };
const typeViewOf = (row: CaseTypeRow): CaseTypeView => ({ id: row.id, name: row.name, description: row.description, fields: row.fields, folders: row.folders, defaultWorkflowId: row.defaultWorkflowId });

/** A case type as given (POST, or PATCH with the whole type), checked; a default workflow must be one the member built. */
async function checkedType(ctx: ServiceContext, userId: string, input: unknown) {
  const data = parseInput(createCaseTypeSchema, input);
  if (data.defaultWorkflowId) {
    const template = await findTemplate(ctx.db, data.defaultWorkflowId);
    if (!template || template.createdBy !== userId) throw new AppError("VALIDATION_ERROR", "defaultWorkflowId: Choose one of your workflows.");
  }
  return data;
}

/** POST /api/case-types: the member's case type. */
export async function createCaseType(ctx: ServiceContext, userId: string, input: unknown): Promise<CaseTypeView> {
  await requireCases(ctx, userId);
  const data = await checkedType(ctx, userId, input);
  const space = await ensurePersonalSpace(ctx, userId);
  const now = ctx.now();
  const row: CaseTypeRow = { id: crypto.randomUUID(), spaceId: space.id, name: data.name, description: data.description, fields: data.fields, folders: data.folders, defaultWorkflowId: data.defaultWorkflowId, createdBy: userId, createdAt: now, updatedAt: now };
  await insertCaseType(ctx.db, row);
  return typeViewOf(row);
}

/**
 * PATCH /api/case-types/{id}: its owner changes a type (the whole type again: name, description,
 * fields, folders, default workflow). Cases already open keep their values: fields are known by
 * their label, so a field renamed or removed shows nothing in them (the value stays stored and
 * comes back with the label), a new required field is asked for when the case is next edited. New
 * folders are for case files made from now on. 404 for anyone else's type, nothing changed.
 */
export async function updateCaseType(ctx: ServiceContext, userId: string, typeId: unknown, input: unknown): Promise<CaseTypeView> {
  await requireCases(ctx, userId);
  const type = await requireOwnType(ctx, userId, typeId);
  const data = await checkedType(ctx, userId, input);
  const changed = { name: data.name, description: data.description, fields: data.fields, folders: data.folders, defaultWorkflowId: data.defaultWorkflowId, updatedAt: ctx.now() };
  await updateCaseTypeRow(ctx.db, type.id, changed);
  return typeViewOf({ ...type, ...changed });
}

export async function listCaseTypes(ctx: ServiceContext, userId: string): Promise<CaseTypeView[]> {
  await requireCases(ctx, userId);
  return (await listCaseTypesBy(ctx.db, userId)).map(typeViewOf);
}

async function requireOwnType(ctx: ServiceContext, userId: string, typeId: unknown): Promise<CaseTypeRow> {
  const type = idOk(typeId) ? await findCaseType(ctx.db, typeId) : undefined;
  if (!type || type.createdBy !== userId) throw typeNotFound();
  return type;
}

/** The values a case of this type carries: each field checked (required, a number, a date, one of the options); others dropped. */
function checkValues(fields: CaseField[], values: Record<string, string | number | null>): CaseValues {
  const checked: CaseValues = {};
  for (const field of fields) {
    const raw = values[field.key];
    const text = raw === null || raw === undefined ? "" : String(raw).trim();
    if (!text) {
      if (field.required) throw new AppError("VALIDATION_ERROR", `values.${field.key}: ${field.label} is required.`);
      checked[field.key] = null;
      continue;
    }
    if (field.type === "number") {
      const number = Number(text);
      if (!Number.isFinite(number)) throw new AppError("VALIDATION_ERROR", `values.${field.key}: ${field.label} must be a number.`);
      checked[field.key] = number;
    } else if (field.type === "date") {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(text))) throw new AppError("VALIDATION_ERROR", `values.${field.key}: ${field.label} is a date, written YYYY-MM-DD.`);
      checked[field.key] = text;
    } else if (field.type === "select") {
      if (!field.options.includes(text)) throw new AppError("VALIDATION_ERROR", `values.${field.key}: ${field.label} is one of: ${field.options.join(", ")}.`);
      checked[field.key] = text;
    } else {
      checked[field.key] = text.slice(0, 2_000);
    }
  }
  return checked;
}

/** A member by id or e-mail address (null stays null); someone without an account is refused with the address named. */
async function memberOf(ctx: ServiceContext, entry: string | null, what: string): Promise<{ id: string; name: string; email: string } | null> {
  if (!entry) return null;
  const found = entry.includes("@") ? await findUserByEmail(ctx.db, entry.toLowerCase()) : await findUserById(ctx.db, entry);
  if (!found) throw new AppError("VALIDATION_ERROR", `${what}: ${entry.includes("@") ? entry : "This person"} is not a Strongroom member yet.`);
  return found;
}

type CaseRoom = { id: string; rootFolderId: string };

/** A data room the member may open cases in: one they manage (its owner, an admin, or given "Manage settings"); 404 for a room they are not in. */
async function requireCaseRoom(ctx: ServiceContext, userId: string, roomId: string): Promise<CaseRoom> {
  const root = await findRootFolder(ctx.db, roomId);
  if (!root) throw new AppError("NOT_FOUND", "This data room does not exist or you don't have access to it.");
  const folder = await requireFolderAccess(ctx, userId, root.id, "files.edit");
  if (!folder.roomPermissions) throw new AppError("NOT_FOUND", "This data room does not exist or you don't have access to it.");
  if (!folder.roomPermissions.manage_settings) throw new AppError("FORBIDDEN", "Only the room's owner and admins open cases in it.");
  return { id: roomId, rootFolderId: root.id };
}

/** The case file: "Cases / {reference} {title}" in the owner's files, or "{reference} {title}" at the top of the case's data room, with the type's folders in it. */
async function makeCaseFile(ctx: ServiceContext, ownerId: string, label: string, subfolders: string[], room: CaseRoom | null): Promise<string> {
  let parentId: string;
  if (room) parentId = room.rootFolderId;
  else {
    const space = await ensurePersonalSpace(ctx, ownerId);
    const root = await personalRootFolderId(ctx, ownerId);
    parentId = (await findFolderByLabel(ctx.db, space.id, root, CASES_FOLDER))?.id ?? (await createFolder(ctx, ownerId, { parentId: root, label: CASES_FOLDER })).uid;
  }
  const folder = await createFolder(ctx, ownerId, { parentId, label });
  await makeTypeFolders(ctx, ownerId, folder.uid, subfolders);
  return folder.uid;
}

/** The case type's folders, inside a new case file. */
async function makeTypeFolders(ctx: ServiceContext, ownerId: string, parentId: string, names: string[]): Promise<void> {
  for (const name of names) await createFolder(ctx, ownerId, { parentId, label: name });
}

/** A data room of the case's own (issue 41): made like any room the member creates (their plan's room limit), named after the case; its top is the case file, with the type's folders. */
async function makeCaseRoom(ctx: ServiceContext, ownerId: string, label: string, type: CaseTypeRow): Promise<CaseRoom> {
  const created = await createDataroom(ctx, ownerId, { name: label.slice(0, DATAROOM_NAME_MAX), description: `The case file of ${label} (${type.name}).` });
  const root = await findRootFolder(ctx.db, created.id);
  if (!root) throw new AppError("INTERNAL_ERROR");
  await makeTypeFolders(ctx, ownerId, root.id, type.folders);
  return { id: created.id, rootFolderId: root.id };
}

export type CaseSource = { kind: "manual" } | { kind: "workflow"; runId: string; workflow: string } | { kind: "receive"; submissionId: string; page: string } | { kind: "form"; submissionId: string; form: string };
export type OpenedCase = { id: string; reference: string; title: string; folderId: string | null };

/** POST /api/cases: opens a case of one of the member's types, with its case file. */
export async function openCase(ctx: ServiceContext, userId: string, input: unknown, source: CaseSource = { kind: "manual" }): Promise<OpenedCase> {
  await requireCases(ctx, userId);
  const data = parseInput(openCaseSchema, input);
  const type = await requireOwnType(ctx, userId, data.typeId);
  return openCaseOfType(ctx, userId, type, data, source);
}

async function openCaseOfType(
  ctx: ServiceContext,
  userId: string,
  type: CaseTypeRow,
  data: { title: string; values: Record<string, string | number | null>; assignee?: string | null; dueDate?: string | null; roomId?: string | null; newRoom?: boolean },
  source: CaseSource,
): Promise<OpenedCase> {
  const values = checkValues(type.fields, data.values);
  const assignee = await memberOf(ctx, data.assignee ?? null, "assignee");
  const room = data.roomId ? await requireCaseRoom(ctx, userId, data.roomId) : null;
  const reference = `CASE-${String((await countCasesOf(ctx.db, userId)) + 1).padStart(4, "0")}`;
  const label = `${reference} ${data.title}`;
  // Everything the member could get wrong is checked above: a room of the case's own is made last (the plan's room limit decides).
  const ownRoom = data.newRoom ? await makeCaseRoom(ctx, userId, label, type) : null;
  const folderId = ownRoom ? ownRoom.rootFolderId : await makeCaseFile(ctx, userId, label.slice(0, 200), type.folders, room);
  const now = ctx.now();
  const id = crypto.randomUUID();
  const row: CaseRow = {
    id,
    typeId: type.id,
    spaceId: type.spaceId,
    reference,
    title: data.title,
    status: "open",
    values,
    folderId,
    roomId: ownRoom?.id ?? room?.id ?? null,
    ownerId: userId,
    assigneeId: assignee?.id ?? null,
    dueAt: dateOf(data.dueDate ?? null),
    sourceKind: source.kind,
    sourceRef: source.kind === "workflow" ? source.runId : source.kind === "manual" ? null : source.submissionId,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
  };
  const how = source.kind === "workflow" ? ` by the workflow “${source.workflow}”` : source.kind === "receive" ? ` from the receive page “${source.page}”` : source.kind === "form" ? ` from the form “${source.form}”` : "";
  const detail = `${type.name}: ${reference} ${data.title}${how}`;
  await insertCase(ctx.db, row, { id: `${id}:opened`, caseId: id, at: now, kind: "case.opened", actorId: source.kind === "manual" ? userId : null, fileId: null, detail });
  await roomLog(ctx, row, source.kind === "manual" ? userId : null, "case.open", detail);
  return { id, reference, title: data.title, folderId };
}

/** What happened to a case that lives in a data room, in the room's hash-chained audit log as well as the case's timeline. */
export async function roomLog(ctx: ServiceContext, row: Pick<CaseRow, "id" | "roomId" | "reference" | "title">, actorId: string | null, action: "case.open" | "case.change" | "case.comment", detail: string): Promise<void> {
  if (!row.roomId) return;
  await auditRoom(ctx, row.roomId, actorId, { action, target: { type: "case", id: row.id, name: `${row.reference} ${row.title}` }, detail });
}

/** The room a case lives in, for its page: its name, and whether the whole room is the case file (a room of its own). */
async function caseRoomView(ctx: ServiceContext, roomId: string, folderId: string | null): Promise<{ id: string; name: string; isCaseFile: boolean }> {
  const [room, root] = await Promise.all([findRoomName(ctx.db, roomId), findRootFolder(ctx.db, roomId)]);
  return { id: roomId, name: room?.name ?? "a data room", isCaseFile: root !== undefined && root.id === folderId };
}

/** The case if the member may see it (owner, assignee, a member taking part; 404 otherwise), and whether they manage it. */
async function requireVisibleCase(ctx: ServiceContext, userId: string, caseId: unknown): Promise<{ row: CaseRow; canManage: boolean }> {
  await requireCases(ctx, userId);
  const row = idOk(caseId) ? await findCase(ctx.db, caseId) : undefined;
  if (!row) throw caseNotFound();
  const canManage = row.ownerId === userId || row.assigneeId === userId;
  if (!canManage && !(await findParticipant(ctx.db, row.id, userId))) throw caseNotFound();
  return { row, canManage };
}

export async function requireManagedCase(ctx: ServiceContext, userId: string, caseId: unknown): Promise<CaseRow> {
  const { row, canManage } = await requireVisibleCase(ctx, userId, caseId);
  if (!canManage) throw new AppError("FORBIDDEN", "Only the case's owner and assignee can change it.");
  return row;
}

/** GET /api/cases: the cases the member owns, is assigned or takes part in, by type, status, assignee and due date. */
export async function listCases(ctx: ServiceContext, userId: string, rawQuery: unknown) {
  await requireCases(ctx, userId);
  const query = parseInput(caseListQuerySchema, rawQuery);
  const now = ctx.now();
  const dueBefore = query.due === "overdue" ? now : query.due === "week" ? new Date(now.getTime() + 7 * DAY_MS) : undefined;
  const status = query.status === "all" ? undefined : (query.status ?? undefined);
  const rows = await listCasesFor(ctx.db, { userId, typeId: query.type, status, assignee: query.assignee, dueBefore }, 200);
  return {
    query,
    cases: rows.map((row) => ({
      id: row.id,
      reference: row.reference,
      title: row.title,
      type: row.typeName,
      status: row.status,
      assignee: row.assigneeName,
      due: row.dueAt?.toISOString() ?? null,
      isOverdue: row.status !== "closed" && row.dueAt !== null && row.dueAt < now,
      updatedAt: row.updatedAt.toISOString(),
    })),
  };
}

export type CaseTimelineEntry = { id: string; at: string; kind: string; detail: string | null; actor: string | null; workflow: string | null; runId: string | null };

/** GET /api/cases/{id}: the case, its people, tasks, case file and timeline (its own entries and its workflow runs'). */
export async function getCase(ctx: ServiceContext, userId: string, caseId: unknown) {
  const { row, canManage } = await requireVisibleCase(ctx, userId, caseId);
  const type = (await findCaseType(ctx.db, row.typeId))!;
  const [participants, tasks, timeline, owner, assignee, requests, sources] = await Promise.all([
    listParticipants(ctx.db, row.id),
    listCaseTasks(ctx.db, row.id),
    listCaseTimeline(ctx.db, row.id),
    findUserById(ctx.db, row.ownerId),
    row.assigneeId ? findUserById(ctx.db, row.assigneeId) : null,
    canManage ? listCaseRequests(ctx.db, row.id) : [],
    canManage ? listTriggerSources(ctx.db, userId) : { forms: [], pages: [] },
  ]);
  // The case file's documents, for whoever may open the owner's folder (its owner).
  const isOwner = row.ownerId === userId;
  const caseFiles = isOwner && row.folderId ? await listCaseFiles(ctx.db, [row.folderId, ...(await subfolderIds(ctx, row))], 100) : [];
  const defaultWorkflow = type.defaultWorkflowId ? await findTemplate(ctx.db, type.defaultWorkflowId) : undefined;
  const entries: CaseTimelineEntry[] = [
    ...timeline.own.map((event) => ({ id: event.id, at: event.at.toISOString(), kind: event.kind, detail: event.detail, actor: event.actorName, workflow: null, runId: null })),
    // The run's own "filed" entry says what the case's says already.
    ...timeline.fromRuns.filter((event) => event.kind !== "case.filed").map((event) => ({ id: event.id, at: event.at.toISOString(), kind: event.kind, detail: event.detail, actor: event.actorName, workflow: event.workflow, runId: event.runId })),
  ].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  return {
    case: {
      id: row.id,
      reference: row.reference,
      title: row.title,
      status: row.status,
      statusLabel: CASE_STATUS_LABELS[row.status],
      type: { id: type.id, name: type.name },
      fields: type.fields.map((field) => ({ key: field.key, label: field.label, type: field.type, required: field.required, options: field.options, value: row.values[field.key] ?? null })),
      owner: owner ? { name: owner.name, email: owner.email } : null,
      assignee: assignee ? { name: assignee.name, email: assignee.email } : null,
      due: row.dueAt?.toISOString() ?? null,
      folderId: isOwner ? row.folderId : null,
      /** The data room the case lives in, for its owner (a link to the case file there). */
      room: isOwner && row.roomId ? await caseRoomView(ctx, row.roomId, row.folderId) : null,
      createdAt: row.createdAt.toISOString(),
    },
    canManage,
    participants: participants.map((person) => ({ email: person.email, name: person.name, isMember: person.userId !== null })),
    tasks: tasks.map((task) => ({ id: task.id, kind: task.kind, title: task.title, assignee: task.assigneeName, due: task.dueAt?.toISOString() ?? null, done: task.doneAt?.toISOString() ?? null })),
    files: caseFiles.map((file) => ({ id: file.id, name: file.name })),
    /** Forms and receive pages sent for the case and whether they were answered (its owner and assignee). */
    requests: requests.map((request) => ({
      id: request.id,
      kind: request.form !== null ? ("form" as const) : ("receive" as const),
      title: request.form ?? request.page ?? "",
      name: request.name,
      email: request.email,
      sentAt: request.createdAt.toISOString(),
      answeredAt: request.answeredAt?.toISOString() ?? null,
    })),
    /** The viewer's forms and receive pages they may send for it (its owner and assignee). */
    formChoices: sources.forms,
    pageChoices: sources.pages,
    defaultWorkflow: isOwner && defaultWorkflow && defaultWorkflow.createdBy === userId ? { id: defaultWorkflow.id, name: defaultWorkflow.name } : null,
    timeline: entries,
  };
}

async function subfolderIds(ctx: ServiceContext, row: CaseRow): Promise<string[]> {
  return row.folderId ? listChildFolderIds(ctx.db, row.folderId) : [];
}

const shownValue = (value: string | number | null | undefined) => (value === null || value === undefined || value === "" ? "—" : String(value));
const dayText = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

/**
 * PATCH /api/cases/{id}: its title, field values, assignee and due date (owner or assignee). The
 * values are checked against the type as when it opened; each change is one line of one timeline
 * entry ("Amount: 1250.5 → 1300"), in the room's audit log too when the case lives in a room.
 */
export async function updateCase(ctx: ServiceContext, userId: string, caseId: unknown, input: unknown): Promise<{ changes: string[] }> {
  const row = await requireManagedCase(ctx, userId, caseId);
  const data = parseInput(updateCaseSchema, input);
  const type = (await findCaseType(ctx.db, row.typeId))!;
  const changes: string[] = [];
  const patch: Parameters<typeof updateCaseRow>[2] = {};
  if (data.title !== undefined && data.title !== row.title) {
    changes.push(`Title: ${row.title} → ${data.title}`);
    patch.title = data.title;
  }
  if (data.values !== undefined) {
    const values = checkValues(type.fields, { ...row.values, ...data.values });
    for (const field of type.fields) if ((row.values[field.key] ?? null) !== (values[field.key] ?? null)) changes.push(`${field.label}: ${shownValue(row.values[field.key])} → ${shownValue(values[field.key])}`);
    patch.values = values;
  }
  if (data.assignee !== undefined) {
    const assignee = await memberOf(ctx, data.assignee, "assignee");
    if ((assignee?.id ?? null) !== row.assigneeId) {
      const before = row.assigneeId ? await findUserById(ctx.db, row.assigneeId) : undefined;
      changes.push(`Assignee: ${before?.name ?? "nobody"} → ${assignee?.name ?? "nobody"}`);
      patch.assigneeId = assignee?.id ?? null;
    }
  }
  if (data.dueDate !== undefined && data.dueDate !== dayText(row.dueAt)) {
    changes.push(`Due date: ${shownValue(dayText(row.dueAt))} → ${shownValue(data.dueDate)}`);
    patch.dueAt = dateOf(data.dueDate);
  }
  if (changes.length === 0) return { changes };
  const now = ctx.now();
  const detail = changes.join("; ");
  await updateCaseRow(ctx.db, row.id, patch, now, { id: crypto.randomUUID(), caseId: row.id, at: now, kind: "case.updated", actorId: userId, fileId: null, detail });
  await roomLog(ctx, row, userId, "case.change", detail);
  return { changes };
}

/** POST /api/cases/{id}/status: open, waiting or closed (owner or assignee). */
export async function setCaseStatus(ctx: ServiceContext, userId: string, caseId: unknown, input: unknown): Promise<CaseStatus> {
  const row = await requireManagedCase(ctx, userId, caseId);
  const { status } = parseInput(caseStatusSchema, input);
  if (status === row.status) return status;
  const now = ctx.now();
  const detail = `${CASE_STATUS_LABELS[row.status]} → ${CASE_STATUS_LABELS[status]}`;
  await setCaseStatusRow(ctx.db, row.id, status, now, { id: crypto.randomUUID(), caseId: row.id, at: now, kind: "case.status", actorId: userId, fileId: null, detail });
  await roomLog(ctx, row, userId, "case.change", `Status: ${detail}`);
  return status;
}

/** POST /api/cases/{id}/participants: someone takes part (a member sees the case; an outsider is recorded to act through a page bound to it). */
export async function addParticipant(ctx: ServiceContext, userId: string, caseId: unknown, input: unknown): Promise<{ added: boolean; isMember: boolean }> {
  const row = await requireManagedCase(ctx, userId, caseId);
  const data = parseInput(addParticipantSchema, input);
  const person = await takePart(ctx, row, userId, data);
  if (person.added) await roomLog(ctx, row, userId, "case.change", `Takes part: ${person.detail}`);
  return { added: person.added, isMember: person.userId !== null };
}

/** Someone takes part in the case by e-mail (named as given, else as their account is, else by their address), once; with the timeline's words for them. */
export async function takePart(ctx: ServiceContext, row: CaseRow, actorId: string, person: { email: string; name: string }) {
  const [member, people] = await Promise.all([findUserByEmail(ctx.db, person.email), listParticipants(ctx.db, row.id)]);
  // Asked again without a name: the name they take part under already.
  const name = person.name || people.find((someone) => someone.email === person.email)?.name || member?.name || person.email.split("@")[0]!;
  const now = ctx.now();
  const detail = `${name} <${person.email}>${member ? "" : " (no account)"}`;
  const added = await insertParticipant(ctx.db, { caseId: row.id, email: person.email, name, userId: member?.id ?? null, addedAt: now }, { id: crypto.randomUUID(), caseId: row.id, at: now, kind: "case.participant", actorId, fileId: null, detail });
  return { added, name, userId: member?.id ?? null, detail };
}

/** POST /api/cases/{id}/comments: anyone who sees the case (its owner, assignee, members taking part) adds a comment to its timeline. */
export async function addCaseComment(ctx: ServiceContext, userId: string, caseId: unknown, input: unknown): Promise<{ id: string }> {
  const { row } = await requireVisibleCase(ctx, userId, caseId);
  const { text } = parseInput(caseCommentSchema, input);
  const id = crypto.randomUUID();
  await insertCaseEvent(ctx.db, { id, caseId: row.id, at: ctx.now(), kind: "case.comment", actorId: userId, fileId: null, detail: text });
  await roomLog(ctx, row, userId, "case.comment", text);
  return { id };
}

/** POST /api/cases/{id}/tasks: a to-do or a milestone (owner or assignee). */
export async function addCaseTask(ctx: ServiceContext, userId: string, caseId: unknown, input: unknown): Promise<{ id: string }> {
  const row = await requireManagedCase(ctx, userId, caseId);
  const data = parseInput(addCaseTaskSchema, input);
  const assignee = await memberOf(ctx, data.assignee, "assignee");
  const now = ctx.now();
  const id = crypto.randomUUID();
  await insertCaseTask(
    ctx.db,
    { id, caseId: row.id, kind: data.kind, title: data.title, assigneeId: assignee?.id ?? null, dueAt: dateOf(data.dueDate), doneAt: null, createdAt: now },
    { id: `${id}:added`, caseId: row.id, at: now, kind: data.kind === "milestone" ? "case.milestone" : "case.task", actorId: userId, fileId: null, detail: data.title },
  );
  await roomLog(ctx, row, userId, "case.change", `${data.kind === "milestone" ? "Milestone" : "Task"} added: ${data.title}`);
  return { id };
}

/** POST /api/cases/{id}/tasks/{taskId}/done: the task's assignee, or the case's owner or assignee, marks it done (409 twice). */
export async function completeCaseTask(ctx: ServiceContext, userId: string, caseId: unknown, taskId: unknown): Promise<void> {
  const { row, canManage } = await requireVisibleCase(ctx, userId, caseId);
  const task = idOk(taskId) ? await findCaseTask(ctx.db, taskId) : undefined;
  if (!task || task.caseId !== row.id) throw new AppError("NOT_FOUND", "This task is not part of the case.");
  if (!canManage && task.assigneeId !== userId) throw new AppError("FORBIDDEN", "Only the task's assignee or the case's owner and assignee can mark it done.");
  const now = ctx.now();
  if (!(await completeCaseTaskRow(ctx.db, task.id, now, { id: `${task.id}:done`, caseId: row.id, at: now, kind: task.kind === "milestone" ? "case.milestone-reached" : "case.task-done", actorId: userId, fileId: null, detail: task.title }))) {
    throw new AppError("CONFLICT", "This task is already done.");
  }
  await roomLog(ctx, row, userId, "case.change", `${task.kind === "milestone" ? "Milestone reached" : "Task done"}: ${task.title}`);
}

/**
 * A workflow files its documents into a new case of a type (a "case" step): the case opens titled
 * by the document's name (or, for a run about a submission, by who sent it and where; a form's
 * answers fill the fields of the same label), the documents move into its case file, and the run
 * is linked so the case's timeline shows what the run did. Acts as the workflow's builder (the
 * type's owner). Once per step: run again, it finds the case that step opened (`sourceRef`) and
 * only makes sure the documents are there.
 */
export async function fileDocumentIntoNewCase(
  ctx: ServiceContext,
  builderId: string,
  filing: { caseTypeId: string; fileIds: string[]; title: string | null; formSubmissionId: string | null; runId: string; stepRef: string; workflow: string; roomId: string | null },
): Promise<OpenedCase> {
  await requireCases(ctx, builderId);
  const documents = [];
  for (const fileId of filing.fileIds) documents.push((await requireFileAccess(ctx, builderId, fileId, "files.edit")).file);
  const existing = await findCaseBySource(ctx.db, "workflow", filing.stepRef);
  let opened: OpenedCase;
  if (existing) opened = { id: existing.id, reference: existing.reference, title: existing.title, folderId: existing.folderId };
  else {
    const type = await requireOwnType(ctx, builderId, filing.caseTypeId);
    const first = documents[0] ? documents[0].name.replace(/\.[^./]{1,8}$/, "") || documents[0].name : "Untitled";
    const answers = filing.formSubmissionId ? await findFormSubmissionForCase(ctx.db, filing.formSubmissionId) : undefined;
    opened = await openCaseFilled(ctx, builderId, type, (filing.title ?? first).slice(0, 200), answers ? valuesFromAnswers(type, answers) : {}, { kind: "workflow", runId: filing.stepRef, workflow: filing.workflow }, filing.roomId);
  }
  if (opened.folderId && documents.length > 0) await moveItemRefs(ctx, builderId, { items: documents.map((file) => ({ type: "file" as const, id: file.id })), targetFolderId: opened.folderId });
  await setRunCase(ctx.db, filing.runId, opened.id);
  const names = documents.map((file) => `“${file.name}”`).join(", ");
  const detail = `${names || "Nothing"} filed by the workflow “${filing.workflow}”`;
  const isNew = await insertCaseEventOnce(ctx.db, { id: `${filing.stepRef}:filed`, caseId: opened.id, at: ctx.now(), kind: "case.filed", actorId: null, fileId: documents[0]?.id ?? null, detail });
  if (isNew) await roomLog(ctx, { ...opened, roomId: filing.roomId }, null, "case.change", detail);
  return opened;
}

/** POST /api/cases/{id}/runs { fileId }: the case's owner starts its type's default workflow on a document of the case file; the run joins the case's timeline. */
export async function startCaseWorkflow(ctx: ServiceContext, userId: string, caseId: unknown, input: { fileId?: unknown }): Promise<{ runId: string }> {
  const { row } = await requireVisibleCase(ctx, userId, caseId);
  if (row.ownerId !== userId) throw new AppError("FORBIDDEN", "Only the case's owner can start its workflow.");
  const type = (await findCaseType(ctx.db, row.typeId))!;
  if (!type.defaultWorkflowId) throw new AppError("CONFLICT", "This case's type has no default workflow. Choose one for the type first.");
  const inCaseFile = row.folderId ? new Set([row.folderId, ...(await subfolderIds(ctx, row))]) : new Set<string>();
  if (typeof input.fileId !== "string" || input.fileId.length > 64) throw new AppError("VALIDATION_ERROR", "fileId: Choose a document of the case file.");
  const { file } = await requireFileAccess(ctx, userId, input.fileId, "files.view");
  if (!inCaseFile.has(file.folderId)) throw new AppError("VALIDATION_ERROR", "fileId: Choose a document of the case file.");
  const run = await startRun(ctx, userId, type.defaultWorkflowId, { fileId: file.id });
  await setRunCase(ctx.db, run.id, row.id);
  return { runId: run.id };
}

/** /cases/new: the data rooms a case may live in (those the member manages). */
export async function caseRoomChoicesFor(ctx: ServiceContext, userId: string): Promise<{ id: string; name: string }[]> {
  await requireCases(ctx, userId);
  return managedRooms(ctx, userId);
}

/** Whether "a data room of its own" is offered: the member's plan must allow one more room (the data rooms' own rule). */
export async function newCaseRoomChoiceFor(ctx: ServiceContext, userId: string): Promise<{ allowed: boolean; left: number | null }> {
  await requireCases(ctx, userId);
  return newRoomAllowance(ctx, userId);
}

/** Case types the member may choose for a page (none without the plan: the choice is not shown). */
export async function caseTypeChoicesFor(ctx: ServiceContext, userId: string): Promise<{ id: string; name: string }[]> {
  if (!hasFeature(await loadMemberAccess(ctx, userId), "workflows")) return [];
  return (await listCaseTypesBy(ctx.db, userId)).map((type) => ({ id: type.id, name: type.name }));
}

/**
 * A form or receive page that opens cases: the type must be the member's, and the page must deliver
 * into their own files (the case opens there) or into a data room they manage (the case opens in
 * the room, so what was sent never leaves it).
 */
export async function requireIntakeCaseType(ctx: ServiceContext, userId: string, typeId: string, pageSpaceId: string): Promise<void> {
  await requireCases(ctx, userId);
  const type = await findCaseType(ctx.db, typeId);
  if (!type || type.createdBy !== userId) throw new AppError("VALIDATION_ERROR", "caseTypeId: Choose one of your case types.");
  if (type.spaceId === pageSpaceId) return;
  if (!(await findIsDataroomSpace(ctx.db, pageSpaceId))) throw new AppError("VALIDATION_ERROR", "caseTypeId: A case's files live in your own files or in a data room you manage: choose a folder there for this page, or no case.");
  await requireCaseRoom(ctx, userId, pageSpaceId);
}

/**
 * Where a submission's new case opens: in the data room its files arrived in (`roomId`), or in the
 * owner's files (null). Null as a whole when the room is one the owner no longer manages: no case
 * opens (what was sent stays where it arrived).
 */
async function intakeRoom(ctx: ServiceContext, ownerId: string, type: CaseTypeRow, filesSpaceId: string | null): Promise<{ roomId: string | null } | null> {
  if (!filesSpaceId || filesSpaceId === type.spaceId || !(await findIsDataroomSpace(ctx.db, filesSpaceId))) return { roomId: null };
  try {
    await requireCaseRoom(ctx, ownerId, filesSpaceId);
    return { roomId: filesSpaceId };
  } catch (error) {
    if (error instanceof AppError && (error.status === 403 || error.status === 404)) return null;
    throw error;
  }
}

/** A new entry of a submission's case, in its timeline, and in its room's audit log when it lives in one (once, however often the job runs). */
async function recordIntake(ctx: ServiceContext, opened: Pick<CaseRow, "id" | "roomId" | "reference" | "title">, event: { id: string; kind: "case.received" | "case.answered"; detail: string }): Promise<void> {
  const isNew = await insertCaseEventOnce(ctx.db, { ...event, caseId: opened.id, at: ctx.now(), actorId: null, fileId: null });
  if (isNew) await roomLog(ctx, opened, null, "case.change", event.detail);
}

/**
 * A receive page submission opens a case (the page's case type): titled by the sender and the
 * page, its files move into the case file, the sender takes part (by e-mail, without an account).
 * Once per submission: run again, it finds the case and only makes sure the files are there.
 * Acts as the page's owner; a page or type gone, or the plan lost, opens nothing (logged).
 */
export async function openCaseFromReceive(ctx: ServiceContext, submissionId: string): Promise<string | null> {
  const [request, found] = await Promise.all([findCaseRequestBySubmission(ctx.db, submissionId), findReceiveSubmissionForCase(ctx.db, submissionId)]);
  if (!found) return null;
  // Sent for an open case (its link's ticket): the files are filed into that case, not a new one.
  if (request) return fileAnswerIntoCase(ctx, request, submissionId, { title: found.pageTitle, files: found.delivered, isTest: false, kind: "receive" });
  if (!found.caseTypeId || !found.ownerId) return null;
  const type = await findCaseType(ctx.db, found.caseTypeId);
  if (!type || type.createdBy !== found.ownerId || !hasFeature(await loadMemberAccess(ctx, found.ownerId), "workflows")) {
    ctx.logger.info("cases.receive_skipped", { submissionId });
    return null;
  }
  const who = found.uploaderName ?? found.uploaderEmail ?? "Someone";
  const opened = await findOrOpenIntakeCase(ctx, found.ownerId, type, found.filesSpaceId, "receive", submissionId, () => ({ title: `${who}: ${found.pageTitle}`, values: {}, source: { kind: "receive", submissionId, page: found.pageTitle } }));
  if (!opened) return null;
  const live = await moveIntoCaseFile(ctx, found.ownerId, found.delivered.map((file) => file.fileId), opened.roomId ?? type.spaceId, opened.folderId);
  if (found.uploaderEmail) {
    const now = ctx.now();
    await insertParticipant(ctx.db, { caseId: opened.id, email: found.uploaderEmail.toLowerCase(), name: found.uploaderName ?? found.uploaderEmail, userId: null, addedAt: now }, { id: `${submissionId}:participant`, caseId: opened.id, at: now, kind: "case.participant", actorId: null, fileId: null, detail: `${who} <${found.uploaderEmail}> (sent the files)` });
  }
  await recordIntake(ctx, opened, { id: `${submissionId}:received`, kind: "case.received", detail: `${live.length} file${live.length === 1 ? "" : "s"} from ${who} through “${found.pageTitle}”: ${live.map((file) => file.name).join(", ")}` });
  return opened.id;
}

/**
 * A form submission opens a case (the form's case type): titled by the respondent and the form,
 * the case's fields take the answers to the questions of the same label (or id), the answers'
 * files move into the case file, the respondent takes part by their e-mail address. Once per
 * submission; test submissions open nothing.
 */
export async function openCaseFromForm(ctx: ServiceContext, submissionId: string): Promise<string | null> {
  // Sent for an open case (its link's ticket): the answer is filed into that case, not a new one.
  const [request, found] = await Promise.all([findCaseRequestBySubmission(ctx.db, submissionId), findFormSubmissionForCase(ctx.db, submissionId)]);
  if (!found) return null;
  if (request) return fileAnswerIntoCase(ctx, request, submissionId, { title: found.formTitle, files: found.files, isTest: found.isTest, kind: "form" });
  if (!found.caseTypeId || found.isTest) return null;
  const type = await findCaseType(ctx.db, found.caseTypeId);
  if (!type || type.createdBy !== found.ownerId || !hasFeature(await loadMemberAccess(ctx, found.ownerId), "workflows")) {
    ctx.logger.info("cases.form_skipped", { submissionId });
    return null;
  }
  const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
  const email = found.verifiedEmail ?? text(found.answers.email);
  const name = text(found.answers.name) ?? email ?? "Someone";
  const values = valuesFromAnswers(type, found);
  const opened = await findOrOpenIntakeCase(ctx, found.ownerId, type, found.filesSpaceId, "form", submissionId, () => ({ title: `${name}: ${found.formTitle}`, values, source: { kind: "form", submissionId, form: found.formTitle } }));
  if (!opened) return null;
  const live = await moveIntoCaseFile(ctx, found.ownerId, deliveredIds(found.files), opened.roomId ?? type.spaceId, opened.folderId);
  const now = ctx.now();
  if (email) {
    await insertParticipant(ctx.db, { caseId: opened.id, email: email.toLowerCase(), name, userId: null, addedAt: now }, { id: `${submissionId}:participant`, caseId: opened.id, at: now, kind: "case.participant", actorId: null, fileId: null, detail: `${name} <${email}> (answered the form)` });
  }
  await recordIntake(ctx, opened, { id: `${submissionId}:answered`, kind: "case.answered", detail: `${name} answered “${found.formTitle}”${live.length ? ` with ${filesNamed(live)}` : ""}` });
  return opened.id;
}

/**
 * A case's fields from a form submission's answers: each takes the answer to the question of the
 * same label (or id). Values that do not fit the type's fields are left out rather than losing the case.
 */
/**
 * The case a submission opened (run again, it is found), or a new one where its files arrived: in
 * the owner's files or in the data room they manage. Null: the room is no longer theirs to manage,
 * so nothing opens (logged).
 */
async function findOrOpenIntakeCase(
  ctx: ServiceContext,
  ownerId: string,
  type: CaseTypeRow,
  filesSpaceId: string | null,
  kind: "form" | "receive",
  submissionId: string,
  fill: () => { title: string; values: CaseValues; source: CaseSource },
): Promise<(OpenedCase & { roomId: string | null }) | null> {
  const existing = await findCaseBySource(ctx.db, kind, submissionId);
  if (existing) return { id: existing.id, reference: existing.reference, title: existing.title, folderId: existing.folderId, roomId: existing.roomId };
  const where = await intakeRoom(ctx, ownerId, type, filesSpaceId);
  if (!where) {
    ctx.logger.info(`cases.${kind}_skipped`, { submissionId, reason: "room_not_managed" });
    return null;
  }
  const { title, values, source } = fill();
  return { ...(await openCaseFilled(ctx, ownerId, type, title.slice(0, 200), values, source, where.roomId)), roomId: where.roomId };
}

const deliveredIds = (files: readonly { fileId: string | null }[]) => files.flatMap((file) => (file.fileId ? [file.fileId] : []));
/** "2 files: a.pdf, b.pdf" */
const filesNamed = (files: readonly { name: string }[]) => `${files.length} file${files.length === 1 ? "" : "s"}: ${files.map((file) => file.name).join(", ")}`;

/** The delivered files still live in the space, moved into the case file when there is one; the ones found. */
async function moveIntoCaseFile(ctx: ServiceContext, ownerId: string, fileIds: readonly string[], spaceId: string, folderId: string | null) {
  const live = (await Promise.all(fileIds.map((fileId) => findLiveFileIn(ctx.db, fileId, spaceId)))).filter((file) => file !== undefined);
  if (folderId && live.length > 0) await moveItemRefs(ctx, ownerId, { items: live.map((file) => ({ type: "file" as const, id: file.id })), targetFolderId: folderId });
  return live;
}

/**
 * A form or receive page sent for a case was answered: the answer joins the case's timeline ("…
 * answered …" or "… sent …", with its files by name) and its files that arrived in the case's space
 * move into the case file. Once per submission (the entry's id is the submission's); run again, it
 * only makes sure the files are there.
 */
async function fileAnswerIntoCase(
  ctx: ServiceContext,
  request: CaseRequestRow,
  submissionId: string,
  answer: { title: string; files: readonly { fileId: string | null; name: string }[]; isTest: boolean; kind: "form" | "receive" },
): Promise<string | null> {
  const row = await findCase(ctx.db, request.caseId);
  if (!row || answer.isTest) return null;
  // The case file is in the case's room, or in its owner's files (the case's own space).
  const live = row.folderId ? await moveIntoCaseFile(ctx, row.ownerId, deliveredIds(answer.files), row.roomId ?? row.spaceId, row.folderId) : [];
  // Files delivered elsewhere (a form or page filing into a data room, for a case in one's own files) stay there, named.
  const movedIds = new Set(live.map((file) => file.id));
  const stayed = answer.files.filter((file) => file.fileId !== null && !movedIds.has(file.fileId));
  const what = answer.kind === "form" ? `answered “${answer.title}”${live.length ? ` with ${filesNamed(live)}` : ""}` : `sent ${live.length ? filesNamed(live) : "files"} through “${answer.title}”`;
  const detail = `${request.name} <${request.email}> ${what}${stayed.length ? `; ${filesNamed(stayed)} stayed where the ${answer.kind === "form" ? "form files them" : "page delivers them"}` : ""}`;
  const now = ctx.now();
  const isNew = await insertCaseEventOnce(ctx.db, { id: `${submissionId}:answered`, caseId: row.id, at: now, kind: answer.kind === "form" ? "case.answered" : "case.received", actorId: null, fileId: null, detail });
  if (isNew) await roomLog(ctx, row, null, "case.change", detail);
  return row.id;
}

function valuesFromAnswers(type: CaseTypeRow, found: { definition: unknown; answers: Record<string, unknown> }): CaseValues {
  const questions = ((found.definition as { fields?: unknown } | null)?.fields ?? []) as { id: string; label?: string }[];
  const answerOf = (key: string, label: string) => {
    const question = questions.find((field) => field.id === key || (field.label !== undefined && fieldKey(field.label) === fieldKey(label)));
    const value = question ? found.answers[question.id] : undefined;
    return typeof value === "string" || typeof value === "number" ? value : null;
  };
  const values: Record<string, string | number | null> = {};
  for (const field of type.fields) {
    const value = answerOf(field.key, field.label);
    try {
      if (value !== null) values[field.key] = checkValues([{ ...field, required: false }], { [field.key]: value })[field.key] ?? null;
    } catch {
      values[field.key] = null;
    }
  }
  return values;
}

/** A case opened with values already checked (a submission's answers: what does not fit was left out). */
async function openCaseFilled(ctx: ServiceContext, ownerId: string, type: CaseTypeRow, title: string, values: CaseValues, source: CaseSource, roomId: string | null = null): Promise<OpenedCase> {
  // Required fields the answers did not fill stay empty: the case still opens, and says so in its details.
  const lenient = { ...type, fields: type.fields.map((field) => ({ ...field, required: false })) };
  return openCaseOfType(ctx, ownerId, lenient, { title, values, roomId }, source);
}
