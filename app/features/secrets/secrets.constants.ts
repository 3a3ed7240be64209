import type { Tier } from "~/features/access/access.constants";

/**
 * One-time secrets (issue 23): limits per plan and the rules both the browser and the server
 * apply (the server enforces every one). -1 means unlimited.
 */
export type SecretLimits = { liveSecrets: number; maxExpiryHours: number; maxFileMb: number };

export const SECRET_LIMITS: Record<Tier, SecretLimits> = {
  free: { liveSecrets: 10, maxExpiryHours: 7 * 24, maxFileMb: 10 },
  basic: { liveSecrets: 50, maxExpiryHours: 14 * 24, maxFileMb: 100 },
  pro: { liveSecrets: 250, maxExpiryHours: 30 * 24, maxFileMb: 1024 },
  business: { liveSecrets: -1, maxExpiryHours: 30 * 24, maxFileMb: 5 * 1024 },
  custom: { liveSecrets: -1, maxExpiryHours: 30 * 24, maxFileMb: 5 * 1024 },
};
/** Files one secret may carry. */
export const SECRET_FILES_MAX = 10;

export function fileLimitLabel(mb: number): string {
  return mb >= 1024 ? `${mb / 1024} GB` : `${mb} MB`;
}

/** Expiry choices offered (hours); the plan's maximum cuts the list. */
export const SECRET_EXPIRY_CHOICES = [1, 6, 24, 3 * 24, 7 * 24, 14 * 24, 30 * 24] as const;
export const SECRET_MIN_EXPIRY_HOURS = 1;
export const SECRET_MAX_VIEWS = 100;
/** The plaintext a text secret may hold (bytes of UTF-8). */
export const SECRET_TEXT_MAX_BYTES = 64 * 1024;
/** The sealed payload's largest size (base64url of the text, its JSON and the GCM tag). */
export const SECRET_CIPHERTEXT_MAX_CHARS = 90_000;
/** Wrong passphrases (or cut-off links) before the secret burns. */
export const SECRET_FAILED_ATTEMPTS_MAX = 5;
/** Secrets a member may create per hour. */
export const SECRETS_PER_HOUR = 60;
/** How long an ended secret's receipt stays in the list before the nightly purge removes it. */
export const SECRET_RECEIPT_DAYS = 30;

export function expiryLabel(hours: number): string {
  if (hours < 24) return `${hours} hour${hours === 1 ? "" : "s"}`;
  const days = hours / 24;
  return `${days} day${days === 1 ? "" : "s"}`;
}

export type SecretStatus = "live" | "viewed" | "expired" | "burned";

export const SECRET_STATUS_LABELS: Record<SecretStatus, string> = { live: "Waiting", viewed: "Viewed", expired: "Expired", burned: "Burned" };

export const SECRET_EVENT_LABELS = { created: "Created", viewed: "Viewed", failed: "Wrong passphrase or link", changed: "Changed", burned: "Burned", expired: "Expired" } as const;

export const REQUEST_STATUS = {
  open: { label: "Open", variant: "info" },
  full: { label: "Answered", variant: "success" },
  closed: { label: "Closed", variant: "neutral" },
  expired: { label: "Expired", variant: "neutral" },
} as const;

/** The reveal's answer when a secret has files: a header, then each sealed file (secret-files.server.ts). */
export const REVEAL_STREAM_TYPE = "application/vnd.strongroom.secret";

/** Pictures a browser shows from a secret's opened bytes (no SVG: it is a document, not a picture); anything else is a download only. */
export const PREVIEWABLE_PICTURE = /^image\/(png|jpeg|gif|webp|avif)$/;
