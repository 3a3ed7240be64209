import { useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { NotificationList } from "~/features/notifications/components/notification-list";
import { NotificationModeCard } from "~/features/notifications/components/notification-mode-card";
import { NOTIFICATION_MODE_LABELS } from "~/features/notifications/notifications.constants";
import { getMemberNotifications, markRoomNotifications, setMemberNotificationMode } from "~/features/notifications/notifications.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/notifications";

export const meta: Route.MetaFunction = () => titleMeta("Notifications");

/** /notifications: the member's notices outside rooms (the first opening of a share link of their own files) and how they hear about them. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const search = new URL(request.url).searchParams;
  const query = { filter: search.get("filter") ?? undefined, cursor: search.get("cursor") ?? undefined };
  return runLoader(async () => ({ ...(await getMemberNotifications(serviceContextFor(context), user.id, query)), isFirstPage: query.cursor === undefined }));
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const ctx = serviceContextFor(context);
  const here = `/notifications${new URL(request.url).search}`;
  return runFormAction(
    async () => {
      if (intent === "preference") {
        const mode = await setMemberNotificationMode(ctx, user.id, { mode: form.get("mode") });
        return redirectWithNotice(context, here, { type: "success", message: `E-mails about your share links: ${NOTIFICATION_MODE_LABELS[mode].label}.` });
      }
      const read = intent !== "unread";
      const ids = form.get("ids") === "all" ? "all" : form.getAll("id").map(String);
      const { changed } = await markRoomNotifications(ctx, user.id, null, { ids, read });
      const message = read ? (changed === 1 ? "1 notification marked as read." : `${changed} notifications marked as read.`) : "Marked as unread.";
      return redirectWithNotice(context, here, { type: "success", message });
    },
    { intent },
  );
}

export default function NotificationsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { notifications, unread, filter, nextCursor, isFirstPage, mode } = loaderData;
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData.message : null;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Notifications</h1>
        <p className="max-w-3xl text-sm text-slate-700">When someone first opens a share link of your own files. A data room's notifications are on its own Notifications page.</p>
      </div>
      {failure ? <Alert variant="error">{failure}</Alert> : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <NotificationList
          page={{ notifications, unread, filter, nextCursor }}
          base="/notifications"
          isFirstPage={isFirstPage}
          busyIntent={busyIntent}
          emptyText="Nothing yet. When someone opens a link you shared, it shows up here."
        />
        <NotificationModeCard label="How you hear about your share links" defaultValue={mode} isBusy={busyIntent === "preference"} />
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
