/** Share links (issue 21): limits shared by the server and the create-link form. */
export const SHARE_NAME_MAX = 100;
export const SHARE_PASSWORD_MIN = 4;
export const SHARE_PASSWORD_MAX = 128;
export const SHARE_MAX_VIEWS_LIMIT = 1_000_000;
export const SHARE_LIST_MAX = 100;
export const SHARE_AGREEMENT_MAX = 20_000;
export const SLUG_MIN = 3;
export const SLUG_MAX = 64;
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** Addresses a custom slug may never take (they read like the product's own pages). */
export const RESERVED_SLUGS = new Set(["admin", "api", "app", "help", "login", "logout", "new", "register", "s", "settings", "share", "support", "strongroom"]);
/** Links listed per page of a room's sharing page and the API. */
export const SHARE_LINKS_PAGE_SIZE = 100;

export type ShareLinkStatus = "active" | "expired" | "revoked" | "used-up";
export const SHARE_STATUS_LABELS: Record<ShareLinkStatus, string> = { active: "Active", expired: "Expired", revoked: "Revoked", "used-up": "View limit reached" };
/** The visit's cookie, scoped to the link's path (/s/{key}), so each link has its own. */
export const SHARE_VISIT_COOKIE = "share_visit";

/** Visitor privacy of a space's links: the choices the sharing pages offer, and the defaults. */
export const SHARE_IP_MODE_LABELS = {
  full: "Keep the whole address",
  truncated: "Keep a shortened address (the network, not the device)",
  none: "Keep no address",
} as const;
export const SHARE_RETENTION_CHOICES = [30, 90, 180, 365] as const;
export const SHARE_PRIVACY_DEFAULTS = { ipMode: "truncated", retentionDays: 365 } as const;

/**
 * An IP address as a privacy mode keeps it: whole, truncated (IPv4 to its /24, "203.0.113.0";
 * IPv6 to its /48, "2001:db8:1::") or not at all.
 */
export function ipForPrivacy(ip: string | null | undefined, mode: keyof typeof SHARE_IP_MODE_LABELS): string | null {
  if (!ip || mode === "none") return null;
  const address = ip.trim().slice(0, 64);
  if (mode === "full") return address;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(address)) return `${address.slice(0, address.lastIndexOf("."))}.0`;
  if (address.includes(":")) {
    const [head = ""] = address.split("::");
    const groups = head.split(":").filter(Boolean);
    return `${groups.slice(0, 3).join(":")}::`;
  }
  return null;
}
