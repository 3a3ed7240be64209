import { readConfig } from "~/lib/config.server";
import { hmacSign, timingSafeEqualString } from "~/lib/crypto.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { assertAttemptsLeft, type LimitedAction, recordFailedAttempt } from "./attempt-limits.server";
import { scryptParamsFor, verifyPassword } from "./password.server";

/**
 * A public page behind a password (a receive page, a form): the right password gives a signed
 * cookie value bound to the page, an expiry and the page's current password (changing or removing
 * the password ends every unlock at once); a wrong one is counted per page and per address by the
 * attempt limiter (S11). One helper for every such page.
 */

export type PageLock = {
  /** Signs for this kind of page only ("receive-unlock", "form-unlock"). */
  purpose: string;
  id: string;
  passwordHash: string | null;
};

async function signature(ctx: ServiceContext, lock: PageLock, expiresAt: number): Promise<string> {
  return hmacSign(readConfig(ctx.env).SESSION_SECRET, `${lock.purpose}:${lock.id}:${expiresAt}:${lock.passwordHash ?? ""}`);
}

/** Whether a cookie's value unlocks this page: genuine, for it, not expired, made under its current password. */
export async function isPageUnlocked(ctx: ServiceContext, lock: PageLock, cookie: string | null | undefined): Promise<boolean> {
  if (!lock.passwordHash) return true;
  if (!cookie || cookie.length > 300) return false;
  const [id, expires, signed] = cookie.split(".");
  const expiresAt = Number(expires);
  if (id !== lock.id || !signed || !Number.isSafeInteger(expiresAt) || expiresAt <= ctx.now().getTime()) return false;
  return timingSafeEqualString(await signature(ctx, lock, expiresAt), signed);
}

/** Checks a password against the page's (limited per page and address); the cookie's value when right. */
export async function unlockPage(ctx: ServiceContext, lock: PageLock, password: string, options: { action: LimitedAction; ttlMs: number; wrong: string }): Promise<string> {
  if (!lock.passwordHash) return "";
  const keys = { account: `${lock.purpose}:${lock.id}`, ip: ctx.client.ip };
  await assertAttemptsLeft(ctx.env, options.action, keys);
  const check = await verifyPassword(password, lock.passwordHash, scryptParamsFor(ctx.env));
  if (!check.valid) {
    await recordFailedAttempt(ctx.env, options.action, keys);
    throw new AppError("UNAUTHENTICATED", options.wrong, { fieldErrors: { password: ["That password is not right."] } });
  }
  const expiresAt = ctx.now().getTime() + options.ttlMs;
  return `${lock.id}.${expiresAt}.${await signature(ctx, lock, expiresAt)}`;
}
