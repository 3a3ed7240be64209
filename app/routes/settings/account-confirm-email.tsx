import { Form, Link, useActionData, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { noReferrerHeaders, redirectWithNotice } from "~/features/auth/auth-route.server";
import { AuthLayout, FormError } from "~/features/auth/components/auth-layout";
import { confirmEmailChange, findOpenLinkToken } from "~/features/auth/email-verification.server";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor } from "~/features/auth/auth-guard.server";
import { requestContext } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/account-confirm-email";

export const meta: Route.MetaFunction = () => titleMeta("Confirm E-mail Change");
export const headers = noReferrerHeaders;

/**
 * No sign-in needed: the link may be opened on another device, and the token alone authorises
 * the change. Opening it only shows a button (mail scanners must not spend the token).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const row = await findOpenLinkToken(authCallFor(context, request), "change_email", token);
  return { token, isOpen: row !== null && row.newEmail !== null, newEmail: row?.newEmail ?? null };
}

export async function action({ context, request }: Route.ActionArgs) {
  return runFormAction(async () => {
    const form = await request.formData();
    const user = await confirmEmailChange(authCallFor(context, request), form.get("token"));
    // Signed out on this device, the settings page would bounce to /login; go there directly.
    const to = context.get(requestContext).actor ? "/settings/account" : "/login";
    return redirectWithNotice(context, to, { type: "success", message: `Your e-mail address is now ${user.email}.` });
  });
}

function BackLinks() {
  return (
    <p className="mt-4 text-sm text-slate-700">
      <Link to="/settings/account" className="text-brand-700 underline">
        Back to account settings
      </Link>
    </p>
  );
}

export default function ConfirmEmailChangePage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const failure = actionData && "ok" in actionData ? actionData : null;
  if (!loaderData.isOpen) {
    return (
      <AuthLayout title="Confirm your new e-mail address">
        <Alert variant="warning">This link is invalid, was already used, or has expired. Ask for a new one on the account settings page.</Alert>
        <BackLinks />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout
      title="Confirm your new e-mail address"
      description={
        <>
          Your sign-in address will change to <strong data-testid="new-email">{loaderData.newEmail}</strong>.
        </>
      }
    >
      <Form method="post" className="space-y-4">
        <CsrfInput />
        <input type="hidden" name="token" value={loaderData.token} />
        <FormError message={failure?.message} />
        <Button type="submit" className="w-full" isLoading={navigation.state === "submitting"}>
          Confirm new e-mail address
        </Button>
      </Form>
      {failure ? <BackLinks /> : null}
    </AuthLayout>
  );
}
