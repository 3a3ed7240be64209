import { ensurePersonalSpace } from "~/features/files/spaces.server";
import { findIsDataroomSpace, listOwnedTeamDrives, listSpaceTeams } from "~/features/files/space-role.queries.server";
import { workspaceFilter } from "~/features/teams/workspace.server";
import { requireDataroom } from "~/features/datarooms/datarooms.server";
import { getAllFolders, type FolderTreeNode } from "~/features/files/folders.server";
import type { WorkflowEscalation, WorkflowStepDefinition } from "~/db/schema";
import { decryptSecret } from "~/features/auth/secrets.server";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { listCaseTypesBy } from "~/features/cases/cases.queries.server";
import { liveDocumentsIn, requireWorkflows } from "./workflows.server";
import { durationText, stepIndexOfSlot, WORKFLOW_ROOM_ROLE_LABELS } from "./workflows.schema";
import { managedRooms, mayRunWorkflow, workflowsFor } from "./workflow-room.server";
import { countRunsByTemplate, findPeople, listTriggerSources, findTemplate, listRecentFilesIn, listRunsOf, type WorkflowTemplateRow } from "./workflows.queries.server";

/**
 * What the builder's pages read (issue 41): /workflows (the member's workflows with their runs),
 * /workflows/create (the folders a step or a trigger may name), /workflows/{id} (its steps with
 * people and folders by name, its latest runs). Business only (`workflows`), like every entry point.
 */

export type FolderOption = { id: string; path: string; spaceId: string; isRoom: boolean; isTeam: boolean };
const RECENT_RUNS = 50;
const DOCUMENT_CHOICES = 200;

/**
 * The folders a workflow may name, each with its path ("My files / Contracts / Signed", "Falcon
 * diligence / Contracts"), in tree order: the member's own files first, then the data rooms they
 * manage and the team drives they own (`rooms: "managed"`, what the builder offers) or every room
 * and team drive they are in (`"all"`, to name folders on the workflow's pages).
 */
export async function folderOptions(ctx: ServiceContext, userId: string, rooms: "managed" | "all" = "managed"): Promise<FolderOption[]> {
  const [space, trees, managed] = await Promise.all([
    ensurePersonalSpace(ctx, userId),
    getAllFolders(ctx, userId),
    rooms === "managed" ? Promise.all([managedRooms(ctx, userId), listOwnedTeamDrives(ctx.db, userId)]).then((lists) => lists.flat()) : null,
  ]);
  const shared = (tree: (typeof trees)[number]) => (tree.spaceKind === "dataroom" || tree.spaceKind === "team") && (managed === null || managed.some((place) => place.id === tree.spaceId));
  const chosen = [...trees.filter((tree) => tree.spaceId === space.id), ...trees.filter(shared)];
  const options: FolderOption[] = [];
  for (const tree of chosen) {
    const isRoom = tree.spaceKind === "dataroom";
    const isTeam = tree.spaceKind === "team";
    options.push({ id: tree.rootUid, path: tree.spaceName, spaceId: tree.spaceId, isRoom, isTeam });
    const walk = (nodes: FolderTreeNode[], prefix: string) => {
      for (const node of [...nodes].sort((a, b) => a.label.localeCompare(b.label))) {
        const path = `${prefix} / ${node.label}`;
        options.push({ id: node.uid, path, spaceId: tree.spaceId, isRoom, isTeam });
        walk(node.children, path);
      }
    };
    walk(tree.children, tree.spaceName);
  }
  return options;
}

/** /workflows/create: where steps may move documents, which folder, form or receive page may start a run, which case types a step may file into. */
export async function builderOptions(ctx: ServiceContext, userId: string) {
  await requireWorkflows(ctx, userId);
  const [folders, caseTypes, sources] = await Promise.all([folderOptions(ctx, userId), listCaseTypesBy(ctx.db, userId), listTriggerSources(ctx.db, userId)]);
  return { folders, caseTypes: caseTypes.map((type) => ({ id: type.id, name: type.name })), forms: sources.forms, receivePages: sources.pages };
}

function triggerLabel(row: WorkflowTemplateRow, folders: Map<string, string>, sources: { forms: { id: string; title: string }[]; pages: { id: string; title: string }[] }): string {
  const titleIn = (list: { id: string; title: string }[]) => list.find((entry) => entry.id === row.triggerSourceId)?.title;
  if (row.triggerKind === "upload") return `A file uploaded into ${row.triggerFolderId ? (folders.get(row.triggerFolderId) ?? "a folder that is gone") : "a folder"}`;
  if (row.triggerKind === "schedule") {
    const every = row.definition.schedule?.everyDays ?? 1;
    return `${every === 1 ? "Every day" : `Every ${every} days`} (07:00 UTC), on each document in ${row.triggerFolderId ? (folders.get(row.triggerFolderId) ?? "a folder that is gone") : "a folder"}`;
  }
  if (row.triggerKind === "envelope") return "A document you sent for signature, once everyone signed (on the signed copy)";
  if (row.triggerKind === "form") return `A submission to the form “${titleIn(sources.forms) ?? "a form that is gone"}”`;
  if (row.triggerKind === "receive") return `Files sent through the receive page “${titleIn(sources.pages) ?? "a page that is gone"}”`;
  return "By hand, on a document";
}

/**
 * /workflows: the member's workflows and those of the data rooms they manage and team drives they
 * own (with `workspace`, one workspace's: ADR 040), newest change first,
 * with how each starts and its runs; one built by someone else says by whom. A room's Workflows
 * page (`roomId`): that room's only, for those who manage it (the room's own refusals otherwise).
 */
export async function listWorkflowSummaries(ctx: ServiceContext, userId: string, roomId: string | null = null, workspace?: string | null) {
  await requireWorkflows(ctx, userId);
  if (roomId !== null) await requireDataroom(ctx, userId, roomId, "manage_settings");
  let templates = (await workflowsFor(ctx, userId)).filter((row) => roomId === null || row.spaceId === roomId);
  if (workspace !== undefined) {
    // One workspace's (issue 42): those working in the team's drive or rooms, or the member's own.
    const [teams, inWorkspace] = await Promise.all([listSpaceTeams(ctx.db, templates.map((row) => row.spaceId)), workspaceFilter(ctx, userId, workspace)]);
    templates = templates.filter((row) => inWorkspace(teams.get(row.spaceId)?.teamId ?? null));
  }
  const builderIds = [...new Set(templates.flatMap((row) => (row.createdBy && row.createdBy !== userId ? [row.createdBy] : [])))];
  const [counts, folders, sources, builders] = await Promise.all([
    countRunsByTemplate(ctx.db, templates.map((row) => row.id)),
    templates.some((row) => row.triggerKind === "upload" || row.triggerKind === "schedule") ? folderOptions(ctx, userId, "all") : [],
    listTriggerSources(ctx.db, userId),
    findPeople(ctx.db, builderIds),
  ]);
  const byTemplate = new Map(counts.map((row) => [row.templateId, row]));
  const folderPaths = new Map(folders.map((folder) => [folder.id, folder.path]));
  const builderOf = new Map(builders.map((person) => [person.id, person.name]));
  return templates.map((row) => ({
    id: row.id,
    name: row.name,
    builtBy: row.createdBy === userId ? null : (builderOf.get(row.createdBy ?? "") ?? "a former member"),
    steps: row.definition.steps.length,
    trigger: triggerLabel(row, folderPaths, sources),
    runs: byTemplate.get(row.id)?.total ?? 0,
    running: byTemplate.get(row.id)?.running ?? 0,
    updatedAt: row.updatedAt.toISOString(),
  }));
}

/** "; due in 2 days, then it goes to …" (an approval's reassignment names a member; a form's, an address; a signature is voided when rejected). */
function dueText(step: { type: "approve" | "form" | "sign"; dueInHours?: number | null; escalation?: WorkflowEscalation | null }, personOf: Map<string, string>): string {
  if (!step.dueInHours) return "";
  const escalation = step.escalation;
  const then =
    !escalation || escalation.action === "remind"
      ? "they are reminded"
      : escalation.action === "reassign"
        ? `it goes to ${step.type === "form" ? escalation.to : (personOf.get(escalation.to) ?? "a former member")}`
        : escalation.action === "reject"
          ? step.type === "sign"
            ? "it is voided and rejected"
            : "it is rejected"
          : step.type === "form"
            ? "the workflow goes on without it"
            : "it is approved";
  return `; due in ${durationText(step.dueInHours)}, then ${then}`;
}

const gone = (what: string) => `a ${what} that is gone`;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** A step in words, as its builder reads it on the workflow's page. */
function stepSummary(step: WorkflowStepDefinition, names: { personOf: Map<string, string>; caseTypeNames: Map<string, string>; folderPaths: Map<string, string>; formTitles: Map<string, string> }): string {
  switch (step.type) {
    case "approve": {
      const who = step.mode === "one" ? "Any one of" : step.mode === "all" ? "All of" : `${step.quorumPercent} % of`;
      const due = dueText(step, names.personOf);
      const people = [...step.assignees.map((id) => names.personOf.get(id) ?? "a former member"), ...(step.roles ?? []).map((role) => WORKFLOW_ROOM_ROLE_LABELS[role])];
      return `${who} ${people.join(", ")} approve${due}`;
    }
    case "sign":
      return `Send for signature to ${step.signers.map((signer) => `${signer.name} (${signer.email})`).join(", ")}; the signed copy goes on${dueText(step, names.personOf)}`;
    case "case":
      return `File the document into a new case: ${names.caseTypeNames.get(step.caseTypeId) ?? gone("case type")}`;
    case "move":
      return `Move the document into ${names.folderPaths.get(step.folderId) ?? gone("folder")}`;
    case "copy":
      return `Copy the document into ${names.folderPaths.get(step.folderId) ?? gone("folder")}`;
    case "tag":
      return `Tag the document: ${step.tags.join(", ")}`;
    case "metadata":
      return `Set on the document: ${step.entries.map((entry) => `${entry.key} = ${entry.value}`).join(", ")}`;
    case "email":
      return `E-mail “${step.subject}” to ${step.to.join(", ")}`;
    case "share":
      return `Share the document with ${step.to.join(", ")} (a link only they can open${step.expiresInDays ? `, for ${plural(step.expiresInDays, "day")}` : ""}${step.allowDownload ? ", with downloads" : ", view only"})`;
    case "webhook":
      return `Call ${step.url} (signed)`;
    case "back":
      return `Send it back to step ${step.to}, at most ${plural(step.times, "time")}; then the run goes on`;
    case "form":
      return `${step.to} fills in the form “${names.formTitles.get(step.formId) ?? "a form that is gone"}”${dueText(step, names.personOf)}`;
  }
}

/**
 * /workflows/{id}: a workflow the member built, or one of a data room they manage (404 for anyone
 * else's): its steps in words (the forms and case types it names are its builder's), its latest
 * runs. A webhook's signing secret is shown to its builder only.
 */
export async function getWorkflow(ctx: ServiceContext, userId: string, templateId: unknown) {
  await requireWorkflows(ctx, userId);
  const row = typeof templateId === "string" && templateId.length <= 64 ? await findTemplate(ctx.db, templateId) : undefined;
  if (!row || !(await mayRunWorkflow(ctx, userId, row))) throw new AppError("NOT_FOUND", "This workflow does not exist or you don't have access to it.");
  const isBuilder = row.createdBy === userId;
  const builder = row.createdBy ?? "";
  const peopleIds = [...new Set([...(isBuilder || !row.createdBy ? [] : [row.createdBy]), ...row.definition.steps.flatMap((step) => (step.type === "approve" ? [...step.assignees, ...(step.escalation?.action === "reassign" ? [step.escalation.to] : [])] : []))])];
  const [people, folders, runs, documents, sources, caseTypes, inRoom] = await Promise.all([
    findPeople(ctx.db, peopleIds),
    folderOptions(ctx, userId, "all"),
    listRunsOf(ctx.db, row.id, RECENT_RUNS),
    listRecentFilesIn(ctx.db, row.spaceId, DOCUMENT_CHOICES),
    listTriggerSources(ctx.db, builder),
    listCaseTypesBy(ctx.db, builder),
    findIsDataroomSpace(ctx.db, row.spaceId),
  ]);
  const personOf = new Map(people.map((person) => [person.id, `${person.name} (${person.email})`]));
  const caseTypeNames = new Map(caseTypes.map((type) => [type.id, type.name]));
  const folderPaths = new Map(folders.map((folder) => [folder.id, folder.path]));
  const names = { personOf, caseTypeNames, folderPaths, formTitles: new Map(sources.forms.map((form) => [form.id, form.title])) };
  return {
    workflow: { id: row.id, name: row.name, trigger: triggerLabel(row, folderPaths, sources), createdAt: row.createdAt.toISOString(), inRoom, builtBy: isBuilder ? null : (people.find((person) => person.id === builder)?.name ?? "a former member") },
    steps: await Promise.all(
      row.definition.steps.map(async (step) => ({
        type: step.type,
        name: step.name,
        summary: `${step.when === "approved" ? "If approved: " : step.when === "rejected" ? "If rejected: " : ""}${stepSummary(step, names)}`,
        /** A webhook step's signing secret, for its builder to check signatures with. */
        secret: step.type === "webhook" && isBuilder ? new TextDecoder().decode((await decryptSecret(readConfig(ctx.env).SESSION_SECRET, step.secretSealed, "workflow-webhook")) ?? new Uint8Array()) : null,
      })),
    ),
    /** What a run by hand may start on: the newest documents of the workflow's space. */
    documents,
    runs: runs.map((run) => ({ id: run.id, status: run.status, step: row.definition.steps[stepIndexOfSlot(run.stepIndex)]?.name ?? null, document: run.fileName, startedAt: run.startedAt.toISOString(), endedAt: run.endedAt?.toISOString() ?? null, byUpload: run.triggerKind === "upload" })),
  };
}

/** The chosen documents of the member's own files, by id (others, and anything not theirs, left out). */
export async function documentsByIds(ctx: ServiceContext, userId: string, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
  await requireWorkflows(ctx, userId);
  const space = await ensurePersonalSpace(ctx, userId);
  return (await liveDocumentsIn(ctx, space.id, ids.filter((id) => id.length <= 64))).map((file) => ({ id: file.id, name: file.name }));
}
