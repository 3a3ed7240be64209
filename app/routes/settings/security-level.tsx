import { Form, Link, useActionData, useLocation, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { RadioGroup } from "~/components/ui/radio-group";
import { updateSecurityLevel } from "~/features/auth/account.server";
import { DEFAULT_SESSION_LIFETIME_HOURS, sessionLifetimeLabel } from "~/features/auth/activity-labels";
import { SESSION_LIFETIME_CHOICES } from "~/features/auth/auth.constants";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { fieldError, FormError } from "~/features/auth/components/auth-layout";
import { formLevelMessage, SettingsHeader } from "~/features/auth/components/settings-frame";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor, requireRecentAuth } from "~/features/auth/auth-guard.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/security-level";

export const meta: Route.MetaFunction = () => titleMeta("Security Level");

const lifetimeOptions = SESSION_LIFETIME_CHOICES.map((hours) => ({ value: String(hours), label: sessionLifetimeLabel(hours) }));

export function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireRecentAuth(context, request);
  return {
    require2fa: user.require2fa,
    sessionLifetimeHours: user.sessionLifetimeHours ?? DEFAULT_SESSION_LIFETIME_HOURS,
    hasSecondFactor: user.totpEnabledAt !== null || user.email2faEnabledAt !== null,
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const member = requireRecentAuth(context, request);
  return runFormAction(async () => {
    const form = await request.formData();
    // The checkbox sends "on" only when ticked; the lifetime arrives as text. The service checks both.
    await updateSecurityLevel(authCallFor(context, request), member, {
      require2fa: form.get("require2fa") === "on",
      sessionLifetimeHours: Number(form.get("sessionLifetimeHours")),
    });
    return redirectWithNotice(context, "/settings/security-level", { type: "success", message: "Security level saved." });
  });
}

export default function SecurityLevelPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  // A new key after the save redirects back here, so the controls show the stored values.
  const { key: formKey } = useLocation();
  const failure = actionData && "ok" in actionData ? actionData : null;
  return (
    <>
      <SettingsHeader title="Security level" description="Your account's own rules for signing in." />
      {!loaderData.hasSecondFactor ? (
        <Alert variant="info">
          To require two-factor authentication, first turn on an authenticator app or e-mail codes on the{" "}
          <Link to="/settings/2fa" className="font-medium underline">
            two-factor authentication page
          </Link>
          .
        </Alert>
      ) : null}
      <Card>
        <CardContent>
          <Form key={formKey} method="post" className="max-w-lg space-y-6" noValidate>
            <CsrfInput />
            <FormError message={formLevelMessage(failure, ["require2fa", "sessionLifetimeHours"])} />
            <Checkbox
              label="Require two-factor authentication to sign in"
              name="require2fa"
              value="on"
              defaultChecked={loaderData.require2fa}
              description="Sign-in will always ask for a code, and two-factor cannot be turned off completely."
              error={fieldError(failure?.fieldErrors, "require2fa")}
            />
            <RadioGroup
              label="Sign-in lasts"
              name="sessionLifetimeHours"
              options={lifetimeOptions}
              defaultValue={String(loaderData.sessionLifetimeHours)}
              description="After this long you sign in again, however active you are. Shortening it also shortens your current sessions."
              error={fieldError(failure?.fieldErrors, "sessionLifetimeHours")}
            />
            <Button type="submit" isLoading={navigation.state === "submitting"}>
              Save security level
            </Button>
          </Form>
        </CardContent>
      </Card>
    </>
  );
}
