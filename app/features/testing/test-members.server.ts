import { encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { z } from "zod";
import { ADDONS, TIERS } from "~/features/access/access.constants";
import { upsertUserAddon } from "~/features/access/access.queries.server";
import { findUserByEmail, findUserById, insertUserIfEmailFree, updateUser, type UserRow } from "~/features/auth/auth.queries.server";
import type { AuthCall } from "~/features/auth/auth-context.server";
import { hashPassword, scryptParamsFor } from "~/features/auth/password.server";
import { encryptSecret } from "~/features/auth/secrets.server";
import { createSession, type AuthenticatedSession } from "~/features/auth/session.server";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";

/**
 * Test-only members (TEST_HOOKS=on, never in production; see docs/testing.md). One call makes a
 * member exactly as sign-up plus confirmation would leave them, with the tier, add-ons and second
 * factor a test asks for, and opens a signed-in session in the caller's browser. Tests about the
 * sign-up, sign-in, reset and 2FA forms do not use this: they drive the real forms.
 */
const addonsSchema = z.partialRecord(z.enum(ADDONS), z.int().min(0).max(1000));

export const testMemberSchema = z.object({
  email: z.email().max(254).optional(),
  password: z.string().min(8).max(128).optional(),
  name: z.string().trim().min(1).max(100).optional(),
  tier: z.enum(TIERS).default("pro"),
  /** The second factor the account has on; the session it gets is already past it. */
  twoFactor: z.enum(["none", "totp", "email"]).default("none"),
  /** false: an account whose e-mail address is not confirmed yet (and no session). */
  verified: z.boolean().default(true),
  /** false: the account only, no session in the caller's browser. */
  signIn: z.boolean().default(true),
  addons: addonsSchema.default({}),
});

export const testMemberChangeSchema = z.object({
  tier: z.enum(TIERS).optional(),
  addons: addonsSchema.optional(),
});

export type TestMember = {
  id: string;
  email: string;
  password: string;
  name: string;
  tier: string;
  /** The authenticator key (base32) when twoFactor is "totp". */
  totpKey: string | null;
};

export async function createTestMember(
  call: AuthCall,
  input: unknown,
): Promise<{ member: TestMember; session: { token: string; session: AuthenticatedSession } | null }> {
  const { ctx, meta } = call;
  const data = parseInput(testMemberSchema, input);
  const email = (data.email ?? `${crypto.randomUUID()}@example.com`).toLowerCase();
  const password = data.password ?? `correct horse ${crypto.randomUUID().slice(0, 8)}`;
  const name = data.name ?? "Ada Tester";
  const now = ctx.now();

  let totpKey: Uint8Array<ArrayBuffer> | null = null;
  if (data.twoFactor === "totp") {
    totpKey = new Uint8Array(20);
    crypto.getRandomValues(totpKey);
  }
  const row: UserRow = {
    id: crypto.randomUUID(),
    email,
    emailVerifiedAt: data.verified ? now : null,
    name,
    passwordHash: await hashPassword(password, scryptParamsFor(ctx.env)),
    tier: data.tier,
    totpSecret: totpKey ? await encryptSecret(readConfig(ctx.env).SESSION_SECRET, totpKey) : null,
    totpEnabledAt: totpKey ? now : null,
    totpLastUsedStep: null,
    email2faEnabledAt: data.twoFactor === "email" ? now : null,
    require2fa: false,
    sessionLifetimeHours: null,
    sidebarCollapsed: false,
    dashboardLayout: null,
    whatsNewSeen: null,
    welcomeDismissedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await insertUserIfEmailFree(ctx.db, row))) throw new AppError("CONFLICT", `A member with the e-mail ${email} already exists.`);
  for (const [addon, quantity] of Object.entries(data.addons)) {
    if (quantity) await upsertUserAddon(ctx.db, row.id, addon, quantity, now);
  }
  const session = data.verified && data.signIn ? await createSession(ctx.db, { user: row, pendingSecondFactor: null, meta, now, secondFactorPassed: data.twoFactor !== "none" }) : null;
  return {
    member: { id: row.id, email, password, name, tier: data.tier, totpKey: totpKey ? encodeBase32UpperCaseNoPadding(totpKey) : null },
    session,
  };
}

/** Operator steps a test needs mid-way (what `npm run ops` does in production): tier and add-ons. */
export async function changeTestMember(call: AuthCall, idOrEmail: string, input: unknown): Promise<{ tier: string }> {
  const { ctx } = call;
  const change = parseInput(testMemberChangeSchema, input);
  const user = idOrEmail.includes("@") ? await findUserByEmail(ctx.db, idOrEmail.toLowerCase()) : await findUserById(ctx.db, idOrEmail);
  if (!user) throw new AppError("NOT_FOUND", `No member ${idOrEmail}.`);
  const now = ctx.now();
  if (change.tier) await updateUser(ctx.db, user.id, { tier: change.tier, updatedAt: now });
  for (const [addon, quantity] of Object.entries(change.addons ?? {})) {
    if (quantity !== undefined) await upsertUserAddon(ctx.db, user.id, addon, quantity, now);
  }
  return { tier: change.tier ?? user.tier };
}
