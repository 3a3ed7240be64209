import { describe, expect, it } from "vitest";
import {
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  TIERS,
  emailSchema,
  newPasswordSchema,
  tierSchema,
} from "~/features/auth/auth.schema";
import { ADDONS as APP_ADDONS, LIMIT_NAMES as APP_LIMIT_NAMES } from "~/features/access/access.constants";
import { SCRYPT_PARAMS as APP_SCRYPT_PARAMS, verifyPassword } from "~/features/auth/password.server";
import {
  ADDONS,
  ADDON_QUANTITY_MAX,
  DEMO_MEMBER,
  LIMIT_NAMES,
  LIMIT_VALUE_MAX,
  LIST_TIERS_SQL,
  OpsError,
  SCRYPT_PARAMS,
  TIERS as OPS_TIERS,
  NAME_MAX_LENGTH as OPS_NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH as OPS_PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH as OPS_PASSWORD_MIN_LENGTH,
  addonChangeFromInput,
  checkPassword,
  d1ExecuteArgs,
  deleteAddonSql,
  formatTierTable,
  hashPassword,
  insertMemberSql,
  limitChangeFromInput,
  memberFromInput,
  memberIdSql,
  migrationsApplyArgs,
  normaliseAddon,
  normaliseEmail,
  normaliseLimitName,
  normaliseName,
  normaliseTier,
  parseLimitValue,
  parseOpsArgs,
  parseQuantity,
  setTierLimitSql,
  setTierSql,
  upsertAddonSql,
  sqlInteger,
  sqlString,
} from "../../../scripts/ops-lib.mjs";

describe("ops password hashing", () => {
  it("produces a hash the app's verifyPassword accepts, and only for the right password", async () => {
    const hash = await hashPassword("long-enough-pw");
    expect(hash).toMatch(/^scrypt\$16384\$8\$5\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword("long-enough-pw", hash, APP_SCRYPT_PARAMS)).toEqual({ valid: true, needsRehash: false });
    expect((await verifyPassword("long-enough-pX", hash, APP_SCRYPT_PARAMS)).valid).toBe(false);
  });

  it("normalises with NFKC like the app, and salts every hash", async () => {
    const hash = await hashPassword("ｆｕｌｌｗｉｄｔｈ-pw"); // fullwidth letters: NFKC → "fullwidth-pw"
    expect((await verifyPassword("fullwidth-pw", hash, APP_SCRYPT_PARAMS)).valid).toBe(true);
    expect(await hashPassword("same-password")).not.toBe(await hashPassword("same-password"));
  });

  it("uses the app's scrypt parameters", () => {
    expect(SCRYPT_PARAMS).toEqual(APP_SCRYPT_PARAMS);
  });
});

describe("ops SQL literals", () => {
  it("quotes strings with single quotes doubled", () => {
    expect(sqlString("O'Brien")).toBe("'O''Brien'");
    expect(sqlString("''; DROP TABLE users; --")).toBe("'''''; DROP TABLE users; --'");
    expect(sqlString("")).toBe("''");
  });

  it("refuses NUL characters and non-integers", () => {
    expect(() => sqlString("a\u0000b")).toThrow(OpsError);
    expect(() => sqlInteger(1.5)).toThrow(TypeError);
    expect(() => sqlInteger(Number("1; DROP TABLE users"))).toThrow(TypeError);
    expect(sqlInteger(1_767_225_600_000)).toBe("1767225600000");
  });

  it("inserts a verified member only when the e-mail is free, every value quoted", () => {
    const sql = insertMemberSql({
      id: "id-1",
      email: "o'brien@example.com",
      name: "Ann O'Brien",
      passwordHash: "scrypt$16384$8$5$salt$hash",
      tier: "pro",
      now: 1000,
    });
    expect(sql).toBe(
      "INSERT INTO users (id, email, email_verified_at, name, password_hash, tier, created_at, updated_at) " +
        "SELECT 'id-1', 'o''brien@example.com', 1000, 'Ann O''Brien', 'scrypt$16384$8$5$salt$hash', 'pro', 1000, 1000 " +
        "WHERE NOT EXISTS (SELECT 1 FROM users WHERE email = 'o''brien@example.com') RETURNING id",
    );
  });

  it("updates the tier and updated_at of one e-mail", () => {
    expect(setTierSql({ email: "ann@example.com", tier: "business", now: 5 })).toBe(
      "UPDATE users SET tier = 'business', updated_at = 5 WHERE email = 'ann@example.com' RETURNING id",
    );
  });
});

describe("ops input validation", () => {
  it("shares the app's limits and tiers", () => {
    expect(OPS_TIERS).toEqual([...TIERS]);
    expect(OPS_PASSWORD_MIN_LENGTH).toBe(PASSWORD_MIN_LENGTH);
    expect(OPS_PASSWORD_MAX_LENGTH).toBe(PASSWORD_MAX_LENGTH);
    expect(OPS_NAME_MAX_LENGTH).toBe(NAME_MAX_LENGTH);
  });

  it("trims and lower-cases e-mail addresses, and accepts exactly what sign-in accepts", () => {
    expect(normaliseEmail("  Ann@Example.COM ")).toBe("ann@example.com");
    const samples = ["ann@example.com", "o'brien@example.com", "a+tag@sub.example.org", "x@y.z", "a@b", "no-at-sign", "a b@c.de", "a@b..com", ".a@b.com", "a@-b.com"];
    for (const sample of samples) {
      const app = emailSchema.safeParse(sample);
      let ops: string | undefined;
      try {
        ops = normaliseEmail(sample);
      } catch {
        ops = undefined;
      }
      expect(ops, sample).toBe(app.success ? app.data : undefined);
    }
  });

  it("explains a bad e-mail address", () => {
    expect(() => normaliseEmail("not-an-email")).toThrow('"not-an-email" is not a valid e-mail address: use one like name@example.com.');
    expect(() => normaliseEmail(undefined)).toThrow("Enter an e-mail address (--email).");
    expect(() => normaliseEmail(`${"a".repeat(250)}@example.com`)).toThrow("That e-mail address is too long.");
  });

  it("explains a short or long password, with the app's bounds", () => {
    expect(() => checkPassword("short")).toThrow("The password is too short: use at least 8 characters.");
    expect(() => checkPassword("x".repeat(129))).toThrow("The password is too long: use at most 128 characters.");
    expect(() => checkPassword(undefined)).toThrow("Choose a password (--password).");
    for (const length of [7, 8, 128, 129]) {
      const password = "p".repeat(length);
      let ok = true;
      try {
        checkPassword(password);
      } catch {
        ok = false;
      }
      expect(ok, `length ${length}`).toBe(newPasswordSchema.safeParse(password).success);
    }
  });

  it("explains an unknown tier", () => {
    expect(() => normaliseTier("gold")).toThrow('Unknown tier "gold": use one of free, basic, pro, business, custom.');
    expect(() => normaliseTier(undefined)).toThrow(OpsError);
    for (const tier of TIERS) expect(normaliseTier(tier)).toBe(tierSchema.parse(tier));
  });

  it("defaults the name to the e-mail's local part and refuses control characters or long names", () => {
    expect(normaliseName(undefined, "ann@example.com")).toBe("ann");
    expect(normaliseName("  Ann O'Brien ", "ann@example.com")).toBe("Ann O'Brien");
    expect(() => normaliseName("Ann\nDROP", "ann@example.com")).toThrow("The name must not contain control characters.");
    expect(() => normaliseName("x".repeat(101), "ann@example.com")).toThrow("The name is too long: use at most 100 characters.");
    expect(() => normaliseName("  ", "ann@example.com")).toThrow("The name is empty.");
  });

  it("validates a whole new member, tier free by default", () => {
    expect(memberFromInput({ email: "Ann@Example.com", password: "long-enough-pw" })).toEqual({
      email: "ann@example.com",
      password: "long-enough-pw",
      tier: "free",
      name: "ann",
    });
    expect(() => memberFromInput({ email: "ann@example.com", password: "long-enough-pw", tier: "gold" })).toThrow(/Unknown tier/);
  });

  it("keeps the demo member valid", () => {
    expect(memberFromInput(DEMO_MEMBER)).toEqual(DEMO_MEMBER);
  });
});

function targetOf(argv: string[]) {
  const parsed = parseOpsArgs(argv);
  if (parsed.help) throw new Error("parsed as --help");
  return parsed.target;
}

describe("ops arguments", () => {
  it("parses user:create with every option, in either --flag value or --flag=value form", () => {
    expect(
      parseOpsArgs(["user:create", "--email", "a@example.com", "--password=pw with spaces", "--name", "Ann", "--tier", "pro"]),
    ).toEqual({
      help: false,
      command: "user:create",
      input: { email: "a@example.com", password: "pw with spaces", name: "Ann", tier: "pro" },
      target: { remote: false, env: undefined, persistTo: undefined },
      skipMigrations: false,
    });
  });

  it("skips the local migrations only when asked, and never for the remote database", () => {
    const parsed = parseOpsArgs(["user:set-tier", "--email", "a@example.com", "--tier", "pro", "--skip-migrations"]);
    expect(parsed.help ? undefined : parsed.skipMigrations).toBe(true);
    expect(() => parseOpsArgs(["user:set-tier", "--remote", "--skip-migrations"])).toThrow(/--skip-migrations is for the local database/);
  });

  it("parses the target options", () => {
    expect(targetOf(["user:set-tier", "--email", "a@example.com", "--tier", "pro", "--remote", "--env", "production"])).toEqual({
      remote: true,
      env: "production",
      persistTo: undefined,
    });
    expect(targetOf(["user:set-tier", "--persist-to", "/tmp/ops-state"])).toEqual({
      remote: false,
      env: undefined,
      persistTo: "/tmp/ops-state",
    });
  });

  it("answers --help and -h, whatever else is there", () => {
    expect(parseOpsArgs(["--help"])).toEqual({ help: true });
    expect(parseOpsArgs(["user:create", "-h"])).toEqual({ help: true });
  });

  it("refuses unknown commands and options, missing values, stray arguments", () => {
    expect(() => parseOpsArgs([])).toThrow("Name a command.");
    expect(() => parseOpsArgs(["user:delete"])).toThrow('Unknown command "user:delete".');
    expect(() => parseOpsArgs(["user:create", "--bogus"])).toThrow(/Unknown option '--bogus'/);
    expect(() => parseOpsArgs(["user:create", "--email"])).toThrow(/argument missing/);
    expect(() => parseOpsArgs(["user:create", "extra"])).toThrow('Unexpected argument "extra".');
    expect(() => parseOpsArgs(["user:set-tier", "--password", "long-enough-pw"])).toThrow(OpsError);
    expect(() => parseOpsArgs(["user:create", "--remote", "--persist-to", "/tmp/x"])).toThrow(/cannot be combined/);
  });

  it("builds the wrangler command lines", () => {
    expect(d1ExecuteArgs("SELECT 1", { persistTo: "/tmp/ops-state" })).toEqual([
      "wrangler", "d1", "execute", "DB", "--local", "--persist-to", "/tmp/ops-state", "--command", "SELECT 1", "--json",
    ]);
    expect(d1ExecuteArgs("SELECT 1", { remote: true, env: "production" })).toEqual([
      "wrangler", "d1", "execute", "DB", "--remote", "--env", "production", "--command", "SELECT 1", "--json", "--yes",
    ]);
    expect(migrationsApplyArgs({})).toEqual(["wrangler", "d1", "migrations", "apply", "DB", "--local"]);
  });
});

describe("ops addons and tier limits", () => {
  it("shares the app's addon and limit names", () => {
    expect(ADDONS).toEqual([...APP_ADDONS]);
    expect(LIMIT_NAMES).toEqual([...APP_LIMIT_NAMES]);
  });

  it("accepts known addons and limits in any case, and explains unknown ones", () => {
    expect(normaliseAddon(" Extra_Datarooms ")).toBe("extra_datarooms");
    expect(() => normaliseAddon("free_lunch")).toThrow(
      'Unknown addon "free_lunch": use one of extra_datarooms, extra_storage, e_signatures, dataroom_team, dataroom_guests.',
    );
    expect(() => normaliseAddon(undefined)).toThrow(OpsError);
    expect(normaliseLimitName("MAX_DATAROOMS")).toBe("max_datarooms");
    expect(() => normaliseLimitName("max_datarooms; DROP TABLE tiers")).toThrow(/^Unknown limit "max_datarooms; DROP TABLE tiers": use one of max_datarooms, /);
    expect(() => normaliseLimitName(undefined)).toThrow(OpsError);
  });

  it("takes addon quantities from 0 to the maximum, whole numbers only", () => {
    expect(parseQuantity("0")).toBe(0);
    expect(parseQuantity(" 2 ")).toBe(2);
    expect(parseQuantity(String(ADDON_QUANTITY_MAX))).toBe(ADDON_QUANTITY_MAX);
    for (const bad of ["-1", "1.5", "2e3", "0x10", "one", String(ADDON_QUANTITY_MAX + 1), "1; DROP TABLE users"]) {
      expect(() => parseQuantity(bad), bad).toThrow(`The quantity must be a whole number from 0 to ${ADDON_QUANTITY_MAX}, not "${bad}".`);
    }
    expect(() => parseQuantity(undefined)).toThrow("Give a quantity (--quantity), 0 to remove the addon.");
  });

  it("takes limit values of -1 (or 'unlimited') and whole numbers up to the maximum", () => {
    expect(parseLimitValue("-1")).toBe(-1);
    expect(parseLimitValue("Unlimited")).toBe(-1);
    expect(parseLimitValue("0")).toBe(0);
    expect(parseLimitValue("20")).toBe(20);
    expect(parseLimitValue(String(LIMIT_VALUE_MAX))).toBe(LIMIT_VALUE_MAX);
    for (const bad of ["-2", "-0.5", "3.5", "1e3", "lots", String(LIMIT_VALUE_MAX + 1), "5 OR 1=1"]) {
      expect(() => parseLimitValue(bad), bad).toThrow(/^The value must be a whole number from 0 to 1000000000, or -1 \(unlimited\)/);
    }
    expect(() => parseLimitValue(undefined)).toThrow("Give a value (--value), or --value=-1 for unlimited.");
  });

  it("validates whole changes", () => {
    expect(addonChangeFromInput({ email: "Ann@Example.com", addon: "extra_storage", quantity: "3" })).toEqual({
      email: "ann@example.com",
      addon: "extra_storage",
      quantity: 3,
    });
    expect(() => addonChangeFromInput({ email: "nope", addon: "extra_storage", quantity: "3" })).toThrow(/not a valid e-mail/);
    expect(limitChangeFromInput({ tier: "Free", limit: "max_datarooms", value: "3" })).toEqual({ tier: "free", limit: "max_datarooms", value: 3 });
    expect(() => limitChangeFromInput({ tier: "gold", limit: "max_datarooms", value: "3" })).toThrow(/Unknown tier/);
  });

  it("builds the addon statements with every value quoted", () => {
    expect(memberIdSql("o'brien@example.com")).toBe("SELECT id FROM users WHERE email = 'o''brien@example.com'");
    expect(upsertAddonSql({ userId: "u-1", addon: "extra_datarooms", quantity: 2, now: 7 })).toBe(
      "INSERT INTO user_addons (user_id, addon, quantity, updated_at) VALUES ('u-1', 'extra_datarooms', 2, 7) " +
        "ON CONFLICT (user_id, addon) DO UPDATE SET quantity = excluded.quantity, updated_at = excluded.updated_at RETURNING quantity",
    );
    expect(() => upsertAddonSql({ userId: "u-1", addon: "x'; DROP TABLE users; --", quantity: 1, now: 7 })).toThrow(TypeError);
    expect(() => upsertAddonSql({ userId: "u-1", addon: "extra_storage", quantity: 1.5, now: 7 })).toThrow(TypeError);
    expect(deleteAddonSql({ userId: "u'1", addon: "e_signatures" })).toBe(
      "DELETE FROM user_addons WHERE user_id = 'u''1' AND addon = 'e_signatures' RETURNING quantity",
    );
  });

  it("builds the limit statement from a known column only", () => {
    expect(setTierLimitSql({ tier: "free", limit: "max_datarooms", value: -1, now: 9 })).toBe(
      "UPDATE tiers SET max_datarooms = -1, updated_at = 9 WHERE name = 'free' RETURNING name",
    );
    expect(() => setTierLimitSql({ tier: "free", limit: "name", value: 1, now: 9 })).toThrow(TypeError);
    expect(() => setTierLimitSql({ tier: "free", limit: "max_datarooms", value: -2, now: 9 })).toThrow(TypeError);
    expect(LIST_TIERS_SQL).toBe(
      "SELECT name, label, max_datarooms, max_dataroom_storage_mb, max_dataroom_files, max_dataroom_folders, " +
        "max_dataroom_members, max_dataroom_guests, max_team_seats, permissions FROM tiers ORDER BY sort_order, name",
    );
  });

  it("prints the tiers as an aligned table, -1 as unlimited", () => {
    const limits = (values: number[]) => Object.fromEntries(LIMIT_NAMES.map((name, index) => [name, values[index]]));
    const table = formatTierTable([
      { name: "free", label: "Free", ...limits([2, 1024, 250, 50, 3, 10, 0]), permissions: null },
      { name: "custom", label: "Enterprise", ...limits([-1, -1, -1, -1, -1, -1, -1]), permissions: '["core_access"]' },
    ]);
    const lines = table.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^tier\s+label\s+max_datarooms\s+max_dataroom_storage_mb\s+.*max_dataroom_guests\s+max_team_seats\s+permissions$/);
    expect(lines[1]!.split(/\s+/)).toEqual(["free", "Free", "2", "1024", "250", "50", "3", "10", "0", "default"]);
    expect(lines[2]!.split(/\s+/)).toEqual(["custom", "Enterprise", ...Array(7).fill("unlimited"), '["core_access"]']);
    // Columns line up: every row's permissions column starts where its header does.
    const column = lines[0]!.indexOf("permissions");
    expect(lines[1]!.indexOf("default")).toBe(column);
    expect(lines[2]!.indexOf('["core_access"]')).toBe(column);
  });

  it("parses the new commands, each with only its own options", () => {
    expect(parseOpsArgs(["user:set-addon", "--email", "a@example.com", "--addon", "extra_datarooms", "--quantity", "2"])).toEqual({
      help: false,
      command: "user:set-addon",
      input: { email: "a@example.com", addon: "extra_datarooms", quantity: "2" },
      target: { remote: false, env: undefined, persistTo: undefined },
      skipMigrations: false,
    });
    expect(parseOpsArgs(["tier:set-limit", "--tier", "free", "--limit", "max_datarooms", "--value=-1"])).toMatchObject({
      command: "tier:set-limit",
      input: { tier: "free", limit: "max_datarooms", value: "-1" },
    });
    expect(parseOpsArgs(["tier:list", "--remote"])).toMatchObject({ command: "tier:list", input: {}, target: { remote: true } });
    expect(() => parseOpsArgs(["user:set-addon", "--tier", "pro"])).toThrow("user:set-addon takes only --email, --addon and --quantity.");
    expect(() => parseOpsArgs(["tier:set-limit", "--email", "a@example.com"])).toThrow("tier:set-limit takes only --tier, --limit and --value.");
    expect(() => parseOpsArgs(["tier:list", "--tier", "free"])).toThrow("tier:list takes no options besides the target ones.");
    expect(() => parseOpsArgs(["user:set-tier", "--addon", "extra_storage"])).toThrow("user:set-tier takes only --email and --tier.");
    // Node refuses `--value -1` as ambiguous and says to write `--value=-1`.
    expect(() => parseOpsArgs(["tier:set-limit", "--value", "-1"])).toThrow(/--value=-XYZ/);
  });
});
