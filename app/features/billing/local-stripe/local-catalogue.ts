import type { Interval, PriceKey } from "../billing.constants";

/**
 * The local payments driver's price list (development and tests): what `npm start` sells. A real
 * deployment's prices are Stripe's (STRIPE_PRICES names their ids). Cents, euros; a year is ten
 * months.
 */
export const LOCAL_MONTHLY_CENTS: Record<PriceKey, number> = {
  basic: 900,
  pro: 2900,
  business: 7900,
  extra_datarooms: 1000,
  extra_storage: 500,
  e_signatures: 1500,
  dataroom_team: 1000,
  dataroom_guests: 1000,
};

export const LOCAL_CURRENCY = "eur";

export function localPriceId(key: PriceKey, interval: Interval): string {
  return `price_local_${key}_${interval}`;
}

export const LOCAL_PRICE_IDS = Object.fromEntries(
  (Object.keys(LOCAL_MONTHLY_CENTS) as PriceKey[]).map((key) => [key, { month: localPriceId(key, "month"), year: localPriceId(key, "year") }]),
) as Record<PriceKey, Record<Interval, string>>;

/** Every local price as Stripe's price object. */
export function localPrices(): Record<string, unknown>[] {
  return (Object.keys(LOCAL_MONTHLY_CENTS) as PriceKey[]).flatMap((key) =>
    (["month", "year"] as const).map((interval) => ({
      id: localPriceId(key, interval),
      object: "price",
      active: true,
      currency: LOCAL_CURRENCY,
      unit_amount: interval === "month" ? LOCAL_MONTHLY_CENTS[key] : LOCAL_MONTHLY_CENTS[key] * 10,
      recurring: { interval, interval_count: 1 },
      product: `prod_local_${key}`,
      lookup_key: `${key}_${interval}`,
      type: "recurring",
      livemode: false,
    })),
  );
}

/** The test cards the local checkout page offers, as Stripe's test mode has them. */
export const LOCAL_CARDS = { paid: "4242 4242 4242 4242", declined: "4000 0000 0000 0002" } as const;
