import { REFERRAL_COOKIE } from "~/features/billing/referrals.constants";
import { readCookie } from "~/lib/cookies";
import { lazy, Suspense } from "react";
import { Form, Link, useActionData, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { AuthLayout, fieldError, FormError } from "~/features/auth/components/auth-layout";
import { NewPasswordInput } from "~/features/auth/components/new-password-input";
import { register } from "~/features/auth/registration.server";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor, redirectIfSignedIn } from "~/features/auth/auth-guard.server";
import { readConfig } from "~/lib/config.server";
import { requestContext } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/register";

export const meta: Route.MetaFunction = () => titleMeta("Register");

// Loaded only where Turnstile is configured, so the sign-up page stays light otherwise (G5).
const TurnstileWidget = lazy(() => import("~/features/auth/components/turnstile-widget").then((module) => ({ default: module.TurnstileWidget })));

/** The hidden field bots fill in and people never see (S23). */
const HONEYPOT_FIELD = "website";

export function loader({ context, request }: Route.LoaderArgs) {
  redirectIfSignedIn(context, request);
  const config = readConfig(context.get(requestContext).env);
  return { turnstileSiteKey: config.isTurnstileEnabled ? (config.TURNSTILE_SITE_KEY ?? null) : null };
}

export async function action({ context, request }: Route.ActionArgs) {
  return runFormAction(async () => {
    const form = await request.formData();
    const { email } = await register(authCallFor(context, request), {
      fields: { name: form.get("name"), email: form.get("email"), password: form.get("password") },
      honeypot: form.get(HONEYPOT_FIELD),
      turnstileToken: form.get("cf-turnstile-response"),
      referralCode: readCookie(request.headers.get("cookie"), REFERRAL_COOKIE),
    });
    return { ok: true as const, email };
  });
}

export default function RegisterPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  if (actionData?.ok) {
    return (
      <AuthLayout title="Check your inbox">
        <Alert variant="success" title="Almost there">
          We sent a confirmation link to <strong>{actionData.email}</strong>. Open it to finish creating your account. The
          link works for 24 hours.
        </Alert>
        <p className="mt-4 text-sm text-slate-700">
          Nothing arrived? Check your spam folder, or{" "}
          <Link to="/login" className="text-brand-700 underline">
            sign in
          </Link>{" "}
          to have a new link sent.
        </p>
      </AuthLayout>
    );
  }
  const failure = actionData && !actionData.ok ? actionData : null;
  return (
    <AuthLayout
      title="Create your account"
      description="Free to start. No credit card needed."
      footer={
        <>
          Already have an account?{" "}
          <Link to="/login" className="font-medium text-brand-700 underline">
            Sign in
          </Link>
        </>
      }
    >
      <Form method="post" className="space-y-4" noValidate>
        <CsrfInput />
        <FormError message={failure?.message} />
        <Input label="Name" name="name" autoComplete="name" required maxLength={100} error={fieldError(failure?.fieldErrors, "name")} />
        <Input label="E-mail address" name="email" type="email" autoComplete="email" required error={fieldError(failure?.fieldErrors, "email")} />
        <NewPasswordInput error={fieldError(failure?.fieldErrors, "password")} />
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor="register-website">Website</label>
          <input id="register-website" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
        </div>
        {loaderData.turnstileSiteKey ? (
          <Suspense fallback={<p className="text-sm text-slate-600">Loading the security check…</p>}>
            <TurnstileWidget siteKey={loaderData.turnstileSiteKey} />
          </Suspense>
        ) : null}
        <Button type="submit" className="w-full" isLoading={navigation.state === "submitting"}>
          Create account
        </Button>
      </Form>
    </AuthLayout>
  );
}
