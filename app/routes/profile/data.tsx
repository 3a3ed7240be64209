import { Form, Link, useActionData, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Button, buttonClassName } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { fieldError, FormError } from "~/features/auth/components/auth-layout";
import { SettingsHeader } from "~/features/auth/components/settings-frame";
import { redirectSignedOut } from "~/features/auth/auth-route.server";
import { deleteAccount } from "~/features/personal-data/delete-account.server";
import { DELETE_CONFIRMATION, EXPORTS_PER_HOUR } from "~/features/personal-data/personal-data.schema";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor, requireMember } from "~/features/auth/auth-guard.server";
import { AppError } from "~/lib/errors";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/data";

export const meta: Route.MetaFunction = () => titleMeta("Your Data");

export function loader({ context, request }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  return { email: member.user.email };
}

export async function action({ context, request }: Route.ActionArgs) {
  const member = requireMember(context, request);
  return runFormAction(async () => {
    const form = await request.formData();
    if (form.get("intent") !== "delete") throw new AppError("VALIDATION_ERROR", "That action is not available on this page.");
    await deleteAccount(authCallFor(context, request), member, { password: form.get("password"), confirmation: form.get("confirmation") });
    return redirectSignedOut(context, "/login", { type: "success", message: "Your account has been deleted." });
  });
}

export default function YourDataPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const failure = actionData && "ok" in actionData ? actionData : null;
  const isDeleting = navigation.state === "submitting" && navigation.formData?.get("intent") === "delete";

  return (
    <>
      <SettingsHeader title="Your data" description="Take a copy of what Strongroom keeps about you, or delete your account." />

      <Card>
        <CardHeader>
          <CardTitle as="h2">Download your data</CardTitle>
          <CardDescription>
            A zip file with your profile, the devices signed in to your account, your account activity and a list of the
            e-mails we sent you, as JSON files with a README that explains each one.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <Link to="/profile/data/export" reloadDocument className={buttonClassName({ variant: "secondary" })}>
            Download my data
          </Link>
          <p className="text-slate-600">You can download your data up to {EXPORTS_PER_HOUR} times an hour.</p>
        </CardContent>
      </Card>

      <Card className="border-red-200">
        <CardHeader>
          <CardTitle as="h2">Delete your account</CardTitle>
          <CardDescription>This cannot be undone. Download your data first if you want to keep a copy.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <ul className="list-disc space-y-1 pl-5">
            <li>Your profile, settings, sign-in history and two-factor setup are deleted at once.</li>
            <li>Every device signed in to your account is signed out.</li>
            <li>Files you uploaded are removed from storage within minutes.</li>
            <li>We send a last e-mail to {loaderData.email} to confirm the deletion.</li>
          </ul>
          <Form method="post" className="max-w-md space-y-4" noValidate>
            <CsrfInput />
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="username" autoComplete="username" value={loaderData.email} />
            <FormError message={failure?.message} />
            <Input
              label="Password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              error={fieldError(failure?.fieldErrors, "password")}
            />
            <Input
              label={`Type ${DELETE_CONFIRMATION} to confirm`}
              name="confirmation"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              required
              error={fieldError(failure?.fieldErrors, "confirmation")}
            />
            <Button type="submit" variant="danger" isLoading={isDeleting}>
              Delete my account
            </Button>
          </Form>
        </CardContent>
      </Card>
    </>
  );
}
