import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BUSINESS_GUARANTEED_PERMISSIONS, FEATURES, LIMIT_NAMES, TIERS } from "~/features/access/access.constants";
import { createUser } from "~tests/factories/users";
import { loginJson, newAuthClient, origin, postJson, testEnv, type AuthClient, type ErrorBody } from "./helpers";

const ROOM_ID = "0f8e2a4c-1b2d-4e5f-8a9b-0c1d2e3f4a5b";
const FREE_PERMISSIONS = ["core_access", "feature.basic_viewing", "feature.core_access"];
const FREE_LIMITS = {
  max_datarooms: 2,
  max_dataroom_storage_mb: 1024,
  max_dataroom_files: 250,
  max_dataroom_folders: 50,
  max_dataroom_members: 3,
  max_dataroom_guests: 10,
  max_team_seats: 0,
};

/** A verified member, signed in through POST /login; `tier` is set straight in D1 first. */
async function signedInMember(tier = "free"): Promise<{ id: string; client: AuthClient }> {
  const user = await createUser();
  if (tier !== "free") await testEnv.DB.prepare("update users set tier = ? where id = ?").bind(tier, user.id).run();
  const { response, client } = await loginJson(user.email, user.password);
  expect(response.status).toBe(200);
  return { id: user.id, client };
}

async function get(path: string, client?: AuthClient): Promise<Response> {
  return exports.default.fetch(`${origin}${path}`, {
    headers: { accept: "application/json", ...(client ? { cookie: client.jar.header() } : {}) },
  });
}

async function getJson<T>(path: string, client: AuthClient): Promise<T> {
  const response = await get(path, client);
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("content-type")).toContain("application/json");
  return response.json<T>();
}

async function grant(userId: string, scope: string, permission: string, value: boolean) {
  await testEnv.DB.prepare("insert into user_permissions (user_id, scope, permission, value, updated_at) values (?, ?, ?, ?, ?)")
    .bind(userId, scope, permission, value ? 1 : 0, Date.now())
    .run();
}

type PermissionsBody = {
  permissions: string[];
  features: Record<string, boolean>;
  scoped_permissions: Record<string, boolean>;
  data: {
    tier: string;
    permission_matrix: Record<string, Record<string, boolean>>;
    limits: Record<string, number>;
    addons: Record<string, number>;
  };
};

describe("the access API for a signed-in free member", () => {
  let member: { id: string; client: AuthClient };
  beforeAll(async () => {
    member = await signedInMember();
  });
  // Spec §3 "Folder": every member has a default inbox and outbox (created with the personal space).
  const defaultFolderShape = [
    { uid: expect.stringMatching(/^[0-9a-f-]{36}$/), label: "Inbox", color: "", icon: null },
    { uid: expect.stringMatching(/^[0-9a-f-]{36}$/), label: "Outbox", color: "", icon: null },
  ];

  it("GET /api/user/data-batch returns every key when include is absent", async () => {
    const body = await getJson<Record<string, unknown>>("/api/user/data-batch", member.client);
    expect(Object.keys(body).sort()).toEqual(["features", "folders", "pages", "permissions", "scopes", "tier"]);
    expect(body.tier).toBe("free");
    expect(body.folders).toEqual(defaultFolderShape);
    expect(body.pages).toEqual([]);
    expect([...(body.permissions as string[])].sort()).toEqual(FREE_PERMISSIONS);
    expect(body.scopes).toEqual(["global", "dataroom"]);
  });

  it("GET /api/user/data-batch returns only the included keys; permissions brings features", async () => {
    expect(await getJson("/api/user/data-batch?include=tier", member.client)).toEqual({ tier: "free" });
    expect(await getJson("/api/user/data-batch?include=folders,pages", member.client)).toEqual({ folders: defaultFolderShape, pages: [] });
    expect(await getJson("/api/user/data-batch?include=scopes&include=tier", member.client)).toEqual({
      scopes: ["global", "dataroom"],
      tier: "free",
    });
    const body = await getJson<{ permissions: string[]; features: Record<string, boolean> }>(
      "/api/user/data-batch?include=permissions",
      member.client,
    );
    expect(Object.keys(body).sort()).toEqual(["features", "permissions"]);
    expect([...body.permissions].sort()).toEqual(FREE_PERMISSIONS);
    expect(body.features).toMatchObject({ dataroom_create: true, audit_logs: false, core_access: true, basic_editing: false });
  });

  it("GET /api/user/data-batch refuses an unknown include with the allowed names", async () => {
    const response = await get("/api/user/data-batch?include=tier,secrets", member.client);
    expect(response.status).toBe(400);
    const body = await response.json<ErrorBody>();
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(body.message).toBe('include: unknown name "secrets"; use any of tier, folders, pages, permissions, scopes.');
  });

  it("GET /api/user/tier, default-folders, receive-pages and scopes", async () => {
    expect(await getJson("/api/user/tier", member.client)).toEqual({ tier: "free" });
    expect(await getJson("/api/user/default-folders", member.client)).toEqual({ folders: defaultFolderShape });
    expect(await getJson("/api/user/receive-pages", member.client)).toEqual({ pages: [] });
    expect(await getJson("/api/user/scopes", member.client)).toEqual({ scopes: ["global", "dataroom"] });
  });

  it("GET /api/user/context/{scope} returns the scope's matrix row", async () => {
    const global = await getJson<{ context: { scope: string; entities: unknown[]; permissions: Record<string, boolean> } }>(
      "/api/user/context/global",
      member.client,
    );
    expect(global.context.scope).toBe("global");
    expect(global.context.entities).toEqual([]);
    expect(global.context.permissions).toEqual({ core_access: true, "feature.core_access": true, "feature.basic_viewing": true });
    expect(await getJson("/api/user/context/dataroom", member.client)).toEqual({
      context: { scope: "dataroom", entities: [], permissions: {} },
    });
    expect(await getJson(`/api/user/context/dataroom:${ROOM_ID}`, member.client)).toEqual({
      context: { scope: `dataroom:${ROOM_ID}`, entities: [], permissions: {} },
    });
  });

  it("GET /api/user/context/{scope} refuses a malformed scope with a message", async () => {
    for (const scope of ["Reports", "dataroom:not-an-id", "1abc", "a".repeat(65), "drop%20table"]) {
      const response = await get(`/api/user/context/${scope}`, member.client);
      expect(response.status, scope).toBe(400);
      expect((await response.json<ErrorBody>()).message).toMatch(/^scope must be global, dataroom, dataroom:<data room id> or a named scope/);
    }
  });

  it("GET /api/datarooms lists no room for a member who has none, with their plan's room quota", async () => {
    expect(await getJson("/api/datarooms", member.client)).toMatchObject({ datarooms: [], quota: { owned: 0 } });
  });

  it("GET /api/permissions returns permissions, features, scoped_permissions and data", async () => {
    const body = await getJson<PermissionsBody>("/api/permissions", member.client);
    expect(Object.keys(body).sort()).toEqual(["data", "features", "permissions", "scoped_permissions"]);
    expect([...body.permissions].sort()).toEqual(FREE_PERMISSIONS);
    expect(Object.keys(body.features).sort()).toEqual(FEATURES.map((feature) => feature.name).sort());
    expect(body.features).toMatchObject({
      dataroom_create: true,
      basic_permissions: true,
      encryption_at_rest: true,
      audit_logs: false,
      watermarking: false,
      api_access: false,
      advanced_permissions: false,
    });
    expect(body.scoped_permissions).toEqual({ core_access: true, "feature.core_access": true, "feature.basic_viewing": true });
    expect(body.data).toEqual({
      tier: "free",
      permission_matrix: { global: { core_access: true, "feature.core_access": true, "feature.basic_viewing": true } },
      limits: FREE_LIMITS,
      addons: {},
    });
  });

  it("GET /api/permissions?scope= answers {} for a scope without a row and refuses a bad scope", async () => {
    expect((await getJson<PermissionsBody>("/api/permissions?scope=reports", member.client)).scoped_permissions).toEqual({});
    const response = await get("/api/permissions?scope=NOT%20A%20SCOPE", member.client);
    expect(response.status).toBe(400);
    expect((await response.json<ErrorBody>()).message).toMatch(/^scope must be/);
  });

  it("GET /api/features/check/{feature} answers hasAccess, false for unknown features", async () => {
    expect(await getJson("/api/features/check/dataroom_create", member.client)).toEqual({ hasAccess: true });
    expect(await getJson("/api/features/check/feature.basic_viewing", member.client)).toEqual({ hasAccess: true });
    expect(await getJson("/api/features/check/audit_logs?scope=dataroom", member.client)).toEqual({ hasAccess: false });
    expect(await getJson("/api/features/check/teleportation", member.client)).toEqual({ hasAccess: false });
    const tooLong = await get(`/api/features/check/${"x".repeat(101)}`, member.client);
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json<ErrorBody>()).message).toBe("feature is at most 100 characters.");
  });

  it("GET /api/user/permissions/check/{permission} answers the decision and what unlocks it", async () => {
    expect(await getJson("/api/user/permissions/check/core_access", member.client)).toEqual({
      hasPermission: true,
      requiredTier: "free",
      requiredFeature: "core_access",
      isAddon: false,
      addonType: null,
    });
    expect(await getJson("/api/user/permissions/check/feature.basic_editing?scope=global", member.client)).toEqual({
      hasPermission: false,
      requiredTier: "basic",
      requiredFeature: "basic_editing",
      isAddon: false,
      addonType: null,
    });
    expect(await getJson("/api/user/permissions/check/e_signature.access", member.client)).toEqual({
      hasPermission: false,
      requiredTier: null,
      requiredFeature: null,
      isAddon: true,
      addonType: "e_signatures",
    });
    expect(await getJson("/api/user/permissions/check/teleport", member.client)).toEqual({
      hasPermission: false,
      requiredTier: "business",
      requiredFeature: null,
      isAddon: false,
      addonType: null,
    });
  });

  it("GET /api/user/permissions/check validates the context", async () => {
    const badId = await get("/api/user/permissions/check/upload?context_type=dataroom&context_id=undefined", member.client);
    expect(badId.status).toBe(400);
    expect((await badId.json<ErrorBody>()).message).toBe("context_id: A data room id is required.");
    const badType = await get(`/api/user/permissions/check/upload?context_type=planet&context_id=${ROOM_ID}`, member.client);
    expect(badType.status).toBe(400);
    expect((await badType.json<ErrorBody>()).message).toBe("context_type: context_type must be dataroom.");
    const idWithoutType = await get(`/api/user/permissions/check/upload?context_id=${ROOM_ID}`, member.client);
    expect(idWithoutType.status).toBe(400);
    expect((await idWithoutType.json<ErrorBody>()).message).toBe("context_type: context_id needs context_type (dataroom).");
  });

  it("POST /api/permissions/check answers hasPermission and refuses a bad body", async () => {
    const yes = await postJson(member.client, "/api/permissions/check", { permission: "core_access", scope: "global" });
    expect(yes.status).toBe(200);
    expect(yes.headers.get("cache-control")).toBe("no-store");
    expect(await yes.json()).toEqual({ hasPermission: true });
    const no = await postJson(member.client, "/api/permissions/check", {
      permission: "upload",
      scope: "dataroom",
      entity_type: "dataroom",
      entity_id: ROOM_ID,
    });
    expect(await no.json()).toEqual({ hasPermission: false });
    const nulls = await postJson(member.client, "/api/permissions/check", { permission: "core_access", scope: null, entity_type: null, entity_id: null });
    expect(await nulls.json()).toEqual({ hasPermission: true });

    for (const [body, message] of [
      [{ permission: 42 }, "permission: permission must be a string."],
      [{ permission: "" }, "permission: permission is required."],
      [{}, "permission: permission must be a string."],
      [{ permission: "core_access", scope: "Not A Scope" }, /^scope: scope must be/],
      [{ permission: "upload", entity_type: "dataroom", entity_id: "nope" }, "entity_id: A data room id is 36 hexadecimal characters and dashes."],
      [{ permission: "upload", entity_type: "folder", entity_id: ROOM_ID }, "entity_type: entity_type must be dataroom."],
      [{ permission: "upload", entity_id: ROOM_ID }, "entity_type: entity_id needs entity_type (dataroom)."],
      [{ permission: "upload", entity_type: 7 }, "entity_type: entity_type must be dataroom."],
      [[], "The body must be a JSON object with a permission."],
      ["not json", "The body must be a JSON object with a permission."],
    ] as const) {
      const response = await postJson(member.client, "/api/permissions/check", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = await response.json<ErrorBody>();
      if (typeof message === "string") expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
    }
  });
});

describe("the access API for someone not signed in", () => {
  it("answers 401 JSON on every member endpoint", async () => {
    const paths = [
      "/api/user/data-batch?include=tier",
      "/api/user/tier",
      "/api/user/default-folders",
      "/api/user/receive-pages",
      "/api/user/scopes",
      "/api/user/context/global",
      "/api/user/permissions/check/core_access",
      "/api/datarooms",
      "/api/permissions",
      "/api/features/check/dataroom_create",
    ];
    for (const path of paths) {
      const response = await get(path);
      expect(response.status, path).toBe(401);
      expect(response.headers.get("cache-control"), path).toBe("no-store");
      expect(await response.json(), path).toEqual({ code: "UNAUTHENTICATED", message: "Please sign in to continue." });
    }
  });

  it("answers 401 JSON on POST /api/permissions/check", async () => {
    const anonymous = await newAuthClient();
    const response = await postJson(anonymous, "/api/permissions/check", { permission: "core_access" });
    expect(response.status).toBe(401);
    expect((await response.json<ErrorBody>()).code).toBe("UNAUTHENTICATED");
  });

  it("answers 401 to a member who still owes the second factor", async () => {
    const user = await createUser({ email2fa: true });
    const { body, client } = await loginJson(user.email, user.password);
    expect(body.requires_email_2fa).toBe(true);
    const response = await get("/api/user/tier", client);
    expect(response.status).toBe(401);
    expect((await response.json<ErrorBody>()).code).toBe("UNAUTHENTICATED");
  });

  it("publishes the tier requirements to anyone", async () => {
    const response = await get("/api/features/tier-requirements");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json<{
      tier_requirements: { tier: string; label: string; limits: Record<string, number>; features: string[]; permissions: string[] }[];
    }>();
    expect(body.tier_requirements.map((row) => row.tier)).toEqual([...TIERS]);
    expect(body.tier_requirements.map((row) => row.label)).toEqual(["Free", "Basic", "Pro", "Business", "Enterprise"]);
    for (const row of body.tier_requirements) expect(Object.keys(row.limits).sort()).toEqual([...LIMIT_NAMES].sort());
    const [free, basic, pro, business, custom] = body.tier_requirements;
    expect(free!.limits).toEqual(FREE_LIMITS);
    expect(custom!.limits.max_datarooms).toBe(-1);
    expect(free!.features).toEqual(expect.arrayContaining(["dataroom_create", "basic_permissions", "encryption_at_rest"]));
    expect(free!.features).not.toContain("audit_logs");
    expect(pro!.features).toEqual(expect.arrayContaining(["audit_logs", "watermarking", "analytics"]));
    expect(business!.features).toEqual(expect.arrayContaining(["api_access", "ip_restrictions", "advanced_permissions"]));
    expect(custom!.features).toEqual([]);
    const unlocked = body.tier_requirements.flatMap((row) => row.features).sort();
    expect(unlocked).toEqual(FEATURES.map((feature) => feature.name).sort());
    expect([...free!.permissions].sort()).toEqual(FREE_PERMISSIONS);
    expect(basic!.permissions).toContain("feature.basic_editing");
    expect(business!.permissions).toEqual(expect.arrayContaining(BUSINESS_GUARANTEED_PERMISSIONS));
  });
});

describe("the business auto-grant", () => {
  it("gives a business member the five guaranteed features even when the tier's stored list is the free one", async () => {
    const member = await signedInMember("business");
    await testEnv.DB.prepare(`update tiers set permissions = '["core_access"]' where name = 'business'`).run();
    try {
      const body = await getJson<PermissionsBody>("/api/permissions", member.client);
      expect(body.data.tier).toBe("business");
      expect(body.permissions).toEqual(expect.arrayContaining(["core_access", ...BUSINESS_GUARANTEED_PERMISSIONS]));
      expect(body.permissions).not.toContain("feature.basic_viewing");
      for (const feature of ["team_management", "custom_redirects", "api_access", "custom_branding", "advanced_permissions"]) {
        expect(body.features[feature], feature).toBe(true);
        expect(await getJson(`/api/features/check/${feature}`, member.client), feature).toEqual({ hasAccess: true });
      }
      const batch = await getJson<{ permissions: string[] }>("/api/user/data-batch?include=permissions", member.client);
      expect(batch.permissions).toEqual(expect.arrayContaining(BUSINESS_GUARANTEED_PERMISSIONS));
      const requirements = await getJson<{ tier_requirements: { tier: string; permissions: string[] }[] }>(
        "/api/features/tier-requirements",
        member.client,
      );
      const business = requirements.tier_requirements.find((row) => row.tier === "business")!;
      expect(business.permissions).toEqual(expect.arrayContaining(["core_access", ...BUSINESS_GUARANTEED_PERMISSIONS]));
    } finally {
      await testEnv.DB.prepare("update tiers set permissions = null where name = 'business'").run();
    }
  });
});

describe("scoped permissions", () => {
  it("show in scoped_permissions, the matrix, the scopes list and the checks", async () => {
    const member = await signedInMember();
    await grant(member.id, "reports", "feature.analytics", true);
    await grant(member.id, "reports", "core_access", false);
    await grant(member.id, `dataroom:${ROOM_ID}`, "upload", true);
    await grant(member.id, "archive", "dataroom.view", true);

    const scoped = await getJson<PermissionsBody>("/api/permissions?scope=reports", member.client);
    expect(scoped.scoped_permissions).toEqual({ "feature.analytics": true, core_access: false });
    expect(scoped.data.permission_matrix.reports).toEqual({ "feature.analytics": true, core_access: false });
    expect(scoped.data.permission_matrix[`dataroom:${ROOM_ID}`]).toEqual({ upload: true });
    expect((await getJson<PermissionsBody>(`/api/permissions?scope=dataroom:${ROOM_ID}`, member.client)).scoped_permissions).toEqual({
      upload: true,
    });

    expect(await getJson("/api/user/scopes", member.client)).toEqual({ scopes: ["global", "dataroom", "archive", "reports"] });
    expect(await getJson("/api/user/data-batch?include=scopes", member.client)).toEqual({
      scopes: ["global", "dataroom", "archive", "reports"],
    });
    expect(await getJson("/api/user/context/reports", member.client)).toEqual({
      context: { scope: "reports", entities: [], permissions: { "feature.analytics": true, core_access: false } },
    });

    expect(await getJson("/api/features/check/analytics?scope=reports", member.client)).toEqual({ hasAccess: true });
    expect(await getJson("/api/features/check/analytics", member.client)).toEqual({ hasAccess: false });
    expect((await getJson<{ hasPermission: boolean }>("/api/user/permissions/check/core_access?scope=reports", member.client)).hasPermission).toBe(
      false,
    );
    expect(
      (
        await getJson<{ hasPermission: boolean }>(
          `/api/user/permissions/check/upload?context_type=dataroom&context_id=${ROOM_ID}`,
          member.client,
        )
      ).hasPermission,
    ).toBe(true);
    const other = "1f8e2a4c-1b2d-4e5f-8a9b-0c1d2e3f4a5b";
    expect(
      (await getJson<{ hasPermission: boolean }>(`/api/user/permissions/check/upload?context_type=dataroom&context_id=${other}`, member.client))
        .hasPermission,
    ).toBe(false);
    const post = await postJson(member.client, "/api/permissions/check", {
      permission: "upload",
      entity_type: "dataroom",
      entity_id: ROOM_ID,
    });
    expect(await post.json()).toEqual({ hasPermission: true });
  });

  it("reports addons in data.addons and their permissions in the list", async () => {
    const member = await signedInMember();
    await testEnv.DB.prepare("insert into user_addons (user_id, addon, quantity, updated_at) values (?, 'extra_datarooms', 2, ?), (?, 'e_signatures', 1, ?)")
      .bind(member.id, Date.now(), member.id, Date.now())
      .run();
    const body = await getJson<PermissionsBody>("/api/permissions", member.client);
    expect(body.data.addons).toEqual({ extra_datarooms: 2, e_signatures: 1 });
    expect(body.data.limits.max_datarooms).toBe(2 + 2 * 2);
    expect(body.permissions).toEqual(expect.arrayContaining(["dataroom.additional_datarooms", "e_signature.access"]));
    expect(body.features.e_signatures).toBe(true);
    expect((await getJson<{ hasPermission: boolean }>("/api/user/permissions/check/e_signature.access", member.client)).hasPermission).toBe(true);
  });
});
