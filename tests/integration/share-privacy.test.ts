import { beforeAll, describe, expect, it } from "vitest";
import { applySharePrivacy, getSharePrivacy, updateSharePrivacy } from "~/features/sharing/share-privacy.server";
import { passSharePageGate, viewSharePage } from "~/features/sharing/share-viewer.server";
import { createServiceContext } from "~/lib/service-context.server";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, testContext } from "~tests/factories/files";
import { countWhere, createRoom, send, signedIn, type Person } from "./dataroom-helpers";
import { testEnv } from "./helpers";

/**
 * Visitor privacy of share links (issue 21): IP addresses kept whole, shortened or not at all when
 * written; the nightly job deletes visits past the retention and brings stored addresses in line.
 */

type Link = { id: string; url: string };
const keyOf = (link: Link) => link.url.split("/s/")[1]!;
const DAY = 86_400_000;
/** A visitor's request from an address, at a time. */
const from = (ip: string, at = Date.now()) => createServiceContext(testEnv, { requestId: "test", client: { ip, userAgent: "test" }, now: () => new Date(at) });

describe("visitor privacy of share links", () => {
  let owner: Person;
  let member: Person;
  let room: { id: string; rootFolderId: string };
  let link: Link;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Pia Privacy" });
    member = await signedIn({ name: "Mel Member" });
    room = await createRoom(owner.client, "Private room");
    await addDataroomMember(room.id, member.id, "member");
    const file = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "terms.txt", content: "terms" });
    const response = await send(owner.client, "POST", "/api/share-links", { target: { type: "file", id: file.id }, requireEmail: true, agreement: "Keep it quiet." });
    link = (await response.json<{ link: Link }>()).link;
  });

  const visitFrom = async (ip: string, at?: number) => {
    const ctx = from(ip, at);
    let cookie = (await viewSharePage(ctx, keyOf(link), null, {})).cookie;
    cookie = (await passSharePageGate(ctx, keyOf(link), cookie, { gate: "email", email: `v${Math.random()}@x.test` }, {})).cookie ?? cookie;
    await passSharePageGate(ctx, keyOf(link), cookie, { gate: "agreement", name: "A Visitor", accept: true }, {});
  };
  const ips = async (table: string) => (await testEnv.DB.prepare(`select ip from ${table} where link_id = ? order by ip`).bind(link.id).all<{ ip: string | null }>()).results.map((row) => row.ip);

  it("shortens addresses by default, and keeps them whole or not at all as the room's managers choose", async () => {
    expect(await getSharePrivacy(testContext(), owner.id, room.id)).toEqual({ ipMode: "truncated", retentionDays: 365 });
    await visitFrom("198.51.100.23");
    expect(await ips("share_link_visits")).toEqual(["198.51.100.0"]);
    expect(await ips("share_link_agreements")).toEqual(["198.51.100.0"]);

    await updateSharePrivacy(testContext(), owner.id, room.id, { ipMode: "full", retentionDays: 30 });
    await visitFrom("198.51.100.24");
    expect(await ips("share_link_visits")).toEqual(["198.51.100.0", "198.51.100.24"]);

    await expect(updateSharePrivacy(testContext(), member.id, room.id, { ipMode: "none", retentionDays: null })).rejects.toMatchObject({ status: 403 });
    const outsider = await signedIn();
    await expect(updateSharePrivacy(testContext(), outsider.id, room.id, { ipMode: "none", retentionDays: null })).rejects.toMatchObject({ status: 404 });
    await expect(updateSharePrivacy(testContext(), owner.id, room.id, { ipMode: "none", retentionDays: 12 })).rejects.toMatchObject({ status: 400 });
  });

  it("brings stored data in line each night: old visits deleted, addresses dropped or shortened, and a second run changes nothing", async () => {
    await visitFrom("198.51.100.25", Date.now() - 40 * DAY);
    const before = await countWhere("select count(*) as n from share_link_visits where link_id = ?", link.id);
    await applySharePrivacy(testContext());
    // Retention is 30 days: the 40-day-old visit is gone, with its files and pages.
    expect(await countWhere("select count(*) as n from share_link_visits where link_id = ?", link.id)).toBe(before - 1);

    await updateSharePrivacy(testContext(), owner.id, room.id, { ipMode: "truncated", retentionDays: null });
    await applySharePrivacy(testContext());
    expect(await ips("share_link_visits")).toEqual(["198.51.100.0", "198.51.100.0"]);

    await updateSharePrivacy(testContext(), owner.id, room.id, { ipMode: "none", retentionDays: null });
    await applySharePrivacy(testContext());
    expect(await ips("share_link_visits")).toEqual([null, null]);
    expect((await ips("share_link_agreements")).every((ip) => ip === null)).toBe(true);
    expect(await applySharePrivacy(testContext())).toEqual({ deleted: 0, dropped: 0, shortened: 0 });
  });

  it("lets a member set the privacy of their own files' links", async () => {
    await updateSharePrivacy(testContext(), member.id, null, { ipMode: "full", retentionDays: 90 });
    expect(await getSharePrivacy(testContext(), member.id, null)).toEqual({ ipMode: "full", retentionDays: 90 });
  });
});
