/**
 * Objects made from a file's content (issue 40: a picture's thumbnail and screen size) live in R2
 * beside the original, named after its key, so they go wherever the original's key goes: every
 * place that deletes an original deletes them with it (ADR 033). An encrypted original's key part
 * starts with the encryption marker, and so do its derivatives' (they are sealed the same way).
 */
export const DERIVED_OBJECTS = ["thumb", "screen"] as const;
export type DerivedObject = (typeof DERIVED_OBJECTS)[number];

export function derivedKey(sourceKey: string, kind: DerivedObject): string {
  return `${sourceKey}.${kind}`;
}

/** The keys and every object derived from them, for deleting together. */
function withDerivedKeys(keys: readonly string[]): string[] {
  return keys.flatMap((key) => [key, ...DERIVED_OBJECTS.map((kind) => derivedKey(key, kind))]);
}

/** R2 deletes at most 1,000 keys a call. */
export async function deleteWithDerived(bucket: R2Bucket, keys: readonly string[]): Promise<void> {
  const all = withDerivedKeys(keys);
  for (let start = 0; start < all.length; start += 1000) await bucket.delete(all.slice(start, start + 1000));
}
