/**
 * Tiers, features, addons and permission strings (spec §1, §3, §6, §9): the single source of
 * truth, shared by the server (enforcement) and the browser (the user store, locked controls).
 * Per-tier limits live in the `tiers` table (seeded by migration 0003, editable by ops); the
 * values below are only the names and rules.
 */

export const TIERS = ["free", "basic", "pro", "business", "custom"] as const;
export type Tier = (typeof TIERS)[number];

/** Custom is displayed as Enterprise (spec §1). */
export const TIER_LABELS: Record<Tier, string> = {
  free: "Free",
  basic: "Basic",
  pro: "Pro",
  business: "Business",
  custom: "Enterprise",
};

export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}

/** Tier names arrive in any case from older clients; they are lower-cased on use (spec §3). */
export function normalizeTier(value: unknown): Tier | null {
  const lowered = typeof value === "string" ? value.trim().toLowerCase() : "";
  return isTier(lowered) ? lowered : null;
}

export function tierRank(tier: Tier): number {
  return TIERS.indexOf(tier);
}

export function tierAtLeast(tier: Tier, required: Tier): boolean {
  return tierRank(tier) >= tierRank(required);
}

/** Spec §9 / §3 "Tier config" limits; -1 means unlimited. */
export const LIMIT_NAMES = [
  "max_datarooms",
  "max_dataroom_storage_mb",
  "max_dataroom_files",
  "max_dataroom_folders",
  "max_dataroom_members",
  "max_dataroom_guests",
  "max_team_seats",
] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];
export type TierLimits = Record<LimitName, number>;
export const UNLIMITED = -1;

export const LIMIT_LABELS: Record<LimitName, { one: string; many: string }> = {
  max_datarooms: { one: "data room", many: "data rooms" },
  max_dataroom_storage_mb: { one: "MB of storage per data room", many: "MB of storage per data room" },
  max_dataroom_files: { one: "file per data room", many: "files per data room" },
  max_dataroom_folders: { one: "folder per data room", many: "folders per data room" },
  max_dataroom_members: { one: "member per data room", many: "members per data room" },
  max_dataroom_guests: { one: "guest per data room", many: "guests per data room" },
  max_team_seats: { one: "team seat", many: "team seats" },
};

/** Spec §6 "Dataroom feature flags checked" plus the product's modules. */
export const FEATURES = [
  // Data rooms
  { name: "dataroom_create", description: "Create data rooms", requiredTier: "free" },
  { name: "basic_permissions", description: "View, download and upload rights per member", requiredTier: "free" },
  { name: "advanced_permissions", description: "Per-folder rights, groups and guest rules", requiredTier: "business" },
  { name: "audit_logs", description: "A full audit log of every view, download and change", requiredTier: "pro" },
  { name: "bulk_upload", description: "Upload whole folders and many files at once", requiredTier: "basic" },
  { name: "analytics", description: "Page-by-page viewing analytics", requiredTier: "pro" },
  { name: "encryption_at_rest", description: "Every file encrypted at rest", requiredTier: "free" },
  { name: "watermarking", description: "Dynamic watermarks with the viewer's e-mail and time", requiredTier: "pro" },
  { name: "print_protection", description: "Block printing in the viewer", requiredTier: "pro" },
  { name: "download_protection", description: "View-only sharing without downloads", requiredTier: "basic" },
  { name: "time_limited_access", description: "Links and invitations that expire", requiredTier: "basic" },
  { name: "ip_restrictions", description: "Limit access to your office addresses", requiredTier: "business" },
  { name: "2fa_requirement", description: "Require two-factor sign-in for a data room", requiredTier: "pro" },
  { name: "api_access", description: "The REST API and webhooks", requiredTier: "business" },
  // Product modules and tier features of spec §6
  { name: "core_access", description: "Files, folders and share links", requiredTier: "free" },
  { name: "basic_viewing", description: "The secure document viewer", requiredTier: "free" },
  { name: "basic_editing", description: "Organise files with metadata and tags", requiredTier: "basic" },
  { name: "advanced_features", description: "Redaction, duplicates detection and retention rules", requiredTier: "pro" },
  { name: "secrets", description: "One-time secrets", requiredTier: "free" },
  { name: "receive_pages", description: "Public pages that receive files", requiredTier: "free" },
  { name: "forms", description: "The form builder and public forms", requiredTier: "basic" },
  { name: "galleries", description: "Public photo and video galleries", requiredTier: "basic" },
  { name: "e_signatures", description: "Electronic signatures", requiredTier: "pro" },
  { name: "team_management", description: "Teams and roles", requiredTier: "business" },
  { name: "custom_redirects", description: "Your own domain and redirects for shared links", requiredTier: "business" },
  { name: "custom_branding", description: "Your logo and colours on shared pages and e-mails", requiredTier: "business" },
  { name: "workflows", description: "Workflows and cases", requiredTier: "business" },
] as const satisfies ReadonlyArray<{ name: string; description: string; requiredTier: Tier }>;

export type FeatureName = (typeof FEATURES)[number]["name"];
export type FeatureConfig = { name: FeatureName; description: string; requiredTier: Tier; grantedPermissions: Permission[] };

export const ADDONS = ["extra_datarooms", "extra_storage", "e_signatures", "dataroom_team", "dataroom_guests"] as const;
export type AddonType = (typeof ADDONS)[number];

/** Spec §3 "Addons", §6 "Addon permission names", §9 "Plans and addons". */
export const ADDON_PERMISSIONS = {
  extra_datarooms: "dataroom.additional_datarooms",
  extra_storage: null,
  e_signatures: "e_signature.access",
  dataroom_team: "dataroom.team_collaboration",
  dataroom_guests: "dataroom.guest_access",
} as const satisfies Record<AddonType, string | null>;
export const DATAROOMS_PER_BATCH = 2;
export const STORAGE_MB_PER_UNIT = 1024;
/** Each unit of the team collaboration add-on (dataroom_team) adds this many team seats (docs/plans.md). */
export const TEAM_SEATS_PER_UNIT = 5;

export type AddonPermission = Exclude<(typeof ADDON_PERMISSIONS)[AddonType], null>;

/** Every permission string the product knows: a typed union shared by server and UI. */
export type Permission = "core_access" | `feature.${FeatureName}` | AddonPermission | `dataroom.${string}`;

/** Spec §6 "Default permissions by tier", cumulative. */
const FREE_PERMISSIONS: Permission[] = ["core_access", "feature.core_access", "feature.basic_viewing"];
const BASIC_PERMISSIONS: Permission[] = [...FREE_PERMISSIONS, "feature.basic_editing"];
const PRO_PERMISSIONS: Permission[] = [...BASIC_PERMISSIONS, "feature.advanced_features"];
/** Granted to business even when a stored list omits them (spec §6). */
export const BUSINESS_GUARANTEED_PERMISSIONS: Permission[] = [
  "feature.team_management",
  "feature.custom_redirects",
  "feature.api_access",
  "feature.custom_branding",
  "feature.advanced_permissions",
];
const BUSINESS_PERMISSIONS: Permission[] = [...PRO_PERMISSIONS, ...BUSINESS_GUARANTEED_PERMISSIONS];

/**
 * Custom (Enterprise) is not shown in the spec: it gets everything Business has (ADR 012); its
 * limits come from its `tiers` row (unlimited by default) and can be tuned per deployment.
 */
export const DEFAULT_TIER_PERMISSIONS: Record<Tier, Permission[]> = {
  free: FREE_PERMISSIONS,
  basic: BASIC_PERMISSIONS,
  pro: PRO_PERMISSIONS,
  business: BUSINESS_PERMISSIONS,
  custom: BUSINESS_PERMISSIONS,
};

export function featureConfig(name: string): FeatureConfig | undefined {
  const feature = FEATURES.find((candidate) => candidate.name === name);
  return feature ? { ...feature, grantedPermissions: [`feature.${feature.name}`] } : undefined;
}

/** The default required tier of a denied action when nothing more precise is known (spec §6). */
export const DEFAULT_REQUIRED_TIER: Tier = "business";

export const SCOPE_GLOBAL = "global";
export const SCOPE_DATAROOM = "dataroom";
