import { Hono } from "hono";
import { readReceiveUnlockCookie, submitToReceivePage } from "~/features/receive/receive-public.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody } from "./require-actor";

/**
 * POST /api/receive-submissions (issue 24): anyone at a receive page sends their details, answers
 * and the list of files; 201 gives the grant and one upload per file, which then go through
 * /api/uploads/{id} with the Strongroom-Upload-Grant header. No account is needed; the page's
 * rules, its password (the unlock cookie), the honeypot, Turnstile and rate limits apply.
 */
export const receiveSubmissionsApi = new Hono<AppEnv>()
  .use(noStore)
  .post("/", async (c) => c.json(await submitToReceivePage(apiServiceContext(c), readReceiveUnlockCookie(c.req.header("Cookie")), await readJsonBody(c)), 201));
