import { listReceivePages, type ReceivePageView } from "~/features/receive/receive.server";
import { z } from "zod";
import { listDatarooms, requireDataroom } from "~/features/datarooms/datarooms.server";
import { DATAROOM_ID_PATTERN, dataroomIdSchema } from "~/features/datarooms/datarooms.schema";
import { AppError } from "~/lib/errors";
import { listDefaultFolders } from "~/features/files/folders.server";
import { parseInput } from "~/lib/validation";
import type { ServiceContext } from "~/lib/service-context.server";
import { FEATURES, SCOPE_DATAROOM, SCOPE_GLOBAL, normalizeTier, type AddonType, type Tier, type TierLimits } from "./access.constants";
import { buildAccessSnapshot, checkDataroomPermission, checkFeature, checkPermission, requirementFor } from "./access-check";
import { listTierRows } from "./access.queries.server";
import { loadMemberAccess, tierLimits, type MemberAccess } from "./access.server";

/**
 * The read side of access for the browser (spec §7 "User data", "Permissions and features"):
 * each function loads the member's access once (memoised per service context) and answers with
 * the spec's field names. Decisions use the same pure checks as the server's enforcement.
 */

// ---- input ---------------------------------------------------------------------------------------

const NAMED_SCOPE_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;
const DATAROOM_SCOPE_PREFIX = `${SCOPE_DATAROOM}:`;

/** `global`, `dataroom`, `dataroom:<36-character id>` or a named scope (lower-case, ≤ 64 characters). */
export function isValidScope(value: string): boolean {
  if (value === SCOPE_GLOBAL || value === SCOPE_DATAROOM) return true;
  if (value.startsWith(DATAROOM_SCOPE_PREFIX)) return DATAROOM_ID_PATTERN.test(value.slice(DATAROOM_SCOPE_PREFIX.length));
  return NAMED_SCOPE_PATTERN.test(value);
}

export const scopeSchema = z
  .string({ error: "scope must be a string." })
  .refine(isValidScope, "scope must be global, dataroom, dataroom:<data room id> or a named scope (a-z, 0-9, _ . -, at most 64 characters).");

/** An absent or empty scope query means the global scope. */
const optionalScopeSchema = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value === "" ? SCOPE_GLOBAL : value))
  .pipe(scopeSchema);

const NAME_MAX_LENGTH = 100;
const permissionNameSchema = z
  .string({ error: "permission must be a string." })
  .trim()
  .min(1, "permission is required.")
  .max(NAME_MAX_LENGTH, `permission is at most ${NAME_MAX_LENGTH} characters.`);
const featureNameSchema = z
  .string({ error: "feature must be a string." })
  .trim()
  .min(1, "feature is required.")
  .max(NAME_MAX_LENGTH, `feature is at most ${NAME_MAX_LENGTH} characters.`);

export const USER_DATA_INCLUDES = ["tier", "folders", "pages", "permissions", "scopes"] as const;
export type UserDataInclude = (typeof USER_DATA_INCLUDES)[number];

/**
 * `include=tier,pages` (or repeated `include=` parameters) → the distinct names. Absent or empty
 * means everything; an unknown name is refused with the list of allowed ones.
 */
function isUserDataInclude(name: string): name is UserDataInclude {
  return (USER_DATA_INCLUDES as readonly string[]).includes(name);
}

export function parseIncludes(raw: readonly string[] | undefined): UserDataInclude[] {
  const names = (raw ?? []).flatMap((value) => value.split(",")).map((name) => name.trim()).filter((name) => name !== "");
  if (names.length === 0) return [...USER_DATA_INCLUDES];
  const unknown = names.filter((name) => !isUserDataInclude(name));
  if (unknown.length > 0) {
    const listed = unknown.slice(0, 5).map((name) => `"${name.slice(0, 40)}"`).join(", ");
    throw new AppError(
      "VALIDATION_ERROR",
      `include: unknown ${unknown.length === 1 ? "name" : "names"} ${listed}; use any of ${USER_DATA_INCLUDES.join(", ")}.`,
    );
  }
  return [...new Set(names.filter(isUserDataInclude))];
}

// ---- shapes --------------------------------------------------------------------------------------

/** Default folders (spec §3 "Folder"). */
export type DefaultFolder = { uid: string; label: string; color: string; icon: string | null };
/** Receive pages (spec §3 user store `receivePages`): the receive-pages module's view of each. */
export type ReceivePage = ReceivePageView;

export type UserDataBatch = {
  tier?: Tier;
  folders?: DefaultFolder[];
  pages?: ReceivePage[];
  permissions?: string[];
  features?: Record<string, boolean>;
  scopes?: string[];
};

/** The scopes the member has: global, dataroom, and every named scope of their explicit grants. */
function scopesOf(access: MemberAccess): string[] {
  const named = Object.keys(access.permissionMatrix)
    .filter((scope) => scope !== SCOPE_GLOBAL && scope !== SCOPE_DATAROOM && !scope.startsWith(DATAROOM_SCOPE_PREFIX))
    .sort();
  return [SCOPE_GLOBAL, SCOPE_DATAROOM, ...named];
}

function matrixRow(access: MemberAccess, scope: string): Record<string, boolean> {
  return { ...(access.permissionMatrix[scope] ?? {}) };
}

/** Only the positive quantities, by addon type. */
function activeAddons(access: MemberAccess): Partial<Record<AddonType, number>> {
  return Object.fromEntries(Object.entries(access.addons).filter(([, quantity]) => (quantity ?? 0) > 0));
}

// Receive pages come from the receive-pages module; default folders from the files module.

// ---- user data -----------------------------------------------------------------------------------

/** GET /api/user/data-batch: only the included keys (permissions brings features with it). */
export async function userDataBatch(ctx: ServiceContext, userId: string, include: readonly string[] | undefined): Promise<UserDataBatch> {
  const names = parseIncludes(include);
  const access = await loadMemberAccess(ctx, userId);
  const batch: UserDataBatch = {};
  if (names.includes("tier")) batch.tier = access.tier;
  if (names.includes("folders")) batch.folders = await listDefaultFolders(ctx, userId);
  if (names.includes("pages")) batch.pages = await listReceivePages(ctx, userId);
  if (names.includes("permissions")) {
    batch.permissions = access.permissions;
    batch.features = access.features;
  }
  if (names.includes("scopes")) batch.scopes = scopesOf(access);
  return batch;
}

export async function userTier(ctx: ServiceContext, userId: string): Promise<{ tier: Tier }> {
  const access = await loadMemberAccess(ctx, userId);
  return { tier: access.tier };
}

export async function userDefaultFolders(ctx: ServiceContext, userId: string): Promise<{ folders: DefaultFolder[] }> {
  await loadMemberAccess(ctx, userId);
  return { folders: await listDefaultFolders(ctx, userId) };
}

export async function userReceivePages(ctx: ServiceContext, userId: string): Promise<{ pages: ReceivePage[] }> {
  await loadMemberAccess(ctx, userId);
  return { pages: await listReceivePages(ctx, userId) };
}

export async function userScopes(ctx: ServiceContext, userId: string): Promise<{ scopes: string[] }> {
  return { scopes: scopesOf(await loadMemberAccess(ctx, userId)) };
}

export type ScopeContext = { scope: string; entities: unknown[]; permissions: Record<string, boolean> };

/**
 * A data room's row of the matrix: the member's grants for that scope, then the room's own
 * permissions as its authority decides them (plain names and `dataroom.{name}`, spec §6). For a
 * room the member is not in, only their own grants (and no entity).
 */
async function roomRow(ctx: ServiceContext, userId: string, access: MemberAccess, scope: string) {
  const row = matrixRow(access, scope);
  let room: Awaited<ReturnType<typeof requireDataroom>>;
  try {
    room = await requireDataroom(ctx, userId, scope.slice(DATAROOM_SCOPE_PREFIX.length));
  } catch (error) {
    // Not in that room: only the member's own grants for the scope (nothing about the room).
    if (error instanceof AppError && error.status === 404) return { room: null, row };
    throw error;
  }
  for (const [name, allowed] of Object.entries(room.permissions)) {
    row[name] = allowed;
    row[`dataroom.${name}`] = allowed;
  }
  return { room, row };
}

/** GET /api/user/context/{scope}: the scope's row of the permission matrix and its entities. */
export async function userContext(ctx: ServiceContext, userId: string, rawScope: string): Promise<{ context: ScopeContext }> {
  const scope = parseInput(scopeSchema, rawScope);
  const access = await loadMemberAccess(ctx, userId);
  if (scope.startsWith(DATAROOM_SCOPE_PREFIX)) {
    const { room, row } = await roomRow(ctx, userId, access, scope);
    const entities = room ? [{ type: "dataroom", id: room.id, name: room.name, role: room.role, archived: room.archived, owner: room.owner }] : [];
    return { context: { scope, entities, permissions: row } };
  }
  if (scope === SCOPE_DATAROOM) {
    const { datarooms } = await listDatarooms(ctx, userId);
    const entities = datarooms.map((room) => ({ type: "dataroom", id: room.id, name: room.name, role: room.role, archived: room.archived }));
    return { context: { scope, entities, permissions: matrixRow(access, scope) } };
  }
  // Entities of other scopes (teams, workflows…) are listed by the modules that will own them.
  return { context: { scope, entities: [], permissions: matrixRow(access, scope) } };
}

// ---- permissions and features --------------------------------------------------------------------

export type PermissionsResponse = {
  permissions: string[];
  features: Record<string, boolean>;
  scoped_permissions: Record<string, boolean>;
  data: {
    tier: Tier;
    permission_matrix: Record<string, Record<string, boolean>>;
    limits: TierLimits;
    addons: Partial<Record<AddonType, number>>;
  };
};

/** GET /api/permissions[?scope]. */
export async function memberPermissions(ctx: ServiceContext, userId: string, rawScope: string | undefined): Promise<PermissionsResponse> {
  const scope = parseInput(optionalScopeSchema, rawScope);
  const access = await loadMemberAccess(ctx, userId);
  const scoped = scope.startsWith(DATAROOM_SCOPE_PREFIX) ? (await roomRow(ctx, userId, access, scope)).row : matrixRow(access, scope);
  return {
    permissions: access.permissions,
    features: access.features,
    scoped_permissions: scoped,
    data: { tier: access.tier, permission_matrix: access.permissionMatrix, limits: access.limits, addons: activeAddons(access) },
  };
}

/** GET /api/features/check/{feature}?scope. An unknown feature is simply not held. */
export async function checkMemberFeature(
  ctx: ServiceContext,
  userId: string,
  input: { feature: string; scope?: string },
): Promise<{ hasAccess: boolean }> {
  const feature = parseInput(featureNameSchema, input.feature);
  const scope = parseInput(optionalScopeSchema, input.scope);
  const access = await loadMemberAccess(ctx, userId);
  return { hasAccess: checkFeature(access, feature, scope) };
}

const CONTEXT_TYPES = [SCOPE_DATAROOM] as const;

/** Absent, null and "" all mean "not given" (query strings cannot say null). */
function notGiven(value: unknown): unknown {
  return value === null || value === "" ? undefined : value;
}

function contextTypeSchema(field: string) {
  return z.preprocess(notGiven, z.enum(CONTEXT_TYPES, { error: `${field} must be ${CONTEXT_TYPES.join(" or ")}.` }).optional());
}
const contextIdSchema = z.preprocess(notGiven, dataroomIdSchema.optional());
const questionFields = { permission: permissionNameSchema, scope: z.preprocess(notGiven, optionalScopeSchema) };

/** GET /api/user/permissions/check: the question in the query string (`context_type`, `context_id`). */
const queryQuestionSchema = z
  .object({ ...questionFields, context_type: contextTypeSchema("context_type"), context_id: contextIdSchema })
  .refine((input) => input.context_id === undefined || input.context_type !== undefined, {
    message: "context_id needs context_type (dataroom).",
    path: ["context_type"],
  })
  .transform(({ permission, scope, context_type, context_id }) => ({ permission, scope, contextType: context_type, contextId: context_id }));

/** POST /api/permissions/check: the same question in a JSON body (`entity_type`, `entity_id`). */
const bodyQuestionSchema = z
  .object(
    { ...questionFields, entity_type: contextTypeSchema("entity_type"), entity_id: contextIdSchema },
    { error: "The body must be a JSON object with a permission." },
  )
  .refine((input) => input.entity_id === undefined || input.entity_type !== undefined, {
    message: "entity_id needs entity_type (dataroom).",
    path: ["entity_type"],
  })
  .transform(({ permission, scope, entity_type, entity_id }) => ({ permission, scope, contextType: entity_type, contextId: entity_id }));

type PermissionQuestion = z.output<typeof queryQuestionSchema>;

/**
 * One decision: a data-room context asks the data-room check (that room's row, the dataroom and
 * global scopes, 'dataroom.{name}'); a `feature.` name asks the feature check; anything else the
 * permission check in the scope.
 */
function decide(access: MemberAccess, question: PermissionQuestion): boolean {
  if (question.contextType === SCOPE_DATAROOM) return checkDataroomPermission(access, question.permission, question.contextId);
  if (question.permission.startsWith("feature.")) return checkFeature(access, question.permission, question.scope);
  return checkPermission(access, question.permission, question.scope);
}

export type PermissionCheckResponse = {
  hasPermission: boolean;
  requiredTier: Tier | null;
  requiredFeature: string | null;
  isAddon: boolean;
  addonType: AddonType | null;
};

/** GET /api/user/permissions/check/{permission}?scope&context_type&context_id: the decision and what unlocks it. */
export async function checkMemberPermission(
  ctx: ServiceContext,
  userId: string,
  input: { permission: string; scope?: string; context_type?: string; context_id?: string },
): Promise<PermissionCheckResponse> {
  const question = parseInput(queryQuestionSchema, input);
  const access = await loadMemberAccess(ctx, userId);
  return { hasPermission: decide(access, question), ...requirementFor(question.permission) };
}

/** POST /api/permissions/check { permission, scope, entity_type, entity_id }. */
export async function checkPermissionForEntity(ctx: ServiceContext, userId: string, body: unknown): Promise<{ hasPermission: boolean }> {
  const question = parseInput(bodyQuestionSchema, body);
  const access = await loadMemberAccess(ctx, userId);
  return { hasPermission: decide(access, question) };
}

// ---- tier requirements (public) ------------------------------------------------------------------

export type TierRequirement = { tier: Tier; label: string; limits: TierLimits; features: string[]; permissions: string[] };

/**
 * GET /api/features/tier-requirements: every tier with its limits (from the `tiers` table), the
 * features it unlocks (those whose required tier is this one) and its permission list. Public:
 * the upgrade modal may show it to anyone.
 */
export async function tierRequirements(ctx: ServiceContext): Promise<{ tier_requirements: TierRequirement[] }> {
  const rows = await listTierRows(ctx.db);
  const tierRequirements: TierRequirement[] = [];
  for (const row of rows) {
    const tier = normalizeTier(row.name);
    if (!tier) continue;
    const { permissions } = buildAccessSnapshot({ tier, storedPermissions: row.permissions, addons: {}, grants: [] });
    tierRequirements.push({
      tier,
      label: row.label,
      limits: tierLimits(row),
      features: FEATURES.filter((feature) => feature.requiredTier === tier).map((feature) => feature.name),
      permissions,
    });
  }
  return { tier_requirements: tierRequirements };
}
