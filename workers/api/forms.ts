import { Hono } from "hono";
import { clearTestSubmissions, deleteFormSubmission, exportSubmissionsCsv, readFormEmailCookie, readFormUnlockCookie, getFormSubmission, listFormSubmissions, submitForm } from "~/features/forms/form-submissions.server";
import { createSubmissionShare, listSubmissionShares, revokeSubmissionShare } from "~/features/forms/form-shares.server";
import { getFormDashboard, recordProgress } from "~/features/forms/form-stats.server";
import { restoreForm, restoreFormSubmission } from "~/features/forms/forms-trash.server";
import { createWebhook, deleteWebhook, listWebhooks, resendDelivery, setWebhookState } from "~/features/forms/form-webhooks.server";
import { createForm, deleteForm, generateForm, getForm, listForms, moveFormIntoTeam, publishForm, saveAsTemplate, saveDraft, updateFormSettings } from "~/features/forms/forms.server";
import { fillPdfWithSubmission, proposePdfMapping, saveFilledPdf, savePdfMapping } from "~/features/forms/form-pdf-mapping.server";
import { contentDisposition } from "~/features/files/content-headers";
import { AppError } from "~/lib/errors";
import { workspaceQuery } from "~/features/teams/workspace.server";
import type { AppEnv } from "../types";
import { apiServiceContext, csvHeaders, noStore, readJsonBody, requireApiActor } from "./require-actor";

function answersOf(body: unknown): Record<string, unknown> {
  const answers = (body as { answers?: unknown } | null)?.answers;
  if (typeof answers !== "object" || answers === null || Array.isArray(answers)) throw new AppError("VALIDATION_ERROR", "The request body must be an object with answers: { fieldId: answer }.");
  return answers as Record<string, unknown>;
}

/** The submissions list's filters from the query (?q=&from=&to=&version=). */
const filtersOf = (query: Record<string, string>) => ({ q: query.q, from: query.from, to: query.to, version: query.version });

/**
 * /api/forms (issue 37): the member's forms (anyone else's is 404) and, without an account, a
 * public form's submissions. A submission with unacceptable answers is 422 with a message per field.
 */
export const formsApi = new Hono<AppEnv>()
  .use(noStore)
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    // ?team={id}: made in that team's workspace (form.edit there).
    return c.json({ form: await createForm(apiServiceContext(c), actor.userId, await readJsonBody(c), { teamId: c.req.query("team") || undefined }) }, 201);
  })
  .post("/generate", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ form: await generateForm(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  })
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    // ?workspace=personal (forms of no team) or a team's id: one workspace's forms (issue 42).
    return c.json({ forms: await listForms(apiServiceContext(c), actor.userId, { templates: c.req.query("templates") === "1", workspace: workspaceQuery(c.req.query("workspace")) }) }, 200);
  })
  .get("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ form: await getForm(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .put("/:id/draft", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await saveDraft(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  .post("/:id/publish", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ form: await publishForm(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .post("/:id/team", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ form: await moveFormIntoTeam(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .patch("/:id/settings", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ form: await updateFormSettings(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .post("/:id/save-as-template", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ template: await saveAsTemplate(apiServiceContext(c), actor.userId, c.req.param("id")) }, 201);
  })
  .post("/:id/restore", async (c) => {
    const actor = requireApiActor(c);
    await restoreForm(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.body(null, 204);
  })
  .post("/:id/submissions/:submissionId/restore", async (c) => {
    const actor = requireApiActor(c);
    await restoreFormSubmission(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("submissionId"));
    return c.body(null, 204);
  })
  .delete("/:id", async (c) => {
    const actor = requireApiActor(c);
    await deleteForm(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.body(null, 204);
  })
  // Anyone at the public form: how far a visit got (the builder dashboard).
  .post("/:id/progress", async (c) => {
    await recordProgress(apiServiceContext(c), c.req.param("id"), await readJsonBody(c));
    return c.body(null, 204);
  })
  // "Map fields": which question fills which field of a PDF's own form (a proposal to review).
  .get("/:id/pdf-mapping", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await proposePdfMapping(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.query("fileId")), 200);
  })
  .put("/:id/pdf-mapping", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ mapping: await savePdfMapping(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .get("/:id/submissions/:submissionId/filled.pdf", async (c) => {
    const actor = requireApiActor(c);
    const { filename, bytes } = await fillPdfWithSubmission(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("submissionId"));
    return new Response(bytes, { status: 200, headers: { "Content-Type": "application/pdf", "Content-Disposition": contentDisposition("attachment", filename), "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store" } });
  })
  .post("/:id/submissions/:submissionId/filled.pdf/save", async (c) => {
    const actor = requireApiActor(c);
    const saved = await saveFilledPdf(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("submissionId"));
    return c.json(saved, saved.isNew ? 201 : 200);
  })
  .get("/:id/dashboard", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dashboard: await getFormDashboard(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  // Anyone with the form's address (no account); with ?test=1, its owner from the preview.
  .post("/:id/submissions", async (c) => {
    const body = await readJsonBody(c);
    const test = c.req.query("test") === "1";
    const result = await submitForm(apiServiceContext(c), c.req.param("id"), { answers: answersOf(body) }, test ? { testBy: requireApiActor(c).userId } : { cookie: readFormUnlockCookie(c.req.header("Cookie")), emailCookie: readFormEmailCookie(c.req.header("Cookie"), c.req.param("id")) });
    return result.ok ? c.json(result, 201) : c.json(result, 422);
  })
  .get("/:id/submissions", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await listFormSubmissions(apiServiceContext(c), actor.userId, c.req.param("id"), { test: c.req.query("test") === "1", cursor: c.req.query("cursor"), filters: filtersOf(c.req.query()) }), 200);
  })
  .get("/:id/submissions.csv", async (c) => {
    const actor = requireApiActor(c);
    const { filename, body } = await exportSubmissionsCsv(apiServiceContext(c), actor.userId, c.req.param("id"), { test: c.req.query("test") === "1", filters: filtersOf(c.req.query()) });
    return new Response(body, { status: 200, headers: { ...csvHeaders(filename), "Cache-Control": "no-store" } });
  })
  .get("/:id/submissions/:submissionId", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getFormSubmission(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("submissionId")), 200);
  })
  .post("/:id/submissions/:submissionId/shares", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await createSubmissionShare(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("submissionId"), await readJsonBody(c)), 201);
  })
  .get("/:id/submissions/:submissionId/shares", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await listSubmissionShares(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("submissionId")), 200);
  })
  .delete("/:id/submissions/:submissionId/shares/:shareId", async (c) => {
    const actor = requireApiActor(c);
    await revokeSubmissionShare(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("submissionId"), c.req.param("shareId"));
    return c.body(null, 204);
  })
  .delete("/:id/submissions/:submissionId", async (c) => {
    const actor = requireApiActor(c);
    await deleteFormSubmission(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("submissionId"));
    return c.body(null, 204);
  })
  .get("/:id/webhooks", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await listWebhooks(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .post("/:id/webhooks", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ webhook: await createWebhook(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 201);
  })
  .patch("/:id/webhooks/:webhookId", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ webhook: await setWebhookState(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("webhookId"), await readJsonBody(c)) }, 200);
  })
  .delete("/:id/webhooks/:webhookId", async (c) => {
    const actor = requireApiActor(c);
    await deleteWebhook(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("webhookId"));
    return c.body(null, 204);
  })
  .post("/:id/webhooks/:webhookId/deliveries/:deliveryId/resend", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await resendDelivery(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("webhookId"), c.req.param("deliveryId")), 202);
  })
  .delete("/:id/test-submissions", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ cleared: await clearTestSubmissions(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  });
