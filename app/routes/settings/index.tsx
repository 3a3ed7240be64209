import type { ReactNode } from "react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { TIER_LABELS } from "~/features/access/access.constants";
import { loadMemberAccess } from "~/features/access/access.server";
import { listSessions } from "~/features/auth/account.server";
import { DEFAULT_SESSION_LIFETIME_HOURS, sessionLifetimeLabel } from "~/features/auth/activity-labels";
import { SettingsHeader } from "~/features/auth/components/settings-frame";
import { twoFactorStatus } from "~/features/auth/two-factor.server";
import { authCallFor, requireMember } from "~/features/auth/auth-guard.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => titleMeta("Settings");

export async function loader({ context, request }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  const call = authCallFor(context, request);
  const [twoFactor, sessions, access] = await Promise.all([
    twoFactorStatus(call, member),
    listSessions(call, member),
    loadMemberAccess(call.ctx, member.user.id),
  ]);
  return {
    email: member.user.email,
    isEmailVerified: member.user.emailVerifiedAt !== null,
    name: member.user.name,
    isTwoFactorOn: twoFactor.totpEnabled || twoFactor.email2faEnabled,
    twoFactorMethods: [twoFactor.totpEnabled ? "authenticator app" : null, twoFactor.email2faEnabled ? "e-mail codes" : null].filter(
      (method): method is string => method !== null,
    ),
    require2fa: twoFactor.require2fa,
    sessionLifetime: sessionLifetimeLabel(member.user.sessionLifetimeHours ?? DEFAULT_SESSION_LIFETIME_HOURS),
    activeSessions: sessions.length,
    plan: TIER_LABELS[access.tier],
  };
}

function OverviewCard({ to, title, testId, children }: { to: string; title: string; testId: string; children: ReactNode }) {
  return (
    <li>
      <Card className="h-full" data-testid={testId}>
        <CardHeader>
          <CardTitle as="h2">
            <Link to={to} className="text-brand-700 underline-offset-2 hover:underline">
              {title}
            </Link>
          </CardTitle>
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </li>
  );
}

export default function SettingsIndexPage({ loaderData }: Route.ComponentProps) {
  const data = loaderData;
  return (
    <>
      <SettingsHeader title="Settings" description="Your account, how you sign in, and what Strongroom keeps about you." />
      <ul className="grid gap-4 sm:grid-cols-2">
        <OverviewCard to="/settings/account" title="Account" testId="overview-account">
          <p>
            E-mail: {data.email}{" "}
            {data.isEmailVerified ? <Badge variant="success">Verified</Badge> : <Badge variant="warning">Not verified</Badge>}
          </p>
          <p className="mt-1">Name, e-mail address and password.</p>
        </OverviewCard>
        <OverviewCard to="/settings/plan" title="Plan" testId="overview-plan">
          <p>
            Your plan: <Badge variant="brand">{data.plan}</Badge>
          </p>
          <p className="mt-1">Limits, add-ons and what each plan includes.</p>
        </OverviewCard>
        <OverviewCard to="/settings/2fa" title="Two-factor authentication" testId="overview-two-factor">
          <p>
            Two-factor: {data.isTwoFactorOn ? "on" : "off"}
            {data.twoFactorMethods.length > 0 ? ` (${data.twoFactorMethods.join(", ")})` : null}
          </p>
        </OverviewCard>
        <OverviewCard to="/settings/security" title="Security" testId="overview-security">
          <p>Active sessions: {data.activeSessions}</p>
        </OverviewCard>
        <OverviewCard to="/settings/security-level" title="Security level" testId="overview-security-level">
          <p>Two-factor required: {data.require2fa ? "yes" : "no"}</p>
          <p className="mt-1">Sign-in lasts: {data.sessionLifetime}</p>
        </OverviewCard>
        <OverviewCard to="/profile" title="Profile" testId="overview-profile">
          <p>Shown as: {data.name}</p>
        </OverviewCard>
        <OverviewCard to="/profile/activity" title="Activity" testId="overview-activity">
          <p>Recent sign-ins and changes to your account.</p>
        </OverviewCard>
        <OverviewCard to="/profile/data" title="Your data" testId="overview-data">
          <p>Export your personal data or delete your account.</p>
        </OverviewCard>
      </ul>
    </>
  );
}
