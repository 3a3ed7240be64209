import type { AuditOutcome } from "~/db/schema";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import type { AuditFields } from "./audit-chain";
import type { AuditAction } from "./audit.constants";
import { findUserEmail } from "./audit.queries.server";
import { roomAuthority } from "./room-authority.server";

/**
 * Recording in a data room's audit log (issue 20, QUALITY S22): who did what, when, from where,
 * and every refusal. Entries are appended by the room's Durable Object (one chain, one order) and
 * copied to D1. Every room records, whatever its plan, so the history is complete the day its
 * plan includes audit logs (reading it: audit.server.ts).
 */

export type AuditEvent = {
  action: AuditAction;
  outcome?: AuditOutcome;
  target?: { type: string; id?: string | null; name?: string | null };
  detail?: string | null;
};

const clip = (text: string | null | undefined, max: number) => (text ? text.slice(0, max) : null);

async function actorEmail(ctx: ServiceContext, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  if (ctx.actor?.userId === userId && ctx.actor.email) return ctx.actor.email;
  return findUserEmail(ctx.db, userId);
}

/**
 * Records events in the room's log. By default a failure is logged and the action that already
 * happened stands; with `required` (before file bytes leave the room) it refuses instead, so
 * nothing is delivered that the log does not show.
 */
export async function auditRoom(ctx: ServiceContext, roomId: string, userId: string | null, events: AuditEvent | AuditEvent[], options: { required?: boolean } = {}): Promise<void> {
  const list = Array.isArray(events) ? events : [events];
  if (list.length === 0) return;
  try {
    const email = await actorEmail(ctx, userId);
    const at = ctx.now().getTime();
    const fields: AuditFields[] = list.map((event) => ({
      at,
      actorId: userId,
      actorEmail: email,
      action: event.action,
      outcome: event.outcome ?? "allowed",
      targetType: event.target?.type ?? null,
      targetId: event.target?.id ?? null,
      targetName: clip(event.target?.name, 300),
      detail: clip(event.detail, 500),
      ip: clip(ctx.client.ip, 64),
      userAgent: clip(ctx.client.userAgent, 400),
    }));
    await roomAuthority(ctx, roomId).record(roomId, fields);
  } catch (error) {
    ctx.logger.error("audit entry not recorded", { roomId, actions: list.map((event) => event.action).join(","), error: error instanceof Error ? error.message : String(error) });
    if (options.required) throw new AppError("SERVICE_UNAVAILABLE", "This data room's audit log could not record the request, so nothing was sent. Please try again.");
  }
}

/** A refusal inside a room, recorded without ever hiding the refusal itself. */
export async function auditRefusal(ctx: ServiceContext, roomId: string, userId: string, what: string, target?: AuditEvent["target"]): Promise<void> {
  await auditRoom(ctx, roomId, userId, { action: "access.refused", outcome: "refused", detail: what, target });
}

/** A person as the target of an entry (their e-mail as it is now). */
export async function personTarget(ctx: ServiceContext, userId: string): Promise<NonNullable<AuditEvent["target"]>> {
  return { type: "member", id: userId, name: await findUserEmail(ctx.db, userId) };
}
