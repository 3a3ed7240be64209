import { z } from "zod";
import { TIER_LABELS } from "~/features/access/access.constants";
import { loadMemberAccess } from "~/features/access/access.server";
import { decryptSecret, encryptSecret } from "~/features/auth/secrets.server";
import { enqueueJob } from "~/features/jobs/enqueue-job.server";
import { notifyMember } from "~/features/notifications/notifications.server";
import { readConfig } from "~/lib/config.server";
import { webhookUrlSchema } from "~/lib/webhooks";
import { newWebhookSecret, WEBHOOK_TIMEOUT_MS, webhookSignature } from "~/lib/webhooks.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { submissionView } from "./submission-view";
import { FORM_LIMITS, isUuidShape } from "./forms.constants";
import {
  countWebhookOutcome,
  countWebhooksOfForm,
  deleteWebhookRow,
  disableWebhookIfEnabled,
  findDelivery,
  findSubmissionById,
  findWebhook,
  findWebhookForDelivery,
  finishDelivery,
  insertDeliveryIfAbsent,
  insertWebhook,
  lastAttemptOf,
  listDeliveriesOf,
  listWebhooksOfForm,
  restartDelivery,
  setWebhookEnabled,
  type FormRow,
  type WebhookRow,
} from "./forms.queries.server";
import { openForm } from "./form-access.server";
import { definitionOfVersion } from "./forms.server";
import { defineJob } from "~/features/jobs/job-definition";

/**
 * A form's webhooks (issue 37, docs/forms.md "Webhooks"): each real submission is POSTed as JSON to
 * every enabled webhook of the form, through the queue, signed with the webhook's own secret:
 *
 *   Strongroom-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>
 *
 * A failed attempt (no answer in 10 s, or a status outside 2xx) is tried again later (1 min, 5 min,
 * 30 min, 2 h: five attempts in all); every attempt is one delivery record with its response code.
 * After ten failed attempts in a row the webhook is disabled and its owner told. Delivery is at
 * least once: the payload's `id` (the submission's) is the same for every attempt.
 */

export const WEBHOOKS_PER_FORM = 5;
export const WEBHOOK_ATTEMPTS = 5;
export const WEBHOOK_RETRY_DELAYS_S = [60, 300, 1_800, 7_200] as const;
export const WEBHOOK_DISABLE_AFTER = 10;
const STALE_SENDING_MS = 2 * 60_000;

const webhookSchema = z.object({ url: webhookUrlSchema }, { error: "The request body must be an object with url." });

async function secretOf(ctx: ServiceContext, webhook: WebhookRow): Promise<string> {
  const plain = await decryptSecret(readConfig(ctx.env).SESSION_SECRET, webhook.secretSealed, "form-webhook");
  if (!plain) throw new AppError("INTERNAL_ERROR", "A webhook's secret could not be read.");
  return new TextDecoder().decode(plain);
}

export type WebhookView = { id: string; url: string; secret: string; isEnabled: boolean; consecutiveFailures: number; disabledAt: string | null; createdAt: string };

async function webhookView(ctx: ServiceContext, webhook: WebhookRow): Promise<WebhookView> {
  return {
    id: webhook.id,
    url: webhook.url,
    secret: await secretOf(ctx, webhook),
    isEnabled: webhook.isEnabled,
    consecutiveFailures: webhook.consecutiveFailures,
    disabledAt: webhook.disabledAt?.toISOString() ?? null,
    createdAt: webhook.createdAt.toISOString(),
  };
}

async function webhooksPlan(ctx: ServiceContext, userId: string, formId: string): Promise<FormRow> {
  const { access, limits, form } = await openForm(ctx, userId, formId, "form.edit");
  if (!limits.webhooks) throw new AppError("FORBIDDEN", `Webhooks are not part of your ${TIER_LABELS[access.tier]} plan. They come with Pro and above.`);
  return form;
}

/** POST /api/forms/:id/webhooks → 201 with the webhook and its secret. */
export async function createWebhook(ctx: ServiceContext, userId: string, formId: string, input: unknown): Promise<WebhookView> {
  const data = parseInput(webhookSchema, input);
  await webhooksPlan(ctx, userId, formId);
  if ((await countWebhooksOfForm(ctx.db, formId)) >= WEBHOOKS_PER_FORM) throw new AppError("CONFLICT", `A form has at most ${WEBHOOKS_PER_FORM} webhooks. Delete one first.`);
  const secret = newWebhookSecret();
  const row: WebhookRow = {
    id: crypto.randomUUID(),
    formId,
    url: data.url,
    secretSealed: await encryptSecret(readConfig(ctx.env).SESSION_SECRET, new TextEncoder().encode(secret), "form-webhook"),
    isEnabled: true,
    consecutiveFailures: 0,
    disabledAt: null,
    createdAt: ctx.now(),
  };
  await insertWebhook(ctx.db, row);
  return webhookView(ctx, row);
}

/** GET /api/forms/:id/webhooks: the form's webhooks and their newest deliveries (50). */
export async function listWebhooks(ctx: ServiceContext, userId: string, formId: string) {
  const { form } = await openForm(ctx, userId, formId, "form.edit");
  const webhooks = await listWebhooksOfForm(ctx.db, formId);
  const deliveries = await listDeliveriesOf(ctx.db, webhooks.map((webhook) => webhook.id), 50);
  return {
    form: { id: form.id, title: form.title },
    webhooks: await Promise.all(webhooks.map((webhook) => webhookView(ctx, webhook))),
    deliveries: deliveries.map((delivery) => ({
      id: delivery.id,
      webhookId: delivery.webhookId,
      submissionId: delivery.submissionId,
      eventId: delivery.eventId,
      attempt: delivery.attempt,
      status: delivery.status,
      responseCode: delivery.responseCode,
      error: delivery.error,
      durationMs: delivery.durationMs,
      createdAt: delivery.createdAt.toISOString(),
    })),
  };
}

async function requireWebhook(ctx: ServiceContext, formId: string, id: string): Promise<WebhookRow> {
  const webhook = isUuidShape(id) ? await findWebhook(ctx.db, formId, id) : undefined;
  if (!webhook) throw new AppError("NOT_FOUND", "This webhook does not exist or you don't have access to it.");
  return webhook;
}

/** PATCH /api/forms/:id/webhooks/:wid { isEnabled }: turning it back on clears its run of failures. */
export async function setWebhookState(ctx: ServiceContext, userId: string, formId: string, id: string, input: unknown): Promise<WebhookView> {
  const { isEnabled } = parseInput(z.object({ isEnabled: z.boolean({ error: "isEnabled is true or false." }) }, { error: "The request body must be an object with isEnabled." }), input);
  await webhooksPlan(ctx, userId, formId);
  await requireWebhook(ctx, formId, id);
  await setWebhookEnabled(ctx.db, formId, id, isEnabled, ctx.now());
  return webhookView(ctx, (await findWebhook(ctx.db, formId, id))!);
}

/** DELETE /api/forms/:id/webhooks/:wid (its delivery log goes with it). */
export async function deleteWebhook(ctx: ServiceContext, userId: string, formId: string, id: string): Promise<void> {
  await openForm(ctx, userId, formId, "form.edit");
  await requireWebhook(ctx, formId, id);
  await deleteWebhookRow(ctx.db, formId, id);
}

const jobIdOf = (webhookId: string, submissionId: string, attempt: number) => `webhook:${webhookId}:${submissionId}:${attempt}`;

/** After a real submission: one queued delivery per enabled webhook, when the owner's plan has webhooks. */
export async function enqueueSubmissionWebhooks(ctx: ServiceContext, form: Pick<FormRow, "id" | "userId">, submissionId: string): Promise<number> {
  const webhooks = (await listWebhooksOfForm(ctx.db, form.id)).filter((webhook) => webhook.isEnabled);
  if (webhooks.length === 0) return 0;
  const access = await loadMemberAccess(ctx, form.userId);
  if (!FORM_LIMITS[access.tier].webhooks) return 0;
  for (const webhook of webhooks) {
    await enqueueJob(ctx, { definition: webhookDeliverJob, payload: { webhookId: webhook.id, submissionId, attempt: 1 }, jobId: jobIdOf(webhook.id, submissionId, 1) });
  }
  return webhooks.length;
}

/** POST /api/forms/:id/webhooks/:wid/deliveries/:deliveryId/resend: "Send again" (the next attempt, now). */
export async function resendDelivery(ctx: ServiceContext, userId: string, formId: string, webhookId: string, deliveryId: string): Promise<{ attempt: number }> {
  await webhooksPlan(ctx, userId, formId);
  const webhook = await requireWebhook(ctx, formId, webhookId);
  const delivery = await findDelivery(ctx.db, deliveryId);
  if (!delivery || delivery.webhookId !== webhook.id) throw new AppError("NOT_FOUND", "This delivery does not exist or you don't have access to it.");
  const attempt = (await lastAttemptOf(ctx.db, webhook.id, delivery.submissionId)) + 1;
  await enqueueJob(ctx, { definition: webhookDeliverJob, payload: { webhookId: webhook.id, submissionId: delivery.submissionId, attempt, manual: true }, jobId: jobIdOf(webhook.id, delivery.submissionId, attempt) });
  return { attempt };
}

/** What a receiver gets: the same body for every attempt of one submission. */
async function payloadOf(ctx: ServiceContext, form: FormRow, submission: NonNullable<Awaited<ReturnType<typeof findSubmissionById>>>): Promise<string> {
  const view = submissionView(submission, await definitionOfVersion(ctx, form, submission.version));
  return JSON.stringify({
    id: submission.id,
    type: "form.submission",
    createdAt: view.createdAt,
    form: { id: form.id, title: form.title, version: submission.version },
    submission: {
      id: submission.id,
      createdAt: view.createdAt,
      answers: view.answers.map((answer) => ({ fieldId: answer.fieldId, label: answer.label, value: answer.value })),
      // The files sent with it: the file each became in the owner's files (null: it did not arrive).
      files: view.files.map((file) => ({ fieldId: file.fieldId, name: file.name, size: file.size, fileId: file.fileId })),
    },
  });
}

export type DeliveryPayload = { webhookId: string; submissionId: string; attempt: number; manual?: boolean };

/**
 * The queue's delivery of one attempt. Idempotent: the attempt's record is made once (a message
 * delivered twice finds it and stops, unless the first run died while sending), then the request
 * is sent and its outcome recorded; a failure queues the next attempt with its delay.
 */
export async function deliverWebhook(ctx: ServiceContext, payload: DeliveryPayload, fetcher: typeof fetch = fetch): Promise<"succeeded" | "failed" | "skipped"> {
  const found = await findWebhookForDelivery(ctx.db, payload.webhookId);
  const submission = await findSubmissionById(ctx.db, payload.submissionId);
  if (!found || !submission || submission.deletedAt || submission.isTest || submission.formId !== found.form.id) return "skipped";
  const { webhook, form } = found;
  if (!webhook.isEnabled && !payload.manual) return "skipped";
  const now = ctx.now();
  const id = `${webhook.id}:${submission.id}:${payload.attempt}`;
  const recorded = await insertDeliveryIfAbsent(ctx.db, { id, webhookId: webhook.id, submissionId: submission.id, eventId: submission.id, attempt: payload.attempt, status: "sending", createdAt: now });
  if (!recorded && !(await restartDelivery(ctx.db, id, new Date(now.getTime() - STALE_SENDING_MS), now))) return "skipped";

  const body = await payloadOf(ctx, form, submission);
  const timestamp = Math.floor(now.getTime() / 1000);
  const started = Date.now();
  let responseCode: number | null = null;
  let error: string | null = null;
  try {
    const response = await fetcher(webhook.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Strongroom-Webhooks/1",
        "Strongroom-Event-Id": submission.id,
        "Strongroom-Delivery-Attempt": String(payload.attempt),
        "Strongroom-Signature": await webhookSignature(await secretOf(ctx, webhook), timestamp, body),
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    responseCode = response.status;
    await response.body?.cancel();
    if (response.status < 200 || response.status > 299) error = `Answered ${response.status}`;
  } catch (caught) {
    error = caught instanceof Error && caught.name === "TimeoutError" ? `No answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : `Could not connect: ${caught instanceof Error ? caught.message.slice(0, 200) : "unknown error"}`;
  }
  const succeeded = error === null;
  await finishDelivery(ctx.db, id, { status: succeeded ? "succeeded" : "failed", responseCode, error, durationMs: Date.now() - started, now: ctx.now() });
  const failures = await countWebhookOutcome(ctx.db, webhook.id, succeeded);
  if (succeeded) return "succeeded";
  if (failures >= WEBHOOK_DISABLE_AFTER) {
    if (await disableWebhookIfEnabled(ctx.db, webhook.id, ctx.now())) {
      await notifyMember(ctx, {
        userId: form.userId,
        actorId: null,
        kind: "form.webhook-disabled",
        title: `A webhook of “${form.title}” was turned off`,
        excerpt: `${WEBHOOK_DISABLE_AFTER} deliveries in a row to ${new URL(webhook.url).host} failed (last: ${error}). Fix the receiver, then turn the webhook on again.`,
        link: `/forms/${form.id}/webhooks`,
      });
    }
    return "failed";
  }
  if (!payload.manual && payload.attempt < WEBHOOK_ATTEMPTS) {
    const next = payload.attempt + 1;
    await enqueueJob(ctx, { definition: webhookDeliverJob, payload: { webhookId: webhook.id, submissionId: submission.id, attempt: next }, jobId: jobIdOf(webhook.id, submission.id, next), delaySeconds: WEBHOOK_RETRY_DELAYS_S[payload.attempt - 1] });
  }
  return "failed";
}

/**
 * The queue's job for one attempt (registered in app/features/jobs/registry.server.ts). A failed
 * attempt queues the next one itself, with its delay, so the queue's own retries are for crashes.
 */
export const webhookDeliverJob = defineJob({
  type: "forms.webhook-deliver",
  version: 1,
  payloadSchema: z.object({ webhookId: z.uuid(), submissionId: z.uuid(), attempt: z.number().int().min(1).max(100), manual: z.boolean().optional() }),
  async run(ctx, payload) {
    const outcome = await deliverWebhook(ctx, payload);
    return { processedItems: 1, successCount: outcome === "succeeded" ? 1 : 0, failureCount: outcome === "failed" ? 1 : 0 };
  },
});
