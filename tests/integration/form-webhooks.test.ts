import { beforeAll, describe, expect, it } from "vitest";
import { deliverWebhook, WEBHOOK_DISABLE_AFTER } from "~/features/forms/form-webhooks.server";
import { createServiceContext } from "~/lib/service-context.server";
import { countWhere, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv, uniqueIp } from "./helpers";

/**
 * Forms' webhooks (issue 37): the plan decides; addresses must be public https; each attempt is
 * signed (a receiver in the test checks the HMAC itself), recorded once even when the queue
 * delivers its message twice, retried with the next attempt queued, turned off after ten failures
 * in a row with a notice; "Send again" queues the next attempt.
 */

type Webhook = { id: string; url: string; secret: string; isEnabled: boolean };
type Delivery = { id: string; attempt: number; status: string; responseCode: number | null; eventId: string };

const ctx = () => createServiceContext(testEnv, { requestId: "webhook-test" });

async function hmacHex(secret: string, value: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return [...new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(value)))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A receiver as a customer would write it: checks the signature over "t.body", answers with `status`. */
function receiver(secret: string, status = 200) {
  const received: { eventId: string | null; attempt: string | null; body: { id: string; type: string; submission: { answers: { label: string; value: unknown }[] } }; verified: boolean }[] = [];
  const fetcher = (async (_url: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const body = String(init?.body);
    const [t, v1] = (headers.get("Strongroom-Signature") ?? "").split(",").map((part) => part.split("=")[1]);
    received.push({ eventId: headers.get("Strongroom-Event-Id"), attempt: headers.get("Strongroom-Delivery-Attempt"), body: JSON.parse(body), verified: v1 === (await hmacHex(secret, `${t}.${body}`)) });
    return new Response("ok", { status });
  }) as typeof fetch;
  return { received, fetcher };
}

async function publishedForm(owner: Person): Promise<string> {
  const made = await (await send(owner.client, "POST", "/api/forms", { templateId: "template-contact" })).json<{ form: { id: string } }>();
  expect((await send(owner.client, "POST", `/api/forms/${made.form.id}/publish`)).status).toBe(200);
  return made.form.id;
}

/** A visitor's submission through the API (which queues the webhooks' deliveries). */
async function submission(formId: string): Promise<string> {
  const response = await send(await newAuthClient(), "POST", `/api/forms/${formId}/submissions`, { answers: { name: "Hook", email: "hook@example.com", message: "Ping" } }, { "cf-connecting-ip": uniqueIp() });
  expect(response.status).toBe(201);
  return (await response.json<{ submissionId: string }>()).submissionId;
}

/** A submission written straight to the table: no delivery is queued, so only the test delivers it. */
async function quietSubmission(formId: string): Promise<string> {
  const id = crypto.randomUUID();
  await testEnv.DB.prepare("insert into form_submissions (id, form_id, version, answers, is_test, pages_seen, created_at) values (?, ?, 1, ?, 0, 1, ?)")
    .bind(id, formId, JSON.stringify({ name: "Hook", email: "hook@example.com", message: "Ping" }), Date.now())
    .run();
  return id;
}

describe("form webhooks", () => {
  let owner: Person;
  let formId: string;
  let webhook: Webhook;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Wes Webhook" });
    formId = await publishedForm(owner);
    const made = await send(owner.client, "POST", `/api/forms/${formId}/webhooks`, { url: "https://receiver.invalid/hooks/strongroom" });
    expect(made.status, await made.clone().text()).toBe(201);
    webhook = (await made.json<{ webhook: Webhook }>()).webhook;
  });

  it("takes only public https addresses, and only on plans with webhooks", async () => {
    for (const url of ["http://example.com/hook", "https://localhost/hook", "https://10.0.0.1/hook", "https://user:pw@example.com/hook", "not a url"]) {
      expect((await send(owner.client, "POST", `/api/forms/${formId}/webhooks`, { url })).status, url).toBe(400);
    }
    const basic = await signedIn({ tier: "basic" });
    const basicForm = await publishedForm(basic);
    const refused = await send(basic.client, "POST", `/api/forms/${basicForm}/webhooks`, { url: "https://example.com/hook" });
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toContain("Webhooks are not part of your Basic plan");
    expect(webhook.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    expect(await countWhere("select count(*) as n from form_webhooks where instr(secret_sealed, ?) > 0", webhook.secret)).toBe(0);
  });

  it("queues one delivery per enabled webhook for each real submission", async () => {
    const submissionId = await submission(formId);
    expect(await countWhere("select count(*) as n from jobs where id = ?", `webhook:${webhook.id}:${submissionId}:1`)).toBe(1);
  });

  it("signs each attempt so the receiver can check it, and records an attempt once when the queue delivers it twice", async () => {
    const submissionId = await quietSubmission(formId);
    const { received, fetcher } = receiver(webhook.secret);
    const payload = { webhookId: webhook.id, submissionId, attempt: 1 };
    expect(await deliverWebhook(ctx(), payload, fetcher)).toBe("succeeded");
    expect(await deliverWebhook(ctx(), payload, fetcher)).toBe("skipped");
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ eventId: submissionId, attempt: "1", verified: true, body: { id: submissionId, type: "form.submission" } });
    expect(received[0]!.body.submission.answers.map((answer) => answer.label)).toEqual(["Name", "E-mail", "Message"]);
    expect(await countWhere("select count(*) as n from form_webhook_deliveries where webhook_id = ? and submission_id = ?", webhook.id, submissionId)).toBe(1);
    const { deliveries } = await (await get(`/api/forms/${formId}/webhooks`, owner.client)).json<{ deliveries: Delivery[] }>();
    expect(deliveries.find((delivery) => delivery.eventId === submissionId)).toMatchObject({ attempt: 1, status: "succeeded", responseCode: 200 });
  });

  it("records a failed attempt with its code, queues the next with its delay, and sends the same payload id again", async () => {
    const submissionId = await quietSubmission(formId);
    const failing = receiver(webhook.secret, 503);
    expect(await deliverWebhook(ctx(), { webhookId: webhook.id, submissionId, attempt: 1 }, failing.fetcher)).toBe("failed");
    expect(await countWhere("select count(*) as n from form_webhook_deliveries where webhook_id = ? and submission_id = ? and status = 'failed' and response_code = 503", webhook.id, submissionId)).toBe(1);
    expect(await countWhere("select count(*) as n from jobs where id = ?", `webhook:${webhook.id}:${submissionId}:2`)).toBe(1);
    const ok = receiver(webhook.secret);
    expect(await deliverWebhook(ctx(), { webhookId: webhook.id, submissionId, attempt: 2 }, ok.fetcher)).toBe("succeeded");
    expect(ok.received[0]!.body.id).toBe(failing.received[0]!.body.id);
    // "Send again" queues the attempt after the last one.
    const { deliveries } = await (await get(`/api/forms/${formId}/webhooks`, owner.client)).json<{ deliveries: (Delivery & { webhookId: string })[] }>();
    const failed = deliveries.find((delivery) => delivery.eventId === submissionId && delivery.status === "failed")!;
    const again = await send(owner.client, "POST", `/api/forms/${formId}/webhooks/${webhook.id}/deliveries/${encodeURIComponent(failed.id)}/resend`);
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ attempt: 3 });
    expect(await countWhere("select count(*) as n from jobs where id = ?", `webhook:${webhook.id}:${submissionId}:3`)).toBe(1);
  });

  it(`turns a webhook off after ${WEBHOOK_DISABLE_AFTER} failures in a row and tells its owner once`, async () => {
    const made = await (await send(owner.client, "POST", `/api/forms/${formId}/webhooks`, { url: "https://down.invalid/hook" })).json<{ webhook: Webhook }>();
    const failing = receiver(made.webhook.secret, 500);
    for (let i = 0; i < WEBHOOK_DISABLE_AFTER; i += 1) await deliverWebhook(ctx(), { webhookId: made.webhook.id, submissionId: await quietSubmission(formId), attempt: 5 }, failing.fetcher);
    const { webhooks } = await (await get(`/api/forms/${formId}/webhooks`, owner.client)).json<{ webhooks: Webhook[] }>();
    expect(webhooks.find((item) => item.id === made.webhook.id)?.isEnabled).toBe(false);
    expect(await countWhere("select count(*) as n from notifications where user_id = ? and kind = 'form.webhook-disabled'", owner.id)).toBe(1);
    // Off: nothing more is sent; turned on again, its failures start from zero.
    expect(await deliverWebhook(ctx(), { webhookId: made.webhook.id, submissionId: await quietSubmission(formId), attempt: 1 }, failing.fetcher)).toBe("skipped");
    expect((await send(owner.client, "PATCH", `/api/forms/${formId}/webhooks/${made.webhook.id}`, { isEnabled: true })).status).toBe(200);
    expect(await countWhere("select consecutive_failures as n from form_webhooks where id = ?", made.webhook.id)).toBe(0);
    expect((await send(owner.client, "DELETE", `/api/forms/${formId}/webhooks/${made.webhook.id}`)).status).toBe(204);
  });

  it("answers 404 to another member on every webhook route, and changes nothing", async () => {
    const outsider = await signedIn({ tier: "pro" });
    const before = await countWhere("select count(*) as n from form_webhooks where form_id = ?", formId);
    for (const [method, path, body] of [
      ["GET", `/api/forms/${formId}/webhooks`],
      ["POST", `/api/forms/${formId}/webhooks`, { url: "https://evil.example/hook" }],
      ["PATCH", `/api/forms/${formId}/webhooks/${webhook.id}`, { isEnabled: false }],
      ["DELETE", `/api/forms/${formId}/webhooks/${webhook.id}`],
      ["POST", `/api/forms/${formId}/webhooks/${webhook.id}/deliveries/x/resend`],
    ] as [string, string, unknown?][]) {
      const response = method === "GET" ? await get(path, outsider.client) : await send(outsider.client, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await get(`/api/forms/${formId}/webhooks`)).status).toBe(401);
    expect(await countWhere("select count(*) as n from form_webhooks where form_id = ?", formId)).toBe(before);
  });
});
