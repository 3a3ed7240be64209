import { enqueueJob } from "~/features/jobs/enqueue-job.server";
import { readConfig } from "~/lib/config.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { insertMail } from "./mail.queries.server";
import { deliverMailJob } from "./mail.jobs";
import { renderMail, type MailTemplate } from "./templates";

/**
 * The one mailer (ADR 010). Every message is rendered once and recorded in `mail_outbox`.
 * - `outbox` driver (local default): the record is the delivery; /dev/mail shows it.
 * - `http` driver (production): the record is queued and a `mail.deliver` job posts it to the
 *   e-mail API; the queue retries failures, and a message already sent is never sent again.
 */
export async function sendMail(
  ctx: ServiceContext,
  input: { to: string; userId: string | null; template: MailTemplate; id?: string },
): Promise<{ id: string }> {
  const config = readConfig(ctx.env);
  const content = renderMail(input.template);
  // A caller that may run again (a workflow step) names its message: the second time, nothing is sent.
  const id = input.id ?? crypto.randomUUID();
  const isNew = await insertMail(ctx.db, {
    id,
    toAddress: input.to,
    userId: input.userId,
    template: input.template.kind,
    subject: content.subject,
    textBody: content.text,
    htmlBody: content.html,
    status: config.MAIL_DRIVER === "outbox" ? "stored" : "queued",
    createdAt: ctx.now(),
  });
  if (!isNew) return { id };
  if (config.MAIL_DRIVER === "http") {
    await enqueueJob(ctx, { definition: deliverMailJob, payload: { mailId: id }, jobId: `mail.deliver:${id}`, priority: "high" });
  }
  ctx.logger.info("mail recorded", { mailId: id, template: input.template.kind, driver: config.MAIL_DRIVER });
  return { id };
}
