import { notifyMember } from "~/features/notifications/notifications.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { mailRecipient, recordRoomEvent } from "./envelopes.server";
import { deleteSignatureImages } from "./signature-images.server";
import { REMINDERS_MAX } from "./signatures.constants";
import { findEnvelope, findEnvelopeWithPeople, findSenderOf, insertEvents, listExpiredEnvelopes, listReminderCandidates, moveEnvelope, updateRecipient } from "./signatures.queries.server";
import { signalEnvelopeFinished } from "~/features/workflows/workflow-signals.server";

const DAY_MS = 86_400_000;
const BATCH = 200;

/**
 * The nightly pass (issue 38, run by the cron's `signatures.reminders` job): envelopes whose
 * expiry has passed become "expired" (their links then say so), and each recipient who has not
 * signed gets a reminder the envelope asked for: the first N days after their link was sent,
 * then every M days, at most 10. Running twice in a day sends nothing twice (the last reminder's
 * time decides).
 */
export async function expireAndRemind(ctx: ServiceContext): Promise<{ expired: number; reminded: number }> {
  const now = ctx.now();
  let expired = 0;
  for (const { id } of await listExpiredEnvelopes(ctx.db, now, BATCH)) {
    if (!(await moveEnvelope(ctx.db, id, ["sent"], { status: "expired", updatedAt: now }))) continue;
    expired += 1;
    const envelope = await findEnvelope(ctx.db, id);
    if (!envelope) continue;
    await deleteSignatureImages(ctx, envelope);
    await insertEvents(ctx.db, [{ id: crypto.randomUUID(), envelopeId: id, type: "expired", actor: "Strongroom", ip: null, userAgent: null, detail: `Not signed by ${envelope.expiresAt?.toISOString().slice(0, 10)}`, at: now }]);
    await recordRoomEvent(ctx, envelope, null, "signature.expired", `“${envelope.title}”`);
    await notifyMember(ctx, { userId: envelope.userId, actorId: null, kind: "signature.declined", title: `“${envelope.title}” expired before everyone signed`, excerpt: "Send it again as a new document if it is still needed.", link: `/signatures/${id}` });
    await signalEnvelopeFinished(ctx, id);
  }

  let reminded = 0;
  const senders = new Map<string, string>();
  for (const { recipient, envelope } of await listReminderCandidates(ctx.db, BATCH)) {
    if (!recipient.sentAt || envelope.reminderFirstDays === null || recipient.remindersSent >= REMINDERS_MAX) continue;
    const due =
      recipient.remindersSent === 0
        ? recipient.sentAt.getTime() + envelope.reminderFirstDays * DAY_MS
        : envelope.reminderEveryDays === null || !recipient.lastRemindedAt
          ? Number.POSITIVE_INFINITY
          : recipient.lastRemindedAt.getTime() + envelope.reminderEveryDays * DAY_MS;
    if (due > now.getTime()) continue;
    // Claimed first (by the count it read), so a second run the same night finds it done.
    if (!(await updateRecipient(ctx.db, recipient.id, { remindersSent: recipient.remindersSent + 1, lastRemindedAt: now }))) continue;
    let senderName = senders.get(envelope.userId);
    if (!senderName) {
      senderName = (await findSenderOf(ctx.db, envelope.userId))?.name ?? "The sender";
      senders.set(envelope.userId, senderName);
    }
    await mailRecipient(ctx, envelope, recipient, { reminder: true, senderName });
    await insertEvents(ctx.db, [{ id: crypto.randomUUID(), envelopeId: envelope.id, recipientId: recipient.id, type: "reminded", actor: "Strongroom", ip: null, userAgent: null, detail: `Reminder ${recipient.remindersSent + 1} to ${recipient.email}`, at: now }]);
    await recordRoomEvent(ctx, envelope, null, "signature.reminded", `${recipient.email}, “${envelope.title}”`);
    reminded += 1;
  }
  return { expired, reminded };
}

/**
 * Reminds now everyone a sent envelope still waits for (their link sent, not signed yet; not
 * viewers), whatever its own reminder schedule: a workflow's sign step that is overdue (`why`, in
 * the envelope's history). Each reminder counts like a scheduled one. Returns how many were reminded.
 */
export async function remindUnsigned(ctx: ServiceContext, envelopeId: string, why: string): Promise<number> {
  const found = await findEnvelopeWithPeople(ctx.db, envelopeId);
  if (!found || found.envelope.status !== "sent") return 0;
  const now = ctx.now();
  const senderName = (await findSenderOf(ctx.db, found.envelope.userId))?.name ?? "The sender";
  let reminded = 0;
  for (const recipient of found.recipients) {
    if (recipient.kind === "viewer" || !recipient.sentAt) continue;
    if (!(await updateRecipient(ctx.db, recipient.id, { remindersSent: recipient.remindersSent + 1, lastRemindedAt: now }, ["sent", "opened"]))) continue;
    await mailRecipient(ctx, found.envelope, recipient, { reminder: true, senderName });
    await insertEvents(ctx.db, [{ id: crypto.randomUUID(), envelopeId, recipientId: recipient.id, type: "reminded", actor: "Strongroom", ip: null, userAgent: null, detail: `Reminder to ${recipient.email} (${why})`, at: now }]);
    await recordRoomEvent(ctx, found.envelope, null, "signature.reminded", `${recipient.email}, “${found.envelope.title}”`);
    reminded += 1;
  }
  return reminded;
}
