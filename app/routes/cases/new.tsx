import { Form, Link, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { caseRoomChoicesFor, listCaseTypes, newCaseRoomChoiceFor, openCase } from "~/features/cases/cases.server";
import { CaseFieldInput } from "~/features/cases/components/case-field-input";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = () => titleMeta("New case");

const NEW_ROOM = "new";

/** /cases/new?type= (Business): opens a case of one of the member's types, with its fields and case file. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const chosen = new URL(request.url).searchParams.get("type");
  return runLoader(async () => {
    const ctx = serviceContextFor(context);
    const [types, rooms, newRoom] = await Promise.all([listCaseTypes(ctx, user.id), caseRoomChoicesFor(ctx, user.id), newCaseRoomChoiceFor(ctx, user.id)]);
    return { types, rooms, newRoom, chosen: types.find((type) => type.id === chosen) ?? types[0] ?? null };
  });
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    const place = String(form.get("roomId") ?? "");
    const values: Record<string, string> = {};
    for (const [key, value] of form.entries()) if (key.startsWith("value.")) values[key.slice("value.".length)] = String(value);
    const opened = await openCase(serviceContextFor(context), user.id, {
      typeId: String(form.get("typeId") ?? ""),
      title: String(form.get("title") ?? ""),
      values,
      assignee: String(form.get("assignee") ?? "").trim() || null,
      dueDate: String(form.get("dueDate") ?? "") || null,
      // "new": a data room of the case's own; a room's id: that room; nothing: the member's files.
      roomId: place && place !== NEW_ROOM ? place : null,
      newRoom: place === NEW_ROOM,
    });
    return redirectWithNotice(context, `/cases/${opened.id}`, { type: "success", message: `${opened.reference} is open, with its case file.` });
  });
}

export default function NewCasePage({ loaderData, actionData }: Route.ComponentProps) {
  const { types, rooms, newRoom, chosen } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div className="space-y-1">
        <Link to="/cases" className="text-sm text-brand-700 underline-offset-2 hover:underline">
          ← Cases
        </Link>
        <h1 className="text-2xl font-semibold text-slate-900">New case</h1>
      </div>
      {!chosen ? (
        <p className="text-sm text-slate-700">
          Create a case type first.{" "}
          <Link to="/cases/types" className="font-medium text-brand-700 underline">
            Case types
          </Link>
        </p>
      ) : (
        <>
          <Form method="get" className="flex items-end gap-2">
            <label className="text-sm text-slate-900">
              Case type
              <select name="type" defaultValue={chosen.id} className={nativeSelectClassName}>
                {types.map((type) => (
                  <option key={type.id} value={type.id}>
                    {type.name}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" variant="secondary">
              Choose
            </Button>
          </Form>
          {actionData && "message" in actionData ? <Alert variant="error">{actionData.message}</Alert> : null}
          <Form method="post" className="space-y-4 rounded-md border border-slate-300 bg-white p-4" key={chosen.id}>
            <CsrfInput />
            <input type="hidden" name="typeId" value={chosen.id} />
            <Input label="Title" name="title" required maxLength={200} />
            {chosen.fields.map((field) => (
              <CaseFieldInput key={field.key} field={field} />
            ))}
            <Input label="Assignee (e-mail, optional)" name="assignee" type="email" />
            <Input label="Due date (optional)" name="dueDate" type="date" />
            {rooms.length > 0 || newRoom.allowed ? (
              <label className="block text-sm text-slate-900">
                Case file
                <select name="roomId" className={nativeSelectClassName} defaultValue="">
                  <option value="">A folder in my files (Cases)</option>
                  {newRoom.allowed ? <option value={NEW_ROOM}>A data room of its own{newRoom.left === null ? "" : ` (${newRoom.left} ${newRoom.left === 1 ? "room" : "rooms"} left on your plan)`}</option> : null}
                  {rooms.map((room) => (
                    <option key={room.id} value={room.id}>
                      In the data room “{room.name}”
                    </option>
                  ))}
                </select>
                <span className="mt-1 block text-xs text-slate-600">
                  In a data room, the room's audit log records what happens to the case. A data room of its own is named after the case and holds its case file, ready to invite the people working on it; in a room you manage, the case file is a folder at the top of the room.
                </span>
              </label>
            ) : null}
            <Button type="submit" isLoading={busy}>
              Open case
            </Button>
          </Form>
        </>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
