import { Hono } from "hono";
import { acceptInvitation } from "~/features/datarooms/invitations.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * POST /api/invitations/accept { token }: the signed-in member accepts a data-room invitation sent
 * to their address → { dataroomId }. The page /invite/{token} does the same for browsers, and
 * also lets a visitor without an account create one on the way.
 */
export const invitationsApi = new Hono<AppEnv>().use(noStore).post("/accept", async (c) => {
  const actor = requireApiActor(c);
  const body = (await readJsonBody(c)) as { token?: unknown } | null;
  const dataroomId = await acceptInvitation(apiServiceContext(c), actor.userId, body?.token);
  return c.json({ dataroomId }, 200);
});
