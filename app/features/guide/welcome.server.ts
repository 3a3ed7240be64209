import type { ServiceContext } from "~/lib/service-context.server";
import { findOpenExamples, readFirstSteps, setReleasesSeen, setWelcomeDismissed } from "./welcome.queries.server";
import { LATEST_RELEASE_ID } from "./guide.server";

/** What the checklist needs from the account row the session already read. */
export type WelcomeAccount = { id: string; emailVerifiedAt: Date | null; totpEnabledAt: Date | null; email2faEnabledAt: Date | null; welcomeDismissedAt: Date | null };

export type WelcomeStep = { id: "verify-email" | "two-factor" | "upload" | "room" | "share"; label: string; hint: string; href: string; isDone: boolean };
export type WelcomeChecklist = { steps: WelcomeStep[]; doneCount: number; isComplete: boolean; isDismissed: boolean };

/** The first-run checklist (issue 36 "Welcome"): each step ticks itself from what the account really did. */
export async function getWelcomeChecklist(ctx: ServiceContext, account: WelcomeAccount): Promise<WelcomeChecklist> {
  const done = await readFirstSteps(ctx.db, account.id);
  const steps: WelcomeStep[] = [
    { id: "verify-email", label: "Confirm your e-mail address", hint: "Open the link we sent you, or send it again from your account settings.", href: "/settings/account", isDone: account.emailVerifiedAt !== null },
    { id: "two-factor", label: "Turn on two-factor sign-in", hint: "An authenticator app or codes by e-mail keep your account yours.", href: "/settings/2fa", isDone: account.totpEnabledAt !== null || account.email2faEnabledAt !== null },
    { id: "upload", label: "Upload a file", hint: "Drop a document into your Inbox.", href: "/folders/inbox", isDone: Boolean(done?.hasFile) },
    { id: "room", label: "Create a data room", hint: "A shared space where you decide, person by person, who sees what.", href: "/datarooms", isDone: Boolean(done?.hasRoom) },
    { id: "share", label: "Share a link", hint: "Open a file or folder and press Share: expiry, password and visit analytics included.", href: "/folders", isDone: Boolean(done?.hasShareLink) },
  ];
  const doneCount = steps.filter((step) => step.isDone).length;
  return { steps, doneCount, isComplete: doneCount === steps.length, isDismissed: account.welcomeDismissedAt !== null };
}

/** Hide the checklist from the dashboard (or bring it back). */
export async function dismissWelcome(ctx: ServiceContext, userId: string, dismissed: boolean): Promise<void> {
  await setWelcomeDismissed(ctx.db, userId, dismissed ? ctx.now() : null);
}

/** Opening What's new clears its dot: the newest note is the one the member has seen. */
export async function markReleasesSeen(ctx: ServiceContext, userId: string, seenId: string | null): Promise<void> {
  if (LATEST_RELEASE_ID !== null && seenId !== LATEST_RELEASE_ID) await setReleasesSeen(ctx.db, userId, LATEST_RELEASE_ID);
}

/** The demo's share link and receive page (scripts/seed-demo.mjs), shown on the showcase when they are live. */
export const SHOWCASE_SHARE_SLUG = "falcon-teaser";
export const SHOWCASE_RECEIVE_SLUG = "falcon-documents";

export function getShowcaseExamples(ctx: ServiceContext) {
  return findOpenExamples(ctx.db, SHOWCASE_SHARE_SLUG, SHOWCASE_RECEIVE_SLUG, ctx.now());
}
