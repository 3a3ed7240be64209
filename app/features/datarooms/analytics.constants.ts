/** The periods the analytics page offers, in days (shared by the page and the service). */
export const ANALYTICS_RANGES = [7, 30, 90] as const;
