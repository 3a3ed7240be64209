import { Form, useActionData, useLocation, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { changePassword, requestEmailChange, updateProfile } from "~/features/auth/account.server";
import { sessionsSignedOutMessage } from "~/features/auth/activity-labels";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/features/auth/auth.constants";
import { redirectWithNotice, redirectWithSession } from "~/features/auth/auth-route.server";
import { NameField } from "~/features/auth/components/name-field";
import { fieldError, FormError } from "~/features/auth/components/auth-layout";
import { formLevelMessage, SettingsHeader } from "~/features/auth/components/settings-frame";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor, requireMember, requireRecentAuth } from "~/features/auth/auth-guard.server";
import { AppError } from "~/lib/errors";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/account";

export const meta: Route.MetaFunction = () => titleMeta("Account Settings");

const PAGE = "/settings/account";

export function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return { name: user.name, email: user.email, isEmailVerified: user.emailVerifiedAt !== null };
}

/** Three forms, told apart by their hidden `intent` field. */
export async function action({ context, request }: Route.ActionArgs) {
  const member = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  // Changing the sign-in address is sensitive: confirm the password first, then come back here.
  if (intent === "email") requireRecentAuth(context, request);
  const call = authCallFor(context, request);
  return runFormAction(
    async () => {
      switch (intent) {
        case "name": {
          await updateProfile(call, member, { name: form.get("name") });
          return redirectWithNotice(context, PAGE, { type: "success", message: "Name saved." });
        }
        case "email": {
          const { newEmail } = await requestEmailChange(call, member, { email: form.get("email") });
          return redirectWithNotice(context, PAGE, {
            type: "success",
            message: `We sent a confirmation link to ${newEmail}. Open it to finish the change.`,
          });
        }
        case "password": {
          const endOtherSessions = form.get("endOtherSessions") === "on";
          const result = await changePassword(call, member, {
            currentPassword: form.get("currentPassword"),
            newPassword: form.get("newPassword"),
            endOtherSessions,
          });
          const message = endOtherSessions ? `Password changed. ${sessionsSignedOutMessage(result.endedSessions)}` : "Password changed.";
          return redirectWithSession(context, PAGE, result, { type: "success", message });
        }
        default:
          throw new AppError("VALIDATION_ERROR", "Choose what to change.");
      }
    },
    { intent },
  );
}

export default function AccountSettingsPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  // A new key after each navigation (a success redirects back here) empties the forms.
  const { key: formKey } = useLocation();
  const failure = actionData && "ok" in actionData ? actionData : null;
  const failureFor = (intent: string) => (failure?.intent === intent ? failure : null);
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const nameFailure = failureFor("name");
  const emailFailure = failureFor("email");
  const passwordFailure = failureFor("password");

  return (
    <>
      <SettingsHeader title="Account settings" description="Your name, the e-mail address you sign in with, and your password." />
      <FormError message={failure && !failure.intent ? failure.message : null} />

      <Card>
        <CardHeader>
          <CardTitle as="h2">Name</CardTitle>
          <CardDescription>How other members see you in data rooms and activity.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form key={formKey} method="post" className="max-w-md space-y-4" noValidate>
            <CsrfInput />
            <input type="hidden" name="intent" value="name" />
            <FormError message={formLevelMessage(nameFailure, ["name"])} />
            <NameField defaultValue={loaderData.name} error={fieldError(nameFailure?.fieldErrors, "name")} />
            <Button type="submit" isLoading={submitting === "name"}>
              Save name
            </Button>
          </Form>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">E-mail address</CardTitle>
          <CardDescription>The address you sign in with and where security alerts go.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <dl className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <dt className="font-medium text-slate-900">Current e-mail address</dt>
            <dd data-testid="current-email">{loaderData.email}</dd>
            <dd>
              {loaderData.isEmailVerified ? (
                <Badge variant="success" data-testid="email-verified-status">
                  Verified
                </Badge>
              ) : (
                <Badge variant="warning" data-testid="email-verified-status">
                  Not verified
                </Badge>
              )}
            </dd>
          </dl>
          <Form key={formKey} method="post" className="max-w-md space-y-4" noValidate>
            <CsrfInput />
            <input type="hidden" name="intent" value="email" />
            <FormError message={formLevelMessage(emailFailure, ["email"])} />
            <Input
              label="New e-mail address"
              name="email"
              type="email"
              autoComplete="email"
              required
              description="We'll e-mail a confirmation link to the new address. Your address changes when you open it."
              error={fieldError(emailFailure?.fieldErrors, "email")}
            />
            <Button type="submit" isLoading={submitting === "email"}>
              Send confirmation link
            </Button>
          </Form>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Password</CardTitle>
          <CardDescription>We'll e-mail you when your password changes.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form key={formKey} method="post" className="max-w-md space-y-4" noValidate>
            <CsrfInput />
            <input type="hidden" name="intent" value="password" />
            <input type="hidden" name="username" autoComplete="username" value={loaderData.email} />
            <FormError message={formLevelMessage(passwordFailure, ["currentPassword", "newPassword"])} />
            <Input
              label="Current password"
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              required
              error={fieldError(passwordFailure?.fieldErrors, "currentPassword")}
            />
            <Input
              label="New password"
              name="newPassword"
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN_LENGTH}
              maxLength={PASSWORD_MAX_LENGTH}
              description={`At least ${PASSWORD_MIN_LENGTH} characters.`}
              error={fieldError(passwordFailure?.fieldErrors, "newPassword")}
            />
            <Checkbox label="Sign out of all other sessions" name="endOtherSessions" value="on" defaultChecked />
            <Button type="submit" isLoading={submitting === "password"}>
              Change password
            </Button>
          </Form>
        </CardContent>
      </Card>
    </>
  );
}
