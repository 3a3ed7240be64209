import { loadMemberAccess, requireFeature, type MemberAccess } from "~/features/access/access.server";
import { moduleAccess, teamRightRefused } from "~/features/teams/team-access.server";
import type { FormPermission } from "~/features/teams/team-roles.catalog";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { FORM_LIMITS, FORM_NOT_FOUND } from "./forms.constants";
import { findFormForMember, type FormRow } from "./forms.queries.server";


export type FormsPlan = { access: MemberAccess; limits: (typeof FORM_LIMITS)[keyof typeof FORM_LIMITS] };

/** A member allowed forms, with their plan's form limits. */
export async function formsPlan(ctx: ServiceContext, userId: string): Promise<FormsPlan> {
  const access = await loadMemberAccess(ctx, userId);
  requireFeature(access, "forms");
  return { access, limits: FORM_LIMITS[access.tier] };
}

/**
 * A form as the caller may use it, with the plan that governs it (issue 42, ADR 041). Its creator
 * may do everything, on their own plan (a plan without forms is refused first: 403). A form of a
 * team's workspace is open to the team's people by their place in the team (owner and admins
 * everything, members view and edit, billing nothing, a custom role what its form permissions
 * say), on the creator's plan. Anyone else, and anyone without view, gets 404; a team member
 * without the right 403 naming it.
 */
export async function openForm(ctx: ServiceContext, userId: string, id: string, permission: FormPermission): Promise<FormsPlan & { form: FormRow }> {
  const found = await findFormForMember(ctx.db, userId, id);
  const byTeam = found && found.form.userId !== userId ? moduleAccess("form", { role: found.teamRole, customRolePermissions: found.customRolePermissions }, permission) : "not-found";
  if (byTeam === "forbidden") throw teamRightRefused(permission);
  if (byTeam === "allowed") return { form: found!.form, ...(await formsPlan(ctx, found!.form.userId)) };
  const plan = await formsPlan(ctx, userId);
  if (!found || found.form.userId !== userId) throw new AppError("NOT_FOUND", FORM_NOT_FOUND);
  return { form: found.form, ...plan };
}
