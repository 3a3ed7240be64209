import { readConfig } from "~/lib/config.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { findMail, markMailAttemptFailed, markMailSent } from "./mail.queries.server";

/** Posts one recorded message to the HTTP provider (Resend-compatible JSON API). Idempotent. */
export async function deliverMail(ctx: ServiceContext, mailId: string, fetcher: typeof fetch = fetch): Promise<"sent" | "skipped"> {
  const mail = await findMail(ctx.db, mailId);
  if (!mail || mail.status === "sent" || mail.status === "stored") return "skipped";
  const config = readConfig(ctx.env);
  const response = await fetcher(config.MAIL_HTTP_URL, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${config.MAIL_API_KEY ?? ""}`,
      "Content-Type": "application/json",
      "Idempotency-Key": mail.id,
    },
    body: JSON.stringify({ from: config.MAIL_FROM, to: [mail.toAddress], subject: mail.subject, text: mail.textBody, html: mail.htmlBody }),
  });
  if (!response.ok) {
    const reason = `Mail API answered ${response.status}`;
    await markMailAttemptFailed(ctx.db, mail.id, mail.attempts + 1, reason);
    throw new Error(reason);
  }
  await markMailSent(ctx.db, mail.id, ctx.now());
  return "sent";
}
