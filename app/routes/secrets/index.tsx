import { ErrorPage } from "~/components/error-page";
import { HelpLink } from "~/features/guide/components/help-link";
import { buttonClassName } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { SecretStatusBadge } from "~/features/secrets/components/secret-status-badge";
import { REQUEST_STATUS, SECRET_EVENT_LABELS } from "~/features/secrets/secrets.constants";
import { listSecretRequests } from "~/features/secrets/secret-requests.server";
import { Badge } from "~/components/ui/badge";
import { listSecrets } from "~/features/secrets/secrets.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => titleMeta("Secrets");

/** /secrets: the member's one-time secrets (status, views, expiry; never content) and what happened to them lately. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => ({ ...(await listSecrets(ctx, user.id)), requests: await listSecretRequests(ctx, user.id) }));
}

const at = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;

export default function SecretsPage({ loaderData }: Route.ComponentProps) {
  const { secrets, activity, limits, requests } = loaderData;
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-3xl space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">Secrets</h1>
          <HelpLink article="secrets">How secrets work</HelpLink>
          <p className="text-sm text-slate-700">
            Passwords and notes sent once: encrypted in your browser, readable only with the link (and the passphrase, if you set one), deleted after the last view or at expiry. We can never read them.
          </p>
          <p className="text-sm text-slate-600" data-testid="secret-limits">
            {limits.liveSecrets === -1 ? `${limits.live} waiting to be read.` : `${limits.live} of ${limits.liveSecrets} waiting to be read on your ${limits.tierLabel} plan.`}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href="/secrets/new" className={buttonClassName({})}>
            New secret
          </a>
          <a href="/secrets/requests/new" className={buttonClassName({ variant: "secondary" })}>
            Request a secret
          </a>
        </div>
      </div>

      {secrets.length === 0 ? (
        <p className="text-sm text-slate-700">You have not created a secret yet.</p>
      ) : (
        <Table caption="Your secrets, newest first" isCaptionHidden>
          <TableHead>
            <tr>
              <TableHeaderCell>Secret</TableHeaderCell>
              <TableHeaderCell>Status</TableHeaderCell>
              <TableHeaderCell>Views</TableHeaderCell>
              <TableHeaderCell>Expires</TableHeaderCell>
              <TableHeaderCell>Created</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {secrets.map((secret) => (
              <TableRow key={secret.id} data-testid="secret-row">
                <TableCell>
                  <a href={`/secrets/${secret.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    {secret.label || `Secret of ${at(secret.createdAt)}`}
                  </a>
                  {secret.hasPassphrase ? <span className="ml-2 text-xs text-slate-600">passphrase</span> : null}
                </TableCell>
                <TableCell>
                  <SecretStatusBadge status={secret.status} />
                </TableCell>
                <TableCell>
                  {secret.viewCount} of {secret.maxViews}
                </TableCell>
                <TableCell>{at(secret.expiresAt)}</TableCell>
                <TableCell>{at(secret.createdAt)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      <section aria-labelledby="requests-heading" className="space-y-2">
        <h2 id="requests-heading" className="text-lg font-semibold text-slate-900">
          Requests
        </h2>
        {requests.length === 0 ? (
          <p className="text-sm text-slate-700">Ask someone to send you a secret that only you can open: Request a secret.</p>
        ) : (
          <Table caption="Your requests for secrets, newest first" isCaptionHidden>
            <TableHead>
              <tr>
                <TableHeaderCell>Request</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>Answers</TableHeaderCell>
                <TableHeaderCell>Open until</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {requests.map((item) => (
                <TableRow key={item.id} data-testid="request-row">
                  <TableCell>
                    <a href={`/secrets/requests/${item.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                      {item.label || item.message.slice(0, 60)}
                    </a>
                  </TableCell>
                  <TableCell>
                    <Badge variant={REQUEST_STATUS[item.status].variant}>{REQUEST_STATUS[item.status].label}</Badge>
                  </TableCell>
                  <TableCell>
                    {item.responseCount} of {item.maxResponses}
                  </TableCell>
                  <TableCell>{at(item.expiresAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>

      {activity.length > 0 ? (
        <section aria-labelledby="activity-heading" className="space-y-2">
          <h2 id="activity-heading" className="text-lg font-semibold text-slate-900">
            Recent activity
          </h2>
          <ul className="space-y-1 text-sm text-slate-800" data-testid="secret-activity">
            {activity.map((event, index) => (
              <li key={`${event.secretId}-${index}`}>
                {at(event.createdAt)}: {SECRET_EVENT_LABELS[event.kind as keyof typeof SECRET_EVENT_LABELS] ?? event.kind}, <a href={`/secrets/${event.secretId}`} className="text-brand-700 underline-offset-2 hover:underline">{event.label || "a secret"}</a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
