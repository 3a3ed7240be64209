import { describe, expect, it, vi } from "vitest";
import { pruneMailJob } from "~/features/mail/mail.jobs";
import { deliverMail } from "~/features/mail/deliver-mail.server";
import { listDevMailbox } from "~/features/mail/dev-mailbox.server";
import { sendMail } from "~/features/mail/mailer.server";
import { createServiceContext } from "~/lib/service-context.server";
import { testEnv } from "./helpers";

const template = { kind: "verify-email", name: "Ann <b>", link: "https://strongroom.test/verify-email?token=abc" } as const;

async function mailRow(id: string) {
  return testEnv.DB.prepare("select status, attempts, last_error as lastError, sent_at as sentAt, html_body as html, text_body as text from mail_outbox where id = ?")
    .bind(id)
    .first<{ status: string; attempts: number; lastError: string | null; sentAt: number | null; html: string; text: string }>();
}

describe("the mailer", () => {
  it("with the outbox driver stores the message (text and HTML, values escaped) for the development mailbox", async () => {
    const ctx = createServiceContext(testEnv, { requestId: "t" });
    const { id } = await sendMail(ctx, { to: "ann@example.com", userId: null, template });
    const row = await mailRow(id);
    expect(row?.status).toBe("stored");
    expect(row?.text).toContain("Hello Ann <b>,");
    expect(row?.text).toContain("https://strongroom.test/verify-email?token=abc");
    expect(row?.html).toContain("Hello Ann &lt;b&gt;,");
    expect(row?.html).not.toContain("<b>");
  });

  it("with the HTTP driver posts a queued message once, with the API key and an idempotency key", async () => {
    const env = { ...testEnv, MAIL_DRIVER: "http", MAIL_API_KEY: "re_test_key", MAIL_FROM: "Strongroom <no-reply@example.com>" } as Env;
    const ctx = createServiceContext(env, { requestId: "t" });
    const id = crypto.randomUUID();
    await testEnv.DB.prepare(
      "insert into mail_outbox (id, to_address, template, subject, text_body, html_body, status, created_at) values (?, 'bob@example.com', 'verify-email', 'Hi', 'text', '<p>html</p>', 'queued', ?)",
    )
      .bind(id, Date.now())
      .run();

    const failing = vi.fn(async () => new Response("busy", { status: 503 }));
    await expect(deliverMail(ctx, id, failing)).rejects.toThrow("Mail API answered 503");
    expect(await mailRow(id)).toMatchObject({ status: "failed", attempts: 1, lastError: "Mail API answered 503" });

    const provider = vi.fn(async () => Response.json({ id: "provider-id" }));
    expect(await deliverMail(ctx, id, provider)).toBe("sent");
    const [url, init] = provider.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("https://api.resend.com/emails");
    const headers = new Headers(init.headers);
    expect(headers.get("authorization")).toBe("Bearer re_test_key");
    expect(headers.get("idempotency-key")).toBe(id);
    expect(JSON.parse(init.body as string)).toEqual({
      from: "Strongroom <no-reply@example.com>",
      to: ["bob@example.com"],
      subject: "Hi",
      text: "text",
      html: "<p>html</p>",
    });
    expect((await mailRow(id))?.status).toBe("sent");

    // A redelivered job finds the message sent and does not send it again.
    expect(await deliverMail(ctx, id, provider)).toBe("skipped");
    expect(provider).toHaveBeenCalledTimes(1);
  });
});

describe("mail retention", () => {
  it("the nightly job deletes delivered mail older than 30 days and keeps recent or undelivered mail", async () => {
    const now = Date.UTC(2026, 10, 21, 3, 45);
    const day = 24 * 3600_000;
    const insert = testEnv.DB.prepare(
      "insert into mail_outbox (id, to_address, template, subject, text_body, html_body, status, created_at) values (?, 'old@example.com', 'verify-email', 's', 't', 'h', ?, ?)",
    );
    await testEnv.DB.batch([
      insert.bind("old-sent", "sent", now - 31 * day),
      insert.bind("old-stored", "stored", now - 40 * day),
      insert.bind("old-queued", "queued", now - 31 * day),
      insert.bind("recent", "sent", now - 2 * day),
    ]);
    const ctx = { ...createServiceContext(testEnv, { requestId: "t", now: () => new Date(now) }), jobId: "j" };
    expect((await pruneMailJob.run(ctx, { olderThanDays: 30 })).processedItems).toBe(2);
    const { results } = await testEnv.DB.prepare("select id from mail_outbox where to_address = 'old@example.com' order by id").all<{ id: string }>();
    expect(results.map((row) => row.id)).toEqual(["old-queued", "recent"]);
    expect((await pruneMailJob.run(ctx, { olderThanDays: 30 })).processedItems).toBe(0);
  });
});

describe("the development mailbox", () => {
  it("lists the newest messages for one address, case-insensitively, and only theirs", async () => {
    const ctx = createServiceContext(testEnv, { requestId: "t" });
    const address = `mailbox-${crypto.randomUUID()}@example.com`;
    await sendMail(ctx, { to: address, userId: null, template });
    await sendMail(ctx, { to: `other-${address}`, userId: null, template });
    const messages = await listDevMailbox(ctx, { to: `  ${address.toUpperCase()} ` });
    expect(messages.map((mail) => mail.to)).toEqual([address]);
    expect(messages[0]).toMatchObject({ template: "verify-email", status: "stored" });
    expect(messages[0]?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
  });

  it("does not exist in production: a 404, and no message is read", async () => {
    const ctx = createServiceContext({ ...testEnv, APP_ENV: "production", PASSWORD_HASH_COST: "standard", FILES_ENCRYPTION_KEY: "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=", PAYMENTS_DRIVER: "stripe", STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_PRICES: "{}", PRINT_LAB_DRIVER: "off" } as Env, { requestId: "t" });
    await expect(listDevMailbox(ctx, {})).rejects.toMatchObject({ code: "NOT_FOUND", status: 404 });
  });
});
