import { generateHOTP } from "@oslojs/otp";
import { env } from "cloudflare:workers";
import { hashPassword, scryptParamsFor } from "~/features/auth/password.server";
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "~/features/auth/login.server";
import { encryptSecret, hashCode, newRecoveryCodes } from "~/features/auth/secrets.server";

/**
 * Members inserted straight into D1 for the workerd integration tests. D1 and the attempt-limiter
 * Durable Objects are shared by every test in a file, so each member gets a fresh e-mail address
 * (the limiter is keyed by e-mail, user id and IP address).
 */
const testEnv = env as Env;

export const DEFAULT_PASSWORD = "violet-harbour-lantern-42";

export function uniqueEmail(label = "member"): string {
  return `${label}-${crypto.randomUUID()}@example.com`;
}

// The workerd tests run with PASSWORD_HASH_COST=fast (vitest.config.ts), as the app does there;
// one hash per distinct password is still enough.
const hashes = new Map<string, Promise<string>>();
function cachedHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password, scryptParamsFor(testEnv));
    hashes.set(password, hash);
  }
  return hash;
}

export type UserOptions = {
  email?: string;
  password?: string;
  name?: string;
  /** E-mail address confirmed (default true). */
  verified?: boolean;
  /** Authenticator-app 2FA: stores an encrypted 160-bit TOTP key and sets totp_enabled_at. */
  totp?: boolean;
  /** E-mail-code 2FA. */
  email2fa?: boolean;
};

export type TestUser = { id: string; email: string; password: string; name: string; totpKey?: Uint8Array };

export async function createUser(options: UserOptions = {}): Promise<TestUser> {
  const id = crypto.randomUUID();
  const email = (options.email ?? uniqueEmail()).toLowerCase();
  const password = options.password ?? DEFAULT_PASSWORD;
  const name = options.name ?? "Test Member";
  const now = Date.now();
  let totpKey: Uint8Array<ArrayBuffer> | undefined;
  let totpSecret: string | null = null;
  if (options.totp) {
    totpKey = new Uint8Array(20);
    crypto.getRandomValues(totpKey);
    totpSecret = await encryptSecret(testEnv.SESSION_SECRET, totpKey);
  }
  await testEnv.DB.prepare(
    `insert into users (id, email, email_verified_at, name, password_hash, totp_secret, totp_enabled_at, email_2fa_enabled_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      id,
      email,
      options.verified === false ? null : now,
      name,
      await cachedHash(password),
      totpSecret,
      totpKey ? now : null,
      options.email2fa ? now : null,
      now,
      now,
    )
    .run();
  return { id, email, password, name, ...(totpKey ? { totpKey } : {}) };
}

/** Stores fresh recovery codes the way two-factor.server.ts does (HMAC bound to the member) and returns them. */
export async function addRecoveryCodes(userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  const now = Date.now();
  await testEnv.DB.batch(
    await Promise.all(
      codes.map(async (code) =>
        testEnv.DB.prepare("insert into recovery_codes (id, user_id, code_hash, created_at) values (?, ?, ?, ?)").bind(
          crypto.randomUUID(),
          userId,
          await hashCode(testEnv.SESSION_SECRET, `recovery:${userId}`, code),
          now,
        ),
      ),
    ),
  );
  return codes;
}

/** A six-digit code that the authenticator would not show anywhere near now. */
export function wrongTotp(key: Uint8Array): string {
  const counter = BigInt(Math.floor(Date.now() / (TOTP_PERIOD_SECONDS * 1000)));
  const nearby = new Set([-2n, -1n, 0n, 1n, 2n].map((offset) => generateHOTP(key, counter + offset, TOTP_DIGITS)));
  for (let candidate = 0; ; candidate++) {
    const code = String(candidate).padStart(6, "0");
    if (!nearby.has(code)) return code;
  }
}
