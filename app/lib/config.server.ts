import { z } from "zod";

/** Vars and secrets, validated once per isolate (STYLE habit 11). `.dev.vars.example` lists every name. */
const configSchema = z.object({
  APP_ENV: z.enum(["development", "production"]),
  APP_NAME: z.string().min(1),
  SESSION_SECRET: z
    .string({ error: "SESSION_SECRET is missing: copy .dev.vars.example to .dev.vars, or `wrangler secret put SESSION_SECRET`." })
    .min(32, "SESSION_SECRET must be at least 32 characters."),
  /** Public origin for links in e-mails (e.g. https://app.example.com); the request's origin when unset. */
  APP_URL: z.url({ error: "APP_URL must be an absolute URL such as https://app.example.com." }).optional().or(z.literal("")),
  MAIL_DRIVER: z.enum(["outbox", "http"], { error: 'MAIL_DRIVER must be "outbox" or "http".' }).default("outbox"),
  MAIL_FROM: z.string().min(3, "MAIL_FROM is missing.").default("Strongroom <no-reply@strongroom.local>"),
  MAIL_HTTP_URL: z.url({ error: "MAIL_HTTP_URL must be an absolute URL." }).default("https://api.resend.com/emails"),
  MAIL_API_KEY: z.string().optional(),
  /** Where members write to change their plan (shown on the plan page and the upgrade modal). */
  CONTACT_EMAIL: z.email({ error: "CONTACT_EMAIL must be an e-mail address." }).default("sales@strongroom.example"),
  TURNSTILE_SITE_KEY: z.string().optional(),
  TURNSTILE_SECRET_KEY: z.string().optional(),
  /**
   * scrypt cost: "standard" everywhere a person signs in; "fast" only for the test servers
   * (workerd tests, the e2e server), where thousands of members are made. Refused in production.
   */
  PASSWORD_HASH_COST: z.enum(["standard", "fast"], { error: 'PASSWORD_HASH_COST must be "standard" or "fast".' }).default("standard"),
  /**
   * "on" mounts the test-only routes under /__test (tests/e2e: a signed-in member in one call).
   * Only the e2e server sets it; refused in production.
   */
  TEST_HOOKS: z.enum(["on", "off"], { error: 'TEST_HOOKS must be "on" or "off".' }).default("off"),
  /**
   * The key-encryption key of data rooms' files (ADR 021): base64 of 32 random bytes. Required in
   * production; elsewhere one is derived from SESSION_SECRET. `_PREVIOUS` holds the old one while
   * a rotation re-wraps the room keys (nightly).
   */
  FILES_ENCRYPTION_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, "FILES_ENCRYPTION_KEY must be base64 of 32 random bytes (openssl rand -base64 32).")
    .optional(),
  /**
   * Payments (issue 43, docs/billing.md): "stripe" talks to Stripe (STRIPE_SECRET_KEY,
   * STRIPE_WEBHOOK_SECRET and STRIPE_PRICES required); "local" serves a Stripe of its own inside
   * the app (checkout page, signed webhooks) for `npm start` and tests. Refused in production.
   */
  PAYMENTS_DRIVER: z.enum(["local", "stripe"], { error: 'PAYMENTS_DRIVER must be "local" or "stripe".' }).default("local"),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** JSON: { "<tier or add-on>": { "month": "price_…", "year": "price_…" } } (docs/configuration.md). */
  STRIPE_PRICES: z.string().optional(),
  /**
   * The print lab of print orders (issue 43): "local" is the development lab inside the app (/dev/lab,
   * refused in production); "prodigi" is Prodigi's Print API (PRODIGI_API_KEY, PRODIGI_PRODUCTS);
   * "off" offers no prints.
   */
  PRINT_LAB_DRIVER: z.enum(["local", "prodigi", "off"], { error: 'PRINT_LAB_DRIVER must be "local", "prodigi" or "off".' }).default("local"),
  PRODIGI_API_KEY: z.string().optional(),
  /** Prodigi's API root: the live one by default; https://api.sandbox.prodigi.com/v4.0 for its sandbox. */
  PRODIGI_API_URL: z.url({ error: "PRODIGI_API_URL must be an absolute URL." }).default("https://api.prodigi.com/v4.0"),
  /** JSON: { "<size>/<paper>": { "sku": "…", "attributes": { … } } } for every size and paper of the print catalogue. */
  PRODIGI_PRODUCTS: z.string().optional(),
  PRODIGI_SHIPPING_METHOD: z.enum(["Budget", "Standard", "Express", "Overnight"], { error: "PRODIGI_SHIPPING_METHOD must be Budget, Standard, Express or Overnight." }).default("Standard"),
  /** JSON: { currency, shippingCents, sizes: [{ id, label, cents }], papers: [{ id, label, percent }] } (docs/configuration.md). */
  PRINT_CATALOGUE: z.string().optional(),
  /** What a paid referral credits each side, in the smallest unit of the subscription's currency (docs/billing.md). */
  REFERRAL_CREDIT_CENTS: z.coerce.number().int().min(0).max(1_000_000).default(1000),
  /** Where the Stripe client connects (a stripe-mock or other fake); Stripe's own API when unset. */
  STRIPE_API_HOST: z.string().optional(),
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STRIPE_API_PROTOCOL: z.enum(["http", "https"]).optional(),
  FILES_ENCRYPTION_KEY_PREVIOUS: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, "FILES_ENCRYPTION_KEY_PREVIOUS must be base64 of 32 random bytes.")
    .optional(),
});

export type AppConfig = z.infer<typeof configSchema> & { isProduction: boolean; isTurnstileEnabled: boolean; testHooks: boolean };

const cache = new WeakMap<object, AppConfig>();

export function readConfig(env: Env): AppConfig {
  const cached = cache.get(env);
  if (cached) return cached;
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    // A misconfigured deployment must fail loudly in logs, never expose values in a response.
    throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  }
  if (parsed.data.MAIL_DRIVER === "http" && !parsed.data.MAIL_API_KEY) {
    throw new Error("Invalid configuration: MAIL_DRIVER is http but the MAIL_API_KEY secret is not set.");
  }
  if (parsed.data.APP_ENV === "production" && parsed.data.PASSWORD_HASH_COST !== "standard") {
    throw new Error("Invalid configuration: PASSWORD_HASH_COST must be standard in production.");
  }
  if (parsed.data.APP_ENV === "production" && !parsed.data.FILES_ENCRYPTION_KEY) {
    throw new Error("Invalid configuration: FILES_ENCRYPTION_KEY is required in production (`openssl rand -base64 32 | wrangler secret put FILES_ENCRYPTION_KEY`).");
  }
  if (parsed.data.APP_ENV === "production" && parsed.data.TEST_HOOKS === "on") {
    throw new Error("Invalid configuration: TEST_HOOKS cannot be on in production.");
  }
  if (parsed.data.APP_ENV === "production" && parsed.data.PAYMENTS_DRIVER === "local") {
    throw new Error('Invalid configuration: PAYMENTS_DRIVER cannot be "local" in production (set "stripe" and its secrets, docs/configuration.md).');
  }
  if (parsed.data.APP_ENV === "production" && parsed.data.PRINT_LAB_DRIVER === "local") {
    throw new Error('Invalid configuration: PRINT_LAB_DRIVER cannot be "local" in production (set "prodigi" and its keys, or "off").');
  }
  if (parsed.data.PRINT_LAB_DRIVER === "prodigi" && !(parsed.data.PRODIGI_API_KEY && parsed.data.PRODIGI_PRODUCTS)) {
    throw new Error("Invalid configuration: PRINT_LAB_DRIVER is prodigi but PRODIGI_API_KEY or PRODIGI_PRODUCTS is not set.");
  }
  if (parsed.data.PAYMENTS_DRIVER === "stripe" && !(parsed.data.STRIPE_SECRET_KEY && parsed.data.STRIPE_WEBHOOK_SECRET && parsed.data.STRIPE_PRICES)) {
    throw new Error("Invalid configuration: PAYMENTS_DRIVER is stripe but STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET or STRIPE_PRICES is not set.");
  }
  const config = {
    ...parsed.data,
    isProduction: parsed.data.APP_ENV === "production",
    isTurnstileEnabled: Boolean(parsed.data.TURNSTILE_SITE_KEY && parsed.data.TURNSTILE_SECRET_KEY),
    testHooks: parsed.data.TEST_HOOKS === "on",
  };
  cache.set(env, config);
  return config;
}
