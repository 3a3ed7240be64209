import { HeaderRow, Table, TableBody, TableCell, TableRow } from "~/components/ui/table";
import { useState } from "react";
import { ErrorPage } from "~/components/error-page";
import { Button } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { formatMoney } from "~/features/billing/billing.constants";
import { getReferralPage } from "~/features/billing/referrals.server";
import { runLoader } from "~/lib/action-result.server";
import { formatDayUtc } from "~/lib/format-utc";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => titleMeta("Referrals");

/** Referrals (spec §2 "Referrals"): the member's link, its clicks, sign-ups, paid referrals and credits. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => ({ page: await getReferralPage(serviceContextFor(context), user.id), origin: new URL(request.url).origin }));
}

const STATUS: Record<string, string> = { signed_up: "Signed up", paid: "Paid", refused: "Not counted" };

export default function ReferralsPage({ loaderData }: Route.ComponentProps) {
  const { page, origin } = loaderData;
  const link = `${origin}${page.path}`;
  const [copied, setCopied] = useState(false);
  const credit = formatMoney(page.credit.cents, page.credit.currency);
  const stats = [
    { label: "Clicks", value: String(page.stats.clicks) },
    { label: "Sign-ups", value: String(page.stats.signUps) },
    { label: "Paid", value: String(page.stats.paid) },
    { label: "Credits earned", value: formatMoney(page.stats.creditedCents, page.stats.currency) },
  ];
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Referrals</h1>
      <p className="text-sm text-slate-700">
        Share your link. When someone signs up through it (within 90 days) and pays for a plan, you both get {credit} off your next invoices. Signing up yourself, or paying with a card already used by you or another of your referrals, does not count.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="referral-link" className="sr-only">
          Your referral link
        </label>
        <input id="referral-link" readOnly value={link} className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm text-slate-900" onFocus={(event) => event.target.select()} />
        <Button
          variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(link).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied" : "Copy link"}
        </Button>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {stats.map((stat) => (
          <div key={stat.label} className="rounded-lg border border-slate-200 bg-white p-4">
            <dt className="text-xs text-slate-600">{stat.label}</dt>
            <dd className="text-xl font-semibold text-slate-900" data-testid={`referral-${stat.label.toLowerCase().replace(/\s/g, "-")}`}>
              {stat.value}
            </dd>
          </div>
        ))}
      </dl>
      {page.people.length > 0 ? (
        <Table caption="People you referred" isCaptionHidden>
          <HeaderRow columns={["Who", "Signed up", "Status"]} />
          <TableBody>
            {page.people.map((person) => (
              <TableRow key={`${person.email}:${person.signedUpAt}`} data-testid="referral-row">
                <TableCell className="text-slate-900">{person.email}</TableCell>
                <TableCell>{formatDayUtc(person.signedUpAt)}</TableCell>
                <TableCell>
                  {STATUS[person.status]}
                  {person.status === "paid" && person.creditCents !== null && person.currency ? ` · ${formatMoney(person.creditCents, person.currency)} each${person.credited ? "" : " (on its way)"}` : null}
                  {person.refusal ? ` · ${person.refusal}` : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : (
        <p className="text-sm text-slate-700">Nobody has signed up through your link yet.</p>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
