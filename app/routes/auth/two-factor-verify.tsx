import { useState, type FormEvent } from "react";
import { Form, redirect, useActionData, useNavigate, useNavigation, useRevalidator } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { initializeUserStoreAfterSignIn } from "~/features/access/after-sign-in";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { verifyTwoFactor } from "~/features/auth/auth-store";
import { redirectWithSession } from "~/features/auth/auth-route.server";
import { AuthLayout, fieldError, FormError } from "~/features/auth/components/auth-layout";
import { sendEmailSignInCode, verifySecondFactor } from "~/features/auth/login.server";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor } from "~/features/auth/auth-guard.server";
import { AppError } from "~/lib/errors";
import { requestContext } from "~/lib/request-context.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/two-factor-verify";

export const meta: Route.MetaFunction = () => titleMeta("Two-Factor Verification");

function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 2)}${"•".repeat(Math.max(1, local.length - 2))}@${domain}`;
}

/** Only a session that still owes its second factor belongs here. */
function pendingSession(context: Route.LoaderArgs["context"], request: Request) {
  const { auth } = context.get(requestContext);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/dashboard");
  if (!auth) throw redirect("/login");
  if (auth.session.verified || !auth.session.pendingSecondFactor) throw redirect(redirectTo);
  return { auth, method: auth.session.pendingSecondFactor, redirectTo };
}

export function loader({ context, request }: Route.LoaderArgs) {
  const { auth, method, redirectTo } = pendingSession(context, request);
  return { method, maskedEmail: maskEmail(auth.user.email), redirectTo };
}

export async function action({ context, request }: Route.ActionArgs) {
  const { auth, redirectTo } = pendingSession(context, request);
  return runFormAction(async () => {
    const form = await request.formData();
    const call = authCallFor(context, request);
    if (form.get("intent") === "resend") {
      if (auth.session.pendingSecondFactor !== "email") throw new AppError("VALIDATION_ERROR", "This sign-in uses your authenticator app.");
      await sendEmailSignInCode(call, auth.user, auth.session.id);
      return { ok: true as const, resent: true };
    }
    const result = await verifySecondFactor(call, { session: auth.session, user: auth.user, code: form.get("code") });
    return redirectWithSession(context, redirectTo, result);
  });
}

export default function TwoFactorVerifyPage({ loaderData }: Route.ComponentProps) {
  const { method, maskedEmail, redirectTo } = loaderData;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [clientError, setClientError] = useState<string | null>(null);
  const [isVerifying, setVerifying] = useState(false);
  const failure = actionData && !actionData.ok ? actionData : null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "");
    setVerifying(true);
    setClientError(null);
    try {
      await verifyTwoFactor(code);
      await navigate(redirectTo, { replace: true });
      await revalidator.revalidate();
      void initializeUserStoreAfterSignIn().catch((error: unknown) => console.error("User data initialisation after sign-in failed", error));
    } catch (error) {
      setClientError(error instanceof Error && error.message ? error.message : "2FA verification failed");
      setVerifying(false);
    }
  }

  return (
    <AuthLayout
      title="Two-factor verification"
      description={
        method === "email" ? (
          <>We sent a 6-digit code to {maskedEmail}. It expires in 10 minutes.</>
        ) : (
          <>Open your authenticator app and enter the 6-digit code for Strongroom. Lost your phone? Enter one of your recovery codes instead.</>
        )
      }
      footer={
        <Form method="post" action="/logout" reloadDocument>
          <CsrfInput />
          <button type="submit" className="text-brand-700 underline">
            Cancel and sign out
          </button>
        </Form>
      }
    >
      <div className="space-y-4">
        {actionData?.ok ? <Alert variant="success">A new code is on its way.</Alert> : null}
        <Form method="post" className="space-y-4" onSubmit={(event) => void onSubmit(event)} noValidate>
          <CsrfInput />
          <input type="hidden" name="intent" value="verify" />
          <FormError message={clientError ?? failure?.message} />
          <Input
            label={method === "email" ? "Code from the e-mail" : "Authentication code"}
            name="code"
            autoComplete="one-time-code"
            inputMode={method === "email" ? "numeric" : "text"}
            required
            maxLength={32}
            error={fieldError(failure?.fieldErrors, "code")}
          />
          <Button type="submit" className="w-full" isLoading={isVerifying || (navigation.state === "submitting" && navigation.formData?.get("intent") === "verify")}>
            Verify
          </Button>
        </Form>
        {method === "email" ? (
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="resend" />
            <Button type="submit" variant="secondary" className="w-full" isLoading={navigation.state === "submitting" && navigation.formData?.get("intent") === "resend"}>
              Send a new code
            </Button>
          </Form>
        ) : (
          <p className="text-sm text-slate-600">
            No access to your app and no recovery codes left? Write to support from your account's e-mail address and
            we will help you back in after checking it is you.
          </p>
        )}
      </div>
    </AuthLayout>
  );
}
