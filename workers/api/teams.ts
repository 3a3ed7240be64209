import { Hono } from "hono";
import { publicOrigin } from "~/features/auth/auth-context.server";
import { inviteToTeam, resendTeamInvitation, revokeTeamInvitation } from "~/features/teams/team-invitations.server";
import { placeLegalHold, releaseLegalHold, setLogRetention } from "~/features/teams/team-retention.server";
import { createTeamRole, deleteTeamRole, listTeamRoles, updateTeamRole } from "~/features/teams/team-roles.server";
import { createTeamRoom } from "~/features/teams/team-rooms.server";
import { changeTeamRole, createTeam, getTeam, leaveTeam, listMyTeams, removeTeamMember, renameTeam, transferTeamOwnership } from "~/features/teams/teams.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * Teams (issue 42, docs/teams.md): /api/teams (the caller's teams, create one) and one team: its
 * view, name, invitations, members' roles, custom roles, log retention and legal hold, removing, leaving, handing over. Someone not in the
 * team gets 404; a role without the right 403 naming it (teams.permissions.ts).
 */
export const teamsApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ teams: await listMyTeams(apiServiceContext(c), actor.userId) }, 200);
  })
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ team: await createTeam(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  })
  .get("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getTeam(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .patch("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await renameTeam(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  .post("/:id/invitations", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await inviteToTeam(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c), publicOrigin(c.env, c.req.raw)), 201);
  })
  .post("/:id/invitations/:invitationId/resend", async (c) => {
    const actor = requireApiActor(c);
    await resendTeamInvitation(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("invitationId"), publicOrigin(c.env, c.req.raw));
    return c.json({ resent: true }, 200);
  })
  .delete("/:id/invitations/:invitationId", async (c) => {
    const actor = requireApiActor(c);
    await revokeTeamInvitation(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("invitationId"));
    return c.json({ revoked: true }, 200);
  })
  .patch("/:id/members/:userId", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await changeTeamRole(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("userId"), await readJsonBody(c)), 200);
  })
  .delete("/:id/members/:userId", async (c) => {
    const actor = requireApiActor(c);
    await removeTeamMember(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("userId"));
    return c.json({ removed: true }, 200);
  })
  .post("/:id/leave", async (c) => {
    const actor = requireApiActor(c);
    await leaveTeam(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.json({ left: true }, 200);
  })
  .post("/:id/datarooms", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await createTeamRoom(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 201);
  })
  .get("/:id/roles", async (c) => {
    const actor = requireApiActor(c);
    const { roles, groups } = await listTeamRoles(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.json({ roles, groups }, 200);
  })
  .post("/:id/roles", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ role: await createTeamRole(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 201);
  })
  .patch("/:id/roles/:roleId", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ role: await updateTeamRole(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("roleId"), await readJsonBody(c)) }, 200);
  })
  .delete("/:id/roles/:roleId", async (c) => {
    const actor = requireApiActor(c);
    await deleteTeamRole(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("roleId"));
    return c.json({ deleted: true }, 200);
  })
  .put("/:id/retention", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await setLogRetention(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  .post("/:id/legal-hold", async (c) => {
    const actor = requireApiActor(c);
    await placeLegalHold(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c));
    return c.json({ held: true }, 201);
  })
  .delete("/:id/legal-hold", async (c) => {
    const actor = requireApiActor(c);
    await releaseLegalHold(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.json({ held: false }, 200);
  })
  .post("/:id/transfer", async (c) => {
    const actor = requireApiActor(c);
    await transferTeamOwnership(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c));
    return c.json({ transferred: true }, 200);
  });
