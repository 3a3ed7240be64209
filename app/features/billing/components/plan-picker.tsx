import { useState } from "react";
import { IntentForm } from "~/components/intent-form";
import { Button } from "~/components/ui/button";
import { ADDONS, TIER_LABELS, type AddonType } from "~/features/access/access.constants";
import { ADDON_LABELS } from "~/features/access/components/restricted";
import { COUNTED_ADDONS, formatMoney, INTERVAL_LABELS, INTERVALS, MAX_ADDON_QUANTITY, SOLD_TIERS, type Interval, type PriceView, type SoldTier } from "../billing.constants";

export type PlanChoice = { tier: SoldTier; interval: Interval; addons: Partial<Record<AddonType, number>> };

const ADDON_UNITS: Partial<Record<AddonType, string>> = { extra_datarooms: "2 data rooms each", extra_storage: "1 GB per data room each" };

/**
 * The plan picker (Settings: subscription): a tier, monthly or yearly, and add-ons with their
 * quantities, each with Stripe's price, and the total per period. It posts `tier`, `interval` and
 * `addon_<name>` with `intent`.
 */
export function PlanPicker({ prices, initial, intent, submitLabel, lockInterval = false }: { prices: PriceView[]; initial: PlanChoice; intent: string; submitLabel: string; lockInterval?: boolean }) {
  const [tier, setTier] = useState<SoldTier>(initial.tier);
  const [interval, setInterval] = useState<Interval>(initial.interval);
  const [addons, setAddons] = useState<Partial<Record<AddonType, number>>>(initial.addons);
  const priceOf = (key: string) => prices.find((price) => price.key === key && price.interval === interval);
  const currency = prices[0]?.currency ?? "eur";
  const total = (priceOf(tier)?.amount ?? 0) + ADDONS.reduce((sum, addon) => sum + (priceOf(addon)?.amount ?? 0) * (addons[addon] ?? 0), 0);
  const per = interval === "month" ? "month" : "year";
  return (
    <IntentForm intent={intent} className="space-y-5">
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-slate-900">Billing</legend>
        <div className="flex gap-4">
          {INTERVALS.map((candidate) => (
            <label key={candidate} className="flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name="interval" value={candidate} checked={interval === candidate} disabled={lockInterval && candidate !== initial.interval} onChange={() => setInterval(candidate)} />
              {INTERVAL_LABELS[candidate]}
              {candidate === "year" ? <span className="text-xs text-slate-600">(two months free)</span> : null}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-slate-900">Plan</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          {SOLD_TIERS.map((candidate) => {
            const price = priceOf(candidate);
            return (
              <label key={candidate} className="flex cursor-pointer flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4 has-[:checked]:border-brand-600 has-[:checked]:ring-2 has-[:checked]:ring-brand-200">
                <span className="flex items-center gap-2 font-semibold text-slate-900">
                  <input type="radio" name="tier" value={candidate} checked={tier === candidate} onChange={() => setTier(candidate)} />
                  {TIER_LABELS[candidate]}
                </span>
                <span className="text-sm text-slate-700">{price ? `${formatMoney(price.amount, price.currency)} / ${per}` : "Not on sale"}</span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-slate-900">Add-ons</legend>
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {ADDONS.map((addon) => {
            const price = priceOf(addon);
            const counted = (COUNTED_ADDONS as readonly string[]).includes(addon);
            const id = `addon-${intent}-${addon}`;
            return (
              <li key={addon} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <label htmlFor={id} className="text-sm text-slate-900">
                  <span className="font-medium">{ADDON_LABELS[addon]}</span>
                  <span className="block text-xs text-slate-600">
                    {price ? `${formatMoney(price.amount, price.currency)} / ${per}${counted ? ` · ${ADDON_UNITS[addon] ?? "each"}` : ""}` : "Not on sale"}
                  </span>
                </label>
                {counted ? (
                  <input
                    id={id}
                    name={`addon_${addon}`}
                    type="number"
                    min={0}
                    max={MAX_ADDON_QUANTITY}
                    value={addons[addon] ?? 0}
                    onChange={(event) => setAddons({ ...addons, [addon]: Math.max(0, Math.min(MAX_ADDON_QUANTITY, Number(event.target.value) || 0)) })}
                    className="w-20 rounded-md border border-slate-300 px-2 py-1 text-sm"
                    disabled={!price}
                  />
                ) : (
                  <input id={id} name={`addon_${addon}`} type="checkbox" value="1" checked={(addons[addon] ?? 0) > 0} onChange={(event) => setAddons({ ...addons, [addon]: event.target.checked ? 1 : 0 })} disabled={!price} />
                )}
              </li>
            );
          })}
        </ul>
      </fieldset>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-900" data-testid="plan-total">
          Total: <strong>{formatMoney(total, currency)}</strong> / {per}
        </p>
        <Button type="submit">{submitLabel}</Button>
      </div>
    </IntentForm>
  );
}

/** The plan a picker's form posted, as the billing API takes it. */
export function planFromForm(form: FormData): { tier: FormDataEntryValue | null; interval: FormDataEntryValue | null; addons: Record<string, number> } {
  const addons: Record<string, number> = {};
  for (const addon of ADDONS) {
    const value = form.get(`addon_${addon}`);
    if (value !== null && value !== "" && Number(value) !== 0) addons[addon] = Number(value);
  }
  return { tier: form.get("tier"), interval: form.get("interval"), addons };
}
