/**
 * A moment as "2026-11-25 14:03 UTC" (or with seconds): formatted the same on the server and in
 * the browser, so server-rendered pages hydrate without a mismatch.
 */
export function formatUtc(value: Date | number, options: { seconds?: boolean } = {}): string {
  const iso = (typeof value === "number" ? new Date(value) : value).toISOString();
  return `${iso.slice(0, options.seconds ? 19 : 16).replace("T", " ")} UTC`;
}

/** A day as "29 November 2026" (UTC): the same on the server and in the browser. */
export function formatDayUtc(value: Date | number | string): string {
  return new Date(value).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}
