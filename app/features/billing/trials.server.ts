import { applyPlanLimits } from "./plan-limits.server";
import { z } from "zod";
import { normalizeTier, tierAtLeast, TIER_LABELS } from "~/features/access/access.constants";
import { findUserById } from "~/features/auth/auth.queries.server";
import { sendMail } from "~/features/mail/mailer.server";
import { mailOrigin } from "~/features/notifications/notifications.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { daysLeft, TRIAL_DAYS, TRIAL_REMINDER_DAYS, TRIAL_TIERS, type TrialState, type TrialTier } from "./trials.constants";
import { findTrial, insertTrial, listTrialsToEnd, listTrialsToRemind, markTrialEnded, markTrialReminded, type TrialRow } from "./trials.queries.server";

/**
 * Free trials (issue 43, ADR 043): a member starts one trial of a paid tier above their own, once,
 * without a card, from the trial modal or /trial. While it runs their access is that tier's (the
 * access layer reads it with the plan: `loadAccessRows`), so every limit and feature follows at
 * once; the shell counts the days down. The morning job reminds them before the end and closes it
 * after: they are back on the tier they pay for.
 */

const DAY_MS = 86_400_000;
const BATCH = 200;

const startSchema = z.object({ tier: z.enum(TRIAL_TIERS, { error: `tier: Choose the plan to try: ${TRIAL_TIERS.map((tier) => TIER_LABELS[tier]).join(", ")}.` }) });

function stateOf(trial: TrialRow | undefined, paidTier: string, now: Date): TrialState {
  const tier = normalizeTier(trial?.tier) as TrialTier | null;
  if (trial && tier) {
    const running = trial.endedAt === null && trial.endsAt > now;
    return running ? { status: "active", tier, endsAt: trial.endsAt.toISOString(), daysLeft: daysLeft(trial.endsAt, now) } : { status: "used", tier, endedAt: (trial.endedAt ?? trial.endsAt).toISOString() };
  }
  const paid = normalizeTier(paidTier) ?? "free";
  const tiers = TRIAL_TIERS.filter((candidate) => !tierAtLeast(paid, candidate));
  return tiers.length > 0 ? { status: "available", tiers, days: TRIAL_DAYS } : { status: "none" };
}

async function readTrial(ctx: ServiceContext, userId: string): Promise<{ state: TrialState; paidTier: string }> {
  const [trial, user] = await Promise.all([findTrial(ctx.db, userId), findUserById(ctx.db, userId)]);
  if (!user) throw new AppError("NOT_FOUND", "This account does not exist.");
  return { state: stateOf(trial, user.tier, ctx.now()), paidTier: user.tier };
}

/** The member's trial as the modal, /trial and the shell show it. */
export async function getTrial(ctx: ServiceContext, userId: string): Promise<TrialState> {
  return (await readTrial(ctx, userId)).state;
}

/** POST /api/billing/trial { tier }: starts the member's one trial (201), or says why not (409). */
export async function startTrial(ctx: ServiceContext, userId: string, input: unknown): Promise<TrialState> {
  const { tier } = parseInput(startSchema, input);
  const { state: current, paidTier } = await readTrial(ctx, userId);
  if (current.status === "active" || current.status === "used") {
    throw new AppError("CONFLICT", current.status === "active" ? `Your ${TIER_LABELS[current.tier]} trial is running: ${current.daysLeft} days left.` : `You have had your free trial (${TIER_LABELS[current.tier]}). Choose a plan to keep what it gave you.`);
  }
  if (current.status === "none" || !current.tiers.includes(tier)) throw new AppError("CONFLICT", `Your plan already includes everything in ${TIER_LABELS[tier]}.`);
  const now = ctx.now();
  const row = { userId, tier, startedAt: now, endsAt: new Date(now.getTime() + TRIAL_DAYS * DAY_MS), remindedAt: null, endedAt: null };
  if (!(await insertTrial(ctx.db, row))) throw new AppError("CONFLICT", "You have had your free trial. Choose a plan to keep what it gave you.");
  ctx.logger.info("trial started", { userId, tier });
  // A bigger plan: what was read-only over the old one may fit now.
  await applyPlanLimits(ctx, userId);
  return stateOf(row, paidTier, now);
}

/**
 * The morning job (safe to run twice): a reminder to each member whose trial ends within
 * TRIAL_REMINDER_DAYS, and the close of each trial past its end with a note saying so. Each
 * message has its own id, so a run cut short and run again sends nothing twice.
 */
export async function runTrialsMorning(ctx: ServiceContext): Promise<{ reminded: number; ended: number }> {
  const now = ctx.now();
  const appUrl = mailOrigin(ctx);
  let reminded = 0;
  for (const trial of await listTrialsToRemind(ctx.db, now, new Date(now.getTime() + TRIAL_REMINDER_DAYS * DAY_MS), BATCH)) {
    const tier = normalizeTier(trial.tier) ?? "business";
    const template = { kind: "trial-ending" as const, name: trial.name, planLabel: TIER_LABELS[tier], daysLeft: daysLeft(trial.endsAt, now), endsOn: trial.endsAt.toISOString().slice(0, 10), link: `${appUrl}/settings/subscription` };
    await sendMail(ctx, { to: trial.email, userId: trial.userId, template, id: `trial-ending:${trial.userId}` });
    if (await markTrialReminded(ctx.db, trial.userId, now)) reminded += 1;
  }
  let ended = 0;
  for (const trial of await listTrialsToEnd(ctx.db, now, BATCH)) {
    const tier = normalizeTier(trial.tier) ?? "business";
    const back = normalizeTier(trial.paidTier) ?? "free";
    const template = { kind: "trial-ended" as const, name: trial.name, planLabel: TIER_LABELS[tier], backTo: TIER_LABELS[back], link: `${appUrl}/settings/subscription` };
    await sendMail(ctx, { to: trial.email, userId: trial.userId, template, id: `trial-ended:${trial.userId}` });
    if (await markTrialEnded(ctx.db, trial.userId, now)) ended += 1;
    // Back on the paid plan: what is over it only reads until it fits.
    await applyPlanLimits(ctx, trial.userId);
  }
  return { reminded, ended };
}
