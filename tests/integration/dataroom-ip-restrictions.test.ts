import { beforeAll, describe, expect, it } from "vitest";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile } from "~tests/factories/files";
import { createRoom, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv, type AuthClient, type ErrorBody } from "./helpers";

/**
 * IP restrictions (issue 20): a room opened only from listed addresses and ranges (IPv4 and IPv6),
 * checked against CF-Connecting-IP on every entry point of the room; the owner cannot save a list
 * that shuts them out; the plan and the right to change it.
 */

type Security = { ipRanges: string[]; currentIp: string | null };
type ValidationBody = ErrorBody & { fieldErrors?: Record<string, string[]> };

const OFFICE = "203.0.113.40";
const HOME = "198.51.100.7";

/** A request from a given address, as Cloudflare's edge reports it. */
const from = (ip: string, client: AuthClient, method: string, path: string, body?: unknown) => send(client, method, path, body, { "cf-connecting-ip": ip });

const setRanges = (person: Person, ip: string, roomId: string, ranges: unknown) => from(ip, person.client, "PUT", `/api/datarooms/${roomId}/security/ip`, { ranges });

describe("IP restrictions", () => {
  let owner: Person;
  let member: Person;
  let admin: Person;
  let room: { id: string; rootFolderId: string };
  let fileId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "business" });
    [member, admin] = await Promise.all([signedIn(), signedIn()]);
    room = await createRoom(owner.client, "Office-only room");
    await addDataroomMember(room.id, member.id, "member");
    await addDataroomMember(room.id, admin.id, "admin");
    fileId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "board pack.pdf" })).id;
  });

  it("lets only listed addresses in, on every entry point, with the address in the refusal", async () => {
    const saved = await setRanges(owner, OFFICE, room.id, "203.0.113.0/24\n2001:db8:abcd::/48");
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await saved.json<Security>()).ipRanges).toEqual(["203.0.113.0/24", "2001:db8:abcd::/48"]);

    const paths = [`/api/datarooms/${room.id}`, `/api/folders/${room.rootFolderId}`, `/api/files/${fileId}/preview`, `/api/files/${fileId}/download`, `/api/zip/folders/${room.rootFolderId}`];
    for (const path of paths) {
      const refused = await from(HOME, member.client, "GET", path);
      expect(refused.status, path).toBe(403);
      expect((await refused.json<ErrorBody>()).message).toBe(`This data room can only be opened from the network addresses its owner approved, and ${HOME} is not one of them.`);
      expect((await from(OFFICE, member.client, "GET", path)).status, path).toBe(200);
    }
    expect((await from("2001:db8:abcd:7::1", member.client, "GET", `/api/files/${fileId}/download`)).status).toBe(200);
    expect((await from("2001:db8:abce::1", member.client, "GET", `/api/files/${fileId}/download`)).status).toBe(403);
    const channel = await from(HOME, member.client, "POST", "/broadcasting/auth", { channel_name: `private-dataroom.${room.id}`, socket_id: "1.1" });
    expect(channel.status).toBe(403);
    // The owner too: the rule is the room's.
    expect((await from(HOME, owner.client, "GET", `/api/datarooms/${room.id}`)).status).toBe(403);
  });

  it("refuses a list that would shut out the person saving it, and changes nothing", async () => {
    const refused = await setRanges(owner, OFFICE, room.id, ["198.51.100.0/24"]);
    expect(refused.status).toBe(400);
    expect((await refused.json<ValidationBody>()).fieldErrors?.ranges).toEqual([
      `Your current address ${OFFICE} is not in this list: saving it would shut you out of the room. Add it, or its network, first.`,
    ]);
    const now = await (await from(OFFICE, owner.client, "GET", `/api/datarooms/${room.id}/security`)).json<Security>();
    expect(now).toMatchObject({ ipRanges: ["203.0.113.0/24", "2001:db8:abcd::/48"], currentIp: OFFICE });
  });

  it("explains what is not an address or range", async () => {
    const refused = await setRanges(owner, OFFICE, room.id, "203.0.113.0/24, office.example.com");
    expect(refused.status).toBe(400);
    expect((await refused.json<ValidationBody>()).fieldErrors?.ranges).toEqual(["“office.example.com” is not an IP address or range (like 203.0.113.0/24 or 2001:db8::/32)."]);
    const tooMany = await setRanges(owner, OFFICE, room.id, Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`).concat("203.0.113.0/24"));
    expect((await tooMany.json<ValidationBody>()).fieldErrors?.ranges).toEqual(["List at most 50 addresses or ranges."]);
  });

  it("answers anonymous 401, an outsider 404, a member 403, lets an admin change it, and an empty list opens the room again", async () => {
    const anonymous = await newAuthClient();
    expect((await from(OFFICE, anonymous, "PUT", `/api/datarooms/${room.id}/security/ip`, { ranges: [] })).status).toBe(401);
    const outsider = await signedIn();
    expect((await setRanges(outsider, OFFICE, room.id, [])).status).toBe(404);
    expect((await setRanges(member, OFFICE, room.id, [])).status).toBe(403);
    const row = await testEnv.DB.prepare("select ip_allowlist as list from datarooms where id = ?").bind(room.id).first<{ list: string }>();
    expect(JSON.parse(row!.list)).toEqual(["203.0.113.0/24", "2001:db8:abcd::/48"]);
    expect((await setRanges(admin, OFFICE, room.id, [])).status).toBe(200);
    expect((await from(HOME, member.client, "GET", `/api/files/${fileId}/download`)).status).toBe(200);
    const log = await (await from(HOME, owner.client, "GET", `/api/datarooms/${room.id}/audit?action=room.security`)).json<{ entries: { detail: string }[] }>();
    expect(log.entries.map((entry) => entry.detail)).toEqual(["IP restrictions off: open from anywhere", "IP restrictions: 203.0.113.0/24, 2001:db8:abcd::/48"]);
  });

  it("needs the Business plan to set a list, and says so", async () => {
    const proOwner = await signedIn({ tier: "pro" });
    const proRoom = await createRoom(proOwner.client, "Pro room");
    const refused = await setRanges(proOwner, OFFICE, proRoom.id, ["203.0.113.0/24"]);
    expect(refused.status).toBe(403);
    expect((await refused.json<ErrorBody>()).message).toBe("You don't have the required feature: ip_restrictions. It is part of the Business plan and above.");
  });
});
