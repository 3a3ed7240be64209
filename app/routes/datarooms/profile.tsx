import { data, useNavigation } from "react-router";
import { IntentForm } from "~/components/intent-form";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClassName } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { DataroomFields } from "~/features/datarooms/components/dataroom-fields";
import { requireDataroom, setArchived, trashDataroom, updateDataroom } from "~/features/datarooms/datarooms.server";
import { removeDataroomLogo, setDataroomLogo } from "~/features/datarooms/logo.server";
import { listTeamsForRooms, moveRoomIntoTeam } from "~/features/teams/team-rooms.server";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { runLoader } from "~/lib/action-result.server";
import { AppError, type FieldErrors } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = () => titleMeta("Data room profile");

/** /dataroom/{id}/profile: name, description, archive. Only for people with manage_settings (else 403; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => {
    const ctx = serviceContextFor(context);
    const dataroom = await requireDataroom(ctx, user.id, params.id, "manage_settings");
    // The owner of a room of no team may move it into a team where they create rooms.
    const teams = dataroom.isOwner && !dataroom.team ? await listTeamsForRooms(ctx, user.id) : [];
    return { dataroom, teams };
  });
}

type Failure = { ok: false; intent?: string; message: string; fieldErrors?: FieldErrors; values?: { name: string; description: string } };

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "save");
  const values = { name: String(form.get("name") ?? ""), description: String(form.get("description") ?? "") };
  try {
    if (intent === "delete") {
      const room = await trashDataroom(ctx, user.id, params.id);
      return redirectWithNotice(context, "/datarooms?filter=trash", { type: "success", message: `${room.name} is in the trash. You can restore it for 30 days.` });
    }
    if (intent === "logo") {
      const file = form.get("logo");
      const bytes = file instanceof File && file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : null;
      const room = await setDataroomLogo(ctx, user.id, params.id, bytes);
      return redirectWithNotice(context, `/dataroom/${room.id}/profile`, { type: "success", message: "Logo updated." });
    }
    if (intent === "remove-logo") {
      const room = await removeDataroomLogo(ctx, user.id, params.id);
      return redirectWithNotice(context, `/dataroom/${room.id}/profile`, { type: "success", message: "Logo removed." });
    }
    if (intent === "move") {
      const { team } = await moveRoomIntoTeam(ctx, user.id, params.id, { teamId: form.get("teamId") });
      return redirectWithNotice(context, `/dataroom/${params.id}/profile`, { type: "success", message: `The room is now in the workspace of “${team.name}”; the team's people are in it.` });
    }
    if (intent === "archive" || intent === "unarchive") {
      const room = await setArchived(ctx, user.id, params.id, intent === "archive");
      const message = room.archived ? "Data room archived: it is read-only now." : "Data room unarchived.";
      return redirectWithNotice(context, `/dataroom/${room.id}`, { type: "success", message });
    }
    const room = await updateDataroom(ctx, user.id, params.id, values);
    return redirectWithNotice(context, `/dataroom/${room.id}`, { type: "success", message: "Data room updated." });
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    return data<Failure>({ ok: false, intent, message: error.message, fieldErrors: error.fieldErrors, values }, { status: error.status });
  }
}

export default function DataroomProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { dataroom, teams } = loaderData;
  const navigation = useNavigation();
  const failure = actionData && "ok" in actionData ? (actionData as Failure) : null;
  const busy = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "save") : null;

  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div className="space-y-1">
        <p className="text-sm text-slate-600">
          <a href={`/dataroom/${dataroom.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
            {dataroom.name}
          </a>
        </p>
        <h1 className="text-2xl font-semibold text-slate-900">Data room profile</h1>
      </div>
      {failure && !failure.fieldErrors && failure.intent !== "logo" && failure.intent !== "move" ? <Alert variant="error">{failure.message}</Alert> : null}
      <Card>
        <CardContent>
          {dataroom.archived ? (
            <p className="text-slate-700">This room is archived: its name and description cannot change until it is unarchived.</p>
          ) : (
            <IntentForm intent="save" className="space-y-4">
              <DataroomFields values={{ name: failure?.values?.name ?? dataroom.name, description: failure?.values?.description ?? dataroom.description }} errors={failure?.fieldErrors} rows={3} />
              <div className="flex justify-end gap-2">
                <a href={`/dataroom/${dataroom.id}`} className={buttonClassName({ variant: "secondary" })}>
                  Cancel
                </a>
                <Button type="submit" isLoading={busy === "save"}>
                  Save
                </Button>
              </div>
            </IntentForm>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardContent className="space-y-3">
          <h2 className="text-lg font-semibold text-slate-900">Logo</h2>
          <div className="flex flex-wrap items-center gap-4">
            {dataroom.logoUrl ? (
              <img src={dataroom.logoUrl} alt={`Logo of ${dataroom.name}`} className="h-16 w-16 rounded border border-slate-200 object-contain" data-testid="room-logo" />
            ) : (
              <p className="text-sm text-slate-700">No logo yet. It shows next to the room's name for everyone in it.</p>
            )}
          </div>
          {failure && failure.intent === "logo" ? <Alert variant="error">{failure.message}</Alert> : null}
          {dataroom.archived ? null : (
            <div className="flex flex-wrap items-end gap-3">
              <IntentForm intent="logo" encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
                <label className="block text-sm font-medium text-slate-900">
                  Image (PNG, JPEG, WebP or GIF, at most 512 KB)
                  <input
                    type="file"
                    name="logo"
                    accept="image/png,image/jpeg,image/webp,image/gif"
                    required
                    className="mt-1 block text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5"
                  />
                </label>
                <Button type="submit" variant="secondary" isLoading={busy === "logo"}>
                  Upload logo
                </Button>
              </IntentForm>
              {dataroom.logoUrl ? (
                <IntentForm intent="remove-logo">
                  <Button type="submit" variant="ghost" isLoading={busy === "remove-logo"}>
                    Remove logo
                  </Button>
                </IntentForm>
              ) : null}
            </div>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardContent className="space-y-3">
          <h2 className="text-lg font-semibold text-slate-900">{dataroom.archived ? "Unarchive" : "Archive"}</h2>
          <p className="text-slate-700">
            {dataroom.archived
              ? "Unarchiving lets the people in the room upload, edit and delete again, as their rights allow."
              : "An archived room is read-only for everyone, you included: its files can be opened and downloaded, nothing can be added, changed or deleted. You can unarchive it at any time."}
          </p>
          <IntentForm intent={dataroom.archived ? "unarchive" : "archive"}>
            <Button type="submit" variant="secondary" isLoading={busy === "archive" || busy === "unarchive"}>
              {dataroom.archived ? "Unarchive data room" : "Archive data room"}
            </Button>
          </IntentForm>
        </CardContent>
      </Card>
      {dataroom.team ? (
        <Card>
          <CardContent className="space-y-2">
            <h2 className="text-lg font-semibold text-slate-900">Team</h2>
            <p className="text-slate-700" data-testid="room-team">
              This room is in the workspace of the team{" "}
              <a href={`/team/${dataroom.team.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                “{dataroom.team.name}”
              </a>
              : the team's people are in it by their team role, and whoever leaves the team leaves the room.
            </p>
          </CardContent>
        </Card>
      ) : teams.length > 0 ? (
        <Card>
          <CardContent className="space-y-3">
            <h2 className="text-lg font-semibold text-slate-900">Move into a team</h2>
            <p className="text-slate-700">
              The team's people get in by their team role (everyone already here stays), the room is listed in the team's workspace, and you stay its owner.
            </p>
            {failure?.intent === "move" ? <Alert variant="error">{failure.message}</Alert> : null}
            <IntentForm intent="move" className="flex flex-wrap items-end gap-3">
              <label className="text-sm font-medium text-slate-900">
                Team
                <select name="teamId" className={nativeSelectClassName}>
                  {teams.map((team) => (
                    <option key={team.id} value={team.id}>
                      {team.name}
                    </option>
                  ))}
                </select>
              </label>
              <Button type="submit" variant="secondary" isLoading={busy === "move"}>
                Move into team
              </Button>
            </IntentForm>
          </CardContent>
        </Card>
      ) : null}
      {dataroom.isOwner ? (
        <Card>
          <CardContent className="space-y-3">
            <h2 className="text-lg font-semibold text-slate-900">Delete</h2>
            <p className="text-slate-700">
              The room goes to the trash with everything in it and disappears for everyone in it. You can restore it from the trash of the data
              rooms page for 30 days; after that it is deleted for good.
            </p>
            <IntentForm intent="delete">
              <Button type="submit" variant="danger" isLoading={busy === "delete"}>
                Delete data room
              </Button>
            </IntentForm>
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
