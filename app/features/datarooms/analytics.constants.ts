/** The periods the analytics page offers, in days (shared by the page and the service). */
export const ANALYTICS_RANGES = [7, 30, 90] as const;

/** The viewer reports time per page this often (and when the page is left). */
export const PAGE_TIME_REPORT_MS = 15_000;
/** At most this much time in one report (a report covers 15 s; the rest is slack for a slow network). */
export const PAGE_TIME_MAX_MS_PER_REPORT = 60_000;
