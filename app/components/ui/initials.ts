// Its own module so the header can show initials without loading the Avatar primitive (G5).
/** Up to two initials: the first letters of the first and last words ("Ada Lovelace" → "AL"). */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (!first) return "?";
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const letters = [first, last]
    .filter((word): word is string => Boolean(word))
    .map((word) => Array.from(word)[0] ?? "");
  return letters.join("").toLocaleUpperCase();
}
