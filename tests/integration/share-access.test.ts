import { beforeAll, describe, expect, it } from "vitest";
import { countShareVisit, openShareLink, passShareGate, signVisit, type ShareOpening } from "~/features/sharing/share-access.server";
import { createFile, testContext } from "~tests/factories/files";
import { countWhere, createRoom, send, signedIn, type Person } from "./dataroom-helpers";
import { mailsTo } from "./helpers";

/**
 * Opening a share link (issue 21, step 2): the gates in order (password, e-mail, code, agreement),
 * view limits, expiry and revocation at the next request, and a visit that opens its own link only.
 */

type Link = { id: string; url: string };
const keyOf = (link: Link) => link.url.split("/s/")[1]!;
const ctx = () => testContext();
const later = (ms: number) => testContext(() => new Date(Date.now() + ms));

async function pass(key: string, cookie: string | null, input: unknown) {
  return passShareGate(ctx(), key, cookie, input);
}
function gateOf(opening: ShareOpening) {
  return opening.state === "gate" ? opening.gate : opening.state;
}

describe("opening a share link", () => {
  let owner: Person;
  let room: { id: string; rootFolderId: string };
  let fileId: string;
  const link = async (options: Record<string, unknown> = {}) => {
    const response = await send(owner.client, "POST", "/api/share-links", { target: { type: "file", id: fileId }, ...options });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json<{ link: Link }>()).link;
  };
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Lena Linker" });
    room = await createRoom(owner.client, "Link room");
    fileId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "term sheet.pdf", uploadedBy: owner.id })).id;
  });

  it("names nothing for an unknown or malformed key", async () => {
    expect(await openShareLink(ctx(), "A".repeat(43), null)).toEqual({ state: "missing" });
    expect(await openShareLink(ctx(), "../../etc", null)).toEqual({ state: "missing" });
  });

  it("opens a link without gates, by token or custom address, and counts a visit once", async () => {
    const plain = await link({ slug: "term-sheet" });
    const opening = await openShareLink(ctx(), keyOf(plain), null);
    expect(opening).toMatchObject({ state: "open", link: { targetType: "file", targetId: fileId, targetName: "term sheet.pdf" } });
    expect((await openShareLink(ctx(), "Term-Sheet", null)).state).toBe("open");
    const first = await countShareVisit(ctx(), opening as Extract<ShareOpening, { state: "open" }>);
    expect(first).toMatchObject({ usedUp: false, visit: { counted: true } });
    await countShareVisit(ctx(), { ...(opening as Extract<ShareOpening, { state: "open" }>), visit: first.visit });
    expect(await countWhere("select view_count as n from share_links where id = ?", plain.id)).toBe(1);
  });

  it("asks for the password, refuses a wrong one, and refuses the 11th wrong one in 15 minutes even when right (S11)", async () => {
    const locked = await link({ password: "blue harbour" });
    const key = keyOf(locked);
    expect(gateOf(await openShareLink(ctx(), key, null))).toBe("password");
    await expect(pass(key, null, { gate: "password", password: "wrong" })).rejects.toMatchObject({ status: 401, message: "That password is not right. Check it with the person who shared the link." });
    const right = await pass(key, null, { gate: "password", password: "blue harbour" });
    expect(right.opening.state).toBe("open");
    expect((await openShareLink(ctx(), key, right.cookie)).state).toBe("open");
    for (let i = 0; i < 9; i++) await expect(pass(key, null, { gate: "password", password: `wrong ${i}` })).rejects.toMatchObject({ status: 401 });
    await expect(pass(key, null, { gate: "password", password: "blue harbour" })).rejects.toMatchObject({ status: 429 });
  });

  it("takes an e-mail address allowed by the lists (the deny list wins) and refuses others by name", async () => {
    const listed = await link({ requireEmail: true, allowList: ["@acme.vc", "solo@partner.com"], denyList: ["intern@acme.vc"] });
    const key = keyOf(listed);
    expect(gateOf(await openShareLink(ctx(), key, null))).toBe("email");
    await expect(pass(key, null, { gate: "email", email: "intern@acme.vc" })).rejects.toMatchObject({ status: 403, message: "This link is not available to intern@acme.vc. Ask the person who shared it to add your address." });
    await expect(pass(key, null, { gate: "email", email: "someone@else.com" })).rejects.toMatchObject({ status: 403 });
    const partner = await pass(key, null, { gate: "email", email: "Solo@Partner.com" });
    expect(partner.opening).toMatchObject({ state: "open", visit: { email: "solo@partner.com", verified: false } });

    // The owner takes the address off the list: the next request is refused.
    expect((await send(owner.client, "PATCH", `/api/share-links/${listed.id}`, { allowList: ["@acme.vc"] })).status).toBe(200);
    expect(await openShareLink(ctx(), key, partner.cookie)).toMatchObject({ state: "refused" });
  });

  it("verifies the address with a 6-digit code from the e-mail, refusing a wrong or expired code", async () => {
    const verified = await link({ requireEmail: true, verifyEmail: true });
    const key = keyOf(verified);
    const email = `visitor-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const sent = await pass(key, null, { gate: "email", email });
    expect(sent.opening).toMatchObject({ state: "gate", gate: "code", pendingEmail: email });
    const mail = (await mailsTo(email)).at(-1)!;
    expect(mail.template).toBe("share-link-code");
    const code = /\b(\d{6})\b/.exec(mail.subject)![1]!;
    expect(mail.textBody).toContain("It works for 10 minutes.");

    await expect(pass(key, sent.cookie, { gate: "code", code: code === "000000" ? "000001" : "000000" })).rejects.toMatchObject({ status: 401 });
    await expect(passShareGate(later(11 * 60_000), key, sent.cookie, { gate: "code", code })).rejects.toMatchObject({ status: 400, message: "code: This code has expired. Ask for a new one." });
    const done = await pass(key, sent.cookie, { gate: "code", code });
    expect(done.opening).toMatchObject({ state: "open", visit: { email, verified: true } });
  });

  it("refuses the 11th wrong code in 15 minutes even when right (S11), and limits how often codes are sent", async () => {
    const verified = await link({ requireEmail: true, verifyEmail: true });
    const key = keyOf(verified);
    const email = `guesser-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const sent = await pass(key, null, { gate: "email", email });
    const code = /\b(\d{6})\b/.exec((await mailsTo(email)).at(-1)!.subject)![1]!;
    const wrong = code === "123456" ? "654321" : "123456";
    for (let i = 0; i < 10; i++) await expect(pass(key, sent.cookie, { gate: "code", code: wrong })).rejects.toMatchObject({ status: 401 });
    await expect(pass(key, sent.cookie, { gate: "code", code })).rejects.toMatchObject({ status: 429 });

    const other = `sender-${crypto.randomUUID().slice(0, 8)}@example.com`;
    for (let i = 0; i < 10; i++) await pass(key, null, { gate: "email", email: other });
    await expect(pass(key, null, { gate: "email", email: other })).rejects.toMatchObject({ status: 429 });
    expect(await mailsTo(other)).toHaveLength(10);
  });

  it("records the agreement with the name, e-mail and time before opening", async () => {
    const nda = await link({ requireEmail: true, agreement: "Keep it confidential." });
    const key = keyOf(nda);
    const withEmail = await pass(key, null, { gate: "email", email: "reader@example.com" });
    expect(withEmail.opening).toMatchObject({ state: "gate", gate: "agreement", link: { agreement: "Keep it confidential." } });
    await expect(pass(key, withEmail.cookie, { gate: "agreement", name: "Rita Reader", accept: false })).rejects.toMatchObject({ status: 400 });
    const accepted = await pass(key, withEmail.cookie, { gate: "agreement", name: "Rita Reader", accept: true });
    expect(accepted.opening.state).toBe("open");
    expect(await countWhere("select count(*) as n from share_link_agreements where link_id = ? and name = 'Rita Reader' and email = 'reader@example.com'", nda.id)).toBe(1);
  });

  it("keeps the gates in order and a visit to its own link", async () => {
    const both = await link({ password: "first gate", requireEmail: true });
    await expect(pass(keyOf(both), null, { gate: "email", email: "early@example.com" })).rejects.toMatchObject({ status: 409 });
    const other = await link({ password: "other gate" });
    const inside = await pass(keyOf(other), null, { gate: "password", password: "other gate" });
    expect(gateOf(await openShareLink(ctx(), keyOf(both), inside.cookie))).toBe("password");
    // A tampered visit is no visit.
    expect(gateOf(await openShareLink(ctx(), keyOf(other), `${inside.cookie.slice(0, -2)}xx`))).toBe("password");
  });

  it("stops at the next request once revoked, expired or used up, while a counted visitor keeps reading until then", async () => {
    const once = await link({ maxViews: 1 });
    const key = keyOf(once);
    const first = (await openShareLink(ctx(), key, null)) as Extract<ShareOpening, { state: "open" }>;
    const counted = await countShareVisit(ctx(), first);
    const cookie = await signVisit(ctx(), counted.visit);
    expect(await openShareLink(ctx(), key, null)).toEqual({ state: "expired", status: "used-up" });
    expect((await openShareLink(ctx(), key, cookie)).state).toBe("open");

    const expiring = await link({ expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    expect(await openShareLink(later(2 * 3600_000), keyOf(expiring), null)).toEqual({ state: "expired", status: "expired" });

    expect((await send(owner.client, "POST", `/api/share-links/${once.id}/revoke`)).status).toBe(200);
    expect(await openShareLink(ctx(), key, cookie)).toEqual({ state: "expired", status: "revoked" });
    await expect(pass(key, cookie, { gate: "password", password: "x" })).rejects.toMatchObject({ status: 404, message: "The preview link has expired. Please try refreshing the page." });
  });
});
