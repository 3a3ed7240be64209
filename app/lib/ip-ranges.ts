/**
 * IP address ranges (CIDR) for allowlists, IPv4 and IPv6, without dependencies (browser-safe: the
 * security form checks the same way). Addresses become BigInts: 32 bits for IPv4, 128 for IPv6;
 * an IPv4-mapped IPv6 address (::ffff:203.0.113.7) counts as its IPv4 address.
 */
export type IpRange = { version: 4 | 6; base: bigint; prefix: number; text: string };

function parseIpv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const byte = Number(part);
    if (byte > 255 || (part.length > 1 && part.startsWith("0"))) return null;
    value = (value << 8n) | BigInt(byte);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.split("::").length > 2) return null;
  let tail: bigint | null = null;
  let body = text;
  // A trailing dotted IPv4 (::ffff:1.2.3.4) is the last 32 bits.
  const dotted = /(^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail = parseIpv4(dotted[2]!);
    if (tail === null) return null;
    body = `${text.slice(0, text.length - dotted[2]!.length)}0:0`;
  }
  const [head = "", rest] = body.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const missing = 8 - left.length - right.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return null;
  const all = [...left, ...Array.from({ length: rest === undefined ? 0 : missing }, () => "0"), ...right];
  let value = 0n;
  for (const group of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  if (tail !== null) value = (value & ~0xffffffffn) | tail;
  return value;
}

const MAPPED_PREFIX = 0xffffn << 32n;

/** An address as { version, value }, or null when it is not one. IPv4-mapped IPv6 is IPv4. */
export function parseIp(text: string): { version: 4 | 6; value: bigint } | null {
  const trimmed = text.trim();
  const v4 = parseIpv4(trimmed);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = parseIpv6(trimmed);
  if (v6 === null) return null;
  if (v6 >> 32n === MAPPED_PREFIX >> 32n) return { version: 4, value: v6 & 0xffffffffn };
  return { version: 6, value: v6 };
}

/** "203.0.113.0/24", "2001:db8::/32" or a single address (a /32 or /128), or null when it is not one. */
export function parseIpRange(text: string): IpRange | null {
  const trimmed = text.trim();
  const [address = "", prefixText, extra] = trimmed.split("/");
  if (extra !== undefined) return null;
  const ip = parseIp(address);
  if (!ip) return null;
  const bits = ip.version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return null;
  const mask = prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix);
  return { version: ip.version, base: ip.value & mask, prefix, text: prefixText === undefined ? address : `${address}/${prefix}` };
}

/** Whether an address is inside a range. */
export function ipInRange(address: string, range: IpRange): boolean {
  const ip = parseIp(address);
  if (!ip || ip.version !== range.version) return false;
  const bits = ip.version === 4 ? 32 : 128;
  const mask = range.prefix === 0 ? 0n : ((1n << BigInt(range.prefix)) - 1n) << BigInt(bits - range.prefix);
  return (ip.value & mask) === range.base;
}

/** Whether an address is inside any of the ranges (written as text, as they are stored). */
export function ipAllowed(address: string | null, ranges: readonly string[]): boolean {
  if (ranges.length === 0) return true;
  if (!address) return false;
  return ranges.some((text) => {
    const range = parseIpRange(text);
    return range !== null && ipInRange(address, range);
  });
}
