import { describe, expect, it } from "vitest";
import { ipForPrivacy } from "~/features/sharing/sharing.constants";

describe("a visitor's address as the link's privacy keeps it", () => {
  it("keeps it whole, shortens IPv4 to its /24 and IPv6 to its /48, or keeps nothing", () => {
    expect(ipForPrivacy("203.0.113.77", "full")).toBe("203.0.113.77");
    expect(ipForPrivacy("203.0.113.77", "truncated")).toBe("203.0.113.0");
    expect(ipForPrivacy("2001:db8:1:2:3:4:5:6", "truncated")).toBe("2001:db8:1::");
    expect(ipForPrivacy("2001:db8::1", "truncated")).toBe("2001:db8::");
    expect(ipForPrivacy("203.0.113.77", "none")).toBeNull();
    expect(ipForPrivacy(null, "full")).toBeNull();
  });

  it("keeps nothing of what is not an address when shortening", () => {
    expect(ipForPrivacy("unknown", "truncated")).toBeNull();
  });
});
