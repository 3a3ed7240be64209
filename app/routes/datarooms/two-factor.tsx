import { type FormEvent } from "react";
import { redirect } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { CsrfInput } from "~/components/csrf-input";
import { buttonClassName } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { showToast } from "~/components/ui/toast";
import { logout } from "~/features/auth/auth-store";
import { requireMember } from "~/features/auth/auth-guard.server";
import { getTwoFactorGate } from "~/features/datarooms/security.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/two-factor";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Two-factor verification") }];

/**
 * /dataroom/{id}/two-factor (spec §2 "two-factor verification"): where the room's 2FA requirement
 * sends people whose session did not pass a second factor. It explains, and offers the way: turn
 * it on in /settings/2fa, or sign in again with the code. Anyone it does not concern goes to the
 * room; outsiders get 404.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const gate = await runLoader(() => getTwoFactorGate(serviceContextFor(context), user.id, params.id));
  if (!gate.required || gate.passed) throw redirect(`/dataroom/${gate.room.id}`);
  return gate;
}

export default function DataroomTwoFactorPage({ loaderData }: Route.ComponentProps) {
  const { room, enrolled } = loaderData;
  const back = `/dataroom/${room.id}`;

  async function onSignInAgain(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    try {
      await logout();
    } catch (error) {
      showToast(error instanceof Error ? error.message : "Signing out failed", { type: "error" });
      return;
    }
    window.location.assign(`/login?redirectTo=${encodeURIComponent(back)}`);
  }

  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Two-factor verification</h1>
      <Card>
        <CardContent className="space-y-4">
          <p className="text-base text-slate-800">
            <strong>{room.name}</strong> is open only to people who signed in with a second factor: a code from an authenticator app or one sent by e-mail, on top of
            their password. It keeps the room safe even if a password leaks.
          </p>
          {enrolled ? (
            <>
              <p className="text-sm text-slate-700" data-testid="two-factor-state">
                Your account has two-factor sign-in, but this session started without a code (it began before you turned it on). Sign in again and enter your code to
                open the room.
              </p>
              <form method="post" action="/logout" onSubmit={(event) => void onSignInAgain(event)}>
                <CsrfInput />
                <button type="submit" className={buttonClassName()}>
                  Sign in again with my code
                </button>
              </form>
            </>
          ) : (
            <>
              <p className="text-sm text-slate-700" data-testid="two-factor-state">
                Your account does not have two-factor sign-in yet. Turn it on (it takes a minute with an authenticator app, or choose codes by e-mail), then sign in
                again with it.
              </p>
              <a href="/settings/2fa" className={buttonClassName()}>
                Set up two-factor sign-in
              </a>
            </>
          )}
          <p className="text-sm text-slate-700">
            Then come back to{" "}
            <a href={back} className="font-medium text-brand-700 underline-offset-2 hover:underline">
              {room.name}
            </a>
            .
          </p>
        </CardContent>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
