import type { Tier } from "~/features/access/access.constants";

/**
 * What each plan gets of forms (issue 37, docs/plans.md). Like Tally and Jotform, logic comes with
 * the form builder; like OpnForm and Typeform, the number of submissions grows with the plan, and
 * webhooks (an integration) start at Pro. Forms themselves need the `forms` feature (Basic and up).
 * -1: unlimited. Submissions are counted per calendar month (UTC) over all the member's forms,
 * test submissions left out.
 */
export type FormLimits = { forms: number; submissionsPerMonth: number; logic: boolean; webhooks: boolean };

export const FORM_LIMITS: Record<Tier, FormLimits> = {
  free: { forms: 0, submissionsPerMonth: 0, logic: false, webhooks: false },
  basic: { forms: 20, submissionsPerMonth: 1_000, logic: true, webhooks: false },
  pro: { forms: -1, submissionsPerMonth: 10_000, logic: true, webhooks: true },
  business: { forms: -1, submissionsPerMonth: -1, logic: true, webhooks: true },
  custom: { forms: -1, submissionsPerMonth: -1, logic: true, webhooks: true },
};

export const FORM_NOT_FOUND = "This form does not exist or you don't have access to it.";
export const SUBMISSION_NOT_FOUND = "This submission does not exist or you don't have access to it.";
export const THANK_YOU_MAX = 1_000;
export const SUBMISSIONS_PAGE_SIZE = 50;
/** The honeypot field: hidden from people, filled in by bots. */
export const HONEYPOT_FIELD = "_website";

/** Submissions one address may send to one form in an hour (the attempt limiter). */
export const FORM_SUBMISSIONS_PER_HOUR = 30;
/** How long the right password keeps a form open in that browser. */
export const FORM_UNLOCK_TTL_MS = 12 * 3600_000;
export const FORM_UNLOCK_COOKIE = "form_unlock";

/** How long a link to one submission may work, in days. */
export const SHARE_DAYS = [1, 7, 30, 90] as const;

export { isUuidShape } from "~/lib/uuid-shape";
