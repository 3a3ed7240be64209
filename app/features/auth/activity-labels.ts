import type { AuthEventType } from "~/db/schema/auth";

/**
 * What each account event is called on the activity page. A Record over the event types, so a new
 * event type does not compile until it has a label. Browser-safe: plain data only.
 */
export const activityLabels: Record<AuthEventType, string> = {
  sign_in: "Signed in",
  sign_in_failed: "Failed sign-in attempt",
  sign_in_locked: "Sign-in blocked after too many attempts",
  sign_out: "Signed out",
  two_factor_passed: "Two-factor check passed",
  two_factor_failed: "Failed two-factor check",
  two_factor_enabled: "Two-factor turned on",
  two_factor_disabled: "Two-factor turned off",
  recovery_code_used: "Recovery code used",
  recovery_codes_regenerated: "New recovery codes generated",
  password_changed: "Password changed",
  password_reset: "Password reset",
  email_verified: "E-mail address verified",
  email_changed: "E-mail address changed",
  profile_updated: "Profile updated",
  security_level_changed: "Security level changed",
  session_revoked: "Session signed out",
  other_sessions_revoked: "Other sessions signed out",
  data_exported: "Personal data exported",
  account_created: "Account created",
};

/** The label for an event type; an unknown type (an old row) is shown as-is rather than hidden. */
export function activityLabel(type: string): string {
  return (activityLabels as Record<string, string | undefined>)[type] ?? type;
}

const failedAttemptTypes: ReadonlySet<string> = new Set<AuthEventType>(["sign_in_failed", "sign_in_locked", "two_factor_failed"]);
const twoFactorChangeTypes: ReadonlySet<string> = new Set<AuthEventType>([
  "two_factor_enabled",
  "two_factor_disabled",
  "recovery_codes_regenerated",
]);

export type ActivitySummary = { signIns: number; failedAttempts: number; twoFactorChanges: number };

/** The counts at the top of the activity page, over the events it lists. */
export function summarizeActivity(events: ReadonlyArray<{ type: string }>): ActivitySummary {
  const summary: ActivitySummary = { signIns: 0, failedAttempts: 0, twoFactorChanges: 0 };
  for (const event of events) {
    if (event.type === "sign_in") summary.signIns += 1;
    else if (failedAttemptTypes.has(event.type)) summary.failedAttempts += 1;
    else if (twoFactorChangeTypes.has(event.type)) summary.twoFactorChanges += 1;
  }
  return summary;
}

/** The toast after ending other sessions ("2 other sessions signed out."). */
export function sessionsSignedOutMessage(count: number): string {
  if (count <= 0) return "No other sessions were signed in.";
  return count === 1 ? "1 other session signed out." : `${count} other sessions signed out.`;
}

/** With no policy of its own, an account's sign-in lasts the longest choice (30 days). */
export const DEFAULT_SESSION_LIFETIME_HOURS = 24 * 30;

/** "1 hour", "8 hours", "1 day", "7 days", "30 days": how the security level names a lifetime. */
export function sessionLifetimeLabel(hours: number): string {
  if (hours % 24 === 0) {
    const days = hours / 24;
    return days === 1 ? "1 day" : `${days} days`;
  }
  return hours === 1 ? "1 hour" : `${hours} hours`;
}
