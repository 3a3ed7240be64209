import { IntentButton, IntentForm } from "~/components/intent-form";
import { buttonClassName } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { requireActor } from "~/features/auth/auth-guard.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { FormPageHeader } from "~/features/forms/components/form-page-header";
import { createWebhook, deleteWebhook, listWebhooks, resendDelivery, setWebhookState } from "~/features/forms/form-webhooks.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/webhooks";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Webhooks: ${loaderData.form.title}` : "Webhooks");

/** /forms/{id}/webhooks: where each submission is sent, with the signing secret and the delivery log. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  return runLoader(() => listWebhooks(serviceContextFor(context), actor.userId, params.id));
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const actor = requireActor(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const ctx = serviceContextFor(context);
  const webhookId = String(form.get("webhookId") ?? "");
  return runFormAction(
    async () => {
      if (intent === "add") await createWebhook(ctx, actor.userId, params.id, { url: String(form.get("url") ?? "") });
      else if (intent === "enable" || intent === "disable") await setWebhookState(ctx, actor.userId, params.id, webhookId, { isEnabled: intent === "enable" });
      else if (intent === "delete") await deleteWebhook(ctx, actor.userId, params.id, webhookId);
      else if (intent === "resend") await resendDelivery(ctx, actor.userId, params.id, webhookId, String(form.get("deliveryId") ?? ""));
      return { ok: true as const, intent };
    },
    { intent },
  );
}

const at = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;

export default function FormWebhooksPage({ loaderData, actionData }: Route.ComponentProps) {
  const { form, webhooks, deliveries } = loaderData;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData.message : null;
  const hostOf = (webhookId: string) => {
    const url = webhooks.find((webhook) => webhook.id === webhookId)?.url;
    return url ? new URL(url).host : "a deleted webhook";
  };
  return (
    <div className="max-w-4xl space-y-6">
      <FormPageHeader back={`/forms/${form.id}/edit`} backLabel={form.title} title="Webhooks">
        <p className="text-sm text-slate-700">
          Each submission is sent as JSON to these addresses, signed with the webhook's secret: the header <code>Strongroom-Signature: t=…,v1=…</code> is HMAC-SHA256 of “t.body”. Failed deliveries are tried again (after 1 min, 5 min, 30 min and 2 h); after ten failures in a row a webhook is turned off and you are told. Every payload has an <code>id</code> (the submission's): drop what you have seen.
        </p>
      </FormPageHeader>
      <IntentForm intent="add" className="flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <label htmlFor="webhook-url" className="block text-sm font-medium text-slate-900">
            Address (https://)
          </label>
          <input id="webhook-url" name="url" type="url" required placeholder="https://example.com/hooks/strongroom" aria-invalid={failure ? true : undefined} aria-describedby={failure ? "webhook-error" : undefined} className="mt-1 block w-full rounded-md border border-slate-400 px-2 py-1.5 text-sm" />
        </div>
        <button type="submit" className={buttonClassName()}>
          Add webhook
        </button>
      </IntentForm>
      {failure ? (
        <p id="webhook-error" role="alert" className="text-sm font-medium text-red-700">
          {failure}
        </p>
      ) : null}
      {webhooks.length === 0 ? (
        <p className="text-sm text-slate-700">No webhooks yet.</p>
      ) : (
        <ul className="space-y-3" data-testid="webhook-list">
          {webhooks.map((webhook) => (
            <li key={webhook.id} className="space-y-2 rounded-md border border-slate-200 bg-white p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="break-all font-mono text-sm text-slate-900">{webhook.url}</p>
                <span className={webhook.isEnabled ? "text-sm font-medium text-emerald-800" : "text-sm font-medium text-amber-800"}>{webhook.isEnabled ? "On" : `Off${webhook.disabledAt ? ` since ${at(webhook.disabledAt)}` : ""}`}</span>
              </div>
              <details className="text-sm">
                <summary className="cursor-pointer text-slate-900">Signing secret</summary>
                <code className="mt-1 block break-all rounded bg-slate-100 p-2 text-xs">{webhook.secret}</code>
              </details>
              <div className="flex flex-wrap gap-2">
                {webhook.isEnabled ? <IntentButton intent="disable" fields={{ webhookId: webhook.id }} label="Turn off" ariaLabel={`Turn off the webhook to ${new URL(webhook.url).host}`} /> : <IntentButton intent="enable" fields={{ webhookId: webhook.id }} label="Turn on" ariaLabel={`Turn on the webhook to ${new URL(webhook.url).host}`} />}
                <IntentButton intent="delete" fields={{ webhookId: webhook.id }} label="Delete" ariaLabel={`Delete the webhook to ${new URL(webhook.url).host}`} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="deliveries-heading" className="space-y-2">
        <h2 id="deliveries-heading" className="text-lg font-semibold text-slate-900">
          Deliveries
        </h2>
        {deliveries.length === 0 ? (
          <p className="text-sm text-slate-700">Nothing sent yet.</p>
        ) : (
          <Table caption="Deliveries, newest first" isCaptionHidden data-testid="delivery-log">
            <TableHead>
              <tr>
                <TableHeaderCell>When</TableHeaderCell>
                <TableHeaderCell>To</TableHeaderCell>
                <TableHeaderCell>Attempt</TableHeaderCell>
                <TableHeaderCell>Result</TableHeaderCell>
                <TableHeaderCell>
                  <span className="sr-only">Actions</span>
                </TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {deliveries.map((delivery) => (
                <TableRow key={delivery.id}>
                  <TableCell>{at(delivery.createdAt)}</TableCell>
                  <TableCell>{hostOf(delivery.webhookId)}</TableCell>
                  <TableCell>{delivery.attempt}</TableCell>
                  <TableCell>
                    {delivery.status === "succeeded" ? `Delivered (${delivery.responseCode})` : delivery.status === "failed" ? `Failed: ${delivery.error ?? delivery.responseCode}` : "Sending…"}
                    {delivery.durationMs !== null ? <span className="text-xs text-slate-600"> · {delivery.durationMs} ms</span> : null}
                  </TableCell>
                  <TableCell>{delivery.status === "failed" ? <IntentButton intent="resend" fields={{ webhookId: delivery.webhookId, deliveryId: delivery.id }} label="Send again" ariaLabel={`Send attempt ${delivery.attempt} of ${at(delivery.createdAt)} again`} /> : null}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>
    </div>
  );
}
