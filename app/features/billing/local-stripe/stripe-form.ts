/**
 * Stripe's request encoding, read back (the local driver's server side): `a[b][0][c]=v` becomes
 * `{ a: { b: [{ c: "v" }] } }`. Keys that are all digits make arrays.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

export function parseStripeForm(params: URLSearchParams): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const [name, value] of params) {
    const path = name.replace(/\]/g, "").split("[");
    let node: Record<string, FormValue> | FormValue[] = root;
    path.forEach((segment, index) => {
      const last = index === path.length - 1;
      const key = segment;
      const container = node as Record<string, FormValue>;
      if (last) {
        container[key] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[index + 1] ?? "");
      container[key] ??= nextIsIndex ? [] : {};
      node = container[key] as Record<string, FormValue> | FormValue[];
    });
  }
  return root;
}

export function asString(value: FormValue | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function asList(value: FormValue | undefined): Record<string, FormValue>[] {
  if (Array.isArray(value)) return value.filter((item): item is Record<string, FormValue> => typeof item === "object" && !Array.isArray(item));
  if (value && typeof value === "object") return Object.values(value).filter((item): item is Record<string, FormValue> => typeof item === "object" && !Array.isArray(item));
  return [];
}
