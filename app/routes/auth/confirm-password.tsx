import { Form, useActionData, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { confirmPassword } from "~/features/auth/account.server";
import { redirectWithSession } from "~/features/auth/auth-route.server";
import { AuthLayout, fieldError, FormError } from "~/features/auth/components/auth-layout";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor, requireMember } from "~/features/auth/auth-guard.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/confirm-password";

export const meta: Route.MetaFunction = () => titleMeta("Confirm Password");

export function loader({ context, request }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  return { email: member.user.email, redirectTo: safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/settings") };
}

/** Re-authentication before sensitive actions; the session gets a new id (S2). */
export async function action({ context, request }: Route.ActionArgs) {
  const member = requireMember(context, request);
  return runFormAction(async () => {
    const form = await request.formData();
    const rotated = await confirmPassword(authCallFor(context, request), member, form.get("password"));
    return redirectWithSession(context, safeRedirect(form.get("redirectTo"), "/settings"), rotated);
  });
}

export default function ConfirmPasswordPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const failure = actionData && "ok" in actionData ? actionData : null;
  return (
    <AuthLayout
      title="Confirm your password"
      description={
        <>
          This is a sensitive area. Enter the password for <strong>{loaderData.email}</strong> to continue; we won't ask
          again for 15 minutes.
        </>
      }
    >
      <Form method="post" className="space-y-4" noValidate>
        <CsrfInput />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <input type="hidden" name="username" autoComplete="username" value={loaderData.email} />
        <FormError message={failure?.message} />
        <Input label="Password" name="password" type="password" autoComplete="current-password" required error={fieldError(failure?.fieldErrors, "password")} />
        <Button type="submit" className="w-full" isLoading={navigation.state === "submitting"}>
          Confirm
        </Button>
      </Form>
    </AuthLayout>
  );
}
