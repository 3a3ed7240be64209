import { generateTOTP } from "@oslojs/otp";
import { describe, expect, it } from "vitest";
import { ACCOUNT_WINDOW } from "~/features/auth/attempt-limits.server";
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "~/features/auth/login.server";
import { createUser, wrongTotp } from "~tests/factories/users";
import { loginJson, newAuthClient, sessionRowsFor, uniqueIp, verifyTwoFactorJson } from "./helpers";

// Every wrong password costs one scrypt verification inside workerd; give these tests room.
const SLOW = 30_000;
const LOCKOUT_MESSAGE = /Too many attempts\. For your security, please wait \d+ minutes? and try again\./;


function expectLockedOut(response: Response, body: { message: string; code: string }) {
  expect(response.status).toBe(429);
  expect(body.code).toBe("RATE_LIMITED");
  expect(body.message).toMatch(LOCKOUT_MESSAGE);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(ACCOUNT_WINDOW.windowMs / 1000);
}

describe("attempt limits on sign-in", { timeout: SLOW }, () => {
  it(
    "locks an account after 10 wrong passwords: the 11th attempt is refused even with the right password, other accounts on that address are not",
    async () => {
      const member = await createUser();
      const neighbour = await createUser();
      const ip = uniqueIp();

      for (let attempt = 1; attempt <= ACCOUNT_WINDOW.limit; attempt++) {
        const { response } = await loginJson(member.email, `wrong-password-${attempt}`, { ip });
        expect(response.status, `wrong password #${attempt}`).toBe(401);
      }

      const locked = await loginJson(member.email, member.password, { ip });
      expectLockedOut(locked.response, locked.body);
      expect(await sessionRowsFor(member.id)).toHaveLength(0);

      // The per-address bound is far higher: a colleague behind the same address still signs in.
      const other = await loginJson(neighbour.email, neighbour.password, { ip });
      expect(other.response.status).toBe(200);
    },
  );

  it(
    "locks an account even when the wrong passwords come from many different addresses",
    async () => {
      const member = await createUser();
      for (let attempt = 1; attempt <= ACCOUNT_WINDOW.limit; attempt++) {
        const { response } = await loginJson(member.email, `wrong-password-${attempt}`, { ip: uniqueIp() });
        expect(response.status, `wrong password #${attempt}`).toBe(401);
      }

      const locked = await loginJson(member.email, member.password, { ip: uniqueIp() });
      expectLockedOut(locked.response, locked.body);
    },
  );

  it("lets a member who gets it right before the limit start afresh", async () => {
    const member = await createUser();
    const ip = uniqueIp();
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await loginJson(member.email, `wrong-password-${attempt}`, { ip })).response.status).toBe(401);
    }
    expect((await loginJson(member.email, member.password, { ip })).response.status).toBe(200);
  });
});

describe("attempt limits on two-factor codes", { timeout: SLOW }, () => {
  it(
    "refuses the right authenticator code after 10 wrong ones",
    async () => {
      const member = await createUser({ totp: true });
      const key = member.totpKey!;
      const client = await newAuthClient();
      const signIn = await loginJson(member.email, member.password, { client });
      expect(signIn.body.requires_google_2fa).toBe(true);

      for (let attempt = 1; attempt <= ACCOUNT_WINDOW.limit; attempt++) {
        const response = await verifyTwoFactorJson(client, wrongTotp(key));
        expect(response.status, `wrong code #${attempt}`).toBe(401);
      }

      const locked = await verifyTwoFactorJson(client, generateTOTP(key, TOTP_PERIOD_SECONDS, TOTP_DIGITS));
      expectLockedOut(locked, await locked.json());
      const [session] = await sessionRowsFor(member.id);
      expect(session?.verified_at).toBeNull();
    },
  );
});
