import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import {
  ADDONS,
  LIMIT_LABELS,
  normalizeTier,
  TEAM_SEATS_PER_UNIT,
  TIER_LABELS,
  type AddonType,
  type FeatureName,
  type LimitName,
  type Permission,
  type Tier,
  type TierLimits,
} from "./access.constants";
import {
  buildAccessSnapshot,
  checkFeature,
  checkPermission,
  effectiveLimits,
  requirementFor,
  withinLimit,
  type AccessSnapshot,
  type AddonQuantities,
} from "./access-check";
import { loadAccessRows, type TierRow } from "./access.queries.server";

/** Everything one request needs to decide access: loaded once, then every check is in memory. `trial`: a free trial running now (its tier, when it ends). */
export type MemberAccess = AccessSnapshot & {
  tier: Tier;
  limits: TierLimits;
  addons: AddonQuantities;
  trial?: { tier: Tier; endsAt: Date } | null;
  /** The member's spaces that only read because they are over the plan (issue 43), read with it. */
  overPlan?: { id: string; kind: string; name: string; reason: string | null; since: Date }[];
};

export function tierLimits(row: TierRow): TierLimits {
  return {
    max_datarooms: row.maxDatarooms,
    max_dataroom_storage_mb: row.maxDataroomStorageMb,
    max_dataroom_files: row.maxDataroomFiles,
    max_dataroom_folders: row.maxDataroomFolders,
    max_dataroom_members: row.maxDataroomMembers,
    max_dataroom_guests: row.maxDataroomGuests,
    max_team_seats: row.maxTeamSeats,
  };
}

const accessCache = new WeakMap<ServiceContext, Map<string, Promise<MemberAccess>>>();

/** The member's access (one D1 round trip), memoised per service context: one load per request. */
export function loadMemberAccess(ctx: ServiceContext, userId: string): Promise<MemberAccess> {
  let perContext = accessCache.get(ctx);
  if (!perContext) accessCache.set(ctx, (perContext = new Map()));
  let pending = perContext.get(userId);
  if (!pending) {
    pending = readMemberAccess(ctx, userId);
    perContext.set(userId, pending);
  }
  return pending;
}

/** After a change of plan within the request: the next `loadMemberAccess` reads it again. */
export function forgetMemberAccess(ctx: ServiceContext, userId: string): void {
  accessCache.get(ctx)?.delete(userId);
}

async function readMemberAccess(ctx: ServiceContext, userId: string): Promise<MemberAccess> {
  const rows = await loadAccessRows(ctx.db, userId, ctx.now());
  const tier = normalizeTier(rows.tier?.name);
  if (!rows.tier || !tier) throw new AppError("FORBIDDEN", "Your account has no plan. Contact support to have one assigned.");
  const addons: AddonQuantities = {};
  for (const row of rows.addons) if ((ADDONS as readonly string[]).includes(row.addon)) addons[row.addon as AddonType] = row.quantity;
  const snapshot = buildAccessSnapshot({ tier, storedPermissions: rows.tier.permissions, addons, grants: rows.grants });
  const trialTier = normalizeTier(rows.trial?.tier);
  const trial = rows.trial && trialTier === tier ? { tier: trialTier, endsAt: rows.trial.endsAt } : null;
  return { ...snapshot, tier, limits: effectiveLimits(tierLimits(rows.tier), addons), addons, trial, overPlan: rows.overPlan };
}

function missing(what: string, permissionOrFeature: string): AppError {
  const requirement = requirementFor(permissionOrFeature);
  const unlock = requirement.isAddon
    ? "It comes with an add-on."
    : requirement.requiredTier
      ? `It is part of the ${TIER_LABELS[requirement.requiredTier]} plan and above.`
      : "";
  return new AppError("FORBIDDEN", `You don't have the required ${what}: ${permissionOrFeature}. ${unlock}`.trim());
}

/** Refuses (403, naming the permission and the plan that has it) unless the member holds it in that scope. */
export function requirePermission(access: MemberAccess, permission: Permission, scope?: string): void {
  if (!checkPermission(access, permission, scope)) throw missing("permission", permission);
}

export function requireFeature(access: MemberAccess, feature: FeatureName, scope?: string): void {
  if (!checkFeature(access, feature, scope)) throw missing("feature", feature);
}

/** Refuses (403) when `adding` more would pass the plan's limit, saying what the plan allows. */
export function assertWithinLimit(access: MemberAccess, limit: LimitName, current: number, adding = 1): void {
  if (withinLimit(access.limits, limit, current, adding)) return;
  const allowed = access.limits[limit];
  const label = allowed === 1 ? LIMIT_LABELS[limit].one : LIMIT_LABELS[limit].many;
  const addonHint =
    limit === "max_datarooms"
      ? " Upgrade your plan or add extra data rooms."
      : limit === "max_dataroom_storage_mb"
        ? " Upgrade your plan or add extra storage."
        : limit === "max_team_seats"
          ? ` Upgrade your plan or add team seats (the team collaboration add-on brings ${TEAM_SEATS_PER_UNIT} a unit).`
          : " Upgrade your plan to raise it.";
  throw new AppError("FORBIDDEN", `Your ${TIER_LABELS[access.tier]} plan allows ${allowed} ${label}.${addonHint}`);
}
