import { useState } from "react";
import { Link } from "react-router";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { formatMoney } from "../billing.constants";
import { MAX_PRINT_COPIES, shippingCentsTo, unitCents, type PrintCatalogue } from "../print-orders.constants";

const field = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm";

type Picture = { id: string; name: string; thumb: string | null };

/**
 * The print order form (a member's gallery, a public gallery's visitor): pictures with copies, one
 * size and paper, where to ship (and, for a visitor, the e-mail for the order's news), the total.
 */
export function PrintOrderForm({ title, pictures, catalogue, preselected, name, askEmail, backHref, message }: { title: string; pictures: Picture[]; catalogue: PrintCatalogue; preselected: string[]; name: string; askEmail: boolean; backHref: string; message: string | null }) {
  const [chosen, setChosen] = useState<Record<string, number>>(() => Object.fromEntries(pictures.filter((picture) => preselected.includes(picture.id)).map((picture) => [picture.id, 1])));
  const [size, setSize] = useState(catalogue.sizes[0]!.id);
  const [paper, setPaper] = useState(catalogue.papers[0]!.id);
  const unit = unitCents(catalogue, size, paper) ?? 0;
  const copies = Object.values(chosen).reduce((sum, count) => sum + count, 0);
  const [country, setCountry] = useState("");
  // Shipping as it will be charged: by the country once it is entered (the server prices it again).
  const shipping = country.trim().length === 2 ? shippingCentsTo(catalogue, country) : catalogue.shippingCents;
  const total = copies > 0 && shipping !== null ? unit * copies + shipping : 0;
  return (
    <div className="max-w-4xl space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      {message ? <Alert variant="error">{message}</Alert> : null}
      <IntentForm intent="order" className="space-y-6">
        <fieldset>
          <legend className="text-sm font-semibold text-slate-900">Pictures</legend>
          {pictures.length === 0 ? <p className="text-sm text-slate-700">This gallery has no pictures to print.</p> : null}
          <ul className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4">
            {pictures.map((picture) => {
              const isChosen = picture.id in chosen;
              return (
                <li key={picture.id} className="space-y-1 rounded-lg border border-slate-200 bg-white p-2">
                  {picture.thumb ? <img src={picture.thumb} alt="" className="aspect-square w-full rounded object-cover" /> : null}
                  <label className="flex items-center gap-2 text-sm text-slate-900">
                    <input
                      type="checkbox"
                      name="fileId"
                      value={picture.id}
                      checked={isChosen}
                      onChange={(event) => {
                        const next = { ...chosen };
                        if (event.target.checked) next[picture.id] = 1;
                        else delete next[picture.id];
                        setChosen(next);
                      }}
                    />
                    <span className="truncate">{picture.name}</span>
                  </label>
                  {isChosen ? (
                    <label className="block text-xs text-slate-700">
                      Copies
                      <input
                        type="number"
                        name={`copies_${picture.id}`}
                        min={1}
                        max={MAX_PRINT_COPIES}
                        value={chosen[picture.id]}
                        onChange={(event) => setChosen({ ...chosen, [picture.id]: Math.max(1, Math.min(MAX_PRINT_COPIES, Number(event.target.value) || 1)) })}
                        className="mt-0.5 w-20 rounded border border-slate-300 px-2 py-1 text-sm"
                      />
                    </label>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </fieldset>
        <div className="flex flex-wrap gap-4">
          <label className="text-sm font-medium text-slate-900">
            Size
            <select name="size" className={nativeSelectClassName} value={size} onChange={(event) => setSize(event.target.value)}>
              {catalogue.sizes.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.label} · {formatMoney(candidate.cents, catalogue.currency)}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm font-medium text-slate-900">
            Paper
            <select name="paper" className={nativeSelectClassName} value={paper} onChange={(event) => setPaper(event.target.value)}>
              {catalogue.papers.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.label}
                  {candidate.percent > 0 ? ` (+${candidate.percent} %)` : ""}
                </option>
              ))}
            </select>
          </label>
        </div>
        <fieldset className="grid gap-3 sm:grid-cols-2">
          <legend className="text-sm font-semibold text-slate-900">Ship to</legend>
          <label className="text-sm text-slate-900 sm:col-span-2">
            Name
            <input name="name" required defaultValue={name} autoComplete="name" className={field} />
          </label>
          {askEmail ? (
            <label className="text-sm text-slate-900 sm:col-span-2">
              E-mail (for the order's news)
              <input name="email" type="email" required autoComplete="email" className={field} />
            </label>
          ) : null}
          <label className="text-sm text-slate-900 sm:col-span-2">
            Street address
            <input name="line1" required autoComplete="address-line1" className={field} />
          </label>
          <label className="text-sm text-slate-900 sm:col-span-2">
            Address line 2 (optional)
            <input name="line2" autoComplete="address-line2" className={field} />
          </label>
          <label className="text-sm text-slate-900">
            Postal code
            <input name="postalCode" required autoComplete="postal-code" className={field} />
          </label>
          <label className="text-sm text-slate-900">
            City
            <input name="city" required autoComplete="address-level2" className={field} />
          </label>
          <label className="text-sm text-slate-900">
            Country (two letters: DE, FR, US…)
            <input name="country" required maxLength={2} autoComplete="country" className={field} value={country} onChange={(event) => setCountry(event.target.value)} />
          </label>
        </fieldset>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-900" data-testid="print-total" aria-live="polite">
            {shipping === null ? (
              `Prints are not shipped to ${country.trim().toUpperCase()}. They are shipped to ${catalogue.countries?.join(", ") ?? ""}.`
            ) : copies > 0 ? (
              <>
                {copies} {copies === 1 ? "print" : "prints"} × {formatMoney(unit, catalogue.currency)} + shipping {formatMoney(shipping, catalogue.currency)} = <strong>{formatMoney(total, catalogue.currency)}</strong>
              </>
            ) : (
              "Tick the pictures to print."
            )}
          </p>
          <div className="flex gap-2">
            <Link to={backHref} className="self-center text-sm font-medium text-slate-700 underline-offset-2 hover:underline">
              Back to the gallery
            </Link>
            <Button type="submit" disabled={copies === 0 || shipping === null}>
              Continue to payment
            </Button>
          </div>
        </div>
      </IntentForm>
    </div>
  );
}


/** The order a print form posted, as the print-order services take it. */
export function printOrderFromForm(form: FormData) {
  const size = form.get("size");
  const paper = form.get("paper");
  return {
    items: form.getAll("fileId").map((fileId) => ({ fileId, size, paper, quantity: form.get(`copies_${String(fileId)}`) ?? 1 })),
    name: form.get("name"),
    address: { line1: form.get("line1"), line2: form.get("line2") || undefined, city: form.get("city"), postalCode: form.get("postalCode"), country: form.get("country") },
  };
}
