import { useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { requireMember } from "~/features/auth/auth-guard.server";
import { readMemberForm, redirectWithNotice } from "~/features/auth/auth-route.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { SecretStatusBadge } from "~/features/secrets/components/secret-status-badge";
import { expiryLabel, SECRET_EVENT_LABELS, SECRET_EXPIRY_CHOICES, SECRET_MAX_VIEWS } from "~/features/secrets/secrets.constants";
import { burnOwnSecret, getSecretReceipt, updateSecret } from "~/features/secrets/secrets.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/secret";
import { UpLink } from "~/components/up-link";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData?.secret.label ? `Secret ${loaderData.secret.label}` : "Secret");

/** /secrets/{id}: a secret's receipt (status, views, events; never content), its expiry and views left, and Burn now. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => getSecretReceipt(serviceContextFor(context), user.id, params.id));
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user, form, intent, ctx } = await readMemberForm(context, request);
  return runFormAction(
    async () => {
      if (intent === "change") {
        const hours = String(form.get("expiresInHours") ?? "");
        await updateSecret(ctx, user.id, params.id, { expiresInHours: hours ? Number(hours) : undefined, viewsLeft: Number(form.get("viewsLeft")) });
        return redirectWithNotice(context, `/secrets/${params.id}`, { type: "success", message: "Secret changed." });
      }
      if (intent === "burn") {
        await burnOwnSecret(ctx, user.id, params.id);
        return redirectWithNotice(context, `/secrets/${params.id}`, { type: "success", message: "Secret burned: its content is deleted and the link no longer opens." });
      }
      throw new AppError("VALIDATION_ERROR", "Unknown action. Reload the page and try again.");
    },
    { intent },
  );
}

const at = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;

export default function SecretPage({ loaderData, actionData }: Route.ComponentProps) {
  const { secret, events, maxExpiryHours } = loaderData;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const busy = useNavigation().state === "submitting";
  const facts: [string, string][] = [
    ["Created", at(secret.createdAt)],
    ["Expires", at(secret.expiresAt)],
    ["Views", `${secret.viewCount} of ${secret.maxViews}${secret.lastViewedAt ? `, last ${at(secret.lastViewedAt)}` : ""}`],
    ["Views left", String(secret.viewsLeft)],
    ["Passphrase", secret.hasPassphrase ? "Yes" : "No"],
    ["Files", secret.files === 0 ? "None" : `${secret.files} (their names are encrypted)`],
    ["Wrong attempts", String(secret.failedAttempts)],
  ];
  if (secret.burnedAt) facts.push(["Burned", `${at(secret.burnedAt)}${secret.burnReason === "attempts" ? " (too many wrong attempts)" : " (by you)"}`]);
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <UpLink to="/secrets">Secrets</UpLink>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="break-words text-2xl font-semibold text-slate-900">{secret.label || "Secret"}</h1>
          <SecretStatusBadge status={secret.status} />
        </div>
        <p className="max-w-3xl text-sm text-slate-700">This receipt never shows the secret: we cannot read it. Its link was shown once, when you created it.</p>
      </header>

      {failure ? <Alert variant="error">{failure.message}</Alert> : null}

      <dl className="grid max-w-2xl grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-testid="secret-facts">
        {facts.map(([name, value]) => (
          <div key={name} className="contents">
            <dt className="font-medium text-slate-900">{name}</dt>
            <dd className="text-slate-800">{value}</dd>
          </div>
        ))}
      </dl>

      {secret.status === "live" ? (
        <section aria-labelledby="change-heading" className="max-w-2xl space-y-4 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="change-heading" className="text-lg font-semibold text-slate-900">
            Change
          </h2>
          <IntentForm intent="change" className="flex flex-wrap items-end gap-4">
            <label className="block text-sm font-medium text-slate-900">
              Expires in
              <select name="expiresInHours" defaultValue="" className={nativeSelectClassName}>
                <option value="">Keep {at(secret.expiresAt)}</option>
                {SECRET_EXPIRY_CHOICES.filter((hours) => hours <= maxExpiryHours).map((hours) => (
                  <option key={hours} value={hours}>
                    {expiryLabel(hours)} from now
                  </option>
                ))}
              </select>
            </label>
            <label className="block text-sm font-medium text-slate-900">
              Views left
              <input name="viewsLeft" type="number" min={1} max={SECRET_MAX_VIEWS} defaultValue={secret.viewsLeft} className={nativeSelectClassName} />
            </label>
            <Button type="submit" variant="secondary" isLoading={busy}>
              Save
            </Button>
          </IntentForm>
          <IntentForm intent="burn">
            <Button type="submit" variant="danger" isLoading={busy}>
              Burn now
            </Button>
            <p className="mt-1 text-xs text-slate-600">Deletes its content at once; the link says it was burned.</p>
          </IntentForm>
        </section>
      ) : null}

      <section aria-labelledby="events-heading" className="space-y-2">
        <h2 id="events-heading" className="text-lg font-semibold text-slate-900">
          What happened
        </h2>
        <ol className="space-y-1 text-sm text-slate-800" data-testid="secret-events">
          {events.map((event, index) => (
            <li key={index}>
              {at(event.createdAt)}: {SECRET_EVENT_LABELS[event.kind as keyof typeof SECRET_EVENT_LABELS] ?? event.kind}
              {event.detail ? ` (${event.detail})` : ""}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
