import { Hono } from "hono";
import { burnOwnSecret, createSecret, getSecretReceipt, listSecrets, revealSecret, updateSecret } from "~/features/secrets/secrets.server";
import { answerFileObject, answerSecretRequest, closeSecretRequest, createSecretRequest, deleteSecretRequest, getSecretRequest, listSecretRequests } from "~/features/secrets/secret-requests.server";
import { REVEAL_STREAM_TYPE, revealStream } from "~/features/secrets/secret-files.server";
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
export const secretRevealsApi = new Hono<AppEnv>().use(noStore).post("/", async (c) => {
  const ctx = apiServiceContext(c);
  const { ciphertext, viewsLeft, files } = await revealSecret(ctx, await readJsonBody(c));
  if (files.length === 0) return c.json({ ciphertext, viewsLeft }, 200);
  // With files: one stream (header, then each sealed file); after the last view they are deleted once sent.
  const stream = revealStream(ctx, { ciphertext, viewsLeft }, files, viewsLeft === 0);
  c.executionCtx.waitUntil(stream.done);
  return new Response(stream.body, { status: 200, headers: { "Content-Type": REVEAL_STREAM_TYPE, "Content-Length": String(stream.length), "Cache-Control": "no-store" } });
});

/** /api/secret-requests (issue 23): the member's requests for secrets; anyone else's is 404. */
export const secretRequestsApi = new Hono<AppEnv>()
  .use(noStore)
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await createSecretRequest(apiServiceContext(c), actor.userId, await readJsonBody(c)), 201);
  })
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ requests: await listSecretRequests(apiServiceContext(c), actor.userId) }, 200);
  })
  .get("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getSecretRequest(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .post("/:id/close", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await closeSecretRequest(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  // An answer file's sealed bytes, opened in the owner's browser with the request's passphrase.
  .get("/:id/files/:fileId", async (c) => {
    const actor = requireApiActor(c);
    const file = await answerFileObject(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("fileId"));
    return new Response(file.body, { status: 200, headers: { "Content-Type": "application/octet-stream", "Content-Length": String(file.size), "Cache-Control": "no-store" } });
  })
  .delete("/:id", async (c) => {
    const actor = requireApiActor(c);
    await deleteSecretRequest(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.body(null, 204);
  });

/** POST /api/secret-request-answers { token, ephemeralKey, ciphertext, size }: anyone with a request's link. */
export const secretRequestAnswersApi = new Hono<AppEnv>().use(noStore).post("/", async (c) => c.json(await answerSecretRequest(apiServiceContext(c), await readJsonBody(c)), 201));
