import { Hono } from "hono";
import { burnOwnSecret, createSecret, getSecretReceipt, listSecrets, revealSecret, updateSecret } from "~/features/secrets/secrets.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/secrets (issue 23): the member's one-time secrets (sealed in the browser; the key never
 * comes here): create, list, the receipt, change expiry or views left, burn. Anyone else's is 404.
 */
export const secretsApi = new Hono<AppEnv>()
  .use(noStore)
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await createSecret(apiServiceContext(c), actor.userId, await readJsonBody(c)), 201);
  })
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await listSecrets(apiServiceContext(c), actor.userId), 200);
  })
  .get("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getSecretReceipt(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .patch("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await updateSecret(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  .post("/:id/burn", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await burnOwnSecret(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  });

/**
 * POST /api/secret-reveals { token, proof }: anyone with the link (anonymous). The token travels in
 * the body, not the path, so it stays out of request logs.
 */
export const secretRevealsApi = new Hono<AppEnv>().use(noStore).post("/", async (c) => c.json(await revealSecret(apiServiceContext(c), await readJsonBody(c)), 200));
