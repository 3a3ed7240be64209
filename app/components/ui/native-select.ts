/** The look of a plain `<select>` inside a `<label>` (GET filter forms and no-JavaScript forms), matching the kit's inputs. */
export const nativeSelectClassName =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600";
