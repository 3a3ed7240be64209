import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { createUser } from "~tests/factories/users";
import { loginJson, mailsTo, origin, postJson, testEnv, type AuthClient } from "./helpers";

/** A signed-in member (optionally on a tier), for the data room tests. */
export async function signedIn(options: { tier?: string; name?: string; email?: string } = {}) {
  const user = await createUser({ name: options.name ?? "Room Person", email: options.email });
  if (options.tier) await testEnv.DB.prepare("update users set tier = ? where id = ?").bind(options.tier, user.id).run();
  const { response, client } = await loginJson(user.email, user.password);
  expect(response.status).toBe(200);
  return { id: user.id, email: user.email, client };
}
export type Person = Awaited<ReturnType<typeof signedIn>>;

/** The `n` a counting query answers (`select count(*) as n from … where …`). */
export async function countWhere(sql: string, ...values: unknown[]): Promise<number> {
  return (await testEnv.DB.prepare(sql).bind(...values).first<{ n: number }>())?.n ?? 0;
}

/** A GET as the browser's fetch wrapper sends it (JSON, the member's cookies). */
export function get(path: string, client?: AuthClient) {
  return exports.default.fetch(`${origin}${path}`, { headers: { accept: "application/json", ...(client ? { cookie: client.jar.header() } : {}) } });
}

/** Any method with a JSON body, CSRF token and same-site Origin (no cookies for `null`: anonymous); `headers` add to them (an edge's CF-Connecting-IP). */
export function send(client: AuthClient | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return exports.default.fetch(`${origin}${path}`, {
    method,
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      origin,
      ...(client ? { cookie: client.jar.header(), "x-csrf-token": client.csrfToken } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A new data room of the signed-in member, with the id of its top folder. */
export async function createRoom(client: AuthClient, name: string): Promise<{ id: string; rootFolderId: string }> {
  const response = await postJson(client, "/api/datarooms", { name });
  expect(response.status, await response.clone().text()).toBe(201);
  const { dataroom } = await response.json<{ dataroom: { id: string } }>();
  const { rootFolderId } = await (await get(`/api/datarooms/${dataroom.id}`, client)).json<{ rootFolderId: string }>();
  return { id: dataroom.id, rootFolderId };
}

/** The person joins the room with the role the way anyone does: the owner invites them, they accept the mailed link. */
export async function joinRoom(owner: Person, roomId: string, person: Person, role: "admin" | "member" | "guest"): Promise<void> {
  const invited = await postJson(owner.client, `/api/datarooms/${roomId}/invitations`, { emails: person.email, role });
  expect(invited.status, await invited.clone().text()).toBe(201);
  const mail = (await mailsTo(person.email)).filter((item) => item.template === "dataroom-invitation").at(-1)!;
  const token = mail.textBody.match(/\/invite\/([A-Za-z0-9_-]{43})/)![1]!;
  expect((await postJson(person.client, "/api/invitations/accept", { token })).status).toBe(200);
}
