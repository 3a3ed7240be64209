import { TIER_LABELS } from "~/features/access/access.constants";
import { loadMemberAccess } from "~/features/access/access.server";
import { daysLeft, TRIAL_REMINDER_DAYS } from "~/features/billing/trials.constants";
import { ROLE_LABELS } from "~/features/datarooms/datarooms.permissions";
import { listOpenInvitationsForMember } from "~/features/datarooms/members.queries.server";
import { formatBytes } from "~/features/files/files.constants";
import type { SpaceUsage } from "~/features/files/storage.server";
import { signaturesWaitingFor } from "~/features/signatures/envelopes.server";
import { listMyTasks } from "~/features/workflows/workflows.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { listShareLinksEndingBetween, listUnreadNoticesOfKinds } from "./dashboard.queries.server";

/**
 * "Needs your attention" (issue 36): a feed across modules. THE one place a module registers its
 * kinds: a source reads what waits for the member (one D1 round trip, whatever they own) and
 * returns items; the feed runs every source at once and shows the newest first. Forms, signatures
 * and workflows add their sources here (submissions, signatures waiting, tasks).
 */
export type AttentionItem = { kind: string; label: string; title: string; detail: string; href: string; at: string };

/** What sources may share within one dashboard request (read once, used by the storage widget too). */
export type AttentionInput = { userId: string; now: Date; personalUsage: () => Promise<SpaceUsage> };

export type AttentionSource = { id: string; load: (ctx: ServiceContext, input: AttentionInput) => Promise<AttentionItem[]> };

const DAY_MS = 24 * 60 * 60 * 1000;
/** Share links ending within this many days are flagged. */
export const EXPIRING_WITHIN_DAYS = 7;
/** Storage at or above this share of the quota is flagged. */
export const STORAGE_NEAR_LIMIT = 0.8;
const FEED_LIMIT = 20;

/** Unread notices that ask something of the member, by notification kind. */
const NOTICE_KINDS: Record<string, string> = {
  "comment.mention": "Mentioned you",
  "receive.files": "Files received",
  "form.submission": "New submission",
  "form.webhook-disabled": "Webhook off",
  "secret.received": "Answer to your request",
  "signature.declined": "Declined or expired",
  "signature.completed": "Signed by everyone",
};

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export const ATTENTION_SOURCES: readonly AttentionSource[] = [
  {
    id: "room-invitations",
    load: async (ctx, { userId, now }) =>
      (await listOpenInvitationsForMember(ctx.db, userId, now, FEED_LIMIT)).map((invitation) => ({
        kind: "room.invitation",
        label: "Invitation",
        title: `${invitation.inviterName ?? "A Strongroom member"} invited you to the data room “${invitation.roomName}”`,
        detail: `As ${ROLE_LABELS[invitation.role].toLowerCase()}. Accept it before ${dateFormat.format(invitation.expiresAt)} UTC.`,
        href: `/invitations/${invitation.id}`,
        at: invitation.createdAt.toISOString(),
      })),
  },
  {
    id: "notices",
    load: async (ctx, { userId }) =>
      (await listUnreadNoticesOfKinds(ctx.db, userId, Object.keys(NOTICE_KINDS), FEED_LIMIT)).map((notice) => ({
        kind: notice.kind,
        label: NOTICE_KINDS[notice.kind] ?? "Notice",
        title: notice.title,
        detail: notice.excerpt,
        href: notice.link,
        at: notice.createdAt.toISOString(),
      })),
  },
  {
    id: "signatures-waiting",
    load: async (ctx, { userId }) =>
      (await signaturesWaitingFor(ctx, userId, FEED_LIMIT)).map((waiting) => ({
        kind: "signature.waiting",
        label: "Signature waiting",
        title: `${waiting.senderName} asks you to ${waiting.approve ? "approve" : "sign"} “${waiting.title}”`,
        detail: waiting.expiresAt ? `Sign before ${dateFormat.format(waiting.expiresAt)} UTC.` : "Open it to read the document and sign.",
        href: waiting.href,
        at: (waiting.sentAt ?? new Date(0)).toISOString(),
      })),
  },
  {
    id: "workflow-tasks",
    load: async (ctx, { userId }) =>
      (await listMyTasks(ctx, userId)).slice(0, FEED_LIMIT).map((task) => ({
        kind: "workflow.task",
        label: "Task waiting",
        title: `${task.step}: ${task.workflow}`,
        detail: "A workflow waits for your decision.",
        href: `/workflow-runs/${task.runId}`,
        at: task.since,
      })),
  },
  {
    id: "expiring-share-links",
    load: async (ctx, { userId, now }) =>
      (await listShareLinksEndingBetween(ctx.db, userId, now, new Date(now.getTime() + EXPIRING_WITHIN_DAYS * DAY_MS), FEED_LIMIT)).map((link) => ({
        kind: "share.expiring",
        label: "Link expiring",
        title: `${link.name || `Share link of a ${link.targetType}`} stops working soon`,
        detail: `It expires on ${dateFormat.format(link.expiresAt!)} UTC. Extend it if people still need it.`,
        href: `/share-links/${link.id}`,
        at: link.expiresAt!.toISOString(),
      })),
  },
  {
    // A free trial about to end (issue 43): read with the plan (no round trip of its own).
    id: "trial-ending",
    load: async (ctx, { userId, now }) => {
      const trial = (await loadMemberAccess(ctx, userId)).trial;
      if (!trial || daysLeft(trial.endsAt, now) > TRIAL_REMINDER_DAYS) return [];
      const left = daysLeft(trial.endsAt, now);
      return [
        {
          kind: "trial.ending",
          label: "Trial ending",
          title: `Your ${TIER_LABELS[trial.tier]} trial ends in ${left} day${left === 1 ? "" : "s"}`,
          detail: `It ends on ${dateFormat.format(trial.endsAt)} UTC. See what would be over your plan's limits then.`,
          href: "/trial",
          at: now.toISOString(),
        },
      ];
    },
  },
  {
    // What only reads because it is over the member's plan (issue 43): one item per space, read with the plan (no round trip of its own).
    id: "over-plan",
    load: async (ctx, { userId }) =>
      ((await loadMemberAccess(ctx, userId)).overPlan ?? []).slice(0, 5).map((space) => ({
        kind: "plan.over",
        label: "Read-only",
        title: `${space.kind === "personal" ? "Your files are" : `“${space.name}” is`} read-only: over your plan`,
        detail: `${space.reason ?? "Over the plan's limits"}. Nothing is deleted; change your plan, or delete what is over.`,
        href: space.kind === "dataroom" ? `/dataroom/${space.id}` : "/settings/subscription",
        at: space.since.toISOString(),
      })),
  },
  {
    id: "storage",
    load: async (_ctx, { personalUsage, now }) => {
      const usage = await personalUsage();
      if (usage.quotaBytes === null || usage.usedBytes < usage.quotaBytes * STORAGE_NEAR_LIMIT) return [];
      const percent = Math.min(100, Math.round((usage.usedBytes / usage.quotaBytes) * 100));
      return [
        {
          kind: "storage.near-limit",
          label: "Storage",
          title: `Your files use ${percent}% of your storage`,
          detail: `${formatBytes(usage.usedBytes)} of ${formatBytes(usage.quotaBytes)}. Empty the trash, remove old versions or add storage before uploads are refused.`,
          href: "/settings/storage",
          at: now.toISOString(),
        },
      ];
    },
  },
];

/** Every source at once; the newest first. */
export async function loadAttention(ctx: ServiceContext, input: AttentionInput): Promise<AttentionItem[]> {
  const lists = await Promise.all(ATTENTION_SOURCES.map((source) => source.load(ctx, input)));
  return lists
    .flat()
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, FEED_LIMIT);
}
