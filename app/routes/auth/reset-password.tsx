import { Form, Link, useActionData, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/features/auth/auth.constants";
import { noReferrerHeaders, redirectSignedOut } from "~/features/auth/auth-route.server";
import { AuthLayout, fieldError, FormError } from "~/features/auth/components/auth-layout";
import { isResetLinkOpen, resetPassword } from "~/features/auth/password-reset.server";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor } from "~/features/auth/auth-guard.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = () => titleMeta("Reset Password");
export const headers = noReferrerHeaders;

export async function loader({ context, request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, isOpen: await isResetLinkOpen(authCallFor(context, request), token) };
}

export async function action({ context, request }: Route.ActionArgs) {
  return runFormAction(async () => {
    const form = await request.formData();
    await resetPassword(authCallFor(context, request), { token: form.get("token"), password: form.get("password") });
    return redirectSignedOut(context, "/auth/success?reason=password-reset");
  });
}

export default function ResetPasswordPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const failure = actionData && "ok" in actionData ? actionData : null;
  if (!loaderData.isOpen) {
    return (
      <AuthLayout title="This link has expired">
        <Alert variant="warning">This reset link is invalid, was already used, or has expired.</Alert>
        <p className="mt-4 text-sm">
          <Link to="/forgot-password" className="text-brand-700 underline">
            Ask for a new link
          </Link>
        </p>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Choose a new password" description="All your other sessions will be signed out.">
      <Form method="post" className="space-y-4" noValidate>
        <CsrfInput />
        <input type="hidden" name="token" value={loaderData.token} />
        <FormError message={failure?.message} />
        <Input
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          description={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          error={fieldError(failure?.fieldErrors, "password")}
        />
        <Button type="submit" className="w-full" isLoading={navigation.state === "submitting"}>
          Set new password
        </Button>
      </Form>
    </AuthLayout>
  );
}
