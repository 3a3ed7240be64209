import { describe, expect, it } from "vitest";
import { ipAllowed, ipInRange, parseIp, parseIpRange } from "~/lib/ip-ranges";

describe("IP ranges for allowlists", () => {
  it("reads IPv4 and IPv6 addresses, and an IPv4-mapped IPv6 address as IPv4", () => {
    expect(parseIp("203.0.113.7")).toEqual({ version: 4, value: 0xcb007107n });
    expect(parseIp("2001:db8::1")?.version).toBe(6);
    expect(parseIp("::ffff:203.0.113.7")).toEqual({ version: 4, value: 0xcb007107n });
    for (const bad of ["256.1.1.1", "1.2.3", "01.2.3.4", "2001:db8:::1", "1:2:3:4:5:6:7:8:9", "hello", ""]) expect(parseIp(bad), bad).toBeNull();
  });

  it("reads ranges and single addresses, and refuses what is not one", () => {
    expect(parseIpRange("203.0.113.0/24")).toMatchObject({ version: 4, prefix: 24 });
    expect(parseIpRange("198.51.100.9")).toMatchObject({ version: 4, prefix: 32 });
    expect(parseIpRange("2001:db8::/32")).toMatchObject({ version: 6, prefix: 32 });
    for (const bad of ["203.0.113.0/33", "2001:db8::/129", "10.0.0.0/8/1", "10.0.0.0/x", "example.com"]) expect(parseIpRange(bad), bad).toBeNull();
  });

  it("tells whether an address is inside, at the edges of a range too", () => {
    const office = parseIpRange("203.0.113.0/24")!;
    expect(ipInRange("203.0.113.0", office)).toBe(true);
    expect(ipInRange("203.0.113.255", office)).toBe(true);
    expect(ipInRange("203.0.114.0", office)).toBe(false);
    expect(ipInRange("::ffff:203.0.113.9", office)).toBe(true);
    const v6 = parseIpRange("2001:db8:abcd::/48")!;
    expect(ipInRange("2001:db8:abcd:12::1", v6)).toBe(true);
    expect(ipInRange("2001:db8:abce::1", v6)).toBe(false);
    expect(ipInRange("203.0.113.9", v6)).toBe(false);
    expect(ipInRange("1.2.3.4", parseIpRange("0.0.0.0/0")!)).toBe(true);
  });

  it("allows everyone without a list, and no one without an address when there is one", () => {
    expect(ipAllowed("198.51.100.1", [])).toBe(true);
    expect(ipAllowed(null, ["203.0.113.0/24"])).toBe(false);
    expect(ipAllowed("198.51.100.1", ["203.0.113.0/24", "198.51.100.0/30"])).toBe(true);
    expect(ipAllowed("198.51.100.9", ["203.0.113.0/24", "198.51.100.0/30"])).toBe(false);
  });
});
