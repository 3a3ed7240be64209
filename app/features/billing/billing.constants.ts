import { ADDONS, TIER_LABELS, type AddonType, type Tier } from "~/features/access/access.constants";

/** What members can buy at checkout (issue 43): Enterprise is sold by a person, Free is the default. */
export const SOLD_TIERS = ["basic", "pro", "business"] as const satisfies readonly Tier[];
export type SoldTier = (typeof SOLD_TIERS)[number];

export const INTERVALS = ["month", "year"] as const;
export type Interval = (typeof INTERVALS)[number];
export const INTERVAL_LABELS: Record<Interval, string> = { month: "Monthly", year: "Yearly" };

/** Add-ons bought by the unit (quantity); the others are on or off (quantity 1). */
export const COUNTED_ADDONS = ["extra_datarooms", "extra_storage"] as const satisfies readonly AddonType[];
export const MAX_ADDON_QUANTITY = 50;

/** Something with a price of its own: a tier or an add-on. */
export type PriceKey = SoldTier | AddonType;
export const PRICE_KEYS: readonly PriceKey[] = [...SOLD_TIERS, ...ADDONS];

/** A subscription as Settings: subscription shows it (read from Stripe, stored as its snapshot). */
export type SubscriptionView = {
  status: string;
  tier: SoldTier;
  tierLabel: string;
  interval: Interval;
  addons: Partial<Record<AddonType, number>>;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  nextAmount: number | null;
  currency: string | null;
};

/** One price as the plan picker shows it (from Stripe's price objects). */
export type PriceView = { key: PriceKey; interval: Interval; id: string; amount: number; currency: string };

export function tierLabelOf(tier: SoldTier): string {
  return TIER_LABELS[tier];
}

/** "€79.00" from Stripe's cents and currency. */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);
}
