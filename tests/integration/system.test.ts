import { describe, expect, it } from "vitest";
import { fileObjectKeyForBaseline } from "~/features/system/bench-baselines.server";
import { checkHealth } from "~/features/system/health.server";
import { createServiceContext } from "~/lib/service-context.server";
import { testEnv } from "./helpers";

describe("the system services", () => {
  it("health answers ok after a round trip to D1, and 503 with a message when D1 fails", async () => {
    expect(await checkHealth(createServiceContext(testEnv, { requestId: "t" }))).toEqual({ ok: true, db: true });
    const broken = { ...testEnv, DB: { prepare: () => { throw new Error("D1 down"); } } } as unknown as Env;
    await expect(checkHealth(createServiceContext(broken, { requestId: "t" }))).rejects.toMatchObject({
      status: 503,
      message: "The database is not reachable.",
    });
  });

  it("the benchmark's bare R2 baseline exists only in development and names no file that is not there", async () => {
    const development = createServiceContext({ ...testEnv, APP_ENV: "development" } as Env, { requestId: "t" });
    await expect(fileObjectKeyForBaseline(development, crypto.randomUUID())).rejects.toMatchObject({ status: 404 });
    const production = createServiceContext({ ...testEnv, APP_ENV: "production", PASSWORD_HASH_COST: "standard", FILES_ENCRYPTION_KEY: "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=", PAYMENTS_DRIVER: "stripe", STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_PRICES: "{}", PRINT_LAB_DRIVER: "off" } as Env, { requestId: "t" });
    await expect(fileObjectKeyForBaseline(production, crypto.randomUUID())).rejects.toMatchObject({ status: 404, message: "There is no such API endpoint." });
  });
});
