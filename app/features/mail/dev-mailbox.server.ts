import { AppError } from "~/lib/errors";
import { readConfig } from "~/lib/config.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { listRecentMail } from "./mail.queries.server";

export type DevMailboxMessage = {
  id: string;
  to: string;
  subject: string;
  template: string;
  status: string;
  text: string;
  createdAt: string;
};

/**
 * The development mailbox (/dev/mail): the newest messages the `outbox` driver stored, optionally
 * for one address. It does not exist in production (404), where the outbox is a delivery queue.
 */
export async function listDevMailbox(ctx: ServiceContext, input: { to?: string; limit?: number }): Promise<DevMailboxMessage[]> {
  if (readConfig(ctx.env).isProduction) throw new AppError("NOT_FOUND");
  const to = input.to?.trim().toLowerCase() || undefined;
  const messages = await listRecentMail(ctx.db, input.limit ?? 50, to);
  return messages.map((mail) => ({
    id: mail.id,
    to: mail.toAddress,
    subject: mail.subject,
    template: mail.template,
    status: mail.status,
    text: mail.textBody,
    createdAt: mail.createdAt.toISOString().slice(0, 19).replace("T", " ") + " UTC",
  }));
}
