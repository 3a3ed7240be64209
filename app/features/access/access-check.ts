import {
  ADDON_PERMISSIONS,
  ADDONS,
  BUSINESS_GUARANTEED_PERMISSIONS,
  DATAROOMS_PER_BATCH,
  DEFAULT_REQUIRED_TIER,
  DEFAULT_TIER_PERMISSIONS,
  FEATURES,
  SCOPE_DATAROOM,
  SCOPE_GLOBAL,
  STORAGE_MB_PER_UNIT,
  TEAM_SEATS_PER_UNIT,
  TIERS,
  tierAtLeast,
  UNLIMITED,
  type AddonType,
  type LimitName,
  type Tier,
  type TierLimits,
} from "./access.constants";

/**
 * The access decision (spec §6), pure and shared: the server enforces with it, the browser's
 * user store mirrors it for locked controls. No I/O here, so one decision costs no round trip.
 */
export type PermissionMatrix = Record<string, Record<string, boolean>>;

export type AccessSnapshot = {
  tier: Tier | null;
  permissions: string[];
  features: Record<string, boolean>;
  permissionMatrix: PermissionMatrix;
};

export type AddonQuantities = Partial<Record<AddonType, number>>;
export type ScopedGrant = { scope: string; permission: string; value: boolean };

function matrixValue(matrix: PermissionMatrix, scope: string, permission: string): boolean | undefined {
  const row = matrix[scope];
  const value = row && typeof row === "object" ? row[permission] : undefined;
  return typeof value === "boolean" ? value : undefined;
}

/** Scoped matrix entry, then the global one, then the permission list. A non-string name is refused. */
export function checkPermission(snapshot: AccessSnapshot, permission: unknown, scope: string = SCOPE_GLOBAL): boolean {
  if (typeof permission !== "string" || permission === "") return false;
  const scoped = scope === SCOPE_GLOBAL ? undefined : matrixValue(snapshot.permissionMatrix, scope, permission);
  if (scoped !== undefined) return scoped;
  const global = matrixValue(snapshot.permissionMatrix, SCOPE_GLOBAL, permission);
  if (global !== undefined) return global;
  return snapshot.permissions.includes(permission);
}

/** Spec §6 "Feature check": the feature map, the matrix (scoped, then global) or the permission list. */
export function checkFeature(snapshot: AccessSnapshot, feature: unknown, scope: string = SCOPE_GLOBAL): boolean {
  if (typeof feature !== "string" || feature === "") return false;
  const name = feature.startsWith("feature.") ? feature.slice("feature.".length) : feature;
  if (snapshot.features[name] === true) return true;
  return checkPermission(snapshot, `feature.${name}`, scope) || checkPermission(snapshot, name, scope);
}

/** Spec §6 "Dataroom permission checks": the dataroom scope, the global scope or 'dataroom.{name}'. */
export function checkDataroomPermission(snapshot: AccessSnapshot, name: unknown, dataroomId?: string): boolean {
  if (typeof name !== "string" || name === "") return false;
  if (dataroomId && matrixValue(snapshot.permissionMatrix, `${SCOPE_DATAROOM}:${dataroomId}`, name) !== undefined) {
    return matrixValue(snapshot.permissionMatrix, `${SCOPE_DATAROOM}:${dataroomId}`, name)!;
  }
  return (
    checkPermission(snapshot, name, SCOPE_DATAROOM) ||
    checkPermission(snapshot, name, SCOPE_GLOBAL) ||
    snapshot.permissions.includes(`dataroom.${name}`)
  );
}

export type Requirement = { requiredTier: Tier | null; requiredFeature: string | null; isAddon: boolean; addonType: AddonType | null };

/** What unlocks a permission or feature: the lowest tier that has it, or the addon that grants it. */
export function requirementFor(permissionOrFeature: string): Requirement {
  const addonType = ADDONS.find((addon) => ADDON_PERMISSIONS[addon] === permissionOrFeature) ?? null;
  if (addonType) return { requiredTier: null, requiredFeature: null, isAddon: true, addonType };
  const name = permissionOrFeature.startsWith("feature.") ? permissionOrFeature.slice("feature.".length) : permissionOrFeature;
  const feature = FEATURES.find((candidate) => candidate.name === name);
  if (feature) return { requiredTier: feature.requiredTier, requiredFeature: feature.name, isAddon: false, addonType: null };
  const tier = TIERS.find((candidate) => (DEFAULT_TIER_PERMISSIONS[candidate] as string[]).includes(permissionOrFeature));
  return { requiredTier: tier ?? DEFAULT_REQUIRED_TIER, requiredFeature: null, isAddon: false, addonType: null };
}

/**
 * The member's snapshot from their tier, addons and explicit grants. Business always has the
 * guaranteed features (spec §6), whatever a stored list says.
 */
export function buildAccessSnapshot(input: {
  tier: Tier;
  storedPermissions?: string[] | null;
  addons: AddonQuantities;
  grants: ScopedGrant[];
}): AccessSnapshot {
  const permissions = new Set<string>(input.storedPermissions?.length ? input.storedPermissions : DEFAULT_TIER_PERMISSIONS[input.tier]);
  permissions.add("core_access");
  if (tierAtLeast(input.tier, "business")) for (const permission of BUSINESS_GUARANTEED_PERMISSIONS) permissions.add(permission);
  for (const addon of ADDONS) {
    const permission = ADDON_PERMISSIONS[addon];
    if (permission && (input.addons[addon] ?? 0) > 0) permissions.add(permission);
  }
  const features: Record<string, boolean> = {};
  for (const feature of FEATURES) features[feature.name] = tierAtLeast(input.tier, feature.requiredTier) || permissions.has(`feature.${feature.name}`);
  if ((input.addons.e_signatures ?? 0) > 0) features.e_signatures = true;

  const permissionMatrix: PermissionMatrix = { [SCOPE_GLOBAL]: {} };
  for (const permission of permissions) permissionMatrix[SCOPE_GLOBAL]![permission] = true;
  for (const grant of input.grants) {
    (permissionMatrix[grant.scope] ??= {})[grant.permission] = grant.value;
    if (grant.scope === SCOPE_GLOBAL) {
      if (grant.value) permissions.add(grant.permission);
      else permissions.delete(grant.permission);
    }
  }
  return { tier: input.tier, permissions: [...permissions], features, permissionMatrix };
}

/** Addons raise the limits they name: 2 data rooms per extra_datarooms unit, 1024 MB per extra_storage unit, 5 team seats per dataroom_team unit. */
export function effectiveLimits(base: TierLimits, addons: AddonQuantities): TierLimits {
  const raise = (value: number, extra: number) => (value === UNLIMITED ? UNLIMITED : value + extra);
  return {
    ...base,
    max_datarooms: raise(base.max_datarooms, (addons.extra_datarooms ?? 0) * DATAROOMS_PER_BATCH),
    max_dataroom_storage_mb: raise(base.max_dataroom_storage_mb, (addons.extra_storage ?? 0) * STORAGE_MB_PER_UNIT),
    max_team_seats: raise(base.max_team_seats, (addons.dataroom_team ?? 0) * TEAM_SEATS_PER_UNIT),
  };
}

/** Whether `adding` more fit under a limit (-1 is unlimited). */
export function withinLimit(limits: TierLimits, name: LimitName, current: number, adding = 1): boolean {
  const limit = limits[name];
  return limit === UNLIMITED || current + adding <= limit;
}
