import { Form, Link, useActionData, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { noReferrerHeaders, redirectWithSession } from "~/features/auth/auth-route.server";
import { AuthLayout, FormError } from "~/features/auth/components/auth-layout";
import { confirmEmail } from "~/features/auth/email-verification.server";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor } from "~/features/auth/auth-guard.server";
import { titleMeta } from "~/lib/title";
import { redirect } from "react-router";
import type { Route } from "./+types/verify-email";

export const meta: Route.MetaFunction = () => titleMeta("Verify Email");
export const headers = noReferrerHeaders;

export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

/**
 * Opening the link shows a button; only the POST uses the token up, so mail scanners that fetch
 * links do not spend it.
 */
export async function action({ context, request }: Route.ActionArgs) {
  return runFormAction(async () => {
    const form = await request.formData();
    const result = await confirmEmail(authCallFor(context, request), form.get("token"));
    if (!result.signIn) return redirect("/auth/success?reason=email-verified");
    return redirectWithSession(context, "/auth/success?reason=email-verified", {
      token: result.signIn.token,
      absoluteExpiresAt: result.signIn.session.absoluteExpiresAt,
    });
  });
}

export default function VerifyEmailPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  if (!loaderData.token) {
    return (
      <AuthLayout title="Verify your e-mail address">
        <Alert variant="info">Open the confirmation link we e-mailed you. It works for 24 hours.</Alert>
        <p className="mt-4 text-sm text-slate-700">
          Link expired?{" "}
          <Link to="/login" className="text-brand-700 underline">
            Sign in
          </Link>{" "}
          and we'll send a new one.
        </p>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Verify your e-mail address" description="One click and your account is ready.">
      <Form method="post" className="space-y-4">
        <CsrfInput />
        <input type="hidden" name="token" value={loaderData.token} />
        <FormError message={actionData?.message} />
        <Button type="submit" className="w-full" isLoading={navigation.state === "submitting"}>
          Confirm my e-mail address
        </Button>
      </Form>
      {actionData ? (
        <p className="mt-4 text-sm">
          <Link to="/login" className="text-brand-700 underline">
            Sign in to get a new link
          </Link>
        </p>
      ) : null}
    </AuthLayout>
  );
}
