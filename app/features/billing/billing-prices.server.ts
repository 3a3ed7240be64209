import { z } from "zod";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import { INTERVALS, PRICE_KEYS, type Interval, type PriceKey } from "./billing.constants";
import { LOCAL_PRICE_IDS } from "./local-stripe/local-catalogue";

/**
 * Which Stripe price is which (issue 43): STRIPE_PRICES maps each tier and add-on to its monthly and
 * yearly price ids. Amounts live in Stripe; the local driver brings its own catalogue.
 */
export type PriceIds = Partial<Record<PriceKey, Record<Interval, string>>>;

const pair = z.object({ month: z.string().min(1), year: z.string().min(1) });
const pricesSchema = z.partialRecord(z.enum(PRICE_KEYS as [PriceKey, ...PriceKey[]]), pair);

const cache = new WeakMap<object, PriceIds>();

export function priceIds(env: Env): PriceIds {
  const cached = cache.get(env);
  if (cached) return cached;
  const config = readConfig(env);
  let ids: PriceIds = LOCAL_PRICE_IDS;
  if (config.PAYMENTS_DRIVER === "stripe") {
    let json: unknown;
    try {
      json = JSON.parse(config.STRIPE_PRICES ?? "{}");
    } catch {
      throw new AppError("SERVICE_UNAVAILABLE", "STRIPE_PRICES is not JSON (docs/configuration.md).");
    }
    const parsed = pricesSchema.safeParse(json);
    if (!parsed.success) throw new AppError("SERVICE_UNAVAILABLE", `STRIPE_PRICES: ${parsed.error.issues[0]?.message ?? "not valid"} (docs/configuration.md).`);
    ids = parsed.data;
  }
  cache.set(env, ids);
  return ids;
}

/** The price id of a tier or add-on, or a 503 naming what ops must configure. */
export function priceIdOf(ids: PriceIds, key: PriceKey, interval: Interval): string {
  const id = ids[key]?.[interval];
  if (!id) throw new AppError("SERVICE_UNAVAILABLE", `${key} is not on sale ${interval === "month" ? "monthly" : "yearly"}: its price is not configured.`);
  return id;
}

/** What a price id sells, or null for a price this app does not know. */
export function keyOfPrice(ids: PriceIds, priceId: string): { key: PriceKey; interval: Interval } | null {
  for (const key of PRICE_KEYS) {
    for (const interval of INTERVALS) if (ids[key]?.[interval] === priceId) return { key, interval };
  }
  return null;
}
