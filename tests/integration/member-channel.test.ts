import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { notifyMember } from "~/features/notifications/notifications.server";
import { createServiceContext } from "~/lib/service-context.server";
import { signedIn } from "./dataroom-helpers";
import { origin, postJson, testEnv, type AuthClient } from "./helpers";

/**
 * A member's own realtime channel (private-member.{id}): only they get a token and a socket for
 * it, and notices outside rooms (such as files sent through a receive page) reach their open tabs.
 */

async function openMemberSocket(client: AuthClient, userId: string) {
  const auth = await postJson(client, "/broadcasting/auth", { channel_name: `private-member.${userId}` });
  expect(auth.status, await auth.clone().text()).toBe(200);
  const { url } = await auth.json<{ url: string }>();
  const response = await exports.default.fetch(`${origin}${url}`, { headers: { Upgrade: "websocket", cookie: client.jar.header() } });
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  const received: { type: string; name?: string; data?: Record<string, unknown> }[] = [];
  socket.addEventListener("message", (event) => received.push(JSON.parse(event.data as string)));
  socket.accept();
  return { socket, received };
}

describe("a member's own channel", () => {
  it("gives a token and a socket to the member alone; anyone else's channel is not found", async () => {
    const member = await signedIn({ name: "Mia Member" });
    const other = await signedIn({ name: "Otto Other" });
    expect((await postJson(other.client, "/broadcasting/auth", { channel_name: `private-member.${member.id}` })).status).toBe(404);
    const own = await postJson(other.client, "/broadcasting/auth", { channel_name: `private-member.${other.id}` });
    const { auth } = await own.json<{ auth: string }>();
    // Without a session 401; another member's channel, even with a token, 404; a token for someone else 403.
    expect((await exports.default.fetch(`${origin}/parties/member-channel/${member.id}?token=${encodeURIComponent(auth)}`, { headers: { Upgrade: "websocket" } })).status).toBe(401);
    expect((await exports.default.fetch(`${origin}/parties/member-channel/${member.id}?token=${encodeURIComponent(auth)}`, { headers: { Upgrade: "websocket", cookie: other.client.jar.header() } })).status).toBe(404);
    expect((await exports.default.fetch(`${origin}/parties/member-channel/${member.id}?token=${encodeURIComponent(auth)}`, { headers: { Upgrade: "websocket", cookie: member.client.jar.header() } })).status).toBe(403);
    const { socket } = await openMemberSocket(member.client, member.id);
    socket.close();
  });

  it("carries a notice to the member's open tabs as it is recorded", async () => {
    const member = await signedIn({ name: "Lia Live" });
    const first = await openMemberSocket(member.client, member.id);
    const second = await openMemberSocket(member.client, member.id);
    const ctx = createServiceContext(testEnv, { requestId: "member-channel" });
    expect(await notifyMember(ctx, { userId: member.id, actorId: null, kind: "receive.files", title: "Ada Lovelace sent 2 files through “Tax papers”", link: "/folders/x" })).toBe(true);
    await expect.poll(() => first.received.length).toBe(1);
    await expect.poll(() => second.received.length).toBe(1);
    expect(first.received[0]).toMatchObject({ type: "event", name: "notification", data: { kind: "receive.files", title: "Ada Lovelace sent 2 files through “Tax papers”", link: "/folders/x" } });
    first.socket.close();
    second.socket.close();
  });
});
