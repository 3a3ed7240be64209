// Types for ops-lib.mjs (plain JavaScript run by Node), for the unit test that imports it.

export type Tier = "free" | "basic" | "pro" | "business" | "custom";
export type Addon = "extra_datarooms" | "extra_storage" | "e_signatures" | "dataroom_team" | "dataroom_guests";
export type LimitName =
  | "max_datarooms"
  | "max_dataroom_storage_mb"
  | "max_dataroom_files"
  | "max_dataroom_folders"
  | "max_dataroom_members"
  | "max_dataroom_guests";
export type OpsCommand = "user:create" | "user:set-tier" | "user:set-addon" | "tier:set-limit" | "tier:list";
export type OpsTarget = { remote?: boolean; env?: string; persistTo?: string };
export type MemberInput = { email?: string; password?: string; name?: string; tier?: string };
/** The input options of any command (each command receives only its own). */
export type OpsInput = MemberInput & { addon?: string; quantity?: string; limit?: string; value?: string };
export type AddonChange = { email: string; addon: Addon; quantity: number };
export type LimitChange = { tier: Tier; limit: LimitName; value: number };
export type Member = { email: string; password: string; tier: Tier; name: string };

export const TIERS: Tier[];
export const ADDONS: Addon[];
export const LIMIT_NAMES: LimitName[];
export const ADDON_QUANTITY_MAX: number;
export const LIMIT_VALUE_MAX: number;
export const PASSWORD_MIN_LENGTH: number;
export const PASSWORD_MAX_LENGTH: number;
export const NAME_MAX_LENGTH: number;
export const DEMO_MEMBER: Member;
export const DEMO_GUEST: Member;
export const USAGE: string;
export const SCRYPT_PARAMS: { N: number; r: number; p: number; keyLength: number };

export class OpsError extends Error {}

export function normaliseEmail(input: string | undefined): string;
export function checkPassword(password: string | undefined): string;
export function normaliseTier(input: string | undefined): Tier;
export function normaliseName(input: string | undefined, email: string): string;
export function memberFromInput(input: MemberInput): Member;
export function normaliseAddon(input: string | undefined): Addon;
export function parseQuantity(input: string | undefined): number;
export function normaliseLimitName(input: string | undefined): LimitName;
export function parseLimitValue(input: string | undefined): number;
export function addonChangeFromInput(input: OpsInput): AddonChange;
export function limitChangeFromInput(input: OpsInput): LimitChange;

export function parseOpsArgs(
  argv: string[],
):
  | { help: true }
  | { help: false; command: OpsCommand; input: OpsInput; target: Required<Pick<OpsTarget, "remote">> & OpsTarget; skipMigrations: boolean };

export function hashPassword(password: string): Promise<string>;
export function sqlString(value: string): string;
export function sqlInteger(value: number): string;
export function insertMemberSql(member: { id: string; email: string; name: string; passwordHash: string; tier: string; now: number }): string;
export function setTierSql(change: { email: string; tier: string; now: number }): string;
export function memberIdSql(email: string): string;
export function upsertAddonSql(change: { userId: string; addon: string; quantity: number; now: number }): string;
export function deleteAddonSql(change: { userId: string; addon: string }): string;
export function setTierLimitSql(change: { tier: string; limit: string; value: number; now: number }): string;
export const LIST_TIERS_SQL: string;
export function formatTierTable(rows: Record<string, unknown>[]): string;

export function d1ExecuteArgs(sql: string, target?: OpsTarget): string[];
export function migrationsApplyArgs(target?: OpsTarget): string[];
export function d1Execute(sql: string, target?: OpsTarget): Promise<Record<string, unknown>[]>;
export function applyLocalMigrations(target?: OpsTarget): Promise<void>;
/** applyLocalMigrations for a script: on failure, prints why and exits with 1. */
export function applyLocalMigrationsOrExit(target?: OpsTarget): Promise<void>;
/** Every migration and its d1_migrations row, as `wrangler d1 migrations apply` writes them. */
export function allMigrationsScript(dir?: string): { names: string[]; sql: string };
export function createMember(
  input: MemberInput,
  target?: OpsTarget,
): Promise<{ created: boolean; id: string; email: string; name: string; tier: Tier }>;
export function setMemberTier(input: MemberInput, target?: OpsTarget): Promise<{ updated: boolean; email: string; tier: Tier }>;
export function setMemberAddon(input: OpsInput, target?: OpsTarget): Promise<AddonChange & { found: boolean; removed?: boolean }>;
export function setTierLimit(input: OpsInput, target?: OpsTarget): Promise<LimitChange & { updated: boolean }>;
export function listTiers(target?: OpsTarget): Promise<Record<string, unknown>[]>;
