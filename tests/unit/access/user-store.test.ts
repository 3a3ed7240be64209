import { act, renderHook } from "@testing-library/react";
import { createElement, type ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { DEFAULT_TIER_PERMISSIONS } from "~/features/access/access.constants";
import {
  BACKGROUND_INIT_DELAY_MS,
  choosePermissionList,
  clearDataroomContext,
  clearUserCache,
  dataroomIdFromPath,
  getUserState,
  hasFeature,
  hasPermission,
  initializeUserStore,
  isAuthenticatedPage,
  isPublicPage,
  loadScopeContext,
  preloadUserData,
  refreshPermissions,
  resetUserStoreForTests,
  setDataroomContext,
  setPermissionMatrix,
  setScope,
  setUserStoreEffects,
  startUserStore,
  USER_DATA_CACHE_KEY,
  USER_DATA_MAX_AGE_MS,
  USER_PRELOAD_CACHE_KEY,
  USER_STORE_VERSION,
  USER_STORES_INITIALIZED_EVENT,
  useFeature,
  usePermission,
  UserPagePropsContext,
  userStoreMessages,
  type UserPageProps,
} from "~/features/access/user-store";
import { setHttpEffects, type HttpEffects } from "~/lib/http";

const ROOM = "0b6f3c2e-9a41-4e0f-8c55-2d7a1b9e4f10";
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

type Route = (url: URL, init: RequestInit) => Response | Promise<Response>;

let clock: number;
let routes: Map<string, Route>;
let fetchMock: Mock;
let sleep: Mock;
let notify: Mock;
let emit: Mock;
let onAuthRejected: Mock;
let scheduled: { callback: () => void; ms: number; cancelled: boolean }[];

function serve(path: string, route: Route | Record<string, unknown>): void {
  routes.set(path, typeof route === "function" ? route : () => json(200, route));
}

function requestsTo(path: string): { url: URL; headers: Headers }[] {
  return fetchMock.mock.calls
    .map(([url, init]) => ({ url: new URL(String(url), "http://localhost"), headers: new Headers((init as RequestInit).headers) }))
    .filter((call) => call.url.pathname === path);
}

/** Runs what the store scheduled (background initialisation, background refresh), in order. */
async function runScheduled(): Promise<void> {
  const due = scheduled.filter((task) => !task.cancelled);
  scheduled = [];
  for (const task of due) task.callback();
  await settle();
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

const freeBatch = {
  tier: "free",
  folders: [{ uid: "f1", label: "Inbox", color: "#336699", icon: null }],
  pages: [],
  permissions: [...DEFAULT_TIER_PERMISSIONS.free],
  features: { audit_logs: false, dataroom_create: true },
  scopes: ["global", "dataroom"],
};

function permissionsAnswer(tier: string, permissions: string[], extra: Record<string, unknown> = {}) {
  return {
    permissions,
    features: { audit_logs: tier === "pro" },
    scoped_permissions: {},
    data: { tier, permission_matrix: { global: Object.fromEntries(permissions.map((name) => [name, true])) }, limits: {}, addons: {} },
    ...extra,
  };
}

const ann: UserPageProps = {
  user: { id: "u1" },
  tier: "free",
  permissions: [...DEFAULT_TIER_PERMISSIONS.free],
  features: { audit_logs: false, dataroom_create: true },
};

function writeCache(overrides: Record<string, unknown> = {}): void {
  localStorage.setItem(
    USER_DATA_CACHE_KEY,
    JSON.stringify({
      storeVersion: USER_STORE_VERSION,
      userId: "u1",
      tier: "free",
      defaultFolders: [{ uid: "cached", label: "Cached folder", color: null, icon: null }],
      receivePages: [],
      scopes: ["global", "dataroom", "team"],
      permissions: [...DEFAULT_TIER_PERMISSIONS.free],
      features: { audit_logs: false },
      permissionMatrix: { global: { core_access: true }, team: { "dataroom.invite": true } },
      lastUserDataFetch: clock - 60_000,
      lastPermissionsFetch: clock - 60_000,
      ...overrides,
    }),
  );
}

beforeEach(() => {
  clock = NOW;
  routes = new Map();
  scheduled = [];
  localStorage.clear();
  resetUserStoreForTests();
  fetchMock = vi.fn(async (input: string, init: RequestInit) => {
    const url = new URL(input, "http://localhost");
    const route = routes.get(url.pathname);
    if (!route) return json(404, { message: "There is no such API endpoint." });
    return route(url, init);
  });
  sleep = vi.fn(async () => undefined);
  setHttpEffects({ fetch: fetchMock as unknown as typeof fetch, sleep, notify: vi.fn(), redirect: vi.fn(), reload: vi.fn() } satisfies Partial<HttpEffects>);
  notify = vi.fn();
  emit = vi.fn();
  onAuthRejected = vi.fn();
  setUserStoreEffects({
    now: () => clock,
    schedule: (callback, ms) => {
      const task = { callback, ms, cancelled: false };
      scheduled.push(task);
      return () => {
        task.cancelled = true;
      };
    },
    storage: () => localStorage,
    notify,
    emit,
    onAuthRejected,
  });
});

afterEach(() => {
  setHttpEffects(null);
  setUserStoreEffects(null);
  resetUserStoreForTests();
  vi.useRealTimers();
});

describe("the store's shape (spec §3)", () => {
  it("starts empty, in the global scope, with store version 1.0.0", () => {
    expect(getUserState()).toMatchObject({
      tier: null,
      defaultFolders: [],
      receivePages: [],
      isAuthenticated: false,
      scopes: ["global"],
      currentScope: "global",
      contextData: {},
      currentDataroomId: null,
      permissions: [],
      features: {},
      permissionMatrix: {},
      lastUserDataFetch: null,
      lastPermissionsFetch: null,
      initialized: false,
      storeVersion: "1.0.0",
    });
  });
});

describe("initialisation (spec §4 'Store initialisation')", () => {
  it("applies the page props first: tier, permissions, features, the global matrix row, authenticated and initialised", () => {
    startUserStore({ ...ann, tier: "FREE" }, "/settings/plan");
    expect(getUserState()).toMatchObject({
      tier: "free",
      isAuthenticated: true,
      initialized: true,
      permissions: DEFAULT_TIER_PERMISSIONS.free,
      features: { audit_logs: false, dataroom_create: true },
      permissionMatrix: { global: { core_access: true, "feature.core_access": true, "feature.basic_viewing": true } },
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("without a cache it loads everything from the server in one data-batch call and writes user-data-cache", async () => {
    serve("/api/user/data-batch", freeBatch);
    serve("/api/permissions", permissionsAnswer("free", [...DEFAULT_TIER_PERMISSIONS.free]));
    await initializeUserStore();
    const [batch] = requestsTo("/api/user/data-batch");
    expect(batch!.url.searchParams.get("include")).toBe("tier,folders,pages,permissions,scopes");
    expect(batch!.headers.get("X-Background-Request")).toBeNull();
    expect(getUserState()).toMatchObject({
      tier: "free",
      defaultFolders: freeBatch.folders,
      scopes: ["global", "dataroom"],
      lastUserDataFetch: NOW,
      lastPermissionsFetch: NOW,
      initialized: true,
    });
    const cached = JSON.parse(localStorage.getItem(USER_DATA_CACHE_KEY)!) as Record<string, unknown>;
    expect(cached).toMatchObject({ storeVersion: "1.0.0", tier: "free", lastUserDataFetch: NOW });
  });

  it("applies a valid cache at once and refreshes it in the background 100 ms later with X-Background-Request", async () => {
    startUserStore(ann, "/");
    writeCache();
    serve("/api/user/data-batch", freeBatch);
    await initializeUserStore();
    expect(getUserState()).toMatchObject({
      defaultFolders: [{ uid: "cached", label: "Cached folder" }],
      scopes: ["global", "dataroom", "team"],
      permissionMatrix: { team: { "dataroom.invite": true } },
    });
    expect(fetchMock).not.toHaveBeenCalled();
    const refresh = scheduled.at(-1)!;
    expect(refresh.ms).toBe(BACKGROUND_INIT_DELAY_MS);
    scheduled = [refresh];
    await runScheduled();
    const [batch] = requestsTo("/api/user/data-batch");
    expect(batch!.headers.get("X-Background-Request")).toBe("1");
    expect(getUserState().defaultFolders).toEqual(freeBatch.folders);
  });

  it("gives the background refresh 30 s before timing out, not the usual 10 s", async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    routes.set("/api/user/data-batch", (_url, init) => {
      signal = init.signal ?? undefined;
      return new Promise<Response>((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(new DOMException("Aborted", "AbortError"))));
    });
    startUserStore(ann, "/");
    writeCache();
    const initialising = initializeUserStore();
    await initialising;
    scheduled.at(-1)!.callback();
    await vi.advanceTimersByTimeAsync(10_001);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(signal?.aborted).toBe(true);
  });

  it("treats a cache older than an hour as stale and forces a refresh from the server", async () => {
    writeCache({ userId: null, lastUserDataFetch: clock - USER_DATA_MAX_AGE_MS - 1 });
    serve("/api/user/data-batch", freeBatch);
    serve("/api/permissions", permissionsAnswer("free", [...DEFAULT_TIER_PERMISSIONS.free]));
    await initializeUserStore();
    expect(getUserState().defaultFolders).toEqual(freeBatch.folders);
    const [permissions] = requestsTo("/api/permissions");
    expect(permissions!.url.searchParams.get("_t")).toBe(String(NOW));
    expect(permissions!.headers.get("Cache-Control")).toBe("no-cache");
  });

  it("never applies another member's cache", async () => {
    writeCache({ userId: "someone-else" });
    serve("/api/user/data-batch", freeBatch);
    serve("/api/permissions", permissionsAnswer("free", [...DEFAULT_TIER_PERMISSIONS.free]));
    startUserStore(ann, "/");
    await initializeUserStore();
    expect(getUserState().defaultFolders).toEqual(freeBatch.folders);
    expect(requestsTo("/api/user/data-batch")).toHaveLength(1);
  });

  it("keeps the page's fresher tier over a cache of another tier and does not take that cache's rights", async () => {
    writeCache({ tier: "pro", permissions: [...DEFAULT_TIER_PERMISSIONS.pro], permissionMatrix: { global: { "feature.advanced_features": true } } });
    startUserStore(ann, "/");
    await initializeUserStore();
    expect(getUserState().tier).toBe("free");
    expect(hasPermission("feature.advanced_features")).toBe(false);
    expect(getUserState().lastPermissionsFetch).toBeNull();
  });

  it("refetches permissions (forced) when the tier changes", async () => {
    startUserStore(ann, "/");
    writeCache();
    serve("/api/user/data-batch", { ...freeBatch, tier: "pro", permissions: [...DEFAULT_TIER_PERMISSIONS.pro], features: { audit_logs: true } });
    serve("/api/permissions", permissionsAnswer("pro", [...DEFAULT_TIER_PERMISSIONS.pro]));
    await initializeUserStore();
    expect(hasFeature("audit_logs")).toBe(false);
    scheduled = [scheduled.at(-1)!];
    await runScheduled();
    const [permissions] = requestsTo("/api/permissions");
    expect(permissions).toBeDefined();
    expect(permissions!.url.searchParams.has("_t")).toBe(true);
    expect(getUserState()).toMatchObject({ tier: "pro", permissions: DEFAULT_TIER_PERMISSIONS.pro });
    expect(hasFeature("audit_logs")).toBe(true);
  });

  it("adds core_access when a tier exists but no permissions load", async () => {
    serve("/api/user/data-batch", { tier: "free", permissions: [] });
    serve("/api/permissions", permissionsAnswer("free", []));
    await initializeUserStore();
    expect(getUserState().permissions).toEqual(["core_access"]);
  });

  it("falls back to the tier's default permissions when the permission fetch fails and none are known", async () => {
    serve("/api/user/data-batch", { tier: "basic" });
    serve("/api/permissions", () => json(500, { message: "down" }));
    await initializeUserStore();
    expect(getUserState().permissions).toEqual(DEFAULT_TIER_PERMISSIONS.basic);
    expect(hasPermission("feature.basic_editing")).toBe(true);
  });

  it("treats an empty permissions answer as the error 'Empty response from permissions API' and uses the fallback", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    serve("/api/user/data-batch", { tier: "pro" });
    serve("/api/permissions", {});
    await initializeUserStore();
    expect(getUserState().permissions).toEqual(DEFAULT_TIER_PERMISSIONS.pro);
    expect(userStoreMessages.emptyPermissions).toBe("Empty response from permissions API");
    warn.mockRestore();
  });

  it("refuses to clear the cache while loading and clears both caches afterwards", async () => {
    writeCache();
    localStorage.setItem(USER_PRELOAD_CACHE_KEY, "{}");
    let answer!: (response: Response) => void;
    serve("/api/user/data-batch", () => new Promise<Response>((resolve) => (answer = resolve)));
    serve("/api/permissions", permissionsAnswer("free", [...DEFAULT_TIER_PERMISSIONS.free]));
    const loading = initializeUserStore({ force: true });
    await settle();
    expect(getUserState().isLoading).toBe(true);
    expect(clearUserCache()).toBe(false);
    expect(localStorage.getItem(USER_DATA_CACHE_KEY)).not.toBeNull();
    answer(json(200, freeBatch));
    await loading;
    expect(clearUserCache()).toBe(true);
    expect(localStorage.getItem(USER_DATA_CACHE_KEY)).toBeNull();
    expect(localStorage.getItem(USER_PRELOAD_CACHE_KEY)).toBeNull();
  });

  it("a forced permission fetch adds a timestamp and no-cache headers and retries after 1 s, 2 s and 3 s", async () => {
    startUserStore(ann, "/");
    serve("/api/permissions", () => json(503, { message: "busy" }));
    expect(await refreshPermissions({ force: true })).toBe(false);
    const calls = requestsTo("/api/permissions");
    expect(calls).toHaveLength(4);
    for (const call of calls) {
      expect(call.url.searchParams.get("_t")).toBe(String(NOW));
      expect(call.headers.get("Cache-Control")).toBe("no-cache");
      expect(call.headers.get("Pragma")).toBe("no-cache");
    }
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000, 2000, 3000]);
  });

  it("never lets a smaller fetched list replace a non-empty one, but fills an empty one", async () => {
    expect(choosePermissionList(["a", "b", "c"], ["a"])).toEqual(["a", "b", "c"]);
    expect(choosePermissionList([], ["a"])).toEqual(["a"]);
    expect(choosePermissionList(["a"], ["a", "b"])).toEqual(["a", "b"]);
    startUserStore({ ...ann, tier: "pro", permissions: [...DEFAULT_TIER_PERMISSIONS.pro] }, "/");
    serve("/api/permissions", permissionsAnswer("pro", ["core_access"]));
    await refreshPermissions();
    expect(getUserState().permissions).toEqual(DEFAULT_TIER_PERMISSIONS.pro);
  });

  it("accepts a permission matrix only if it is an object", () => {
    expect(setPermissionMatrix(["global"])).toBe(false);
    expect(setPermissionMatrix("global")).toBe(false);
    expect(setPermissionMatrix(null)).toBe(false);
    expect(getUserState().permissionMatrix).toEqual({});
    expect(setPermissionMatrix({ global: { core_access: true, junk: "yes" } })).toBe(true);
    expect(getUserState().permissionMatrix).toEqual({ global: { core_access: true } });
  });

  it("ignores a matrix in a permissions answer that is not an object, keeping the one it had", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    startUserStore(ann, "/");
    setPermissionMatrix({ global: { core_access: true }, team: { "dataroom.invite": true } });
    serve("/api/permissions", permissionsAnswer("free", [...DEFAULT_TIER_PERMISSIONS.free], { data: { tier: "free", permission_matrix: [1, 2] } }));
    await refreshPermissions();
    expect(getUserState().permissionMatrix.team).toEqual({ "dataroom.invite": true });
    warn.mockRestore();
  });

  it("answers no to a check whose name is not a string", () => {
    startUserStore({ ...ann, tier: "custom", permissions: [...DEFAULT_TIER_PERMISSIONS.custom] }, "/");
    expect(hasPermission(42)).toBe(false);
    expect(hasPermission({ permission: "core_access" })).toBe(false);
    expect(hasFeature(null)).toBe(false);
    expect(hasFeature(undefined)).toBe(false);
    expect(hasPermission("core_access")).toBe(true);
  });

  it("passes a feature check through the feature map, the scoped matrix, the global matrix or the permission list", () => {
    startUserStore({ user: { id: "u1" }, tier: "free", permissions: ["core_access", "feature.secrets"], features: { forms: true } }, "/");
    setPermissionMatrix({ ...getUserState().permissionMatrix, team: { "feature.analytics": true }, global: { ...getUserState().permissionMatrix.global, "feature.galleries": true } });
    expect(hasFeature("forms")).toBe(true); // feature map
    expect(hasFeature("analytics", "team")).toBe(true); // scoped matrix
    expect(hasFeature("analytics")).toBe(false);
    expect(hasFeature("galleries", "team")).toBe(true); // global fallback
    expect(hasFeature("secrets")).toBe(true); // permission list
    expect(hasFeature("audit_logs")).toBe(false);
  });

  it("grants a business member the guaranteed business features even when the server omits them", () => {
    startUserStore({ user: { id: "u1" }, tier: "business", permissions: ["core_access"], features: {} }, "/");
    for (const permission of ["feature.team_management", "feature.custom_redirects", "feature.api_access", "feature.custom_branding", "feature.advanced_permissions"]) {
      expect(hasPermission(permission)).toBe(true);
    }
  });

  it("uses a data-batch answer preloaded under user-preload-cache once, then refreshes in the background", async () => {
    serve("/api/user/data-batch", { ...freeBatch, folders: [{ uid: "pre", label: "Preloaded", color: null, icon: null }] });
    expect(await preloadUserData(null)).toBe(true);
    expect(localStorage.getItem(USER_PRELOAD_CACHE_KEY)).not.toBeNull();
    fetchMock.mockClear();
    await initializeUserStore();
    expect(getUserState().defaultFolders).toEqual([{ uid: "pre", label: "Preloaded", color: null, icon: null }]);
    expect(localStorage.getItem(USER_PRELOAD_CACHE_KEY)).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(scheduled.at(-1)!.ms).toBe(BACKGROUND_INIT_DELAY_MS);
  });

  it("shares one initialisation between concurrent callers", async () => {
    serve("/api/user/data-batch", freeBatch);
    serve("/api/permissions", permissionsAnswer("free", [...DEFAULT_TIER_PERMISSIONS.free]));
    await Promise.all([initializeUserStore(), initializeUserStore()]);
    expect(requestsTo("/api/user/data-batch")).toHaveLength(1);
  });
});

describe("auth refusals (spec §4 'Authentication', §8)", () => {
  it.each([401, 403])("a %i while fetching user data marks the user unauthenticated and asks the auth store to check the session", async (status) => {
    startUserStore(ann, "/");
    writeCache();
    serve("/api/user/data-batch", () => json(status, { message: "no" }));
    await initializeUserStore({ force: true });
    expect(getUserState()).toMatchObject({ isAuthenticated: false, tier: null, permissions: [] });
    expect(hasFeature("dataroom_create")).toBe(false);
    expect(localStorage.getItem(USER_DATA_CACHE_KEY)).toBeNull();
    expect(onAuthRejected).toHaveBeenCalledTimes(1);
  });
});

describe("scope (spec §4 'Scope', §5)", () => {
  it("falls back to global for a scope the member does not have", () => {
    expect(setScope("sales-team")).toBe("global");
    expect(setScope(42)).toBe("global");
    expect(getUserState().currentScope).toBe("global");
  });

  it("switches to a named scope the member has", async () => {
    serve("/api/user/data-batch", { ...freeBatch, scopes: ["global", "dataroom", "team"] });
    serve("/api/permissions", permissionsAnswer("free", [...DEFAULT_TIER_PERMISSIONS.free]));
    await initializeUserStore();
    expect(setScope("team")).toBe("team");
  });

  it("adds the dataroom scope to the list automatically", () => {
    expect(getUserState().scopes).toEqual(["global"]);
    expect(setScope("dataroom")).toBe("dataroom");
    expect(getUserState().scopes).toEqual(["global", "dataroom"]);
  });

  it("setting the data room context sets scope and id and loads that room's permissions", async () => {
    startUserStore(ann, "/");
    serve("/api/permissions", (url) =>
      json(200, permissionsAnswer("free", [...DEFAULT_TIER_PERMISSIONS.free], { scoped_permissions: url.searchParams.get("scope") === `dataroom:${ROOM}` ? { upload: true } : {} })),
    );
    expect(await setDataroomContext(ROOM)).toBe(true);
    expect(requestsTo("/api/permissions")[0]!.url.searchParams.get("scope")).toBe(`dataroom:${ROOM}`);
    expect(getUserState()).toMatchObject({ currentScope: "dataroom", currentDataroomId: ROOM });
    expect(getUserState().permissionMatrix[`dataroom:${ROOM}`]).toEqual({ upload: true });
    expect(hasPermission("upload")).toBe(true);
    expect(hasPermission("upload", "global")).toBe(false);
  });

  it("uses supplied data room permissions without asking the server", async () => {
    expect(await setDataroomContext(ROOM, ["download"])).toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(hasPermission("download")).toBe(true);
  });

  it("returns to global and clears the id when the room's permissions cannot be loaded", async () => {
    serve("/api/permissions", () => json(500, { message: "down" }));
    expect(await setDataroomContext(ROOM)).toBe(false);
    expect(getUserState()).toMatchObject({ currentScope: "global", currentDataroomId: null });
  });

  it.each([["", "empty"], ["undefined", "'undefined'"], ["null", "'null'"], [{ id: ROOM }, "an object"], [null, "null"]])(
    "refuses the data room id %j (%s) silently, returning false",
    async (id: unknown, _description: string) => {
      expect(await setDataroomContext(id)).toBe(false);
      expect(fetchMock).not.toHaveBeenCalled();
      expect(notify).not.toHaveBeenCalled();
      expect(getUserState()).toMatchObject({ currentScope: "global", currentDataroomId: null });
    },
  );

  it("returns to global when the data room context is cleared", async () => {
    await setDataroomContext(ROOM, {});
    clearDataroomContext();
    expect(getUserState()).toMatchObject({ currentScope: "global", currentDataroomId: null });
  });

  it("keeps each scope's context data as { scope, entities }", async () => {
    serve("/api/user/context/team", { context: { scope: "team", entities: [{ id: "e1" }], permissions: { "dataroom.invite": true } } });
    expect(await loadScopeContext("team")).toEqual({ scope: "team", entities: [{ id: "e1" }] });
    expect(getUserState().contextData.team).toEqual({ scope: "team", entities: [{ id: "e1" }] });
    expect(getUserState().permissionMatrix.team).toEqual({ "dataroom.invite": true });
  });
});

describe("application start (spec §4 'Application start', §8 'Start-up and global')", () => {
  it("counts a page as authenticated if it holds a user with an id or a non-empty tier", () => {
    expect(isAuthenticatedPage({ user: { id: "u1" }, tier: null, permissions: [], features: {} })).toBe(true);
    expect(isAuthenticatedPage({ user: null, tier: "pro", permissions: [], features: {} })).toBe(true);
    expect(isAuthenticatedPage({ user: null, tier: " ", permissions: [], features: {} })).toBe(false);
    expect(isAuthenticatedPage({ user: { id: "" }, tier: null, permissions: [], features: {} })).toBe(false);
    expect(isAuthenticatedPage(null)).toBe(false);
  });

  it("sets the page's data, the data room of the path in the background, the full initialisation 100 ms later and the event", async () => {
    serve("/api/permissions", permissionsAnswer("free", [...DEFAULT_TIER_PERMISSIONS.free], { scoped_permissions: { view: true } }));
    serve("/api/user/data-batch", freeBatch);
    expect(dataroomIdFromPath(`/dataroom/${ROOM}/files`)).toBe(ROOM);
    startUserStore(ann, `/dataroom/${ROOM}/files`);
    expect(getUserState()).toMatchObject({ initialized: true, isAuthenticated: true, tier: "free", currentDataroomId: ROOM });
    expect(emit).toHaveBeenCalledWith(USER_STORES_INITIALIZED_EVENT, expect.objectContaining({ tier: "free" }));
    await settle();
    expect(requestsTo("/api/permissions")[0]!.url.searchParams.get("scope")).toBe(`dataroom:${ROOM}`);
    expect(requestsTo("/api/user/data-batch")).toHaveLength(0);
    expect(scheduled.map((task) => task.ms)).toEqual([BACKGROUND_INIT_DELAY_MS]);
    await runScheduled();
    expect(requestsTo("/api/user/data-batch")).toHaveLength(1);
  });

  it("emits a real window event by default", () => {
    setUserStoreEffects({ schedule: () => () => undefined, notify });
    const listener = vi.fn();
    window.addEventListener(USER_STORES_INITIALIZED_EVENT, listener);
    startUserStore(ann, "/");
    window.removeEventListener(USER_STORES_INITIALIZED_EVENT, listener);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("skips public pages", () => {
    expect(isPublicPage("/g/public-gallery/summer")).toBe(true);
    expect(isPublicPage("/forms/abc/view")).toBe(true);
    expect(isPublicPage("/submissions/shared/tok")).toBe(true);
    expect(isPublicPage("/settings/plan")).toBe(false);
    startUserStore(ann, "/public-gallery/summer");
    expect(getUserState().initialized).toBe(false);
    expect(scheduled).toHaveLength(0);
    expect(emit).not.toHaveBeenCalled();
  });

  it("does nothing twice for the same page data once it has run", async () => {
    serve("/api/user/data-batch", freeBatch);
    serve("/api/permissions", permissionsAnswer("free", [...DEFAULT_TIER_PERMISSIONS.free]));
    startUserStore(ann, "/");
    await runScheduled();
    startUserStore({ ...ann, permissions: [...ann.permissions] }, "/");
    expect(scheduled).toHaveLength(0);
  });

  it("starts again when the effect is undone before the initialisation ran (strict mode)", () => {
    const undo = startUserStore(ann, "/");
    undo();
    expect(scheduled[0]!.cancelled).toBe(true);
    startUserStore(ann, "/");
    expect(scheduled.filter((task) => !task.cancelled)).toHaveLength(1);
  });

  it("clears what the previous member left when the page is signed out", async () => {
    serve("/api/user/data-batch", freeBatch);
    serve("/api/permissions", permissionsAnswer("free", [...DEFAULT_TIER_PERMISSIONS.free]));
    startUserStore(ann, "/");
    await runScheduled();
    expect(localStorage.getItem(USER_DATA_CACHE_KEY)).not.toBeNull();
    startUserStore({ user: null, tier: null, permissions: [], features: {} }, "/");
    expect(getUserState()).toMatchObject({ isAuthenticated: false, tier: null, permissions: [], initialized: false });
    expect(localStorage.getItem(USER_DATA_CACHE_KEY)).toBeNull();
  });

  it("shows 'Failed to initialize user data. Some features may be limited.' when the setup throws", () => {
    emit.mockImplementation(() => {
      throw new Error("broken listener");
    });
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    startUserStore(ann, "/");
    expect(notify).toHaveBeenCalledWith("Failed to initialize user data. Some features may be limited.", "error");
    error.mockRestore();
  });

  it("shows 'Failed to initialize user data. Please refresh the page.' when the initialisation rejects", async () => {
    serve("/api/user/data-batch", () => json(500, { message: "down" }));
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    startUserStore({ user: { id: "u1" }, tier: null, permissions: [], features: {} }, "/");
    await runScheduled();
    expect(notify).toHaveBeenCalledWith("Failed to initialize user data. Please refresh the page.", "error");
    error.mockRestore();
  });
});

describe("hooks", () => {
  function wrapper(props: UserPageProps | null) {
    return ({ children }: { children: ReactNode }) => createElement(UserPagePropsContext, { value: props }, children);
  }

  it("answer from the page's data before the store starts, then follow the store", async () => {
    const { result } = renderHook(() => ({ audit: useFeature("audit_logs"), core: usePermission("core_access") }), {
      wrapper: wrapper({ ...ann, tier: "pro", features: { audit_logs: true } }),
    });
    expect(result.current).toEqual({ audit: true, core: true });
    act(() => {
      startUserStore(ann, "/");
    });
    expect(result.current).toEqual({ audit: false, core: true });
  });
});
