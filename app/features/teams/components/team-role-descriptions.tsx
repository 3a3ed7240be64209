import { ASSIGNABLE_TEAM_ROLES, TEAM_ROLE_DESCRIPTIONS, TEAM_ROLE_LABELS } from "../teams.permissions";

/** What each built-in team role may do, as the team page and the roles page show it. */
export function TeamRoleDescriptions() {
  return (
    <dl className="grid gap-2 text-sm text-slate-700 sm:grid-cols-2">
      {(["owner", ...ASSIGNABLE_TEAM_ROLES] as const).map((role) => (
        <div key={role}>
          <dt className="inline font-medium text-slate-900">{TEAM_ROLE_LABELS[role]}: </dt>
          <dd className="inline">{TEAM_ROLE_DESCRIPTIONS[role]}</dd>
        </div>
      ))}
    </dl>
  );
}
