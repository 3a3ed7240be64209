import { describe, expect, it, vi } from "vitest";
import { verifyTurnstile } from "~/features/auth/turnstile.server";
import type { AppConfig } from "~/lib/config.server";

// Cloudflare's documented test secret (always passes when reached); the network is never used here.
const enabled = { isTurnstileEnabled: true, TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA" } as AppConfig;
const disabled = { isTurnstileEnabled: false } as AppConfig;

function siteverify(body: unknown) {
  return vi.fn(async () => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } }));
}

describe("Turnstile on sign-up", () => {
  it("lets every sign-up through when it is not configured (the honeypot still applies)", async () => {
    const fetcher = siteverify({ success: false });
    expect(await verifyTurnstile(disabled, { token: undefined, ip: null, idempotencyKey: "k" }, fetcher)).toBe(true);
    expect(fetcher).not.toHaveBeenCalled();
  });

  it("asks Cloudflare with the secret, the token, the visitor's address and an idempotency key", async () => {
    const fetcher = siteverify({ success: true });
    expect(await verifyTurnstile(enabled, { token: "XXXX.DUMMY.TOKEN.XXXX", ip: "203.0.113.7", idempotencyKey: "submission-1" }, fetcher)).toBe(true);
    const [url, init] = fetcher.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("https://challenges.cloudflare.com/turnstile/v0/siteverify");
    const form = init.body as FormData;
    expect(Object.fromEntries(form.entries())).toEqual({
      secret: enabled.TURNSTILE_SECRET_KEY,
      response: "XXXX.DUMMY.TOKEN.XXXX",
      remoteip: "203.0.113.7",
      idempotency_key: "submission-1",
    });
  });

  it("refuses a token Cloudflare rejects (used twice, expired after 300 s, or forged)", async () => {
    const fetcher = siteverify({ success: false, "error-codes": ["timeout-or-duplicate"] });
    expect(await verifyTurnstile(enabled, { token: "used-token", ip: null, idempotencyKey: "k" }, fetcher)).toBe(false);
  });

  it("refuses a missing or absurd token without asking, and fails closed when Cloudflare cannot be reached", async () => {
    const fetcher = siteverify({ success: true });
    expect(await verifyTurnstile(enabled, { token: "", ip: null, idempotencyKey: "k" }, fetcher)).toBe(false);
    expect(await verifyTurnstile(enabled, { token: "x".repeat(5000), ip: null, idempotencyKey: "k" }, fetcher)).toBe(false);
    expect(fetcher).not.toHaveBeenCalled();
    const offline = vi.fn(async () => {
      throw new TypeError("fetch failed");
    });
    expect(await verifyTurnstile(enabled, { token: "token", ip: null, idempotencyKey: "k" }, offline)).toBe(false);
  });
});
