import { isValidDataroomId } from "~/features/datarooms/datarooms.constants";
import {
  isAuthenticatedPage,
  USER_DATA_CACHE_KEY,
  USER_PRELOAD_CACHE_KEY,
  UserPagePropsContext,
  type UserPageProps,
} from "./user-page-props";
import { useContext, useMemo, useSyncExternalStore } from "react";
import { checkAuth } from "~/features/auth/auth-store";
import { showToast } from "~/components/ui/toast";
import { fetchWithRetry, HttpError, request } from "~/lib/http";
import {
  BUSINESS_GUARANTEED_PERMISSIONS,
  DEFAULT_TIER_PERMISSIONS,
  normalizeTier,
  SCOPE_DATAROOM,
  SCOPE_GLOBAL,
  tierAtLeast,
  type Tier,
} from "./access.constants";
import { checkDataroomPermission, checkFeature, checkPermission, type AccessSnapshot, type PermissionMatrix } from "./access-check";

/**
 * The browser's user store (spec §3 "User store", §4 "Scope", "Store initialisation",
 * "Application start", §5, §7, §8, §9): the member's tier, folders, receive pages, scopes,
 * permissions, features and permission matrix, mirrored from the server so that locked controls
 * are decided without a round trip. The decisions themselves are the shared pure checks of
 * access-check.ts; this module only keeps the data fresh.
 *
 * Where the data comes from, in order of precedence: the page's own props (the root loader, the
 * freshest), then the local cache (< 1 hour old, for what the page does not carry), then the
 * server. A valid cache is refreshed in the background 100 ms after it is applied.
 */

// ---- constants -----------------------------------------------------------------------------------

export const USER_STORE_VERSION = "1.0.0";
/** Spec §9: user data is fresh for 1 hour; an older cache forces a refresh. */
export const USER_DATA_MAX_AGE_MS = 60 * 60 * 1000;
/** Spec §4/§9: the background initialisation and the background cache refresh wait 100 ms. */
export const BACKGROUND_INIT_DELAY_MS = 100;
export const USER_STORES_INITIALIZED_EVENT = "user-stores-initialized";
export const USER_DATA_INCLUDE = "tier,folders,pages,permissions,scopes";
/** The cache-busting query parameter of a forced fetch. */
export const TIMESTAMP_PARAM = "_t";
export const NO_CACHE_HEADERS: Record<string, string> = { "Cache-Control": "no-cache", Pragma: "no-cache" };

/** Spec §8 "Permissions and access", "Start-up and global". */
export const userStoreMessages = {
  setupFailed: "Failed to initialize user data. Some features may be limited.",
  initFailed: "Failed to initialize user data. Please refresh the page.",
  emptyPermissions: "Empty response from permissions API",
} as const;

// ---- types ---------------------------------------------------------------------------------------

/** Spec §3 "Folder". */
export type DefaultFolder = { uid: string; label: string; color: string | null; icon: string | null };
/** Receive pages: their fields arrive with the receive-pages module. */
export type ReceivePage = Record<string, unknown>;
export type ScopeContextData = { scope: string; entities: unknown[] };

export type UserStoreState = {
  tier: Tier | null;
  defaultFolders: DefaultFolder[];
  receivePages: ReceivePage[];
  isAuthenticated: boolean;
  scopes: string[];
  currentScope: string;
  contextData: Record<string, ScopeContextData>;
  currentDataroomId: string | null;
  permissions: string[];
  features: Record<string, boolean>;
  permissionMatrix: PermissionMatrix;
  lastUserDataFetch: number | null;
  lastPermissionsFetch: number | null;
  initialized: boolean;
  storeVersion: typeof USER_STORE_VERSION;
  /** Not in the spec's list: whether a load is under way (clearing the cache waits for it). */
  isLoading: boolean;
  /** Whose data this is, so that one member's cache is never applied to another. */
  userId: string | null;
};

/** Spec §3 "Auth data on first page load": what the root loader hands to the page. */

/** What the store does to the outside world; replaceable in unit tests (like setHttpEffects). */
export type UserStoreEffects = {
  now: () => number;
  /** Runs `callback` after `ms`; returns a function that cancels it. */
  schedule: (callback: () => void, ms: number) => () => void;
  storage: () => Storage | null;
  notify: (message: string, type: "error" | "warning") => void;
  emit: (eventName: string, detail: unknown) => void;
  /** The server refused user data with 401/403: let the auth store check (and clear) the session. */
  onAuthRejected: () => void;
};

const browserEffects: UserStoreEffects = {
  now: () => Date.now(),
  schedule: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
  storage: () => {
    try {
      return typeof localStorage === "undefined" ? null : localStorage;
    } catch {
      return null; // storage disabled by the browser's privacy settings
    }
  },
  notify: (message, type) => showToast(message, { type }),
  emit: (eventName, detail) => {
    if (typeof window !== "undefined") window.dispatchEvent(new CustomEvent(eventName, { detail }));
  },
  onAuthRejected: () => {
    void checkAuth();
  },
};

let effects: UserStoreEffects = browserEffects;

export function setUserStoreEffects(overrides: Partial<UserStoreEffects> | null): void {
  effects = overrides ? { ...browserEffects, ...overrides } : browserEffects;
}

// ---- the state -----------------------------------------------------------------------------------

function initialState(): UserStoreState {
  return {
    tier: null,
    defaultFolders: [],
    receivePages: [],
    isAuthenticated: false,
    scopes: [SCOPE_GLOBAL],
    currentScope: SCOPE_GLOBAL,
    contextData: {},
    currentDataroomId: null,
    permissions: [],
    features: {},
    permissionMatrix: {},
    lastUserDataFetch: null,
    lastPermissionsFetch: null,
    initialized: false,
    storeVersion: USER_STORE_VERSION,
    isLoading: false,
    userId: null,
  };
}

let state: UserStoreState = initialState();
const listeners = new Set<() => void>();
/** Bumped on reset: answers to requests started before it are dropped. */
let generation = 0;
let loadingCount = 0;
let initPromise: Promise<void> | null = null;
let cancelBackgroundRefresh: (() => void) | null = null;
/** What the page props supplied: the cache never overrides these (the page is fresher). */
let suppliedByPage = { tier: false, permissions: false, features: false };

function setState(patch: Partial<UserStoreState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

export function getUserState(): UserStoreState {
  return state;
}

export function subscribeUserStore(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function beginLoading(): void {
  loadingCount += 1;
  if (!state.isLoading) setState({ isLoading: true });
}

function endLoading(): void {
  loadingCount = Math.max(0, loadingCount - 1);
  if (loadingCount === 0 && state.isLoading) setState({ isLoading: false });
}

// ---- parsing untrusted data ------------------------------------------------------------------------

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] | null {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string" && item !== "") : null;
}

function booleanMap(value: unknown): Record<string, boolean> | null {
  if (!isPlainObject(value)) return null;
  const map: Record<string, boolean> = {};
  for (const [key, flag] of Object.entries(value)) if (typeof flag === "boolean") map[key] = flag;
  return map;
}

/** Spec §5: the permission matrix must be an object (of objects of booleans); anything else is refused. */
export function parsePermissionMatrix(value: unknown): PermissionMatrix | null {
  if (!isPlainObject(value)) return null;
  const matrix: PermissionMatrix = {};
  for (const [scope, row] of Object.entries(value)) {
    const parsed = booleanMap(row);
    if (parsed) matrix[scope] = parsed;
  }
  return matrix;
}

function parseFolders(value: unknown): DefaultFolder[] | null {
  if (!Array.isArray(value)) return null;
  return value.flatMap((item): DefaultFolder[] => {
    if (!isPlainObject(item) || typeof item.uid !== "string" || typeof item.label !== "string") return [];
    return [
      {
        uid: item.uid,
        label: item.label,
        color: typeof item.color === "string" ? item.color : null,
        icon: typeof item.icon === "string" ? item.icon : null,
      },
    ];
  });
}

function parsePages(value: unknown): ReceivePage[] | null {
  return Array.isArray(value) ? value.filter(isPlainObject) : null;
}

// ---- applying data -------------------------------------------------------------------------------

/** Business (and Enterprise) always hold the guaranteed features, whatever a list says (spec §6). */
function withTierGuarantees(tier: Tier | null, permissions: string[]): string[] {
  if (!tier || !tierAtLeast(tier, "business")) return permissions;
  const missing = BUSINESS_GUARANTEED_PERMISSIONS.filter((permission) => !permissions.includes(permission));
  return missing.length > 0 ? [...permissions, ...missing] : permissions;
}

/**
 * Spec §5: a fetched list replaces the current one unless it is smaller and the current one is
 * not empty (a partial answer must not take rights away mid-session; a tier change empties the
 * list first, so a real downgrade still applies).
 */
export function choosePermissionList(current: readonly string[], incoming: readonly string[]): string[] {
  if (current.length > 0 && incoming.length < current.length) return [...current];
  return [...incoming];
}

function applyPermissionList(incoming: string[]): void {
  setState({ permissions: withTierGuarantees(state.tier, choosePermissionList(state.permissions, incoming)) });
}

/** Spec §4 "Application start" step 3: permissions are also put in the global row of the matrix. */
function withGlobalRow(matrix: PermissionMatrix, permissions: readonly string[]): PermissionMatrix {
  const row = { ...(matrix[SCOPE_GLOBAL] ?? {}) };
  for (const permission of permissions) if (row[permission] === undefined) row[permission] = true;
  return { ...matrix, [SCOPE_GLOBAL]: row };
}

/** Row by row: `over` wins where both have a value. */
function mergeMatrices(under: PermissionMatrix, over: PermissionMatrix): PermissionMatrix {
  const merged: PermissionMatrix = { ...under };
  for (const [scope, row] of Object.entries(over)) merged[scope] = { ...(under[scope] ?? {}), ...row };
  return merged;
}

/** A tier change: the old tier's rights no longer apply, so the next load's list is taken whole. */
function applyTier(tier: Tier): void {
  if (state.tier !== null && state.tier !== tier) {
    setState({ tier, permissions: [], permissionMatrix: {}, lastPermissionsFetch: null });
  } else if (state.tier !== tier) {
    setState({ tier });
  }
}

/** Spec §4: if no permissions loaded but a tier exists, core_access is added. */
function ensureCoreAccess(): void {
  if (state.tier && state.permissions.length === 0) setState({ permissions: ["core_access"] });
}

/** Spec §4: a failed permission fetch with a tier and no permissions falls back to the tier's defaults. */
function applyFallbackPermissions(): void {
  if (state.tier && state.permissions.length === 0) {
    const permissions = [...DEFAULT_TIER_PERMISSIONS[state.tier]];
    setState({ permissions, permissionMatrix: withGlobalRow(state.permissionMatrix, permissions) });
  }
}

function applyScopes(scopes: string[]): void {
  const next = [SCOPE_GLOBAL, ...scopes.filter((scope) => scope !== SCOPE_GLOBAL)];
  if (state.currentScope === SCOPE_DATAROOM && !next.includes(SCOPE_DATAROOM)) next.push(SCOPE_DATAROOM);
  setState({ scopes: [...new Set(next)] });
}

/** The answer of GET /api/user/data-batch, field by field; unknown or malformed fields are ignored. */
function applyUserData(batch: unknown): void {
  if (!isPlainObject(batch)) return;
  const tier = normalizeTier(batch.tier);
  if (tier) applyTier(tier);
  const folders = parseFolders(batch.folders);
  if (folders) setState({ defaultFolders: folders });
  const pages = parsePages(batch.pages);
  if (pages) setState({ receivePages: pages });
  const permissions = stringList(batch.permissions);
  if (permissions) {
    applyPermissionList(permissions);
    setState({ permissionMatrix: withGlobalRow(state.permissionMatrix, state.permissions) });
  }
  const features = booleanMap(batch.features);
  if (features) setState({ features });
  const scopes = stringList(batch.scopes);
  if (scopes) applyScopes(scopes);
  setState({ lastUserDataFetch: effects.now() });
}

/** The answer of GET /api/permissions[?scope]: list, features, the whole matrix and the scope's row. */
function applyPermissionsResponse(response: Record<string, unknown>, scope: string): void {
  const data = isPlainObject(response.data) ? response.data : {};
  const tier = normalizeTier(data.tier);
  if (tier) applyTier(tier);
  const permissions = stringList(response.permissions);
  if (permissions) applyPermissionList(permissions);
  const features = booleanMap(response.features);
  if (features) setState({ features });
  const matrix = parsePermissionMatrix(data.permission_matrix);
  if (data.permission_matrix !== undefined && !matrix) console.warn("Ignored a permission matrix that is not an object");
  let nextMatrix = matrix ?? state.permissionMatrix;
  const scopedRow = booleanMap(response.scoped_permissions);
  if (scopedRow && scope !== SCOPE_GLOBAL) nextMatrix = { ...nextMatrix, [scope]: scopedRow };
  setState({ permissionMatrix: withGlobalRow(nextMatrix, state.permissions), lastPermissionsFetch: effects.now() });
}

/** Replaces the matrix if, and only if, the value is an object (spec §5). Returns whether it was applied. */
export function setPermissionMatrix(value: unknown): boolean {
  const matrix = parsePermissionMatrix(value);
  if (!matrix) return false;
  setState({ permissionMatrix: matrix });
  return true;
}

// ---- the caches ----------------------------------------------------------------------------------

type CachedUserData = {
  storeVersion: string;
  userId: string | null;
  tier: Tier | null;
  defaultFolders: DefaultFolder[];
  receivePages: ReceivePage[];
  scopes: string[];
  permissions: string[];
  features: Record<string, boolean>;
  permissionMatrix: PermissionMatrix;
  lastUserDataFetch: number;
  lastPermissionsFetch: number | null;
};

type PreloadedUserData = { storeVersion: string; userId: string | null; savedAt: number; data: unknown };

function readJson(key: string): Record<string, unknown> | null {
  try {
    const raw = effects.storage()?.getItem(key);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isPlainObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function writeJson(key: string, value: unknown): void {
  try {
    effects.storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // A full quota or private mode: the server still answers.
  }
}

function removeKey(key: string): void {
  try {
    effects.storage()?.removeItem(key);
  } catch {
    // Nothing to clean up then.
  }
}

function isFresh(timestamp: unknown): timestamp is number {
  return typeof timestamp === "number" && effects.now() - timestamp < USER_DATA_MAX_AGE_MS && timestamp <= effects.now();
}

/** The persisted store, if it is this version's, this member's and less than 1 hour old. */
function readDataCache(): CachedUserData | null {
  const saved = readJson(USER_DATA_CACHE_KEY);
  if (!saved || saved.storeVersion !== USER_STORE_VERSION) return null;
  const userId = typeof saved.userId === "string" ? saved.userId : null;
  if (userId !== state.userId) return null;
  if (!isFresh(saved.lastUserDataFetch)) return null;
  return {
    storeVersion: USER_STORE_VERSION,
    userId,
    tier: normalizeTier(saved.tier),
    defaultFolders: parseFolders(saved.defaultFolders) ?? [],
    receivePages: parsePages(saved.receivePages) ?? [],
    scopes: stringList(saved.scopes) ?? [SCOPE_GLOBAL],
    permissions: stringList(saved.permissions) ?? [],
    features: booleanMap(saved.features) ?? {},
    permissionMatrix: parsePermissionMatrix(saved.permissionMatrix) ?? {},
    lastUserDataFetch: saved.lastUserDataFetch,
    lastPermissionsFetch: typeof saved.lastPermissionsFetch === "number" ? saved.lastPermissionsFetch : null,
  };
}

/** A data-batch answer fetched ahead of time (preloadUserData), used once. */
function takePreloadCache(): PreloadedUserData | null {
  const saved = readJson(USER_PRELOAD_CACHE_KEY);
  if (!saved) return null;
  removeKey(USER_PRELOAD_CACHE_KEY);
  const userId = typeof saved.userId === "string" ? saved.userId : null;
  if (saved.storeVersion !== USER_STORE_VERSION || userId !== state.userId || !isFresh(saved.savedAt)) return null;
  return { storeVersion: USER_STORE_VERSION, userId, savedAt: saved.savedAt, data: saved.data };
}

function writeDataCache(): void {
  if (state.lastUserDataFetch === null) return;
  const cached: CachedUserData = {
    storeVersion: USER_STORE_VERSION,
    userId: state.userId,
    tier: state.tier,
    defaultFolders: state.defaultFolders,
    receivePages: state.receivePages,
    scopes: state.scopes,
    permissions: state.permissions,
    features: state.features,
    permissionMatrix: state.permissionMatrix,
    lastUserDataFetch: state.lastUserDataFetch,
    lastPermissionsFetch: state.lastPermissionsFetch,
  };
  writeJson(USER_DATA_CACHE_KEY, cached);
}

/** Applies a valid cache beneath what the page supplied; a cache of another tier brings no rights. */
function applyDataCache(cached: CachedUserData): void {
  const isSameTier = state.tier === null || cached.tier === state.tier;
  setState({
    defaultFolders: cached.defaultFolders,
    receivePages: cached.receivePages,
    lastUserDataFetch: cached.lastUserDataFetch,
  });
  applyScopes(cached.scopes);
  if (!isSameTier) {
    // The page says the tier changed since the cache was written: its rights are the old tier's.
    setState({ lastPermissionsFetch: null });
    return;
  }
  if (!suppliedByPage.tier && cached.tier) setState({ tier: cached.tier });
  if (!suppliedByPage.permissions) setState({ permissions: withTierGuarantees(state.tier, cached.permissions) });
  if (!suppliedByPage.features) setState({ features: cached.features });
  setState({
    permissionMatrix: withGlobalRow(mergeMatrices(cached.permissionMatrix, state.permissionMatrix), state.permissions),
    lastPermissionsFetch: cached.lastPermissionsFetch,
  });
}

/** Spec §4: clearing the cache is refused while a load is under way. Returns whether it was cleared. */
export function clearUserCache(): boolean {
  if (state.isLoading) return false;
  removeKey(USER_DATA_CACHE_KEY);
  removeKey(USER_PRELOAD_CACHE_KEY);
  return true;
}

// ---- talking to the server -----------------------------------------------------------------------

function isAuthRefusal(error: unknown): boolean {
  return error instanceof HttpError && (error.status === 401 || error.status === 403);
}

function fetchUserData(options: { background: boolean; force: boolean }): Promise<unknown> {
  return request<unknown>("/api/user/data-batch", {
    query: { include: USER_DATA_INCLUDE, [TIMESTAMP_PARAM]: options.force ? effects.now() : undefined },
    headers: options.force ? NO_CACHE_HEADERS : undefined,
    background: options.background,
    handleErrors: false,
  });
}

/**
 * GET /api/permissions[?scope]. Forced: a timestamp parameter, no-cache headers and up to 3
 * retries after 1 s, 2 s and 3 s (spec §7). An empty answer is an error (spec §8).
 */
async function fetchPermissions(scope: string, options: { force: boolean; background: boolean }): Promise<Record<string, unknown>> {
  const query = { scope: scope === SCOPE_GLOBAL ? undefined : scope };
  const response = options.force
    ? await fetchWithRetry<unknown>("/api/permissions", {
        query: { ...query, [TIMESTAMP_PARAM]: effects.now() },
        headers: NO_CACHE_HEADERS,
        background: options.background,
        handleErrors: false,
      })
    : await request<unknown>("/api/permissions", { query, background: options.background, handleErrors: false });
  if (!isPlainObject(response) || Object.keys(response).length === 0) throw new Error(userStoreMessages.emptyPermissions);
  return response;
}

/** The member's session is gone (401) or refused (403): nothing is unlocked any more. */
function markUnauthenticated(): void {
  cancelBackgroundWork();
  removeKey(USER_DATA_CACHE_KEY);
  removeKey(USER_PRELOAD_CACHE_KEY);
  setState({
    isAuthenticated: false,
    tier: null,
    permissions: [],
    features: {},
    permissionMatrix: {},
    currentScope: SCOPE_GLOBAL,
    currentDataroomId: null,
    lastPermissionsFetch: null,
    initialized: true,
  });
  effects.onAuthRejected();
}

/** Loads the global permissions; on failure the tier's defaults apply if nothing else is known. */
async function loadPermissions(options: { force: boolean; background: boolean }): Promise<boolean> {
  const startedIn = generation;
  beginLoading();
  try {
    const response = await fetchPermissions(SCOPE_GLOBAL, options);
    if (startedIn !== generation) return false;
    applyPermissionsResponse(response, SCOPE_GLOBAL);
    return true;
  } catch (error) {
    if (startedIn !== generation) return false;
    if (isAuthRefusal(error)) {
      markUnauthenticated();
      return false;
    }
    applyFallbackPermissions();
    return false;
  } finally {
    endLoading();
  }
}

/** Public: reloads the member's permissions (forced: cache-busting and retried, e.g. after login). */
export function refreshPermissions(options: { force?: boolean } = {}): Promise<boolean> {
  return loadPermissions({ force: options.force === true, background: false });
}

/**
 * The server step of the initialisation. A tier change (or no matrix yet) brings a permissions
 * fetch; if nothing usable is known afterwards (no tier at all), it rejects.
 */
async function loadFromServer(options: { force: boolean; background: boolean }): Promise<void> {
  const startedIn = generation;
  beginLoading();
  try {
    let batch: unknown;
    try {
      batch = await fetchUserData(options);
    } catch (error) {
      if (startedIn !== generation) return;
      if (isAuthRefusal(error)) return markUnauthenticated();
      applyFallbackPermissions();
      if (!state.tier) throw error;
      setState({ initialized: true });
      return;
    }
    if (startedIn !== generation) return;
    const tierBefore = state.tier;
    applyUserData(batch);
    const hasTierChanged = tierBefore !== null && state.tier !== tierBefore;
    if (state.tier && (hasTierChanged || options.force || state.lastPermissionsFetch === null)) {
      await loadPermissions({ force: options.force || hasTierChanged, background: options.background });
      if (startedIn !== generation) return;
    }
    ensureCoreAccess();
    setState({ isAuthenticated: state.isAuthenticated || state.tier !== null, initialized: true });
    writeDataCache();
  } finally {
    endLoading();
  }
}

function cancelBackgroundWork(): void {
  cancelBackgroundRefresh?.();
  cancelBackgroundRefresh = null;
}

function scheduleBackgroundRefresh(): void {
  cancelBackgroundWork();
  cancelBackgroundRefresh = effects.schedule(() => {
    cancelBackgroundRefresh = null;
    // A background refresh that fails leaves the (valid) cache in place; nothing to tell the member.
    loadFromServer({ force: false, background: true }).catch((error: unknown) => console.warn("User data refresh failed", error));
  }, BACKGROUND_INIT_DELAY_MS);
}

/**
 * Spec §4 "Store initialisation": page props (if given), then the cache, then the server.
 * A valid cache is applied at once and refreshed in the background 100 ms later; a stale or
 * missing cache waits for the server. `force` skips the cache and busts every HTTP cache.
 * Concurrent calls share one initialisation.
 */
export function initializeUserStore(options: { force?: boolean; props?: UserPageProps } = {}): Promise<void> {
  if (initPromise && !options.force) return initPromise;
  const running = runInitialization(options).finally(() => {
    if (initPromise === running) initPromise = null;
  });
  initPromise = running;
  return running;
}

async function runInitialization(options: { force?: boolean; props?: UserPageProps }): Promise<void> {
  if (options.props) applyPageProps(options.props);
  if (!options.force) {
    const cached = readDataCache();
    if (cached) {
      applyDataCache(cached);
      setState({ initialized: true, isAuthenticated: state.isAuthenticated || state.tier !== null });
      scheduleBackgroundRefresh();
      return;
    }
    const preloaded = takePreloadCache();
    if (preloaded) {
      applyUserData(preloaded.data);
      setState({ lastUserDataFetch: preloaded.savedAt });
      ensureCoreAccess();
      setState({ initialized: true, isAuthenticated: state.isAuthenticated || state.tier !== null });
      scheduleBackgroundRefresh();
      return;
    }
  }
  // No cache, or one older than an hour: a forced refresh from the server.
  const hadStaleCache = !options.force && readJson(USER_DATA_CACHE_KEY) !== null;
  await loadFromServer({ force: options.force === true || hadStaleCache, background: false });
}

/**
 * Fetches the member's data ahead of the next initialisation (e.g. right after signing in, before
 * the next page) and keeps it under user-preload-cache; the next initialisation uses it once.
 */
export async function preloadUserData(userId: string | null = state.userId): Promise<boolean> {
  try {
    const data = await fetchUserData({ background: true, force: false });
    writeJson(USER_PRELOAD_CACHE_KEY, { storeVersion: USER_STORE_VERSION, userId, savedAt: effects.now(), data } satisfies PreloadedUserData);
    return true;
  } catch {
    return false;
  }
}

// ---- scope ---------------------------------------------------------------------------------------

/**
 * Spec §4 "Scope": a scope the member does not have falls back to global, except dataroom, which
 * is added to the list automatically. Returns the scope now current.
 */
export function setScope(scope: unknown): string {
  const name = typeof scope === "string" ? scope : "";
  if (name === SCOPE_DATAROOM) {
    setState({ scopes: state.scopes.includes(SCOPE_DATAROOM) ? state.scopes : [...state.scopes, SCOPE_DATAROOM], currentScope: SCOPE_DATAROOM });
  } else {
    setState({ currentScope: name !== "" && state.scopes.includes(name) ? name : SCOPE_GLOBAL });
  }
  return state.currentScope;
}

export { isValidDataroomId, isAuthenticatedPage, USER_DATA_CACHE_KEY, USER_PRELOAD_CACHE_KEY, UserPagePropsContext, type UserPageProps };

/** The permission-matrix scope of one data room. */
export function dataroomScope(dataroomId: string): string {
  return `${SCOPE_DATAROOM}:${dataroomId}`;
}

/**
 * Spec §4 "Scope": sets the dataroom scope and id, then loads that room's permissions unless they
 * are supplied. On failure it returns to global and clears the id. Spec §5: an id that is empty,
 * 'undefined', 'null', not a string or not a data room id is refused silently (false).
 */
export async function setDataroomContext(dataroomId: unknown, permissions?: Record<string, boolean> | readonly string[]): Promise<boolean> {
  if (!isValidDataroomId(dataroomId)) return false;
  const id = dataroomId.trim();
  setScope(SCOPE_DATAROOM);
  setState({ currentDataroomId: id });
  if (permissions !== undefined) {
    const row = Array.isArray(permissions)
      ? Object.fromEntries(permissions.filter((item): item is string => typeof item === "string").map((item) => [item, true]))
      : (booleanMap(permissions) ?? {});
    setState({ permissionMatrix: { ...state.permissionMatrix, [dataroomScope(id)]: row } });
    return true;
  }
  const startedIn = generation;
  beginLoading();
  try {
    const response = await fetchPermissions(dataroomScope(id), { force: false, background: true });
    if (startedIn !== generation || state.currentDataroomId !== id) return false;
    applyPermissionsResponse(response, dataroomScope(id));
    return true;
  } catch {
    if (startedIn === generation && state.currentDataroomId === id) clearDataroomContext();
    return false;
  } finally {
    endLoading();
  }
}

/** Spec §4: clearing the context returns to global. */
export function clearDataroomContext(): void {
  setState({ currentScope: SCOPE_GLOBAL, currentDataroomId: null });
}

/** GET /api/user/context/{scope}: the scope's entities (contextData) and its row of the matrix. */
export async function loadScopeContext(scope: string): Promise<ScopeContextData | null> {
  try {
    const response = await request<unknown>(`/api/user/context/${encodeURIComponent(scope)}`, { background: true, handleErrors: false });
    const context = isPlainObject(response) && isPlainObject(response.context) ? response.context : null;
    if (!context) return null;
    const data: ScopeContextData = { scope, entities: Array.isArray(context.entities) ? context.entities : [] };
    const row = booleanMap(context.permissions);
    setState({
      contextData: { ...state.contextData, [scope]: data },
      ...(row && scope !== SCOPE_GLOBAL ? { permissionMatrix: { ...state.permissionMatrix, [scope]: row } } : {}),
    });
    return data;
  } catch {
    return null;
  }
}

// ---- checks --------------------------------------------------------------------------------------

function snapshotOf(source: UserStoreState): AccessSnapshot {
  return { tier: source.tier, permissions: source.permissions, features: source.features, permissionMatrix: source.permissionMatrix };
}

/**
 * Spec §6: a permission in a scope (default: the current one). In the dataroom scope it is the
 * data-room check (that room's row, the dataroom and global scopes, 'dataroom.{name}'); a
 * `feature.` name is the feature check, as on the server. A name that is not a string is never
 * held (spec §5).
 */
export function permissionIn(source: UserStoreState, permission: unknown, scope?: string): boolean {
  if (typeof permission !== "string" || permission === "") return false;
  const where = scope ?? source.currentScope ?? SCOPE_GLOBAL;
  const snapshot = snapshotOf(source);
  if (where === SCOPE_DATAROOM) return checkDataroomPermission(snapshot, permission, source.currentDataroomId ?? undefined);
  if (permission.startsWith("feature.")) return checkFeature(snapshot, permission, where);
  return checkPermission(snapshot, permission, where);
}

/** Spec §6 "Feature check": the feature map, the matrix (scoped, then global) or the permission list. */
export function featureIn(source: UserStoreState, feature: unknown, scope?: string): boolean {
  if (typeof feature !== "string" || feature === "") return false;
  let where = scope ?? source.currentScope ?? SCOPE_GLOBAL;
  if (where === SCOPE_DATAROOM && source.currentDataroomId) where = dataroomScope(source.currentDataroomId);
  return checkFeature(snapshotOf(source), feature, where);
}

export function hasPermission(permission: unknown, scope?: string): boolean {
  return permissionIn(state, permission, scope);
}

export function hasFeature(feature: unknown, scope?: string): boolean {
  return featureIn(state, feature, scope);
}

// ---- application start ---------------------------------------------------------------------------

/** Pages anonymous visitors use (spec §2): public galleries, public form views, shared submissions. */
export function isPublicPage(pathname: string): boolean {
  return (
    /(^|\/)public-gallery(\/|$)/.test(pathname) ||
    /^\/forms\/[^/]+\/view\/?$/.test(pathname) ||
    /^\/submissions\/shared\/[^/]+\/?$/.test(pathname)
  );
}

/** The data room id in a path such as /dataroom/{id}/… or /datarooms/{id}. */
export function dataroomIdFromPath(pathname: string): string | null {
  return /(?:^|\/)datarooms?\/([0-9a-fA-F-]{36})(?=\/|$)/.exec(pathname)?.[1] ?? null;
}

/** Spec §4 "Application start" steps 2–4: tier, permissions, features and the global row. */
function applyPageProps(props: UserPageProps): void {
  const userId = typeof props.user?.id === "string" && props.user.id !== "" ? props.user.id : null;
  if (userId !== state.userId) {
    // Another member (or none before): nothing of the previous one may remain.
    resetState();
    setState({ userId });
  }
  const tier = normalizeTier(props.tier);
  const permissions = stringList(props.permissions) ?? [];
  const features = booleanMap(props.features) ?? {};
  suppliedByPage = { tier: tier !== null, permissions: permissions.length > 0, features: Object.keys(features).length > 0 };
  if (tier) applyTier(tier);
  if (permissions.length > 0) setState({ permissions: withTierGuarantees(state.tier, permissions) });
  if (suppliedByPage.features) setState({ features });
  setState({
    isAuthenticated: true,
    permissionMatrix: withGlobalRow(state.permissionMatrix, state.permissions),
    initialized: true,
  });
}

function resetState(): void {
  generation += 1;
  loadingCount = 0;
  initPromise = null;
  cancelBackgroundWork();
  suppliedByPage = { tier: false, permissions: false, features: false };
  state = initialState();
}

let started: { key: string; hasRun: boolean } | null = null;

/**
 * Spec §4 "Application start", run once per page-props change (root App effect). For a member:
 * (1: the auth store is set by the root's auth effect) 2–4 tier, permissions, features and the
 * global matrix row, initialized; 5 the data room context of the path, in the background; 6 the
 * full initialisation 100 ms later; 7 the 'user-stores-initialized' event. Public pages skip it;
 * a signed-out page clears what a previous member left. Returns a cleanup for the effect.
 */
export function startUserStore(props: UserPageProps | null, pathname: string): () => void {
  const key = JSON.stringify([props?.user?.id ?? null, props?.tier ?? null, props?.permissions ?? [], props?.features ?? {}]);
  if (started?.key === key && started.hasRun) return () => undefined;
  let cancelInit: (() => void) | null = null;
  try {
    if (isPublicPage(pathname)) return () => undefined;
    if (!props || !isAuthenticatedPage(props)) {
      started = null;
      if (state.isAuthenticated || state.userId) {
        resetState();
        removeKey(USER_DATA_CACHE_KEY);
        removeKey(USER_PRELOAD_CACHE_KEY);
        setState({});
      }
      return () => undefined;
    }
    const current = { key, hasRun: false };
    started = current;
    applyPageProps(props);
    const dataroomId = dataroomIdFromPath(pathname);
    if (dataroomId) void setDataroomContext(dataroomId);
    cancelInit = effects.schedule(() => {
      current.hasRun = true;
      cancelInit = null;
      initializeUserStore().catch((error: unknown) => {
        console.error("User data initialisation failed", error);
        effects.notify(userStoreMessages.initFailed, "error");
      });
    }, BACKGROUND_INIT_DELAY_MS);
    effects.emit(USER_STORES_INITIALIZED_EVENT, { tier: state.tier, isAuthenticated: state.isAuthenticated });
  } catch (error) {
    console.error("User data setup failed", error);
    effects.notify(userStoreMessages.setupFailed, "error");
  }
  return () => {
    if (!cancelInit) return;
    // The effect was undone before the initialisation ran (React's strict mode, a quick change): let a re-run start it.
    cancelInit();
    if (started?.key === key) started = null;
  };
}

/** For tests: the empty store, no timers, no listeners' state. */
export function resetUserStoreForTests(): void {
  resetState();
  started = null;
  listeners.clear();
}

// ---- React ---------------------------------------------------------------------------------------

export function stateFromPageProps(props: UserPageProps | null): UserStoreState {
  const base = initialState();
  if (!props || !isAuthenticatedPage(props)) return base;
  const tier = normalizeTier(props.tier);
  const permissions = withTierGuarantees(tier, stringList(props.permissions) ?? []);
  return {
    ...base,
    userId: props.user?.id ?? null,
    tier,
    isAuthenticated: true,
    permissions,
    features: booleanMap(props.features) ?? {},
    permissionMatrix: withGlobalRow({}, permissions),
  };
}

/** The store, or the page's own data until the store is initialised. */
export function useUserStore<T>(selector: (state: UserStoreState) => T): T {
  const pageProps = useContext(UserPagePropsContext);
  const fallback = useMemo(() => stateFromPageProps(pageProps), [pageProps]);
  const snapshot = useSyncExternalStore(
    subscribeUserStore,
    () => (state.initialized ? state : fallback),
    () => fallback,
  );
  return selector(snapshot);
}

export function usePermission(permission: unknown, scope?: string): boolean {
  return useUserStore((current) => permissionIn(current, permission, scope));
}

export function useFeature(feature: unknown, scope?: string): boolean {
  return useUserStore((current) => featureIn(current, feature, scope));
}
