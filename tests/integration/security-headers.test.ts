import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { origin } from "./helpers";

describe("security headers", () => {
  it("every response carries HSTS, nosniff, a referrer policy, COOP and a CSP that forbids framing and plugins", async () => {
    for (const path of ["/api/health", "/api/no-such-thing"]) {
      const response = await exports.default.fetch(`${origin}${path}`);
      expect(response.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
    }
  });

  it("the CSP allows scripts only with a fresh nonce per request", async () => {
    const nonceOf = async () => {
      const csp = (await exports.default.fetch(`${origin}/api/health`)).headers.get("content-security-policy") ?? "";
      return csp.match(/script-src 'nonce-([^']+)' 'strict-dynamic'/)?.[1];
    };
    const first = await nonceOf();
    const second = await nonceOf();
    expect(first).toMatch(/^[A-Za-z0-9+/=]{16,}$/);
    expect(second).not.toBe(first);
  });
});
