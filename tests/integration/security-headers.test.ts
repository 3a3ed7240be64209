import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Hono } from "hono";
import { FRAME_ANCESTORS_HEADER } from "~/lib/frame-ancestors";
import { securityHeadersMiddleware } from "~workers/middleware/security-headers";
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

describe("frames", () => {
  const appWith = (value: string | null) =>
    new Hono().use(securityHeadersMiddleware).get("/page", (c) => {
      if (value !== null) c.header(FRAME_ANCESTORS_HEADER, value);
      return c.text("page");
    });

  it("lets a page that names https sites be framed by them only, and never shows the naming header", async () => {
    const response = await appWith("https://portal.example.com https://intranet.example.org:8443").request("/page");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors https://portal.example.com https://intranet.example.org:8443");
    expect(response.headers.get("x-frame-options")).toBeNull();
    expect(response.headers.get(FRAME_ANCESTORS_HEADER)).toBeNull();
  });

  it("keeps every other page unframeable, including one that names something other than https origins", async () => {
    for (const value of [null, "", "*", "http://plain.example.com", "https://a.example.com; script-src *", "'self'"]) {
      const response = await appWith(value).request("/page");
      expect(response.headers.get("content-security-policy"), String(value)).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get(FRAME_ANCESTORS_HEADER)).toBeNull();
    }
  });
});
