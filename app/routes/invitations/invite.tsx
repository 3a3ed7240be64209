import { formatDayUtc } from "~/lib/format-utc";
import { Link, redirect, useActionData, useNavigation } from "react-router";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClassName } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { authCallFor } from "~/features/auth/auth-guard.server";
import { noReferrerHeaders, redirectSignedOut, redirectWithNotice, redirectWithSession } from "~/features/auth/auth-route.server";
import { AuthLayout, fieldError, FormError } from "~/features/auth/components/auth-layout";
import { NewPasswordInput } from "~/features/auth/components/new-password-input";
import { logout } from "~/features/auth/login.server";
import { acceptInvitation, registerAndAccept, viewInvitation } from "~/features/datarooms/invitations.server";
import { acceptTeamInvitation, isTeamInvitationToken, registerAndAcceptTeam, viewTeamInvitation } from "~/features/teams/team-invitations.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
import { requestContext, serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/invite";

export const meta: Route.MetaFunction = () => titleMeta("Invitation");
export const headers = noReferrerHeaders;

/**
 * /invite/{token}: the link of an invitation into a data room or a team (one flow for both; the
 * token says which). Reading it changes nothing (mail scanners fetch links); joining is a POST. Signed in with the invited address: Join. Signed in as someone
 * else: sign out and continue. Signed out: sign in (then come back here), or create the account
 * on the way when the address has none.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { actor, auth } = context.get(requestContext);
  const viewer = actor && auth ? { userId: actor.userId, email: auth.user.email } : null;
  const ctx = serviceContextFor(context);
  const team = await runLoader(() => viewTeamInvitation(ctx, params.token, viewer));
  if (team) {
    if (team.teamId) throw redirect(`/team/${team.teamId}`);
    const { teamName, ...invitation } = team.invitation;
    const view = { ...team, invitation: { ...invitation, targetName: teamName } };
    return { kind: "team" as const, view, token: params.token, signedInAs: auth?.user.email ?? null, here: new URL(request.url).pathname };
  }
  const room = await runLoader(() => viewInvitation(ctx, params.token, viewer));
  if (room.dataroomId) throw redirect(`/dataroom/${room.dataroomId}`);
  const view = { ...room, invitation: room.invitation ? { ...room.invitation, targetName: room.invitation.roomName } : null };
  return { kind: "dataroom" as const, view, token: params.token, signedInAs: auth?.user.email ?? null, here: new URL(request.url).pathname };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  return runFormAction(
    async () => {
      const { actor, auth } = context.get(requestContext);
      if (intent === "switch-account") {
        if (auth) await logout(authCallFor(context, request), auth.session);
        return redirectSignedOut(context, `/invite/${params.token}`);
      }
      const ctx = serviceContextFor(context);
      const isTeam = await isTeamInvitationToken(ctx, params.token);
      if (intent === "register") {
        if (actor) throw new AppError("CONFLICT", "You are signed in already. Reload the page to join.");
        if (isTeam) {
          const joined = await registerAndAcceptTeam(authCallFor(context, request), params.token, { name: form.get("name"), password: form.get("password") });
          return redirectWithSession(
            context,
            `/team/${joined.teamId}`,
            { token: joined.signIn.token, absoluteExpiresAt: joined.signIn.session.absoluteExpiresAt },
            { type: "success", message: "Welcome! Your account is ready and you have joined the team." },
          );
        }
        const result = await registerAndAccept(authCallFor(context, request), params.token, { name: form.get("name"), password: form.get("password") });
        return redirectWithSession(
          context,
          `/dataroom/${result.dataroomId}`,
          { token: result.signIn.token, absoluteExpiresAt: result.signIn.session.absoluteExpiresAt },
          { type: "success", message: "Welcome! Your account is ready and you have joined the data room." },
        );
      }
      if (!actor) throw new AppError("UNAUTHENTICATED", "Sign in to accept the invitation.");
      if (isTeam) {
        const teamId = await acceptTeamInvitation(ctx, actor.userId, params.token);
        return redirectWithNotice(context, `/team/${teamId}`, { type: "success", message: "You have joined the team." });
      }
      const dataroomId = await acceptInvitation(serviceContextFor(context), actor.userId, params.token);
      return redirectWithNotice(context, `/dataroom/${dataroomId}`, { type: "success", message: "You have joined the data room." });
    },
    { intent },
  );
}

export default function InvitationPage({ loaderData }: Route.ComponentProps) {
  const { kind, view, signedInAs, here } = loaderData;
  const what = kind === "team" ? "team" : "data room";
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const invitation = view.invitation;

  if (view.state !== "open" || !invitation) {
    return (
      <AuthLayout title="Invitation" description={invitation ? `To the ${what} "${invitation.targetName}"` : undefined}>
        <Alert variant="warning" title="This link can't be used">
          {view.problem}
        </Alert>
        <p className="mt-4 text-sm">
          <Link to={signedInAs ? (kind === "team" ? "/team" : "/datarooms") : "/login"} className="text-brand-700 underline">
            {signedInAs ? (kind === "team" ? "Go to your teams" : "Go to your data rooms") : "Sign in"}
          </Link>
        </p>
      </AuthLayout>
    );
  }

  const summary = (
    <div className="space-y-2 text-sm text-slate-700">
      <p>
        <strong>{invitation.inviterName}</strong> invited <strong>{invitation.email}</strong> to join as{" "}
        <strong>{invitation.roleLabel.toLowerCase()}</strong>.
      </p>
      {invitation.message ? <blockquote className="border-l-4 border-slate-300 pl-3 italic">{invitation.message}</blockquote> : null}
      <p className="text-slate-600">The invitation works once and expires on {formatDayUtc(invitation.expiresAt)}.</p>
    </div>
  );

  return (
    <AuthLayout title={`Join "${invitation.targetName}"`} description={`A ${what} on Strongroom`}>
      <div className="space-y-5">
        {summary}
        <FormError message={failure?.message} />
        {view.viewer === "invitee" ? (
          <IntentForm intent="accept">
            <Button type="submit" className="w-full" isLoading={busy === "accept"}>
              {kind === "team" ? "Join team" : "Join data room"}
            </Button>
          </IntentForm>
        ) : view.viewer === "someone-else" ? (
          <div className="space-y-3">
            <Alert variant="info">
              You are signed in as <strong>{signedInAs}</strong>, but this invitation is for <strong>{invitation.email}</strong>.
              Sign out and continue with that address.
            </Alert>
            <IntentForm intent="switch-account">
              <Button type="submit" variant="secondary" className="w-full" isLoading={busy === "switch-account"}>
                Sign out and continue
              </Button>
            </IntentForm>
          </div>
        ) : view.accountExists ? (
          <Link to={`/login?redirectTo=${encodeURIComponent(here)}`} className={buttonClassName({ className: "w-full" })}>
            Sign in to accept
          </Link>
        ) : (
          <IntentForm intent="register" className="space-y-4" noValidate>
            <p className="text-sm text-slate-700">Create your free account to join. Your e-mail address is confirmed by this invitation.</p>
            <Input label="E-mail address" name="email-shown" type="email" value={invitation.email} readOnly autoComplete="username" />
            <Input label="Name" name="name" autoComplete="name" required maxLength={100} error={fieldError(failure?.fieldErrors, "name")} />
            <NewPasswordInput error={fieldError(failure?.fieldErrors, "password")} />
            <Button type="submit" className="w-full" isLoading={busy === "register"}>
              Create account and join
            </Button>
            <p className="text-sm text-slate-700">
              Already have an account with this address?{" "}
              <Link to={`/login?redirectTo=${encodeURIComponent(here)}`} className="font-medium text-brand-700 underline">
                Sign in
              </Link>
            </p>
          </IntentForm>
        )}
      </div>
    </AuthLayout>
  );
}
