import { Hono } from "hono";
import { createDataroom, getDataroom, listDatarooms, recordRoomVisit, restoreDataroom, setArchived, setDefaultRole, trashDataroom, updateDataroom } from "~/features/datarooms/datarooms.server";
import { publicOrigin } from "~/features/auth/auth-context.server";
import { invitePeople, resendInvitation, revokeInvitation } from "~/features/datarooms/invitations.server";
import { applyRoleTemplate, getPermissionMatrix, grantPermission, revokePermission, setPermission } from "~/features/datarooms/permissions.server";
import { changeMemberRole, leaveDataroom, listRoomPeople, listRoomSessions, removeMember, setMemberAccessEnd, transferOwnership } from "~/features/datarooms/members.server";
import { exportRoomAnalyticsCsv, getRoomAnalytics } from "~/features/datarooms/analytics.server";
import { getRoomThreads } from "~/features/datarooms/comments.server";
import { listRoomShareLinks } from "~/features/sharing/sharing.server";
import { getRoomCollaboration } from "~/features/datarooms/collaboration.server";
import { getRoomNotifications, markMyRoomNotifications, setMyNotificationMode, setRoomNotificationDefault } from "~/features/datarooms/room-notifications.server";
import { getRoomDuplicates, getRoomMetadataIndex, getRoomRecentUploads, getRoomTagIndex } from "~/features/datarooms/room-files.server";
import { getRoomSecurity, setRoomIpRanges, setRoomProtection, setRoomTwoFactorRequirement } from "~/features/datarooms/security.server";
import { exportRoomAuditCsv, listRoomAudit, verifyRoomAudit } from "~/features/datarooms/audit.server";
import { LOGO_MAX_BYTES, readDataroomLogo, removeDataroomLogo, setDataroomLogo } from "~/features/datarooms/logo.server";
import { loadMemberAccess, requireFeature } from "~/features/access/access.server";
import { moveRoomIntoTeam } from "~/features/teams/team-rooms.server";
import { workspaceQuery } from "~/features/teams/workspace.server";
import { AppError } from "~/lib/errors";
import type { AppEnv } from "../types";
import { apiServiceContext, csvHeaders, noStore, readJsonBody, requireApiActor } from "./require-actor";


/**
 * /api/datarooms (spec §7): the member's rooms (mine and shared with me; ?q, ?filter, ?sort, ?dir,
 * ?workspace), moving one into a team,
 * creating one, and one room's profile, archive state and trash, people, permissions, invitations
 * and audit log. Outsiders get 404 for every room.
 */
export const dataroomsApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    // ?workspace=personal (rooms of no team) or a team's id narrows the list to one workspace (issue 42).
    const { workspace, ...query } = c.req.query();
    return c.json(await listDatarooms(apiServiceContext(c), actor.userId, query, workspaceQuery(workspace)), 200);
  })
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await createDataroom(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  })
  .get("/:id", async (c) => {
    const actor = requireApiActor(c);
    const ctx = apiServiceContext(c);
    const opened = await getDataroom(ctx, actor.userId, c.req.param("id"));
    await recordRoomVisit(ctx, actor.userId, opened);
    return c.json({ dataroom: opened.dataroom, rootFolderId: opened.rootFolderId }, 200);
  })
  .patch("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await updateDataroom(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .put("/:id/settings", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await setDefaultRole(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .post("/:id/team", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await moveRoomIntoTeam(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  .post("/:id/archive", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await setArchived(apiServiceContext(c), actor.userId, c.req.param("id"), true) }, 200);
  })
  .post("/:id/unarchive", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await setArchived(apiServiceContext(c), actor.userId, c.req.param("id"), false) }, 200);
  })
  // To the trash (the owner; restorable for 30 days), and back.
  .delete("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await trashDataroom(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .post("/:id/restore", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await restoreDataroom(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  // The room's logo: its bytes for everyone in the room; set (raw image body) and removed with manage_settings.
  .get("/:id/logo", async (c) => {
    const actor = requireApiActor(c);
    return readDataroomLogo(apiServiceContext(c), actor.userId, c.req.param("id"));
  })
  .put("/:id/logo", async (c) => {
    const actor = requireApiActor(c);
    const length = Number(c.req.header("content-length") ?? "0");
    if (length > LOGO_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "The logo is too large: use an image of at most 512 KB.");
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    return c.json({ dataroom: await setDataroomLogo(apiServiceContext(c), actor.userId, c.req.param("id"), bytes) }, 200);
  })
  .delete("/:id/logo", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await removeDataroomLogo(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  // Per-person permissions (spec §7 "Dataroom permissions"): the room's authority applies them.
  .get("/:id/permissions", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getPermissionMatrix(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .post("/:id/permissions", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await grantPermission(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  .put("/:id/permissions/:userId", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await setPermission(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("userId"), await readJsonBody(c)), 200);
  })
  // A custom role of one of the caller's teams used as a template for one person (issue 42).
  .put("/:id/permissions/:userId/template", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await applyRoleTemplate(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("userId"), await readJsonBody(c)), 200);
  })
  .delete("/:id/permissions", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await revokePermission(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  // People (issue 19): the users overview, roles, removal, leaving, ownership, invitations.
  .get("/:id/members", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await listRoomPeople(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .patch("/:id/members/:userId", async (c) => {
    const actor = requireApiActor(c);
    const members = await changeMemberRole(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("userId"), await readJsonBody(c));
    return c.json({ members }, 200);
  })
  .put("/:id/members/:userId/access", async (c) => {
    const actor = requireApiActor(c);
    const members = await setMemberAccessEnd(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("userId"), await readJsonBody(c));
    return c.json({ members }, 200);
  })
  .delete("/:id/members/:userId", async (c) => {
    const actor = requireApiActor(c);
    await removeMember(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("userId"));
    return c.json({ success: true }, 200);
  })
  .post("/:id/leave", async (c) => {
    const actor = requireApiActor(c);
    await leaveDataroom(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.json({ success: true }, 200);
  })
  .post("/:id/transfer", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await transferOwnership(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .post("/:id/invitations", async (c) => {
    const actor = requireApiActor(c);
    const result = await invitePeople(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c), publicOrigin(c.env, c.req.raw));
    return c.json(result, 201);
  })
  .post("/:id/invitations/:invitationId/resend", async (c) => {
    const actor = requireApiActor(c);
    const invitation = await resendInvitation(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("invitationId"), publicOrigin(c.env, c.req.raw));
    return c.json({ invitation }, 200);
  })
  .delete("/:id/invitations/:invitationId", async (c) => {
    const actor = requireApiActor(c);
    await revokeInvitation(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("invitationId"));
    return c.json({ success: true }, 200);
  })
  .get("/:id/recent-uploads", async (c) => {
    const actor = requireApiActor(c);
    const { room, files, nextCursor } = await getRoomRecentUploads(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.query());
    return c.json({ dataroom: { id: room.id, name: room.name }, files, nextCursor }, 200);
  })
  .get("/:id/tags", async (c) => {
    const actor = requireApiActor(c);
    const { room, index } = await getRoomTagIndex(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.query());
    return c.json({ dataroom: { id: room.id, name: room.name }, ...index }, 200);
  })
  .get("/:id/collaboration", async (c) => {
    const actor = requireApiActor(c);
    const { room, ...rest } = await getRoomCollaboration(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.json({ dataroom: { id: room.id, name: room.name }, ...rest }, 200);
  })
  .get("/:id/share-links", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ links: await listRoomShareLinks(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .get("/:id/comments", async (c) => {
    const actor = requireApiActor(c);
    const { room, ...threads } = await getRoomThreads(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.query());
    return c.json({ dataroom: { id: room.id, name: room.name }, ...threads }, 200);
  })
  .get("/:id/notifications", async (c) => {
    const actor = requireApiActor(c);
    const { room, ...page } = await getRoomNotifications(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.query());
    return c.json({ dataroom: { id: room.id, name: room.name }, ...page }, 200);
  })
  .post("/:id/notifications/read", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await markMyRoomNotifications(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  .put("/:id/notifications/preference", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await setMyNotificationMode(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  .put("/:id/settings/notifications", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ mode: await setRoomNotificationDefault(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .get("/:id/metadata", async (c) => {
    const actor = requireApiActor(c);
    const { room, index } = await getRoomMetadataIndex(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.query());
    return c.json({ dataroom: { id: room.id, name: room.name }, ...index }, 200);
  })
  .get("/:id/duplicates", async (c) => {
    const actor = requireApiActor(c);
    const ctx = apiServiceContext(c);
    const { room, page } = await getRoomDuplicates(ctx, actor.userId, c.req.param("id"), c.req.query());
    // The page shows the feature locked; the API refuses with the plan that has it.
    if (!page) requireFeature(await loadMemberAccess(ctx, room.owner.id), "advanced_features");
    return c.json({ dataroom: { id: room.id, name: room.name }, ...page! }, 200);
  })
  .get("/:id/sessions", async (c) => {
    const actor = requireApiActor(c);
    const { dataroom, sessions } = await listRoomSessions(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.json({ dataroom: { id: dataroom.id, name: dataroom.name }, sessions }, 200);
  })
  .get("/:id/security", async (c) => {
    const actor = requireApiActor(c);
    const { room, ...security } = await getRoomSecurity(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.json({ dataroom: { id: room.id, name: room.name }, ...security }, 200);
  })
  .put("/:id/security/ip", async (c) => {
    const actor = requireApiActor(c);
    const { room, ...security } = await setRoomIpRanges(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c));
    return c.json({ dataroom: { id: room.id, name: room.name }, ...security }, 200);
  })
  .put("/:id/security/protection", async (c) => {
    const actor = requireApiActor(c);
    const { room, ...security } = await setRoomProtection(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c));
    return c.json({ dataroom: { id: room.id, name: room.name }, ...security }, 200);
  })
  .put("/:id/security/two-factor", async (c) => {
    const actor = requireApiActor(c);
    const { room, ...security } = await setRoomTwoFactorRequirement(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c));
    return c.json({ dataroom: { id: room.id, name: room.name }, ...security }, 200);
  })
  .get("/:id/analytics", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getRoomAnalytics(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.query()), 200);
  })
  .get("/:id/analytics/export", async (c) => {
    const actor = requireApiActor(c);
    const { filename, csv } = await exportRoomAnalyticsCsv(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.query("kind"));
    return new Response(csv, { status: 200, headers: csvHeaders(filename) });
  })
  .get("/:id/audit", async (c) => {
    const actor = requireApiActor(c);
    const { room, ...page } = await listRoomAudit(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.query());
    return c.json({ dataroom: { id: room.id, name: room.name }, ...page }, 200);
  })
  .post("/:id/audit/verify", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await verifyRoomAudit(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .get("/:id/audit/export", async (c) => {
    const actor = requireApiActor(c);
    const { filename, body } = await exportRoomAuditCsv(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.query());
    return new Response(body, { status: 200, headers: csvHeaders(filename) });
  });
