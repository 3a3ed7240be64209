import { Form, Link, useActionData, useLocation, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Avatar } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { updateProfile } from "~/features/auth/account.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { NameField } from "~/features/auth/components/name-field";
import { fieldError, FormError } from "~/features/auth/components/auth-layout";
import { formLevelMessage, SettingsHeader } from "~/features/auth/components/settings-frame";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor, requireMember } from "~/features/auth/auth-guard.server";
import { titleMeta } from "~/lib/title";
import { toastMessages } from "~/lib/toast.schema";
import type { Route } from "./+types/edit";

export const meta: Route.MetaFunction = () => titleMeta("Edit Profile");

export function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return { name: user.name, email: user.email };
}

export async function action({ context, request }: Route.ActionArgs) {
  const member = requireMember(context, request);
  return runFormAction(async () => {
    const form = await request.formData();
    await updateProfile(authCallFor(context, request), member, { name: form.get("name") });
    return redirectWithNotice(context, "/profile", { type: "success", message: toastMessages.updated("Profile") });
  });
}

export default function EditProfilePage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { key: formKey } = useLocation();
  const failure = actionData && "ok" in actionData ? actionData : null;
  return (
    <>
      <SettingsHeader title="Edit profile" description="How you appear to other members." />
      <Card>
        <CardContent className="space-y-6">
          <div className="flex items-center gap-4">
            <Avatar name={loaderData.name} size="lg" />
            <div>
              <p className="font-medium text-slate-900" data-testid="profile-name">
                {loaderData.name}
              </p>
              <p className="text-slate-600">{loaderData.email}</p>
            </div>
          </div>
          <Form key={formKey} method="post" className="max-w-md space-y-4" noValidate>
            <CsrfInput />
            <FormError message={formLevelMessage(failure, ["name"])} />
            <NameField defaultValue={loaderData.name} error={fieldError(failure?.fieldErrors, "name")} />
            <Input
              label="E-mail address"
              type="email"
              value={loaderData.email}
              readOnly
              description={
                <>
                  To change it,{" "}
                  <Link to="/settings/account" className="font-medium text-brand-700 underline">
                    go to account settings
                  </Link>
                  .
                </>
              }
            />
            <Button type="submit" isLoading={navigation.state === "submitting"}>
              Save profile
            </Button>
          </Form>
        </CardContent>
      </Card>
    </>
  );
}
