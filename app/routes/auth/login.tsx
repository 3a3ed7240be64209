import { useState, type FormEvent } from "react";
import { Form, Link, useActionData, useNavigate, useNavigation, useRevalidator, useSearchParams } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { initializeUserStoreAfterSignIn } from "~/features/access/after-sign-in";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { AuthLayout, fieldError, FormError } from "~/features/auth/components/auth-layout";
import { login as loginWithStore } from "~/features/auth/auth-store";
import { login } from "~/features/auth/login.server";
import { redirectWithSession } from "~/features/auth/auth-route.server";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor, redirectIfSignedIn } from "~/features/auth/auth-guard.server";
import { SECOND_FACTOR_PATH } from "~/features/auth/auth.constants";
import { HttpError } from "~/lib/http";
import { requestContext } from "~/lib/request-context.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () => titleMeta("Login");

export function loader({ context, request }: Route.LoaderArgs) {
  redirectIfSignedIn(context, request);
  return null;
}

/** The no-JavaScript path: the same service as POST /login (JSON), then a redirect. */
export async function action({ context, request }: Route.ActionArgs) {
  return runFormAction(async () => {
    const form = await request.formData();
    const redirectTo = safeRedirect(form.get("redirectTo"), "/dashboard");
    const result = await login(
      authCallFor(context, request),
      { email: form.get("email"), password: form.get("password") },
      { previousSession: context.get(requestContext).auth?.session },
    );
    const needsCode = result.requiresEmail2fa || result.requiresGoogle2fa;
    const to = needsCode ? `${SECOND_FACTOR_PATH}?redirectTo=${encodeURIComponent(redirectTo)}` : redirectTo;
    return redirectWithSession(context, to, { token: result.token, absoluteExpiresAt: result.session.absoluteExpiresAt });
  });
}

export default function LoginPage() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const redirectTo = safeRedirect(searchParams.get("redirectTo"), "/dashboard");
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const [clientError, setClientError] = useState<{ message: string; fieldErrors?: Record<string, string[]> } | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const failure = clientError ?? (actionData && "ok" in actionData ? actionData : null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setSubmitting(true);
    setClientError(null);
    try {
      const response = await loginWithStore({ email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") });
      const needsCode = response.requires_email_2fa || response.requires_google_2fa;
      await navigate(needsCode ? `${SECOND_FACTOR_PATH}?redirectTo=${encodeURIComponent(redirectTo)}` : redirectTo, { replace: true });
      await revalidator.revalidate();
      if (!needsCode) void initializeUserStoreAfterSignIn().catch((error: unknown) => console.error("User data initialisation after sign-in failed", error));
    } catch (error) {
      const body = error instanceof HttpError && error.body && typeof error.body === "object" ? (error.body as { fieldErrors?: Record<string, string[]> }) : {};
      setClientError({ message: error instanceof Error && error.message ? error.message : "Login failed", fieldErrors: body.fieldErrors });
      setSubmitting(false);
    }
  }

  return (
    <AuthLayout
      title="Sign in"
      description="Welcome back. Sign in to reach your data rooms."
      footer={
        <>
          New to Strongroom?{" "}
          <Link to="/register" className="font-medium text-brand-700 underline">
            Create an account
          </Link>
        </>
      }
    >
      <Form method="post" className="space-y-4" onSubmit={(event) => void onSubmit(event)} noValidate>
        <CsrfInput />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormError message={failure?.message} />
        <Input label="E-mail address" name="email" type="email" autoComplete="username" required error={fieldError(failure?.fieldErrors, "email")} />
        <Input
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={fieldError(failure?.fieldErrors, "password")}
        />
        <div className="flex items-center justify-between gap-4">
          <Link to="/forgot-password" className="text-sm text-brand-700 underline">
            Forgot your password?
          </Link>
          <Button type="submit" isLoading={isSubmitting || navigation.state === "submitting"}>
            Sign in
          </Button>
        </div>
      </Form>
    </AuthLayout>
  );
}
