/**
 * Account constants the browser needs too (no zod here: public pages stay small).
 * The zod schemas in auth.schema.ts use the same values.
 */

/** Where a session that still owes its second factor is sent (the only pages it may reach). */
export const SECOND_FACTOR_PATH = "/2fa/verify";

/** Password policy (S10): at least 8 characters, up to 128, no composition rules, never truncated. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 100;

/** The account's own security policy: session lifetime choices in hours. */
export const SESSION_LIFETIME_CHOICES = [1, 8, 24, 24 * 7, 24 * 30] as const;
