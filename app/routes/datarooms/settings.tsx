import { useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { ROLE_LABELS } from "~/features/datarooms/datarooms.permissions";
import { setDefaultRole } from "~/features/datarooms/datarooms.server";
import { getRoomNotificationDefault, setRoomNotificationDefault } from "~/features/datarooms/room-notifications.server";
import { NOTIFICATION_MODE_LABELS } from "~/features/notifications/notifications.constants";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Settings of ${loaderData.dataroom.name}` : "Data room settings") }];

const ROLES = ["member", "guest", "admin"] as const;

/** /dataroom/{id}/settings: how the room works for new people, and the way to its profile and security (manage_settings; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => {
    const { room, mode } = await getRoomNotificationDefault(serviceContextFor(context), user.id, params.id);
    return { dataroom: room, notificationDefault: mode };
  });
}

const MODES = ["instant", "daily", "off"] as const;

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const ctx = serviceContextFor(context);
  return runFormAction(
    async () => {
      if (intent === "notification-default") {
        const mode = await setRoomNotificationDefault(ctx, user.id, params.id, { mode: form.get("mode") });
        return redirectWithNotice(context, `/dataroom/${params.id}/settings`, { type: "success", message: `People who did not choose now get: ${NOTIFICATION_MODE_LABELS[mode].label}.` });
      }
      const room = await setDefaultRole(ctx, user.id, params.id, { default_role: form.get("default_role") });
      return redirectWithNotice(context, `/dataroom/${room.id}/settings`, { type: "success", message: `New invitations now start as ${ROLE_LABELS[room.defaultRole]}.` });
    },
    { intent },
  );
}

export default function DataroomSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { dataroom, notificationDefault } = loaderData;
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData.message : null;
  const link = "font-medium text-brand-700 underline-offset-2 hover:underline";
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Settings</h1>
      </div>
      {failure ? <Alert variant="error">{failure}</Alert> : null}
      <Card>
        <CardContent className="space-y-4">
          <h2 className="text-lg font-semibold text-slate-900">New people</h2>
          {dataroom.archived ? (
            <p className="text-sm text-slate-700">This data room is archived and read-only. Unarchive it to change its settings.</p>
          ) : (
            <IntentForm intent="default-role" className="flex flex-wrap items-end gap-3">
              <label className="block w-64 text-sm font-medium text-slate-900">
                Role new invitations start with
                <select name="default_role" defaultValue={dataroom.defaultRole} className={nativeSelectClassName}>
                  {ROLES.map((role) => (
                    <option key={role} value={role}>
                      {ROLE_LABELS[role]}
                    </option>
                  ))}
                </select>
              </label>
              <Button type="submit" isLoading={busyIntent === "default-role"}>
                Save
              </Button>
            </IntentForm>
          )}
          <p className="text-sm text-slate-700">The invite form on People starts with this role; it can still be changed for each invitation.</p>
        </CardContent>
      </Card>
      <Card>
        <CardContent className="space-y-4">
          <h2 className="text-lg font-semibold text-slate-900">Notifications</h2>
          {dataroom.archived ? (
            <p className="text-sm text-slate-700">This data room is archived and read-only. Unarchive it to change its settings.</p>
          ) : (
            <IntentForm intent="notification-default" className="flex flex-wrap items-end gap-3">
              <label className="block w-64 text-sm font-medium text-slate-900">
                E-mail people who did not choose
                <select name="mode" defaultValue={notificationDefault} className={nativeSelectClassName}>
                  {MODES.map((mode) => (
                    <option key={mode} value={mode}>
                      {NOTIFICATION_MODE_LABELS[mode].label}
                    </option>
                  ))}
                </select>
              </label>
              <Button type="submit" isLoading={busyIntent === "notification-default"}>
                Save
              </Button>
            </IntentForm>
          )}
          <p className="text-sm text-slate-700">
            Instant: an e-mail as each mention, reply or comment happens. Daily digest: one e-mail a day. Off: no e-mails. Everyone can choose for themselves on the room's
            Notifications page; their in-app list collects everything either way.
          </p>
        </CardContent>
      </Card>
      <Card>
        <CardContent className="space-y-2 text-sm text-slate-700">
          <h2 className="text-lg font-semibold text-slate-900">More settings</h2>
          <p>
            <a href={`/dataroom/${dataroom.id}/profile`} className={link}>
              Profile
            </a>
            : name, description, logo, archive and delete.
          </p>
          <p>
            <a href={`/dataroom/${dataroom.id}/security`} className={link}>
              Security
            </a>
            : IP restrictions and time-limited access.
          </p>
          <p>
            <a href={`/dataroom/${dataroom.id}/permissions`} className={link}>
              Permissions
            </a>
            : what each person may do.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
