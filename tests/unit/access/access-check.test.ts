import { describe, expect, it } from "vitest";
import {
  BUSINESS_GUARANTEED_PERMISSIONS,
  DEFAULT_TIER_PERMISSIONS,
  FEATURES,
  LIMIT_NAMES,
  type TierLimits,
} from "~/features/access/access.constants";
import {
  buildAccessSnapshot,
  checkDataroomPermission,
  checkFeature,
  checkPermission,
  effectiveLimits,
  requirementFor,
  withinLimit,
  type AccessSnapshot,
} from "~/features/access/access-check";

const ROOM_ID = "0f8e2a4c-1b2d-4e5f-8a9b-0c1d2e3f4a5b";
const OTHER_ROOM_ID = "1f8e2a4c-1b2d-4e5f-8a9b-0c1d2e3f4a5b";

function snapshot(overrides: Partial<AccessSnapshot> = {}): AccessSnapshot {
  return { tier: "free", permissions: [], features: {}, permissionMatrix: {}, ...overrides };
}

const FREE_LIMITS: TierLimits = {
  max_datarooms: 2,
  max_dataroom_storage_mb: 1024,
  max_dataroom_files: 250,
  max_dataroom_folders: 50,
  max_dataroom_members: 3,
  max_dataroom_guests: 10,
  max_team_seats: 0,
};

describe("checkPermission", () => {
  it("lets the scoped matrix entry beat the global one", () => {
    const access = snapshot({ permissionMatrix: { global: { "dataroom.view": false }, reports: { "dataroom.view": true } } });
    expect(checkPermission(access, "dataroom.view", "reports")).toBe(true);
    expect(checkPermission(access, "dataroom.view", "global")).toBe(false);
    const denied = snapshot({ permissionMatrix: { global: { "dataroom.view": true }, reports: { "dataroom.view": false } } });
    expect(checkPermission(denied, "dataroom.view", "reports")).toBe(false);
  });

  it("falls back from a scope without the entry to the global matrix", () => {
    const access = snapshot({ permissionMatrix: { global: { "dataroom.view": true }, reports: {} } });
    expect(checkPermission(access, "dataroom.view", "reports")).toBe(true);
    expect(checkPermission(access, "dataroom.view", "unknown-scope")).toBe(true);
  });

  it("lets the global matrix beat the permission list", () => {
    const access = snapshot({ permissions: [], permissionMatrix: { global: { "dataroom.view": true } } });
    expect(checkPermission(access, "dataroom.view")).toBe(true);
  });

  it("denies on a false in the matrix even when the list has the permission", () => {
    const globalDeny = snapshot({ permissions: ["core_access"], permissionMatrix: { global: { core_access: false } } });
    expect(checkPermission(globalDeny, "core_access")).toBe(false);
    const scopedDeny = snapshot({ permissions: ["core_access"], permissionMatrix: { reports: { core_access: false } } });
    expect(checkPermission(scopedDeny, "core_access", "reports")).toBe(false);
    expect(checkPermission(scopedDeny, "core_access")).toBe(true);
  });

  it("uses the permission list when the matrix says nothing", () => {
    const access = snapshot({ permissions: ["core_access"] });
    expect(checkPermission(access, "core_access")).toBe(true);
    expect(checkPermission(access, "feature.basic_editing")).toBe(false);
  });

  it("refuses a name that is not a non-empty string", () => {
    const access = snapshot({ permissions: ["core_access", "1", "[object Object]"], features: { core_access: true } });
    for (const name of [undefined, null, 1, {}, ["core_access"], true, ""]) {
      expect(checkPermission(access, name), String(name)).toBe(false);
      expect(checkFeature(access, name), String(name)).toBe(false);
      expect(checkDataroomPermission(access, name), String(name)).toBe(false);
    }
  });

  it("ignores matrix values that are not booleans", () => {
    const access = snapshot({
      permissions: ["core_access"],
      permissionMatrix: { global: { core_access: "no" as unknown as boolean }, reports: null as unknown as Record<string, boolean> },
    });
    expect(checkPermission(access, "core_access", "reports")).toBe(true);
  });
});

describe("checkFeature", () => {
  it("passes through the feature map, with or without the feature. prefix", () => {
    const access = snapshot({ features: { audit_logs: true } });
    expect(checkFeature(access, "audit_logs")).toBe(true);
    expect(checkFeature(access, "feature.audit_logs")).toBe(true);
    expect(checkFeature(access, "analytics")).toBe(false);
  });

  it("passes through the matrix, scoped first and then global", () => {
    const scoped = snapshot({ permissionMatrix: { reports: { "feature.analytics": true } } });
    expect(checkFeature(scoped, "analytics", "reports")).toBe(true);
    expect(checkFeature(scoped, "analytics")).toBe(false);
    const global = snapshot({ permissionMatrix: { global: { "feature.analytics": true } } });
    expect(checkFeature(global, "analytics", "reports")).toBe(true);
    expect(checkFeature(global, "feature.analytics")).toBe(true);
  });

  it("passes through the permission list, as feature.{name} or the bare name", () => {
    expect(checkFeature(snapshot({ permissions: ["feature.watermarking"] }), "watermarking")).toBe(true);
    expect(checkFeature(snapshot({ permissions: ["feature.watermarking"] }), "feature.watermarking")).toBe(true);
    expect(checkFeature(snapshot({ permissions: ["watermarking"] }), "watermarking")).toBe(true);
    expect(checkFeature(snapshot({ permissions: ["feature.watermarking"] }), "print_protection")).toBe(false);
  });

  it("does not pass for an unknown feature", () => {
    expect(checkFeature(snapshot({ permissions: ["core_access"], features: { core_access: true } }), "teleportation")).toBe(false);
  });
});

describe("checkDataroomPermission", () => {
  it("accepts the dataroom scope", () => {
    expect(checkDataroomPermission(snapshot({ permissionMatrix: { dataroom: { upload: true } } }), "upload")).toBe(true);
  });

  it("accepts the global scope, from the matrix or the list", () => {
    expect(checkDataroomPermission(snapshot({ permissionMatrix: { global: { upload: true } } }), "upload")).toBe(true);
    expect(checkDataroomPermission(snapshot({ permissions: ["upload"] }), "upload")).toBe(true);
  });

  it("accepts 'dataroom.{name}' in the permission list", () => {
    expect(checkDataroomPermission(snapshot({ permissions: ["dataroom.upload"] }), "upload")).toBe(true);
    expect(checkDataroomPermission(snapshot({ permissions: ["dataroom.upload"] }), "download")).toBe(false);
  });

  it("lets a room's own row decide for that room only", () => {
    const access = snapshot({
      permissions: ["dataroom.upload"],
      permissionMatrix: { [`dataroom:${ROOM_ID}`]: { upload: false, invite: true } },
    });
    expect(checkDataroomPermission(access, "upload", ROOM_ID)).toBe(false);
    expect(checkDataroomPermission(access, "invite", ROOM_ID)).toBe(true);
    expect(checkDataroomPermission(access, "upload", OTHER_ROOM_ID)).toBe(true);
    expect(checkDataroomPermission(access, "invite", OTHER_ROOM_ID)).toBe(false);
    expect(checkDataroomPermission(access, "upload")).toBe(true);
  });

  it("denies what nothing grants", () => {
    expect(checkDataroomPermission(snapshot({ permissions: ["core_access"] }), "upload", ROOM_ID)).toBe(false);
  });
});

describe("buildAccessSnapshot", () => {
  it("gives each tier the spec's default permissions and the features of its tier and below", () => {
    const free = buildAccessSnapshot({ tier: "free", addons: {}, grants: [] });
    expect([...free.permissions].sort()).toEqual(["core_access", "feature.basic_viewing", "feature.core_access"]);
    expect(free.features.dataroom_create).toBe(true);
    expect(free.features.audit_logs).toBe(false);
    expect(free.features.basic_editing).toBe(false);
    expect(Object.keys(free.features).sort()).toEqual(FEATURES.map((feature) => feature.name).sort());

    const pro = buildAccessSnapshot({ tier: "pro", addons: {}, grants: [] });
    expect([...pro.permissions].sort()).toEqual([...DEFAULT_TIER_PERMISSIONS.pro].sort());
    expect(pro.features.audit_logs).toBe(true);
    expect(pro.features.api_access).toBe(false);
  });

  it("puts every permission in the global row of the matrix", () => {
    const basic = buildAccessSnapshot({ tier: "basic", addons: {}, grants: [] });
    expect(basic.permissionMatrix.global).toEqual(Object.fromEntries(basic.permissions.map((permission) => [permission, true])));
  });

  it("grants business its five guaranteed features even when the stored list omits them", () => {
    const business = buildAccessSnapshot({ tier: "business", storedPermissions: ["core_access"], addons: {}, grants: [] });
    for (const permission of BUSINESS_GUARANTEED_PERMISSIONS) expect(business.permissions).toContain(permission);
    for (const feature of ["team_management", "custom_redirects", "api_access", "custom_branding", "advanced_permissions"]) {
      expect(checkFeature(business, feature)).toBe(true);
    }
  });

  it("always keeps core_access, even when a stored list leaves it out", () => {
    const free = buildAccessSnapshot({ tier: "free", storedPermissions: ["feature.basic_viewing"], addons: {}, grants: [] });
    expect(free.permissions).toEqual(expect.arrayContaining(["core_access", "feature.basic_viewing"]));
    expect(free.permissions).not.toContain("feature.core_access");
  });

  it("treats custom (Enterprise) as business", () => {
    const custom = buildAccessSnapshot({ tier: "custom", addons: {}, grants: [] });
    const business = buildAccessSnapshot({ tier: "business", addons: {}, grants: [] });
    expect([...custom.permissions].sort()).toEqual([...business.permissions].sort());
    expect(Object.values(custom.features).every(Boolean)).toBe(true);
    const stored = buildAccessSnapshot({ tier: "custom", storedPermissions: ["core_access"], addons: {}, grants: [] });
    for (const permission of BUSINESS_GUARANTEED_PERMISSIONS) expect(stored.permissions).toContain(permission);
  });

  it("adds each addon's permission, and the e_signatures feature with its addon", () => {
    const free = buildAccessSnapshot({
      tier: "free",
      addons: { extra_datarooms: 1, extra_storage: 2, e_signatures: 1, dataroom_team: 1, dataroom_guests: 1 },
      grants: [],
    });
    expect(free.permissions).toEqual(
      expect.arrayContaining([
        "dataroom.additional_datarooms",
        "e_signature.access",
        "dataroom.team_collaboration",
        "dataroom.guest_access",
      ]),
    );
    expect(free.features.e_signatures).toBe(true);
    const none = buildAccessSnapshot({ tier: "free", addons: { e_signatures: 0, dataroom_team: 0 }, grants: [] });
    expect(none.permissions).not.toContain("e_signature.access");
    expect(none.permissions).not.toContain("dataroom.team_collaboration");
    expect(none.features.e_signatures).toBe(false);
  });

  it("applies explicit grants: scoped ones into their row, global ones into the list too", () => {
    const access = buildAccessSnapshot({
      tier: "free",
      addons: {},
      grants: [
        { scope: "reports", permission: "feature.analytics", value: true },
        { scope: `dataroom:${ROOM_ID}`, permission: "upload", value: false },
        { scope: "global", permission: "feature.basic_viewing", value: false },
        { scope: "global", permission: "dataroom.upload", value: true },
      ],
    });
    expect(access.permissionMatrix.reports).toEqual({ "feature.analytics": true });
    expect(access.permissionMatrix[`dataroom:${ROOM_ID}`]).toEqual({ upload: false });
    expect(access.permissions).not.toContain("feature.basic_viewing");
    expect(access.permissions).toContain("dataroom.upload");
    expect(checkFeature(access, "analytics", "reports")).toBe(true);
    expect(checkFeature(access, "analytics")).toBe(false);
    expect(checkPermission(access, "feature.basic_viewing")).toBe(false);
  });
});

describe("effectiveLimits", () => {
  it("adds 2 data rooms per extra_datarooms unit and 1024 MB per extra_storage unit", () => {
    const limits = effectiveLimits(FREE_LIMITS, { extra_datarooms: 3, extra_storage: 2 });
    expect(limits.max_datarooms).toBe(2 + 3 * 2);
    expect(limits.max_dataroom_storage_mb).toBe(1024 + 2 * 1024);
    expect(limits.max_dataroom_files).toBe(250);
    expect(limits.max_dataroom_members).toBe(3);
  });

  it("adds 5 team seats per team collaboration unit (dataroom_team)", () => {
    expect(effectiveLimits({ ...FREE_LIMITS, max_team_seats: 10 }, { dataroom_team: 3 }).max_team_seats).toBe(10 + 3 * 5);
  });

  it("leaves the limits alone without addons", () => {
    expect(effectiveLimits(FREE_LIMITS, {})).toEqual(FREE_LIMITS);
  });

  it("keeps -1 unlimited whatever the addons", () => {
    const unlimited = Object.fromEntries(LIMIT_NAMES.map((name) => [name, -1])) as TierLimits;
    expect(effectiveLimits(unlimited, { extra_datarooms: 5, extra_storage: 5, dataroom_team: 5 })).toEqual(unlimited);
  });
});

describe("withinLimit", () => {
  it("allows up to the limit and refuses past it", () => {
    expect(withinLimit(FREE_LIMITS, "max_datarooms", 0)).toBe(true);
    expect(withinLimit(FREE_LIMITS, "max_datarooms", 1)).toBe(true);
    expect(withinLimit(FREE_LIMITS, "max_datarooms", 2)).toBe(false);
    expect(withinLimit(FREE_LIMITS, "max_dataroom_storage_mb", 1000, 24)).toBe(true);
    expect(withinLimit(FREE_LIMITS, "max_dataroom_storage_mb", 1000, 25)).toBe(false);
  });

  it("never refuses an unlimited (-1) limit", () => {
    const limits = { ...FREE_LIMITS, max_dataroom_guests: -1 };
    expect(withinLimit(limits, "max_dataroom_guests", 1_000_000, 1_000)).toBe(true);
  });
});

describe("requirementFor", () => {
  it("names the feature and its tier", () => {
    expect(requirementFor("audit_logs")).toEqual({ requiredTier: "pro", requiredFeature: "audit_logs", isAddon: false, addonType: null });
    expect(requirementFor("feature.api_access")).toEqual({
      requiredTier: "business",
      requiredFeature: "api_access",
      isAddon: false,
      addonType: null,
    });
  });

  it("finds feature.basic_editing on basic", () => {
    expect(requirementFor("feature.basic_editing")).toMatchObject({ requiredTier: "basic", requiredFeature: "basic_editing" });
  });

  it("finds plain tier permissions on their tier", () => {
    expect(requirementFor("core_access")).toMatchObject({ requiredTier: "free", isAddon: false });
  });

  it("marks addon permissions with their addon", () => {
    expect(requirementFor("e_signature.access")).toEqual({ requiredTier: null, requiredFeature: null, isAddon: true, addonType: "e_signatures" });
    expect(requirementFor("dataroom.additional_datarooms")).toMatchObject({ isAddon: true, addonType: "extra_datarooms" });
    expect(requirementFor("dataroom.team_collaboration")).toMatchObject({ isAddon: true, addonType: "dataroom_team" });
    expect(requirementFor("dataroom.guest_access")).toMatchObject({ isAddon: true, addonType: "dataroom_guests" });
  });

  it("defaults an unknown name to business", () => {
    expect(requirementFor("teleportation")).toEqual({ requiredTier: "business", requiredFeature: null, isAddon: false, addonType: null });
  });
});
