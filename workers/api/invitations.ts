import { Hono } from "hono";
import { acceptInvitation } from "~/features/datarooms/invitations.server";
import { acceptTeamInvitation, isTeamInvitationToken } from "~/features/teams/team-invitations.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * POST /api/invitations/accept { token }: the signed-in member accepts a data-room invitation sent
 * to their address → { dataroomId }, or a team's → { teamId } (one link format for both). The page /invite/{token} does the same for browsers, and
 * also lets a visitor without an account create one on the way.
 */
export const invitationsApi = new Hono<AppEnv>().use(noStore).post("/accept", async (c) => {
  const actor = requireApiActor(c);
  const body = (await readJsonBody(c)) as { token?: unknown } | null;
  const ctx = apiServiceContext(c);
  if (await isTeamInvitationToken(ctx, body?.token)) return c.json({ teamId: await acceptTeamInvitation(ctx, actor.userId, body?.token) }, 200);
  const dataroomId = await acceptInvitation(ctx, actor.userId, body?.token);
  return c.json({ dataroomId }, 200);
});
