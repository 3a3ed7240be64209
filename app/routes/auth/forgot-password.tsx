import { Form, Link, useActionData, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { AuthLayout, fieldError, FormError } from "~/features/auth/components/auth-layout";
import { requestPasswordReset } from "~/features/auth/password-reset.server";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor } from "~/features/auth/auth-guard.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = () => titleMeta("Forgot Password");

export async function action({ context, request }: Route.ActionArgs) {
  return runFormAction(async () => {
    const form = await request.formData();
    const { email } = await requestPasswordReset(authCallFor(context, request), { email: form.get("email") });
    return { ok: true as const, email };
  });
}

export default function ForgotPasswordPage() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : null;
  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter the e-mail address of your account and we'll send you a link to choose a new password."
      footer={
        <Link to="/login" className="text-brand-700 underline">
          Back to sign in
        </Link>
      }
    >
      {actionData?.ok ? (
        <Alert variant="success" title="Check your inbox">
          If an account exists for <strong>{actionData.email}</strong>, a link to reset its password is on its way. The
          link works once, for 1 hour.
        </Alert>
      ) : (
        <Form method="post" className="space-y-4" noValidate>
          <CsrfInput />
          <FormError message={failure?.message} />
          <Input label="E-mail address" name="email" type="email" autoComplete="email" required error={fieldError(failure?.fieldErrors, "email")} />
          <Button type="submit" className="w-full" isLoading={navigation.state === "submitting"}>
            Send reset link
          </Button>
        </Form>
      )}
    </AuthLayout>
  );
}
