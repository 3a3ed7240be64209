import { describe, expect, it } from "vitest";
import { getHelpArticle, hasUnreadReleases, LATEST_RELEASE_ID, listHelpArticles, listReleases } from "~/features/guide/guide.server";
import { dismissWelcome, getShowcaseExamples, getWelcomeChecklist, markReleasesSeen, SHOWCASE_SHARE_SLUG } from "~/features/guide/welcome.server";
import { createServiceContext } from "~/lib/service-context.server";
import { createFile, personalSpaceOf } from "~tests/factories/files";
import { createRoom, signedIn } from "./dataroom-helpers";
import { testEnv } from "./helpers";

/** Welcome, what's new, help and showcase (issue 36). */

const ctx = () => createServiceContext(testEnv, { requestId: "guide-test" });
const accountOf = async (userId: string) => {
  const row = await testEnv.DB.prepare(
    "select id, email_verified_at as verified, totp_enabled_at as totp, email_2fa_enabled_at as email2fa, welcome_dismissed_at as dismissed, whats_new_seen as seen from users where id = ?",
  )
    .bind(userId)
    .first<{ id: string; verified: number | null; totp: number | null; email2fa: number | null; dismissed: number | null; seen: string | null }>();
  const date = (value: number | null) => (value === null ? null : new Date(value));
  return { id: row!.id, emailVerifiedAt: date(row!.verified), totpEnabledAt: date(row!.totp), email2faEnabledAt: date(row!.email2fa), welcomeDismissedAt: date(row!.dismissed), whatsNewSeen: row!.seen };
};

describe("help", () => {
  it("lists every article shipped with the app, in its order, each with a summary", () => {
    const { articles } = listHelpArticles(null);
    expect(articles.map((article) => article.slug)).toEqual(["workspace", "files", "data-rooms", "sharing", "receive-pages", "secrets", "security", "forms", "signatures", "redaction", "galleries", "workflows"]);
    for (const article of articles) expect(article.summary.length).toBeGreaterThan(20);
  });

  it("finds the articles holding every word searched, with the text around the first", () => {
    const { articles } = listHelpArticles("  Watermark ");
    expect(articles.map((article) => article.slug)).toEqual(["data-rooms", "sharing", "galleries"]);
    expect(articles[0]!.snippet?.toLowerCase()).toContain("watermark");
    expect(listHelpArticles("trash restored").articles.map((article) => article.slug)).toEqual(["files"]);
    expect(listHelpArticles("nothing-like-this").articles).toEqual([]);
  });

  it("renders an article's Markdown, and answers an unknown one with a not-found that says what to do", async () => {
    const article = await getHelpArticle("data-rooms");
    expect(article.title).toBe("Data rooms");
    expect(article.html).toContain("<h2>The audit log</h2>");
    for (const slug of ["no-such-article", "../secrets", undefined]) {
      await expect(getHelpArticle(slug)).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("Search the help") });
    }
  });
});

describe("what's new", () => {
  it("lists the release notes newest first, and shows a dot until the member opened the newest", async () => {
    const releases = await listReleases();
    expect(releases.length).toBeGreaterThanOrEqual(3);
    expect(releases[0]!.id).toBe(LATEST_RELEASE_ID);
    expect(releases.map((release) => release.id)).toEqual([...releases.map((release) => release.id)].sort().reverse());
    expect(releases[0]!.html).toContain("<li>");

    const member = await signedIn();
    expect(hasUnreadReleases((await accountOf(member.id)).whatsNewSeen)).toBe(true);
    await markReleasesSeen(ctx(), member.id, null);
    const seen = (await accountOf(member.id)).whatsNewSeen;
    expect(seen).toBe(LATEST_RELEASE_ID);
    expect(hasUnreadReleases(seen)).toBe(false);
    expect(hasUnreadReleases("2020-01-01-old")).toBe(true);
  });
});

describe("the welcome checklist", () => {
  it("ticks each step from what the account really did, and can be hidden and brought back", async () => {
    const member = await signedIn({ tier: "pro" });
    const other = await signedIn();
    let checklist = await getWelcomeChecklist(ctx(), await accountOf(member.id));
    expect(checklist.steps.map((step) => [step.id, step.isDone])).toEqual([
      ["verify-email", true],
      ["two-factor", false],
      ["upload", false],
      ["room", false],
      ["share", false],
    ]);
    expect(checklist).toMatchObject({ doneCount: 1, isComplete: false, isDismissed: false });

    // Another member's files and rooms tick nothing here.
    const theirs = await personalSpaceOf(other.id);
    await createFile({ spaceId: theirs.spaceId, folderId: theirs.inboxId });
    expect((await getWelcomeChecklist(ctx(), await accountOf(member.id))).doneCount).toBe(1);

    const mine = await personalSpaceOf(member.id);
    const file = await createFile({ spaceId: mine.spaceId, folderId: mine.inboxId });
    await createRoom(member.client, "First room");
    await testEnv.DB.prepare(
      "insert into share_links (id, token_hash, token_sealed, target_type, target_id, space_id, created_by, created_at, updated_at) values (?, ?, 'sealed', 'file', ?, ?, ?, ?, ?)",
    )
      .bind(crypto.randomUUID(), crypto.randomUUID(), file.id, mine.spaceId, member.id, Date.now(), Date.now())
      .run();
    await testEnv.DB.prepare("update users set email_2fa_enabled_at = ? where id = ?").bind(Date.now(), member.id).run();
    checklist = await getWelcomeChecklist(ctx(), await accountOf(member.id));
    expect(checklist).toMatchObject({ doneCount: 5, isComplete: true });

    await dismissWelcome(ctx(), member.id, true);
    expect((await getWelcomeChecklist(ctx(), await accountOf(member.id))).isDismissed).toBe(true);
    await dismissWelcome(ctx(), member.id, false);
    expect((await getWelcomeChecklist(ctx(), await accountOf(member.id))).isDismissed).toBe(false);
  });
});

describe("the showcase", () => {
  it("links the demo's teaser only while it is live", async () => {
    expect((await getShowcaseExamples(ctx())).shareLink).toBeNull();
    const member = await signedIn();
    const space = await personalSpaceOf(member.id);
    const file = await createFile({ spaceId: space.spaceId, folderId: space.inboxId });
    const id = crypto.randomUUID();
    await testEnv.DB.prepare(
      "insert into share_links (id, token_hash, token_sealed, slug, target_type, target_id, space_id, created_by, created_at, updated_at) values (?, ?, 'sealed', ?, 'file', ?, ?, ?, ?, ?)",
    )
      .bind(id, crypto.randomUUID(), SHOWCASE_SHARE_SLUG, file.id, space.spaceId, member.id, Date.now(), Date.now())
      .run();
    expect((await getShowcaseExamples(ctx())).shareLink).toBe(SHOWCASE_SHARE_SLUG);
    await testEnv.DB.prepare("update share_links set revoked_at = ? where id = ?").bind(Date.now(), id).run();
    expect((await getShowcaseExamples(ctx())).shareLink).toBeNull();
    await testEnv.DB.prepare("delete from share_links where id = ?").bind(id).run();
  });
});
