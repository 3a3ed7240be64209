import type { Tier } from "~/features/access/access.constants";

/**
 * Free trials (issue 43, ADR 043; spec: "trial length: not shown"). 14 days, like DocSend's and
 * most data-room vendors' (Papermark gives 7, too short to run a deal room through diligence);
 * no card; once per member. Any paid self-serve tier above the member's own may be tried.
 */
export const TRIAL_DAYS = 14;
export const TRIAL_TIERS = ["basic", "pro", "business"] as const satisfies readonly Tier[];
export type TrialTier = (typeof TRIAL_TIERS)[number];
/** The "your trial ends soon" e-mail goes out this many days before the end. */
export const TRIAL_REMINDER_DAYS = 3;

/** What the member's trial looks like to them: one they may start, one running, or one used. */
export type TrialState =
  | { status: "available"; tiers: TrialTier[]; days: number }
  | { status: "active"; tier: TrialTier; endsAt: string; daysLeft: number }
  | { status: "used"; tier: TrialTier; endedAt: string }
  | { status: "none" };

/** Whole days left until `endsAt` (rounded up: a trial ending in 3 hours has 1 day left). */
export function daysLeft(endsAt: Date, now: Date): number {
  return Math.max(0, Math.ceil((endsAt.getTime() - now.getTime()) / 86_400_000));
}
