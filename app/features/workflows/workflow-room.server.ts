import { effectivePermissions } from "~/features/datarooms/datarooms.permissions";
import { auditRoom, type AuditEvent } from "~/features/datarooms/audit-record.server";
import { decideInRoom } from "~/features/datarooms/room-authority.server";
import { ensurePersonalSpace, requireFolderAccess } from "~/features/files/spaces.server";
import { findIsDataroomSpace, findSpaceKind, listOwnedTeamDrives } from "~/features/files/space-role.queries.server";
import { findSpaceRole } from "~/features/files/folders.queries.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { listLiveRoomStandings, listTemplatesFor, type WorkflowTemplateRow } from "./workflows.queries.server";

/**
 * Workflows of a data room (issue 41): a workflow whose trigger folder is in a room works in that
 * room. Only those who may manage the room (its owner, admins, or a member given
 * `manage_settings`) build one; its moves and copies stay inside the room; its approval steps may
 * name room roles; what its runs do is written to the room's hash-chained audit log. The room's
 * other managers share it: they see it and its runs, start it by hand and cancel its runs (it still
 * acts with its builder's rights, and stops when the builder no longer manages the room).
 */

/** Where a workflow works: the builder's own files, a data room, or a team's drive (`isTeamDrive`). */
export type WorkflowSpace = { id: string; isRoom: boolean; isTeamDrive?: boolean };

export const TEAM_WORKFLOW_REFUSED = "Only the team's owner and admins build workflows on the team's files. Ask one of them, or choose a folder of your own files.";

export const ROOM_WORKFLOW_REFUSED = "Only the room's owner and admins build workflows on its folders. Ask one of them, or choose a folder of your own files.";

export const ROOM_SOURCE_REFUSED = "trigger: This form or page files into a data room you do not manage; only the room's owner and admins build workflows on what arrives there. Choose another, or ask one of them.";

/**
 * Where a new workflow works: the data room of its trigger folder, or of the folder its form or
 * receive page files into (`deliversInto`, that source's space), when the builder manages it;
 * otherwise the builder's own files.
 */
export async function workflowSpace(ctx: ServiceContext, userId: string, trigger: { folderId?: string; deliversInto?: string | null }): Promise<WorkflowSpace> {
  const personal = await ensurePersonalSpace(ctx, userId);
  const into = trigger.deliversInto;
  if (into && into !== personal.id && (await findIsDataroomSpace(ctx.db, into))) {
    if (!(await managesRoomNow(ctx, into, userId))) throw new AppError("FORBIDDEN", ROOM_SOURCE_REFUSED);
    return { id: into, isRoom: true };
  }
  if (!trigger.folderId) return { id: personal.id, isRoom: false };
  const folder = await requireFolderAccess(ctx, userId, trigger.folderId, "files.edit");
  if (folder.spaceId === personal.id) return { id: personal.id, isRoom: false };
  if (!folder.roomPermissions) {
    // A team's drive (issue 42): its owners (the team's owner and admins) build the team's workflows there.
    if ((await findSpaceKind(ctx.db, folder.spaceId)) !== "team") throw new AppError("VALIDATION_ERROR", "trigger: The folder is outside your own files and your data rooms. Choose one of your folders.");
    if (folder.role !== "owner") throw new AppError("FORBIDDEN", TEAM_WORKFLOW_REFUSED);
    return { id: folder.spaceId, isRoom: false, isTeamDrive: true };
  }
  if (!folder.roomPermissions.manage_settings) throw new AppError("FORBIDDEN", ROOM_WORKFLOW_REFUSED);
  return { id: folder.spaceId, isRoom: true };
}

/** The live rooms the member manages (their role, with their overrides, includes managing the room), by name: where they may build workflows and open cases. */
export async function managedRooms(ctx: ServiceContext, userId: string): Promise<{ id: string; name: string }[]> {
  const standings = await listLiveRoomStandings(ctx.db, userId);
  return standings.filter((standing) => effectivePermissions(standing.role, standing.overrides).manage_settings).map((standing) => ({ id: standing.roomId, name: standing.name }));
}

/** The workflows a member sees and runs: those they built, and those of the rooms they manage and of the team drives they own. */
export async function workflowsFor(ctx: ServiceContext, userId: string): Promise<WorkflowTemplateRow[]> {
  const [rooms, drives] = await Promise.all([managedRooms(ctx, userId), listOwnedTeamDrives(ctx.db, userId)]);
  return listTemplatesFor(ctx.db, userId, [...rooms, ...drives].map((space) => space.id));
}

/** Whether the member manages a space's workflows now (its kind read already): a room they manage, or a team's drive they own (the team's owner or an admin). */
async function managesSpaceNow(ctx: ServiceContext, kind: string | undefined, spaceId: string, userId: string): Promise<boolean> {
  if (kind === "dataroom") return managesRoomNow(ctx, spaceId, userId);
  if (kind === "team") return (await findSpaceRole(ctx.db, spaceId, userId))?.role === "owner";
  return false;
}

/** Whether the member manages the room now, as the room authority decides (their role with overrides, their access not ended). */
async function managesRoomNow(ctx: ServiceContext, roomId: string, userId: string): Promise<boolean> {
  const decision = await decideInRoom(ctx, roomId, userId);
  return decision !== null && decision.permissions.manage_settings && (decision.accessEndsAt === null || decision.accessEndsAt > ctx.now().getTime());
}

/** Whether the member may see and run a workflow: they built it, or it works in a data room they manage or a team drive they own now. */
export async function mayRunWorkflow(ctx: ServiceContext, userId: string, template: WorkflowTemplateRow): Promise<boolean> {
  if (template.createdBy === userId) return true;
  return managesSpaceNow(ctx, await findSpaceKind(ctx.db, template.spaceId), template.spaceId, userId);
}

/**
 * A room's or a team drive's workflow starts runs only while its builder still manages the room or
 * owns the drive (a workflow acts with its builder's rights); one in the builder's own files always.
 */
export async function builderStillManages(ctx: ServiceContext, template: WorkflowTemplateRow): Promise<boolean> {
  if (!template.createdBy) return true;
  const kind = await findSpaceKind(ctx.db, template.spaceId);
  if (kind !== "dataroom" && kind !== "team") return true;
  return managesSpaceNow(ctx, kind, template.spaceId, template.createdBy);
}

/**
 * What a run of a room's workflow did, in the room's audit log (nothing for a workflow in someone's
 * own files). The entry is made only for a room: what it needs to read to say it is read then.
 */
export async function auditRun(ctx: ServiceContext, spaceId: string, actorId: string | null, event: AuditEvent | (() => Promise<AuditEvent>)): Promise<void> {
  if (!(await findIsDataroomSpace(ctx.db, spaceId))) return;
  await auditRoom(ctx, spaceId, actorId, typeof event === "function" ? await event() : event);
}
