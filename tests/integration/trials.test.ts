import { describe, expect, it } from "vitest";
import { loadMemberAccess } from "~/features/access/access.server";
import { trialsMorningJob } from "~/features/billing/billing.jobs";
import { getTrial, startTrial } from "~/features/billing/trials.server";
import { loadAttention } from "~/features/workspace/attention.server";
import { testContext } from "~tests/factories/files";
import { countWhere, get, send, signedIn } from "./dataroom-helpers";
import { mailsTo, newAuthClient, testEnv } from "./helpers";

/**
 * Free trials (issue 43, ADR 043): a member tries a paid tier above their own once, without a
 * card; their access is that tier's at once and until the end; the morning job reminds them three
 * days before and closes the trial after, and they are on their own plan again.
 */

const DAY = 24 * 3600_000;
const at = (ms: number) => () => new Date(ms);

describe("free trials", () => {
  it("a Free member starts a Business trial once: Business features and limits at once, a countdown, and a second start refused", async () => {
    const member = await signedIn({ tier: "free" });
    expect((await (await get("/api/billing/trial", member.client)).json<{ trial: unknown }>()).trial).toEqual({ status: "available", tiers: ["basic", "pro", "business"], days: 14 });
    expect((await get("/api/workflows", member.client)).status).toBe(403);

    const started = await send(member.client, "POST", "/api/billing/trial", { tier: "business" });
    expect(started.status, await started.clone().text()).toBe(201);
    expect((await started.json<{ trial: { status: string; tier: string; daysLeft: number } }>()).trial).toMatchObject({ status: "active", tier: "business", daysLeft: 14 });
    const access = await loadMemberAccess(testContext(), member.id);
    expect(access.tier).toBe("business");
    expect(access.trial?.tier).toBe("business");
    expect(access.limits.max_datarooms).toBe(100);
    expect((await get("/api/workflows", member.client)).status).toBe(200);
    // The account keeps the plan it pays for: the trial only lays Business over it.
    expect(await countWhere("select count(*) as n from users where id = ? and tier = 'free'", member.id)).toBe(1);

    const again = await send(member.client, "POST", "/api/billing/trial", { tier: "pro" });
    expect(again.status).toBe(409);
    expect((await again.json<{ message: string }>()).message).toBe("Your Business trial is running: 14 days left.");
    expect(await countWhere("select count(*) as n from member_trials where user_id = ?", member.id)).toBe(1);
  });

  it("offers only tiers above the member's own, refuses anything else with a message, and answers members only", async () => {
    const pro = await signedIn({ tier: "pro" });
    expect((await getTrial(testContext(), pro.id)).status).toBe("available");
    expect(await getTrial(testContext(), pro.id)).toMatchObject({ tiers: ["business"] });
    const lower = await send(pro.client, "POST", "/api/billing/trial", { tier: "basic" });
    expect(lower.status).toBe(409);
    expect((await lower.json<{ message: string }>()).message).toBe("Your plan already includes everything in Basic.");
    const unknown = await send(pro.client, "POST", "/api/billing/trial", { tier: "custom" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json<{ message: string }>()).message).toContain("Choose the plan to try: Basic, Pro, Business.");
    const business = await signedIn({ tier: "business" });
    expect(await getTrial(testContext(), business.id)).toEqual({ status: "none" });
    expect((await send(business.client, "POST", "/api/billing/trial", { tier: "business" })).status).toBe(409);
    expect((await get("/api/billing/trial", (await newAuthClient()))).status).toBe(401);
    expect(await countWhere("select count(*) as n from member_trials where user_id in (?, ?)", pro.id, business.id)).toBe(0);
  });

  it("the morning job reminds once three days before the end and closes the trial after it; the member is on their own plan again; a second run sends nothing", async () => {
    const member = await signedIn({ tier: "free", email: `trial-${crypto.randomUUID()}@example.com` });
    // From now on (not a fixed past day): the mail it sends must not look old to the mail retention test's nightly prune.
    const start = Date.now();
    await startTrial(testContext(at(start)), member.id, { tier: "pro" });
    const morning = (ms: number) => trialsMorningJob.run({ ...testContext(at(ms)), jobId: `test-trials-${ms}` }, {});

    // (Counted by this member's mail and trial row: the job also sees the other tests' trials.)
    const sent = async (template: string) => (await mailsTo(member.email)).filter((mail) => mail.template === template).map((mail) => mail.subject);
    await morning(start + 10 * DAY);
    expect(await sent("trial-ending")).toEqual([]);
    await morning(start + 11.5 * DAY);
    await morning(start + 12 * DAY);
    expect(await sent("trial-ending")).toEqual(["Your Pro trial ends in 3 days"]);
    // The dashboard's attention feed says so too, in the last days only.
    const attention = async (ms: number) => (await loadAttention(testContext(at(ms)), { userId: member.id, now: new Date(ms), personalUsage: async () => ({ usedBytes: 0, quotaBytes: null }) as never })).filter((item) => item.kind === "trial.ending").map((item) => item.title);
    expect(await attention(start + 10 * DAY)).toEqual([]);
    expect(await attention(start + 12 * DAY)).toEqual(["Your Pro trial ends in 2 days"]);

    // Past the end the access is the member's own plan at once, before the job closes the trial.
    const after = start + 14 * DAY + 1;
    expect((await loadMemberAccess(testContext(at(after)), member.id)).tier).toBe("free");
    await morning(after);
    await morning(after + DAY);
    expect((await mailsTo(member.email)).filter((mail) => mail.template === "trial-ended").map((mail) => mail.textBody.includes("your account is on Free again"))).toEqual([true]);
    expect(await countWhere("select count(*) as n from member_trials where user_id = ? and reminded_at is not null and ended_at = ?", member.id, after)).toBe(1);
    expect(await getTrial(testContext(at(after + DAY)), member.id)).toMatchObject({ status: "used", tier: "pro" });
  });

  it("says what would be over the plan's limits when the trial ends, with the numbers, and nothing is deleted then: only adding more is refused", async () => {
    const member = await signedIn({ tier: "free" });
    expect((await send(member.client, "POST", "/api/billing/trial", { tier: "business" })).status).toBe(201);
    for (const name of ["Alpha", "Bravo", "Charlie"]) expect((await send(member.client, "POST", "/api/datarooms", { name })).status).toBe(201);
    const preview = await get("/api/billing/preview?tier=free", member.client);
    expect(preview.status).toBe(200);
    expect(await preview.json()).toEqual({ tierLabel: "Free", over: [{ limit: "max_datarooms", where: null, spaceId: null, current: 3, allowed: 2, text: "3 data rooms; Free allows 2 data rooms" }] });
    expect((await (await get("/api/billing/preview?tier=business", member.client)).json<{ over: unknown[] }>()).over).toEqual([]);
    expect((await get("/api/billing/preview?tier=gold", member.client)).status).toBe(400);

    // The trial ends: the three rooms stay, a fourth is refused with the plan's limit.
    await testEnv.DB.prepare("update member_trials set ends_at = ? where user_id = ?").bind(Date.now() - 1000, member.id).run();
    expect(await countWhere("select count(*) as n from datarooms where owner_id = ? and trashed_at is null", member.id)).toBe(3);
    const fourth = await send(member.client, "POST", "/api/datarooms", { name: "Delta" });
    expect(fourth.status).toBe(403);
    expect((await fourth.json<{ message: string }>()).message).toContain("Your Free plan allows 2 data rooms.");
  });
});
