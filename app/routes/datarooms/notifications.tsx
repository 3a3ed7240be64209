import { useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { RoomLiveUpdates } from "~/features/datarooms/components/room-live-updates";
import { getRoomNotifications, markMyRoomNotifications, setMyNotificationMode } from "~/features/datarooms/room-notifications.server";
import { NotificationList } from "~/features/notifications/components/notification-list";
import { NotificationModeCard } from "~/features/notifications/components/notification-mode-card";
import { NOTIFICATION_MODE_LABELS } from "~/features/notifications/notifications.constants";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/notifications";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Notifications of ${loaderData.room.name}` : "Notifications") }];

/** /dataroom/{id}/notifications: the member's own notifications of the room (read and unread) and how they hear about it (view; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const search = new URL(request.url).searchParams;
  const query = { filter: search.get("filter") ?? undefined, cursor: search.get("cursor") ?? undefined };
  return runLoader(async () => {
    const { room, ...page } = await getRoomNotifications(serviceContextFor(context), user.id, params.id, query);
    return { room: { id: room.id, name: room.name, archived: room.archived }, ...page, isFirstPage: query.cursor === undefined };
  });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const ctx = serviceContextFor(context);
  const back = new URL(request.url);
  const here = `/dataroom/${params.id}/notifications${back.search}`;
  return runFormAction(
    async () => {
      if (intent === "preference") {
        const settings = await setMyNotificationMode(ctx, user.id, params.id, { mode: form.get("mode") });
        const label = NOTIFICATION_MODE_LABELS[settings.effective].label;
        return redirectWithNotice(context, here, { type: "success", message: settings.own ? `Notifications of this room: ${label}.` : `Notifications of this room follow its default: ${label}.` });
      }
      const read = intent !== "unread";
      const ids = form.get("ids") === "all" ? "all" : form.getAll("id").map(String);
      const { changed } = await markMyRoomNotifications(ctx, user.id, params.id, { ids, read });
      const message = read ? (changed === 1 ? "1 notification marked as read." : `${changed} notifications marked as read.`) : "Marked as unread.";
      return redirectWithNotice(context, here, { type: "success", message });
    },
    { intent },
  );
}

export default function DataroomNotificationsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { room, notifications, unread, filter, nextCursor, isFirstPage, settings } = loaderData;
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData.message : null;
  const base = `/dataroom/${room.id}/notifications`;
  const defaultLabel = NOTIFICATION_MODE_LABELS[settings.roomDefault].label;
  return (
    <div className="space-y-6">
      <RoomLiveUpdates roomId={room.id} reloadOn={["notifications.changed"]} />
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Notifications</h1>
        <p className="max-w-3xl text-sm text-slate-700">Mentions, replies and comments on your files in this room. Only you see this list.</p>
      </div>
      {failure ? <Alert variant="error">{failure}</Alert> : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <NotificationList
          page={{ notifications, unread, filter, nextCursor }}
          base={base}
          isFirstPage={isFirstPage}
          busyIntent={busyIntent}
          emptyText="Nothing yet. When someone mentions you or replies to you here, it shows up in this list."
        />
        <NotificationModeCard
          label="How you hear about this room"
          defaultValue={settings.own ?? "default"}
          before={[{ value: "default", label: `Room default (${defaultLabel})`, description: "What the room's managers chose for everyone." }]}
          isBusy={busyIntent === "preference"}
        />
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
