import { describe, expect, it } from "vitest";
import { pruneAuthRecordsJob } from "~/features/auth/auth.jobs";
import { createServiceContext } from "~/lib/service-context.server";
import { testEnv } from "./helpers";

const DAY = 24 * 3600_000;
const now = Date.UTC(2026, 10, 21, 3, 45);

async function seed() {
  await testEnv.DB.prepare(
    "insert into users (id, email, name, password_hash, created_at, updated_at) values ('u1', 'prune@example.com', 'P', 'x', ?, ?)",
  )
    .bind(now, now)
    .run();
  const session = testEnv.DB.prepare(
    "insert into sessions (id, user_id, created_at, last_seen_at, expires_at, absolute_expires_at) values (?, 'u1', ?, ?, ?, ?)",
  );
  const token = testEnv.DB.prepare(
    "insert into auth_tokens (id, user_id, purpose, token_hash, expires_at, created_at) values (?, 'u1', 'reset_password', ?, ?, ?)",
  );
  await testEnv.DB.batch([
    session.bind("live", now - DAY, now, now + DAY, now + 20 * DAY),
    session.bind("idle-expired", now - 10 * DAY, now - 8 * DAY, now - DAY, now + 20 * DAY),
    session.bind("absolute-expired", now - 31 * DAY, now - 1000, now + DAY, now - 1000),
    token.bind("fresh", "h1", now + 3600_000, now),
    token.bind("expired-yesterday", "h2", now - DAY, now - DAY - 3600_000),
    token.bind("expired-long-ago", "h3", now - 8 * DAY, now - 8 * DAY - 3600_000),
  ]);
}

describe("nightly account housekeeping", () => {
  it("deletes expired sessions and week-old expired e-mail tokens, keeps the rest, and can run twice", async () => {
    await seed();
    const ctx = { ...createServiceContext(testEnv, { requestId: "t", now: () => new Date(now) }), jobId: "j" };
    const first = await pruneAuthRecordsJob.run(ctx, { tokenRetentionDays: 7 });
    expect(first.processedItems).toBe(3);
    // Only this test's member: other files' rows share the database (isolate: false) and are all newer than `now`.
    const sessions = await testEnv.DB.prepare("select id from sessions where user_id = 'u1' order by id").all<{ id: string }>();
    expect(sessions.results.map((row) => row.id)).toEqual(["live"]);
    const tokens = await testEnv.DB.prepare("select id from auth_tokens where user_id = 'u1' order by id").all<{ id: string }>();
    expect(tokens.results.map((row) => row.id)).toEqual(["expired-yesterday", "fresh"]);
    const second = await pruneAuthRecordsJob.run(ctx, { tokenRetentionDays: 7 });
    expect(second.processedItems).toBe(0);
    expect(await testEnv.DB.prepare("select count(*) as n from users where id = 'u1'").first("n")).toBe(1);
  });
});
