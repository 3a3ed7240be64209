import { useEffect, useRef, useState } from "react";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { showToast } from "~/components/ui/toast";
import { requireMember } from "~/features/auth/auth-guard.server";
import { BREAKER_LIMIT, BREAKER_WINDOW_MS, PERMISSION_DEBOUNCE_MS } from "~/features/datarooms/datarooms.constants";
import { getPermissionMatrix } from "~/features/datarooms/permissions.server";
import { DATAROOM_PERMISSION_LABELS } from "~/features/datarooms/datarooms.permissions";
import { runLoader } from "~/lib/action-result.server";
import { HttpError, request } from "~/lib/http";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/permissions";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Permissions of ${loaderData.dataroom.name}` : "Data room permissions") }];

/** /dataroom/{id}/permissions: everyone × every permission, with toggles (manage_members; outsiders 404). */
export async function loader({ context, request: incoming, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, incoming);
  return runLoader(() => getPermissionMatrix(serviceContextFor(context), user.id, params.id));
}


type Change = { key: string; userId: string; permission: string; value: boolean };

/**
 * The browser applies the spec's rules before the server does (spec §4/§9): changes are sent 300 ms
 * after the last toggle of a burst, and more than 5 in 10 s trip a breaker that refuses the rest
 * (the toggle goes back, a message says when to try again). Toggles waiting for the server say so;
 * a toggle the server refuses goes back to what the server holds.
 */
export default function DataroomPermissionsPage({ loaderData }: Route.ComponentProps) {
  const { dataroom, permissions, rows, roleTemplates } = loaderData;
  const initial = () => Object.fromEntries(rows.flatMap((row) => permissions.map((permission) => [`${row.userId}:${permission}`, row.permissions[permission]])));
  const [values, setValues] = useState<Record<string, boolean>>(initial);
  const confirmed = useRef<Record<string, boolean>>(initial());
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const queue = useRef(new Map<string, Change>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const sent = useRef<number[]>([]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const settle = (key: string, value: boolean) => {
    setValues((current) => ({ ...current, [key]: value }));
    setPending((current) => {
      const next = new Set(current);
      next.delete(key);
      return next;
    });
  };

  const flush = async () => {
    const changes = [...queue.current.values()];
    queue.current.clear();
    for (const change of changes) {
      const now = Date.now();
      sent.current = sent.current.filter((at) => at > now - BREAKER_WINDOW_MS);
      if (sent.current.length >= BREAKER_LIMIT) {
        const seconds = Math.max(1, Math.ceil((sent.current[0]! + BREAKER_WINDOW_MS - now) / 1000));
        settle(change.key, confirmed.current[change.key]!);
        showToast(`Too many permission changes: at most ${BREAKER_LIMIT} in 10 seconds. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`, {
          type: "warning",
          id: "permission-breaker",
        });
        continue;
      }
      sent.current.push(now);
      try {
        const result = await request<{ permissions: Record<string, boolean> }>(`/api/datarooms/${dataroom.id}/permissions/${change.userId}`, {
          method: "PUT",
          body: { permission: change.permission, value: change.value },
          handleErrors: false,
        });
        for (const permission of permissions) confirmed.current[`${change.userId}:${permission}`] = result.permissions[permission]!;
        settle(change.key, result.permissions[change.permission]!);
      } catch (error) {
        settle(change.key, confirmed.current[change.key]!);
        showToast(error instanceof HttpError ? error.message : "The change could not be saved. Try again.", { type: "error" });
      }
    }
  };

  const toggle = (change: Omit<Change, "key">) => {
    const key = `${change.userId}:${change.permission}`;
    setValues((current) => ({ ...current, [key]: change.value }));
    if (change.value === confirmed.current[key]) {
      // Toggled back before it was sent: nothing to send.
      queue.current.delete(key);
      settle(key, change.value);
    } else {
      queue.current.set(key, { ...change, key });
      setPending((current) => new Set(current).add(key));
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), PERMISSION_DEBOUNCE_MS);
  };

  /** A team role applied as a template: the server's answer becomes what the switches hold. */
  const applied = (userId: string, result: Record<string, boolean>) => {
    for (const permission of permissions) {
      const key = `${userId}:${permission}`;
      confirmed.current[key] = result[permission]!;
      queue.current.delete(key);
      settle(key, result[permission]!);
    }
  };

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Permissions</h1>
        <p className="max-w-3xl text-sm text-slate-700">
          What each person may do in this room. Each role comes with defaults; a switch that differs from the role's default is marked. Changes take effect at
          once, also on pages the person has open. The owner always has every permission.
        </p>
      </div>
      {dataroom.archived ? <Alert variant="info">This data room is archived and read-only. Unarchive it to change permissions.</Alert> : null}
      <p role="status" className="text-sm text-slate-700" data-testid="permissions-pending">
        {pending.size > 0 ? `Saving ${pending.size} change${pending.size === 1 ? "" : "s"}…` : "All changes saved."}
      </p>
      {/* Focusable, so a keyboard can scroll it sideways when it is wider than the page (a room's owner alone has no control to tab to). */}
      <div className="relative overflow-x-auto rounded-md border border-slate-200" tabIndex={0} role="region" aria-label="Permissions of each person">
        <table className="min-w-full text-sm">
          <caption className="sr-only">Permissions of each person in {dataroom.name}</caption>
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-semibold text-slate-900">
                Person
              </th>
              {permissions.map((permission) => (
                <th key={permission} scope="col" className="px-2 py-2 text-center font-semibold text-slate-900">
                  {DATAROOM_PERMISSION_LABELS[permission] ?? permission}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.userId} className="border-t border-slate-200" data-testid="permission-row">
                <th scope="row" className="whitespace-nowrap px-3 py-2 text-left font-medium text-slate-900">
                  {row.name} <Badge variant={row.role === "owner" ? "brand" : "neutral"}>{row.roleLabel}</Badge>
                  {row.teamRole ? (
                    <span className="block text-xs text-slate-600" data-testid="team-managed">
                      Set by their team role “{row.teamRole}”: a change here lasts until that role changes.
                    </span>
                  ) : null}
                </th>
                {permissions.map((permission) => {
                  const key = `${row.userId}:${permission}`;
                  const isPending = pending.has(key);
                  return (
                    <td key={permission} className="px-2 py-2 text-center">
                      <input
                        type="checkbox"
                        role="switch"
                        className="h-4 w-4 accent-brand-700"
                        aria-label={`${DATAROOM_PERMISSION_LABELS[permission] ?? permission} for ${row.name}`}
                        checked={values[key] ?? false}
                        disabled={!row.editable}
                        data-pending={isPending ? "true" : undefined}
                        data-overridden={row.overridden.includes(permission as never) ? "true" : undefined}
                        onChange={(event) => toggle({ userId: row.userId, permission, value: event.target.checked })}
                      />
                      {isPending ? <span className="sr-only"> (saving)</span> : null}
                      {row.overridden.includes(permission as never) ? (
                        <span aria-hidden="true" className="ml-1 text-xs text-amber-700" title="Differs from the role's default">
                          •
                        </span>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {roleTemplates.length > 0 && rows.some((row) => row.editable) ? (
        <RoleTemplateForm roomId={dataroom.id} people={rows.filter((row) => row.editable)} templates={roleTemplates} onApplied={applied} />
      ) : null}
    </div>
  );
}

/**
 * One of the member's teams' custom roles used as a template (issue 42): the person keeps their
 * room role and gets exactly the role's data room permissions, in one change.
 */
function RoleTemplateForm({
  roomId,
  people,
  templates,
  onApplied,
}: {
  roomId: string;
  people: readonly { userId: string; name: string }[];
  templates: readonly { id: string; name: string; teamName: string }[];
  onApplied: (userId: string, permissions: Record<string, boolean>) => void;
}) {
  const [busy, setBusy] = useState(false);
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const userId = String(form.get("userId"));
    const roleId = String(form.get("roleId"));
    setBusy(true);
    try {
      const result = await request<{ permissions: Record<string, boolean> }>(`/api/datarooms/${roomId}/permissions/${userId}/template`, { method: "PUT", body: { roleId }, handleErrors: false });
      onApplied(userId, result.permissions);
      const person = people.find((row) => row.userId === userId)?.name ?? "They";
      const role = templates.find((template) => template.id === roleId)?.name ?? "the role";
      showToast(`${person} now has the data room permissions of “${role}”.`, { type: "success" });
    } catch (error) {
      showToast(error instanceof HttpError ? error.message : "The role could not be applied. Try again.", { type: "error" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="role-template" className="space-y-2 rounded-md border border-slate-200 bg-white p-4">
      <h2 id="role-template" className="text-lg font-semibold text-slate-900">
        Use a team role as a template
      </h2>
      <p className="text-sm text-slate-700">Gives someone exactly the data room permissions of one of your teams' custom roles; they keep their role here. Later changes of the team role do not follow.</p>
      <form className="flex flex-wrap items-end gap-3" onSubmit={(event) => void submit(event)}>
        <label className="text-sm font-medium text-slate-900">
          Person
          <select name="userId" className={nativeSelectClassName}>
            {people.map((person) => (
              <option key={person.userId} value={person.userId}>
                {person.name}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-slate-900">
          Team role
          <select name="roleId" className={nativeSelectClassName}>
            {templates.map((template) => (
              <option key={template.id} value={template.id}>
                {template.name} ({template.teamName})
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" variant="secondary" isLoading={busy}>
          Apply role
        </Button>
      </form>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
