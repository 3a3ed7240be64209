import Stripe from "stripe";
import { mailOrigin } from "~/features/notifications/notifications.server";
import { readConfig } from "~/lib/config.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { localStripeFetch } from "./local-stripe/local-stripe.server";

/**
 * The Stripe client (issue 43). PAYMENTS_DRIVER=stripe: Stripe's API (or STRIPE_API_HOST/PORT/
 * PROTOCOL, a fake of one's own) over fetch; "local": the same client answered by the local
 * driver inside the Worker (no network). Either way the code above it is the same.
 */

/** The signing secret of the local driver's events (never used with Stripe: config refuses it). */
export const LOCAL_WEBHOOK_SECRET = "whsec_local_strongroom_development_only";
const LOCAL_SECRET_KEY = "sk_test_local_strongroom";

/** Where the browser comes back to: the request's origin, else APP_URL. */
export function returnOrigin(ctx: ServiceContext): string {
  return ctx.client.origin ?? mailOrigin(ctx);
}

export function stripeFor(ctx: ServiceContext): Stripe {
  const config = readConfig(ctx.env);
  if (config.PAYMENTS_DRIVER === "local") {
    return new Stripe(LOCAL_SECRET_KEY, {
      httpClient: Stripe.createFetchHttpClient(localStripeFetch(ctx.db, ctx.env, returnOrigin(ctx))),
      host: "stripe.local",
      protocol: "http",
      maxNetworkRetries: 0,
      telemetry: false,
    });
  }
  return new Stripe(config.STRIPE_SECRET_KEY ?? "", {
    httpClient: Stripe.createFetchHttpClient(),
    ...(config.STRIPE_API_HOST ? { host: config.STRIPE_API_HOST } : {}),
    ...(config.STRIPE_API_PORT ? { port: config.STRIPE_API_PORT } : {}),
    ...(config.STRIPE_API_PROTOCOL ? { protocol: config.STRIPE_API_PROTOCOL } : {}),
    maxNetworkRetries: 2,
    timeout: 10_000,
    telemetry: false,
  });
}

export function webhookSecret(ctx: ServiceContext): string {
  const config = readConfig(ctx.env);
  return config.PAYMENTS_DRIVER === "local" ? LOCAL_WEBHOOK_SECRET : (config.STRIPE_WEBHOOK_SECRET ?? "");
}

export const subtleCrypto = Stripe.createSubtleCryptoProvider();
