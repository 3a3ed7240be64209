import { describe, expect, it } from "vitest";
import { listSessions, revokeOtherSessions, revokeSession, type Member } from "~/features/auth/account.server";
import type { AuthCall } from "~/features/auth/auth-context.server";
import { findSessionWithUser } from "~/features/auth/auth.queries.server";
import { createSession } from "~/features/auth/session.server";
import { createServiceContext } from "~/lib/service-context.server";
import { createUser } from "~tests/factories/users";
import { countRows, loginJson, newAuthClient, postJson, testEnv } from "./helpers";

function call(): AuthCall {
  return { ctx: createServiceContext(testEnv, { requestId: "t" }), meta: { ipAddress: "203.0.113.5", userAgent: "vitest" }, origin: "https://strongroom.test" };
}

async function memberWithSessions(count: number): Promise<{ member: Member; sessionIds: string[] }> {
  const user = await createUser();
  const ctx = call().ctx;
  const row = (await ctx.db.query.users.findFirst({ where: (users, { eq }) => eq(users.id, user.id) }))!;
  const sessionIds: string[] = [];
  let current: Member["session"] | undefined;
  for (let i = 0; i < count; i++) {
    const { session } = await createSession(ctx.db, { user: row, pendingSecondFactor: null, meta: { ipAddress: null, userAgent: null }, now: new Date() });
    current ??= session;
    sessionIds.push(session.id);
  }
  return { member: { user: row, session: current! }, sessionIds };
}

describe("a member's sessions belong to that member alone", () => {
  it("an outsider cannot end someone else's session: it is simply not found, and the session lives on", async () => {
    const owner = await memberWithSessions(2);
    const outsider = await memberWithSessions(1);
    const target = owner.sessionIds[1]!;

    await expect(revokeSession(call(), outsider.member, target)).rejects.toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(await findSessionWithUser(call().ctx.db, target)).toBeDefined();
    expect((await listSessions(call(), outsider.member)).map((session) => session.id)).toEqual(outsider.sessionIds);
  });

  it("the owner can end their other session, but not the one they are using (they sign out instead)", async () => {
    const owner = await memberWithSessions(2);
    await expect(revokeSession(call(), owner.member, owner.sessionIds[0])).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    await revokeSession(call(), owner.member, owner.sessionIds[1]);
    expect((await listSessions(call(), owner.member)).map((session) => session.id)).toEqual([owner.sessionIds[0]]);
  });

  it("signing out everywhere else leaves other members' sessions alone", async () => {
    const owner = await memberWithSessions(3);
    const bystander = await memberWithSessions(2);
    expect(await revokeOtherSessions(call(), owner.member)).toBe(2);
    expect((await listSessions(call(), bystander.member)).length).toBe(2);
  });
});

describe("malformed requests to the account endpoints", () => {
  const loginBodies: unknown[] = [
    null,
    [],
    "text",
    42,
    {},
    { email: "a@b.co" },
    { password: "x" },
    { email: 1, password: 2 },
    { email: ["a@b.co"], password: ["secret-secret"] },
    { email: { $ne: "" }, password: { $ne: "" } },
    { email: "not-an-email", password: "secret-secret" },
    { email: `${"a".repeat(300)}@example.com`, password: "secret-secret" },
    { email: "a@b.co", password: "x".repeat(5000) },
    { email: "a@b.co", password: "" },
    { email: "ann@example.com\u0000", password: "secret-secret" },
    { email: "../../etc/passwd", password: "secret-secret" },
    { email: "😀@example.com", password: "😀😀😀😀😀😀😀😀" },
    { email: "a@b.co", password: null },
  ];

  it("POST /login answers every malformed body with a 4xx and a message, never a 5xx, and creates no session", async () => {
    const before = await countRows("sessions");
    for (const body of loginBodies) {
      const client = await newAuthClient();
      const response = await postJson(client, "/login", body);
      expect(response.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(response.status, JSON.stringify(body)).toBeLessThan(500);
      const payload = await response.json<{ message: string }>();
      expect(payload.message.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect(await countRows("sessions")).toBe(before);
  });

  it("POST /login with a body that is not JSON at all is a 400 that says so", async () => {
    const client = await newAuthClient();
    const response = await postJson(client, "/login", "{not json");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: "The request body must be JSON." });
  });

  it("POST /2fa/verify answers malformed codes with a 4xx and leaves the sign-in pending", async () => {
    const member = await createUser({ totp: true });
    const { client } = await loginJson(member.email, member.password);
    for (const code of [null, 123456, "", " ", "x".repeat(10_000), { code: "123456" }, ["123456"], "12345\u0000", "<script>"]) {
      const response = await postJson(client, "/2fa/verify", { code });
      expect(response.status, JSON.stringify(code)).toBeGreaterThanOrEqual(400);
      expect(response.status, JSON.stringify(code)).toBeLessThan(500);
    }
  }, 30_000);
});
