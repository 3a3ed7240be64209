import { useState } from "react";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { withNeeds, withoutDependents, type RolePermission, type RolePermissionGroup } from "../team-roles.catalog";
import { CUSTOM_ROLE_DESCRIPTION_MAX, CUSTOM_ROLE_NAME_MAX } from "../teams.schema";

/**
 * A custom role's name, description and permissions, grouped by module. Ticking a permission ticks
 * what it needs ("Comment" ticks "View"); unticking one unticks what needs it. The chosen set is
 * sent as hidden `permissions` fields, so what is posted is what the boxes show; the server checks
 * the needs again.
 */
export function RoleEditor({
  intent,
  roleId,
  groups,
  initial,
  submitLabel,
  isBusy,
  error,
}: {
  intent: "create" | "update";
  roleId?: string;
  groups: readonly RolePermissionGroup[];
  initial?: { name: string; description: string; permissions: RolePermission[] };
  submitLabel: string;
  isBusy: boolean;
  error?: string;
}) {
  const [chosen, setChosen] = useState<RolePermission[]>(initial?.permissions ?? []);
  const labels = new Map(groups.flatMap((group) => group.permissions.map((permission) => [permission.key, permission.label] as const)));
  const prefix = roleId ?? "new";
  return (
    <IntentForm intent={intent} fields={roleId ? { roleId } : {}} className="space-y-4" noValidate>
      {error ? <Alert variant="error">{error}</Alert> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <Input label="Role name" name="name" defaultValue={initial?.name ?? ""} required maxLength={CUSTOM_ROLE_NAME_MAX} id={`${prefix}-name`} />
        <Input label="Description (optional)" name="description" defaultValue={initial?.description ?? ""} maxLength={CUSTOM_ROLE_DESCRIPTION_MAX} id={`${prefix}-description`} />
      </div>
      {chosen.map((key) => (
        <input key={key} type="hidden" name="permissions" value={key} />
      ))}
      {groups.map((group) => (
        <fieldset key={group.module} className="space-y-2">
          <legend className="text-sm font-semibold text-slate-900">{group.module}</legend>
          <p className="text-xs text-slate-600">{group.description}</p>
          <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {group.permissions.map((permission) => (
              <Checkbox
                key={permission.key}
                id={`${prefix}-${permission.key}`}
                label={permission.label}
                description={permission.needs.length > 0 ? `Needs ${permission.needs.map((need) => labels.get(need) ?? need).join(", ")}` : undefined}
                checked={chosen.includes(permission.key)}
                onCheckedChange={(checked) => setChosen((current) => (checked === true ? withNeeds([...current, permission.key]) : withoutDependents(current, permission.key)))}
              />
            ))}
          </div>
        </fieldset>
      ))}
      <Button type="submit" isLoading={isBusy}>
        {submitLabel}
      </Button>
    </IntentForm>
  );
}
