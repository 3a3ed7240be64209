import { describe, expect, it } from "vitest";
import { FAST_SCRYPT_PARAMS, SCRYPT_PARAMS, hashPassword, scryptParamsFor, verifyPassword } from "~/features/auth/password.server";
import { readConfig } from "~/lib/config.server";

const STRIPE = { PAYMENTS_DRIVER: "stripe", STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_PRICES: "{}", PRINT_LAB_DRIVER: "off" };

/** The vars every deployment has; each test adds what it is about. */
function env(vars: Record<string, string>): Env {
  return { APP_NAME: "Strongroom", SESSION_SECRET: "s".repeat(40), FILES_ENCRYPTION_KEY: "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=", ...STRIPE, ...vars } as unknown as Env;
}

describe("password hashing cost", () => {
  it("production hashes passwords with scrypt N=2^14, r=8, p=5 and a 32-byte key", async () => {
    expect(SCRYPT_PARAMS).toEqual({ N: 16384, r: 8, p: 5, keyLength: 32 });
    const production = env({ APP_ENV: "production", MAIL_DRIVER: "outbox" });
    expect(scryptParamsFor(production)).toBe(SCRYPT_PARAMS);
    expect(await hashPassword("a long enough password", scryptParamsFor(production))).toMatch(/^scrypt\$16384\$8\$5\$/);
  });

  it("npm start and any deployment without the setting use the standard cost", () => {
    expect(scryptParamsFor(env({ APP_ENV: "development" }))).toBe(SCRYPT_PARAMS);
  });

  it("the test servers' fast cost is cheaper, and its hashes are re-hashed once a standard server verifies them", async () => {
    const testServer = env({ APP_ENV: "development", PASSWORD_HASH_COST: "fast" });
    expect(scryptParamsFor(testServer)).toBe(FAST_SCRYPT_PARAMS);
    expect(FAST_SCRYPT_PARAMS.N * FAST_SCRYPT_PARAMS.p).toBeLessThan(SCRYPT_PARAMS.N * SCRYPT_PARAMS.p);
    const hash = await hashPassword("a long enough password", FAST_SCRYPT_PARAMS);
    expect(await verifyPassword("a long enough password", hash, FAST_SCRYPT_PARAMS)).toEqual({ valid: true, needsRehash: false });
    expect(await verifyPassword("a long enough password", hash, SCRYPT_PARAMS)).toEqual({ valid: true, needsRehash: true });
    expect((await verifyPassword("a wrong password", hash, SCRYPT_PARAMS)).valid).toBe(false);
  });

  it("a production configuration with the fast cost, the test routes or no files' encryption key is refused at start", () => {
    expect(() => readConfig(env({ APP_ENV: "production", PASSWORD_HASH_COST: "fast" }))).toThrow("PASSWORD_HASH_COST must be standard in production");
    expect(() => readConfig(env({ APP_ENV: "production", TEST_HOOKS: "on" }))).toThrow("TEST_HOOKS cannot be on in production");
    expect(() => readConfig(env({ APP_ENV: "development", PASSWORD_HASH_COST: "cheap" }))).toThrow('PASSWORD_HASH_COST must be "standard" or "fast"');
    // Data rooms' files are sealed under a key of the deployment's own, never one derived from another secret.
    expect(() => readConfig(env({ APP_ENV: "production", FILES_ENCRYPTION_KEY: undefined as unknown as string }))).toThrow("FILES_ENCRYPTION_KEY is required in production");
    expect(() => readConfig(env({ APP_ENV: "development", FILES_ENCRYPTION_KEY: "too short" }))).toThrow("FILES_ENCRYPTION_KEY must be base64 of 32 random bytes");
    // Payments: the local Stripe never serves production, and the real one needs its keys and prices.
    expect(() => readConfig(env({ APP_ENV: "production", PAYMENTS_DRIVER: "local" }))).toThrow('PAYMENTS_DRIVER cannot be "local" in production');
    expect(() => readConfig(env({ APP_ENV: "development", STRIPE_WEBHOOK_SECRET: undefined as unknown as string }))).toThrow("PAYMENTS_DRIVER is stripe but STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET or STRIPE_PRICES is not set");
  });
});
