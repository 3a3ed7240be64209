import type { AttemptStatus, AttemptWindow } from "~durable-objects/attempt-limiter";
import { AppError } from "~/lib/errors";

/**
 * The strict counters (S11) and their bounds. Per account: 10 failures in 15 minutes, so the
 * 11th attempt is refused even with the right password. Per IP address: a higher bound, so one
 * office behind one address is not locked out by one person.
 */
const FIFTEEN_MINUTES = 15 * 60 * 1000;
export const ACCOUNT_WINDOW: AttemptWindow = { limit: 10, windowMs: FIFTEEN_MINUTES };
export const IP_WINDOW: AttemptWindow = { limit: 100, windowMs: FIFTEEN_MINUTES };

export type LimitedAction = "login" | "2fa" | "reset" | "register" | "verify-email" | "reauth" | "export" | "delete-account" | "invite" | "comment" | "link-password" | "link-code" | "link-code-send" | "batch" | "secret-create" | "secret-reveal" | "receive-password" | "receive-submit" | "form-password" | "form-submit" | "form-code-send" | "form-code" | "sign-code-send" | "sign-code" | "signature-verify";

export class RateLimitError extends AppError {
  constructor(retryAfterSeconds: number, message?: string) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(
      "RATE_LIMITED",
      message ??
        `Too many attempts. For your security, please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
      { retryAfterSeconds },
    );
  }
}

function limiter(env: Env, action: LimitedAction, scope: "account" | "ip", key: string) {
  return env.ATTEMPT_LIMITER.getByName(`${action}:${scope}:${key}`);
}

export type LimitKeys = { account?: string | null; ip?: string | null };

function refuseIfBlocked(statuses: AttemptStatus[], message?: (minutes: number) => string): void {
  const blocked = statuses.filter((status) => !status.allowed);
  if (!blocked.length) return;
  const retryAfterSeconds = Math.max(...blocked.map((status) => status.retryAfterSeconds));
  throw new RateLimitError(retryAfterSeconds, message?.(Math.max(1, Math.ceil(retryAfterSeconds / 60))));
}

/** Refuses (429) when either the account or the address has used up its window. Counts nothing. */
export async function assertAttemptsLeft(env: Env, action: LimitedAction, keys: LimitKeys): Promise<void> {
  const checks: Promise<AttemptStatus>[] = [];
  if (keys.account) checks.push(limiter(env, action, "account", keys.account).check(ACCOUNT_WINDOW));
  if (keys.ip) checks.push(limiter(env, action, "ip", keys.ip).check(IP_WINDOW));
  refuseIfBlocked(await Promise.all(checks));
}

/** Counts a failed attempt against the account and the address; true when the account just ran out. */
export async function recordFailedAttempt(env: Env, action: LimitedAction, keys: LimitKeys): Promise<{ accountLocked: boolean }> {
  const [account] = await Promise.all([
    keys.account ? limiter(env, action, "account", keys.account).record(ACCOUNT_WINDOW) : null,
    keys.ip ? limiter(env, action, "ip", keys.ip).record(IP_WINDOW) : null,
  ]);
  return { accountLocked: account !== null && !account.allowed };
}

/**
 * For requests where every request counts (reset and verification mails, sign-ups, comments that
 * may e-mail people): count, or refuse. `accountWindow` replaces the default per-account bound.
 */
export async function consumeAttempt(
  env: Env,
  action: LimitedAction,
  keys: LimitKeys,
  accountWindow: AttemptWindow = ACCOUNT_WINDOW,
  message?: (minutes: number) => string,
): Promise<void> {
  const consumed: Promise<AttemptStatus>[] = [];
  if (keys.account) consumed.push(limiter(env, action, "account", keys.account).consume(accountWindow));
  if (keys.ip) consumed.push(limiter(env, action, "ip", keys.ip).consume(IP_WINDOW));
  refuseIfBlocked(await Promise.all(consumed), message);
}

export async function clearAccountAttempts(env: Env, action: LimitedAction, account: string): Promise<void> {
  await limiter(env, action, "account", account).reset();
}
