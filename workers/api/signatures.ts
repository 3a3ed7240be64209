import { Hono, type Context } from "hono";
import { contentDisposition } from "~/features/files/content-headers";
import { createEnvelope, envelopeDocument, getEnvelope, listDocuments, resendToRecipient, sendEnvelope, updateDraft, voidEnvelope } from "~/features/signatures/envelopes.server";
import { confirmSigningCode, declineEnvelope, openSigningLink, readSigningProof, requestSigningCode, signEnvelope, signingDocument, signingProofCookie, uploadSignatureImage } from "~/features/signatures/signing.server";
import { createTemplate, deleteTemplate, getTemplate, listTemplates, requireOwnTemplate, restoreTemplate, saveTemplate } from "~/features/signatures/templates.server";
import { readObjectBytes } from "~/features/signatures/envelopes.server";
import { verifyUploadedPdf } from "~/features/signatures/verify.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

const isSecure = (c: Context<AppEnv>) => new URL(c.req.url).protocol === "https:";

function pdfResponse(bytes: Uint8Array<ArrayBuffer>, name: string, disposition: "inline" | "attachment"): Response {
  return new Response(bytes, {
    headers: { "Content-Type": "application/pdf", "Content-Length": String(bytes.byteLength), "Content-Disposition": contentDisposition(disposition, name), "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" },
  });
}

/**
 * /api/signatures (issue 38): the sender's envelopes (their own, or a room's with
 * `request_signatures`; anyone else's is 404), and the public verify endpoint.
 */
export const signaturesApi = new Hono<AppEnv>()
  .use(noStore)
  // Public: any PDF (raw body, size-capped, nothing kept) checked for signatures.
  .post("/verify", async (c) => c.json({ result: await verifyUploadedPdf(apiServiceContext(c), c.req.raw) }, 200))
  .get("/templates", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ templates: await listTemplates(apiServiceContext(c), actor.userId) }, 200);
  })
  .post("/templates", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ template: await createTemplate(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  })
  .get("/templates/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ template: await getTemplate(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .put("/templates/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ template: await saveTemplate(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .delete("/templates/:id", async (c) => {
    const actor = requireApiActor(c);
    await deleteTemplate(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.json({ deleted: true }, 200);
  })
  .post("/templates/:id/restore", async (c) => {
    const actor = requireApiActor(c);
    await restoreTemplate(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.json({ restored: true }, 200);
  })
  .get("/templates/:id/document", async (c) => {
    const actor = requireApiActor(c);
    const ctx = apiServiceContext(c);
    const template = await requireOwnTemplate(ctx, actor.userId, c.req.param("id"));
    return pdfResponse(await readObjectBytes(ctx, template.documentKey, template.documentSize), template.documentName, "inline");
  })
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ envelope: await createEnvelope(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  })
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await listDocuments(apiServiceContext(c), actor.userId, c.req.query(), c.req.query("dataroomId") ?? null), 200);
  })
  .get("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ envelope: await getEnvelope(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .put("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ envelope: await updateDraft(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .post("/:id/send", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ envelope: await sendEnvelope(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .post("/:id/void", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ envelope: await voidEnvelope(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .post("/:id/recipients/:recipientId/resend", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ envelope: await resendToRecipient(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("recipientId")) }, 200);
  })
  .get("/:id/document", async (c) => {
    const actor = requireApiActor(c);
    const file = await envelopeDocument(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.query("which") === "sealed" ? "sealed" : "original");
    return pdfResponse(file.bytes, file.name, c.req.query("download") === "1" ? "attachment" : "inline");
  });

/**
 * /api/sign/{token} (issue 38): the recipient's side, without an account. The token is the only
 * key; it opens that recipient's own fields, in their turn, while the envelope is out.
 */
export const signApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/:token", async (c) => c.json({ signing: await openSigningLink(apiServiceContext(c), c.req.param("token"), { cookie: readSigningProof(c.req.header("Cookie")) }) }, 200))
  .post("/:token", async (c) => c.json(await signEnvelope(apiServiceContext(c), c.req.param("token"), await readJsonBody(c), readSigningProof(c.req.header("Cookie"))), 200))
  .post("/:token/signature-image", async (c) => c.json(await uploadSignatureImage(apiServiceContext(c), c.req.param("token"), c.req.raw, readSigningProof(c.req.header("Cookie"))), 200))
  .post("/:token/decline", async (c) => {
    await declineEnvelope(apiServiceContext(c), c.req.param("token"), await readJsonBody(c));
    return c.json({ declined: true }, 200);
  })
  .post("/:token/code", async (c) => {
    const cookie = await requestSigningCode(apiServiceContext(c), c.req.param("token"));
    c.header("Set-Cookie", signingProofCookie(cookie, isSecure(c)));
    return c.json({ sent: true }, 200);
  })
  .post("/:token/code/confirm", async (c) => {
    const body = (await readJsonBody(c)) as { code?: unknown } | null;
    const cookie = await confirmSigningCode(apiServiceContext(c), c.req.param("token"), { code: body?.code, cookie: readSigningProof(c.req.header("Cookie")) });
    c.header("Set-Cookie", signingProofCookie(cookie, isSecure(c)));
    return c.json({ confirmed: true }, 200);
  })
  .get("/:token/document", async (c) => {
    const file = await signingDocument(apiServiceContext(c), c.req.param("token"), "original");
    return pdfResponse(file.bytes, file.name, "inline");
  })
  .get("/:token/signed.pdf", async (c) => {
    const file = await signingDocument(apiServiceContext(c), c.req.param("token"), "sealed");
    return pdfResponse(file.bytes, file.name, "attachment");
  });
