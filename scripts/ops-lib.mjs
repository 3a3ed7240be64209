// The ops CLI's building blocks (scripts/ops.mjs, and the demo member of scripts/start.mjs).
// The pure helpers (argument parsing, validation, SQL quoting, hashing) are unit tested in
// tests/unit/scripts/ops.test.ts; the last section talks to D1 through `wrangler d1 execute`.
import { spawn } from "node:child_process";
import { randomBytes, randomUUID, scrypt } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { quietWranglerEnv } from "./lib.mjs";

// ---------------------------------------------------------------------------------------------
// Rules: the same as app/features/auth/auth.schema.ts and app/features/access/access.constants.ts
// (the unit test compares them).

export const TIERS = ["free", "basic", "pro", "business", "custom"];
export const ADDONS = ["extra_datarooms", "extra_storage", "e_signatures", "dataroom_team", "dataroom_guests"];
export const LIMIT_NAMES = [
  "max_datarooms",
  "max_dataroom_storage_mb",
  "max_dataroom_files",
  "max_dataroom_folders",
  "max_dataroom_members",
  "max_dataroom_guests",
  "max_team_seats",
];
export const ADDON_QUANTITY_MAX = 1000;
export const LIMIT_VALUE_MAX = 1_000_000_000;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 100;

/** The member `npm start` seeds into the local database. */
export const DEMO_MEMBER = {
  email: "demo@strongroom.local",
  password: "strongroom-demo-2026",
  name: "Demo Member",
  tier: "business",
};

/** A second demo account: a guest in the demo member's data room, to see a room from the other side. */
export const DEMO_GUEST = {
  email: "guest@strongroom.local",
  password: "strongroom-guest-2026",
  name: "Demo Guest",
  tier: "free",
};

/** A refusal the CLI prints as-is (exit 1), without a stack trace. */
export class OpsError extends Error {
  name = "OpsError";
}

/** Trimmed, lower-cased, and valid by the rule sign-in uses (zod's e-mail pattern). */
export function normaliseEmail(input) {
  if (typeof input !== "string" || input.trim() === "") throw new OpsError("Enter an e-mail address (--email).");
  const email = input.trim();
  if (email.length > 254) throw new OpsError("That e-mail address is too long.");
  if (!z.email().safeParse(email).success) {
    throw new OpsError(`"${email}" is not a valid e-mail address: use one like name@example.com.`);
  }
  return email.toLowerCase();
}

export function checkPassword(password) {
  if (typeof password !== "string" || password === "") throw new OpsError("Choose a password (--password).");
  if (password.length < PASSWORD_MIN_LENGTH) throw new OpsError(`The password is too short: use at least ${PASSWORD_MIN_LENGTH} characters.`);
  if (password.length > PASSWORD_MAX_LENGTH) throw new OpsError(`The password is too long: use at most ${PASSWORD_MAX_LENGTH} characters.`);
  return password;
}

export function normaliseTier(input) {
  const tier = typeof input === "string" ? input.trim().toLowerCase() : "";
  if (!TIERS.includes(tier)) throw new OpsError(`Unknown tier "${input ?? ""}": use one of ${TIERS.join(", ")}.`);
  return tier;
}

export function normaliseAddon(input) {
  const addon = typeof input === "string" ? input.trim().toLowerCase() : "";
  if (!ADDONS.includes(addon)) throw new OpsError(`Unknown addon "${input ?? ""}": use one of ${ADDONS.join(", ")}.`);
  return addon;
}

/** A whole number of addon units, 0 (remove the addon) to ADDON_QUANTITY_MAX. */
export function parseQuantity(input) {
  const text = typeof input === "string" ? input.trim() : "";
  if (text === "") throw new OpsError("Give a quantity (--quantity), 0 to remove the addon.");
  if (!/^\d+$/.test(text)) throw new OpsError(`The quantity must be a whole number from 0 to ${ADDON_QUANTITY_MAX}, not "${input}".`);
  const quantity = Number(text);
  if (quantity > ADDON_QUANTITY_MAX) throw new OpsError(`The quantity must be a whole number from 0 to ${ADDON_QUANTITY_MAX}, not "${input}".`);
  return quantity;
}

export function normaliseLimitName(input) {
  const limit = typeof input === "string" ? input.trim().toLowerCase() : "";
  if (!LIMIT_NAMES.includes(limit)) throw new OpsError(`Unknown limit "${input ?? ""}": use one of ${LIMIT_NAMES.join(", ")}.`);
  return limit;
}

/** A limit value: a whole number from 0 to LIMIT_VALUE_MAX, or -1 (also written "unlimited"). */
export function parseLimitValue(input) {
  const text = typeof input === "string" ? input.trim().toLowerCase() : "";
  if (text === "") throw new OpsError("Give a value (--value), or --value=-1 for unlimited.");
  if (text === "-1" || text === "unlimited") return -1;
  const message = `The value must be a whole number from 0 to ${LIMIT_VALUE_MAX}, or -1 (unlimited), not "${input}".`;
  if (!/^\d+$/.test(text)) throw new OpsError(message);
  const value = Number(text);
  if (value > LIMIT_VALUE_MAX) throw new OpsError(message);
  return value;
}

/** Validated input for user:set-addon. */
export function addonChangeFromInput(input) {
  return { email: normaliseEmail(input.email), addon: normaliseAddon(input.addon), quantity: parseQuantity(input.quantity) };
}

/** Validated input for tier:set-limit. */
export function limitChangeFromInput(input) {
  return { tier: normaliseTier(input.tier), limit: normaliseLimitName(input.limit), value: parseLimitValue(input.value) };
}

// C0, DEL and C1 control characters.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** The display name; defaults to the part of the e-mail before the @. */
export function normaliseName(input, email) {
  const name = (input ?? email.slice(0, email.lastIndexOf("@"))).trim();
  if (name === "") throw new OpsError("The name is empty.");
  if (name.length > NAME_MAX_LENGTH) throw new OpsError(`The name is too long: use at most ${NAME_MAX_LENGTH} characters.`);
  if (CONTROL_CHARACTERS.test(name)) throw new OpsError("The name must not contain control characters.");
  return name;
}

// ---------------------------------------------------------------------------------------------
// Arguments

export const USAGE = `Usage: npm run ops -- <command> [options]

Commands
  user:create   --email <address> --password <password> [--name <name>] [--tier <tier>]
                Create a member with a verified e-mail address (tier defaults to free,
                name to the part of the e-mail before the @).
  user:set-tier --email <address> --tier <tier>
                Change a member's tier.
  user:set-addon --email <address> --addon <addon> --quantity <n>
                Set a member's addon quantity (0 removes the addon).
  tier:set-limit --tier <tier> --limit <limit> --value <n>
                Change one limit of a tier (--value=-1 or --value unlimited for no limit).
  tier:list     Print the tiers and their limits.

Tiers: ${TIERS.join(", ")}.
Addons: ${ADDONS.join(", ")}.
Limits: ${LIMIT_NAMES.join(", ")}.

Target (the local D1 in .wrangler/state by default; its migrations are applied first)
  --remote              the deployed D1 database instead
  --env <name>          a wrangler environment, e.g. --env production
  --persist-to <dir>    another local state directory
  --skip-migrations     do not apply the local migrations first (the database is known to be
                        up to date, e.g. a running e2e server's); saves a wrangler start

  -h, --help            this help

Examples
  npm run ops -- user:create --email ann@example.com --password 'correct horse 42' --name Ann --tier pro
  npm run ops -- user:set-tier --email ann@example.com --tier business --remote --env production
  npm run ops -- user:set-addon --email ann@example.com --addon extra_datarooms --quantity 2
  npm run ops -- tier:set-limit --tier free --limit max_datarooms --value 3`;

/** Each command and the input options it takes (the target options go with every command). */
const COMMAND_OPTIONS = {
  "user:create": ["email", "password", "name", "tier"],
  "user:set-tier": ["email", "tier"],
  "user:set-addon": ["email", "addon", "quantity"],
  "tier:set-limit": ["tier", "limit", "value"],
  "tier:list": [],
};
const COMMANDS = Object.keys(COMMAND_OPTIONS);
const INPUT_OPTIONS = ["email", "password", "name", "tier", "addon", "quantity", "limit", "value"];

const OPTIONS = {
  email: { type: "string" },
  password: { type: "string" },
  name: { type: "string" },
  tier: { type: "string" },
  addon: { type: "string" },
  quantity: { type: "string" },
  limit: { type: "string" },
  value: { type: "string" },
  remote: { type: "boolean" },
  env: { type: "string" },
  "persist-to": { type: "string" },
  "skip-migrations": { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

/**
 * `[command, ...options]` → `{ help: true }` or `{ command, input, target }`. Throws OpsError
 * for an unknown command or option, a missing option value, or a stray argument.
 */
export function parseOpsArgs(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new OpsError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  const [command, ...rest] = positionals;
  if (command === undefined) throw new OpsError("Name a command.");
  if (!COMMANDS.includes(command)) throw new OpsError(`Unknown command "${command}".`);
  if (rest.length > 0) throw new OpsError(`Unexpected argument "${rest[0]}".`);
  if (values.remote && values["persist-to"] !== undefined) throw new OpsError("--persist-to is for the local database; it cannot be combined with --remote.");
  if (values.remote && values["skip-migrations"]) throw new OpsError("--skip-migrations is for the local database; remote migrations are applied by npm run deploy.");
  const allowed = COMMAND_OPTIONS[command];
  if (INPUT_OPTIONS.some((option) => values[option] !== undefined && !allowed.includes(option))) {
    const list = allowed.map((option) => `--${option}`);
    throw new OpsError(
      list.length === 0
        ? `${command} takes no options besides the target ones.`
        : `${command} takes only ${list.slice(0, -1).join(", ")}${list.length > 1 ? " and " : ""}${list.at(-1)}.`,
    );
  }
  return {
    help: false,
    command,
    input: Object.fromEntries(allowed.map((option) => [option, values[option]])),
    target: { remote: values.remote === true, env: values.env, persistTo: values["persist-to"] },
    skipMigrations: values["skip-migrations"] === true,
  };
}

// ---------------------------------------------------------------------------------------------
// Password hashing: exactly what app/features/auth/password.server.ts verifies.

export const SCRYPT_PARAMS = { N: 2 ** 14, r: 8, p: 5, keyLength: 32 };
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

/** `scrypt$N$r$p$salt$hash`, salt (16 random bytes) and hash in standard base64. */
export function hashPassword(password) {
  const salt = randomBytes(16);
  const { N, r, p, keyLength } = SCRYPT_PARAMS;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, { N, r, p, maxmem: SCRYPT_MAXMEM }, (error, key) =>
      error ? reject(error) : resolve(`scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// SQL. `wrangler d1 execute --command` has no bind parameters, so every value is a literal:
// strings quoted with single quotes doubled (after validation), numbers checked to be integers.

export function sqlString(value) {
  if (typeof value !== "string") throw new TypeError("sqlString expects a string");
  if (value.includes("\u0000")) throw new OpsError("Values must not contain NUL characters.");
  return `'${value.replaceAll("'", "''")}'`;
}

export function sqlInteger(value) {
  if (!Number.isSafeInteger(value)) throw new TypeError("sqlInteger expects a safe integer");
  return String(value);
}

/** Validated, normalised input for a new member (the password not yet hashed). */
export function memberFromInput(input) {
  const email = normaliseEmail(input.email);
  const password = checkPassword(input.password);
  const tier = input.tier === undefined ? "free" : normaliseTier(input.tier);
  const name = normaliseName(input.name, email);
  return { email, password, tier, name };
}

/**
 * Inserts the member unless the e-mail is taken, in one statement: `RETURNING id` yields a row
 * when it was inserted and none when the address already belongs to a member.
 */
export function insertMemberSql({ id, email, name, passwordHash, tier, now }) {
  const time = sqlInteger(now);
  const values = [sqlString(id), sqlString(email), time, sqlString(name), sqlString(passwordHash), sqlString(tier), time, time];
  return (
    "INSERT INTO users (id, email, email_verified_at, name, password_hash, tier, created_at, updated_at) " +
    `SELECT ${values.join(", ")} ` +
    `WHERE NOT EXISTS (SELECT 1 FROM users WHERE email = ${sqlString(email)}) RETURNING id`
  );
}

export function setTierSql({ email, tier, now }) {
  return `UPDATE users SET tier = ${sqlString(tier)}, updated_at = ${sqlInteger(now)} WHERE email = ${sqlString(email)} RETURNING id`;
}

export function memberIdSql(email) {
  return `SELECT id FROM users WHERE email = ${sqlString(email)}`;
}

/** Insert or update one addon row; the addon name is checked against ADDONS first. */
export function upsertAddonSql({ userId, addon, quantity, now }) {
  if (!ADDONS.includes(addon)) throw new TypeError(`upsertAddonSql: unknown addon ${addon}`);
  return (
    "INSERT INTO user_addons (user_id, addon, quantity, updated_at) " +
    `VALUES (${sqlString(userId)}, ${sqlString(addon)}, ${sqlInteger(quantity)}, ${sqlInteger(now)}) ` +
    "ON CONFLICT (user_id, addon) DO UPDATE SET quantity = excluded.quantity, updated_at = excluded.updated_at RETURNING quantity"
  );
}

export function deleteAddonSql({ userId, addon }) {
  return `DELETE FROM user_addons WHERE user_id = ${sqlString(userId)} AND addon = ${sqlString(addon)} RETURNING quantity`;
}

/** The column name comes from LIMIT_NAMES only (identifiers cannot be quoted like values). */
export function setTierLimitSql({ tier, limit, value, now }) {
  if (!LIMIT_NAMES.includes(limit)) throw new TypeError(`setTierLimitSql: unknown limit ${limit}`);
  if (value < -1) throw new TypeError("setTierLimitSql: a limit is -1 or more");
  return `UPDATE tiers SET ${limit} = ${sqlInteger(value)}, updated_at = ${sqlInteger(now)} WHERE name = ${sqlString(tier)} RETURNING name`;
}

export const LIST_TIERS_SQL = `SELECT name, label, ${LIMIT_NAMES.join(", ")}, permissions FROM tiers ORDER BY sort_order, name`;

/** The tiers as an aligned text table: -1 shows as "unlimited", a NULL permission list as "default". */
export function formatTierTable(rows) {
  const header = ["tier", "label", ...LIMIT_NAMES, "permissions"];
  const cell = (value) => (value === -1 ? "unlimited" : value === null || value === undefined ? "" : String(value));
  const body = rows.map((row) => [
    cell(row.name),
    cell(row.label),
    ...LIMIT_NAMES.map((limit) => cell(row[limit])),
    row.permissions === null || row.permissions === undefined ? "default" : String(row.permissions),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((line) => line[column].length)));
  const line = (cells) => cells.map((value, column) => value.padEnd(widths[column])).join("  ").trimEnd();
  return [line(header), ...body.map(line)].join("\n");
}

// ---------------------------------------------------------------------------------------------
// Talking to D1 through wrangler. target: { remote?: boolean, env?: string, persistTo?: string }.

function targetArgs(target = {}) {
  const args = [target.remote ? "--remote" : "--local"];
  if (target.env) args.push("--env", target.env);
  if (!target.remote && target.persistTo) args.push("--persist-to", target.persistTo);
  return args;
}

/** Arguments for `npx`: one SQL statement, JSON out. */
export function d1ExecuteArgs(sql, target) {
  return ["wrangler", "d1", "execute", "DB", ...targetArgs(target), "--command", sql, "--json", ...(target?.remote ? ["--yes"] : [])];
}

export function migrationsApplyArgs(target) {
  return ["wrangler", "d1", "migrations", "apply", "DB", ...targetArgs(target)];
}

function capture(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...quietWranglerEnv } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error) => resolve({ code: 1, stdout, stderr: `${stderr}${error.message}\n` }));
    child.on("exit", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** wrangler's JSON, even if something printed a line before it. */
function parseWranglerJson(stdout) {
  const start = stdout.search(/^\s*[[{]/m);
  if (start === -1) return undefined;
  try {
    return JSON.parse(stdout.slice(start));
  } catch {
    return undefined;
  }
}

/** A local database is one SQLite file; a running dev server may hold its lock for a moment. */
const LOCAL_BUSY_RETRIES = 8;
const LOCAL_BUSY_DELAY_MS = 250;

/** wrangler's words for "the local SQLite file is locked by another process right now". */
function isLocalBusy(output) {
  return /SQLITE_BUSY|database is locked/.test(output);
}

/**
 * Runs one statement; resolves with its result rows, throws OpsError with wrangler's message.
 * Locally, SQLITE_BUSY (the app writing at the same instant) is retried a few times: every ops
 * statement is a single idempotent write or a read, so running it again is safe.
 */
export async function d1Execute(sql, target) {
  for (let attempt = 0; ; attempt++) {
    const { code, stdout, stderr } = await capture("npx", d1ExecuteArgs(sql, target));
    const json = parseWranglerJson(stdout);
    if (code === 0 && Array.isArray(json)) return json.flatMap((result) => result.results ?? []);
    const detail = json?.error?.text ?? json?.error?.message ?? `${stdout}\n${stderr}`.trim();
    if (!target.remote && isLocalBusy(detail) && attempt < LOCAL_BUSY_RETRIES) {
      await new Promise((resolve) => setTimeout(resolve, LOCAL_BUSY_DELAY_MS * (attempt + 1)));
      continue;
    }
    throw new OpsError(`wrangler d1 execute failed: ${detail}`);
  }
}

/**
 * Applies the local migrations (a fresh clone has no tables yet); output shown only on failure.
 * A local D1 that does not exist yet gets them all in one `wrangler d1 execute` (about 4 s instead
 * of 50: `migrations apply` starts the local runtime once per file); otherwise `migrations apply`.
 */
export async function applyLocalMigrations(target = {}) {
  if (!existsSync(join(target.persistTo ?? ".wrangler/state", "v3", "d1"))) return applyAllMigrationsAtOnce(target);
  for (let attempt = 0; ; attempt++) {
    const { code, stdout, stderr } = await capture("npx", migrationsApplyArgs(target));
    if (code === 0) return;
    // A running dev server may hold the SQLite lock for a moment; applying migrations is idempotent.
    if (isLocalBusy(`${stdout}${stderr}`) && attempt < LOCAL_BUSY_RETRIES) {
      await new Promise((resolve) => setTimeout(resolve, LOCAL_BUSY_DELAY_MS * (attempt + 1)));
      continue;
    }
    process.stderr.write(`${stdout}${stderr}`);
    throw new OpsError("Applying the D1 migrations to the local database failed (see above).");
  }
}

/** applyLocalMigrations for a script that cannot go on without them: prints why and exits with 1. */
export async function applyLocalMigrationsOrExit(target = {}) {
  try {
    await applyLocalMigrations(target);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

const MIGRATIONS_DIR = "migrations";

/**
 * Every migration and its row in `d1_migrations`, as `wrangler d1 migrations apply` writes them
 * (the same table, the same order, each file followed by its own row), so a later `migrations
 * apply` knows them as applied and adds only newer ones.
 */
export function allMigrationsScript(dir = MIGRATIONS_DIR) {
  const names = readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  const table = `CREATE TABLE IF NOT EXISTS "d1_migrations"(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`;
  const files = names.map((name) => `${readFileSync(join(dir, name), "utf8")}\nINSERT INTO "d1_migrations" (name)\nvalues ('${name.replace(/'/g, "''")}');`);
  return { names, sql: [table, ...files].join("\n") };
}

async function applyAllMigrationsAtOnce(target) {
  const dir = mkdtempSync(join(tmpdir(), "strongroom-migrations-"));
  try {
    const file = join(dir, "all.sql");
    writeFileSync(file, allMigrationsScript().sql);
    const { code, stdout, stderr } = await capture("npx", ["wrangler", "d1", "execute", "DB", ...targetArgs({ ...target, remote: false }), "--file", file, "--yes"]);
    if (code === 0) return;
    process.stderr.write(`${stdout}${stderr}`);
    throw new OpsError("Applying the D1 migrations to the new local database failed (see above).");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Validates, hashes and inserts. Resolves `{ created: false }` when the e-mail is taken. */
export async function createMember(input, target) {
  const member = memberFromInput(input);
  const id = randomUUID();
  const passwordHash = await hashPassword(member.password);
  const rows = await d1Execute(insertMemberSql({ ...member, id, passwordHash, now: Date.now() }), target);
  return { created: rows.length > 0, id, email: member.email, name: member.name, tier: member.tier };
}

/** Resolves `{ updated: false }` when no member has the e-mail. */
export async function setMemberTier(input, target) {
  const email = normaliseEmail(input.email);
  const tier = normaliseTier(input.tier);
  const rows = await d1Execute(setTierSql({ email, tier, now: Date.now() }), target);
  return { updated: rows.length > 0, email, tier };
}

/**
 * Sets (quantity > 0) or removes (0) one addon of a member. Resolves `{ found: false }` when no
 * member has the e-mail; `previous` says whether a row existed before a removal.
 */
export async function setMemberAddon(input, target) {
  const change = addonChangeFromInput(input);
  const members = await d1Execute(memberIdSql(change.email), target);
  const userId = members[0]?.id;
  if (typeof userId !== "string") return { found: false, ...change };
  if (change.quantity === 0) {
    const removed = await d1Execute(deleteAddonSql({ userId, addon: change.addon }), target);
    return { found: true, ...change, removed: removed.length > 0 };
  }
  await d1Execute(upsertAddonSql({ userId, addon: change.addon, quantity: change.quantity, now: Date.now() }), target);
  return { found: true, ...change, removed: false };
}

/** Resolves `{ updated: false }` when the tier has no row (a database without migration 0003). */
export async function setTierLimit(input, target) {
  const change = limitChangeFromInput(input);
  const rows = await d1Execute(setTierLimitSql({ ...change, now: Date.now() }), target);
  return { updated: rows.length > 0, ...change };
}

export async function listTiers(target) {
  return d1Execute(LIST_TIERS_SQL, target);
}
