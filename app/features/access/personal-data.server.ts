import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { TIER_LABELS } from "./access.constants";
import { deleteUserAccessRows } from "./access.queries.server";
import { loadMemberAccess } from "./access.server";

/** The member's plan, add-ons, explicit permission grants and resulting limits. */
export const accessPersonalData = definePersonalDataSource({
  name: "plan-and-permissions",
  async export(ctx, userId) {
    const access = await loadMemberAccess(ctx, userId);
    return [
      {
        path: "plan.json",
        description: "Your plan, its limits after add-ons, your add-ons, and the permissions and features it gives you.",
        data: {
          tier: access.tier,
          plan: TIER_LABELS[access.tier],
          limits: access.limits,
          addons: access.addons,
          permissions: access.permissions,
          features: access.features,
          permissionMatrix: access.permissionMatrix,
        },
      },
    ];
  },
  async erase(ctx, userId) {
    await deleteUserAccessRows(ctx.db, userId);
    return { r2Keys: [] };
  },
});
