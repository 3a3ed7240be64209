import { describe, expect, it } from "vitest";
import { authEventTypes } from "~/db/schema/auth";
import { SESSION_LIFETIME_CHOICES } from "~/features/auth/auth.schema";
import {
  activityLabel,
  activityLabels,
  DEFAULT_SESSION_LIFETIME_HOURS,
  sessionLifetimeLabel,
  sessionsSignedOutMessage,
  summarizeActivity,
} from "~/features/auth/activity-labels";

describe("activity labels", () => {
  it("give every account event type a human label", () => {
    for (const type of authEventTypes) {
      expect(activityLabels[type], type).toMatch(/^[A-Z]/);
      expect(activityLabel(type)).not.toContain("_");
    }
  });

  it("label no event type that does not exist", () => {
    expect(Object.keys(activityLabels).sort()).toEqual([...authEventTypes].sort());
  });

  it("use the wording of the activity page for the common events", () => {
    expect(activityLabel("sign_in")).toBe("Signed in");
    expect(activityLabel("sign_in_failed")).toBe("Failed sign-in attempt");
    expect(activityLabel("two_factor_enabled")).toBe("Two-factor turned on");
  });

  it("show an unknown type as it is rather than hiding it", () => {
    expect(activityLabel("something_new")).toBe("something_new");
  });
});

describe("activity summary", () => {
  it("counts sign-ins, failed attempts and two-factor changes", () => {
    const types = ["sign_in", "sign_in", "sign_in_failed", "two_factor_failed", "sign_in_locked", "two_factor_enabled", "recovery_codes_regenerated", "sign_out"];
    expect(summarizeActivity(types.map((type) => ({ type })))).toEqual({ signIns: 2, failedAttempts: 3, twoFactorChanges: 2 });
  });

  it("is all zeros without events", () => {
    expect(summarizeActivity([])).toEqual({ signIns: 0, failedAttempts: 0, twoFactorChanges: 0 });
  });
});

describe("sessions signed out message", () => {
  it("counts the other sessions in words", () => {
    expect(sessionsSignedOutMessage(0)).toBe("No other sessions were signed in.");
    expect(sessionsSignedOutMessage(1)).toBe("1 other session signed out.");
    expect(sessionsSignedOutMessage(3)).toBe("3 other sessions signed out.");
  });
});

describe("session lifetime labels", () => {
  it("name every security-level choice in hours or days", () => {
    expect(SESSION_LIFETIME_CHOICES.map(sessionLifetimeLabel)).toEqual(["1 hour", "8 hours", "1 day", "7 days", "30 days"]);
  });

  it("default to the longest choice", () => {
    expect(DEFAULT_SESSION_LIFETIME_HOURS).toBe(Math.max(...SESSION_LIFETIME_CHOICES));
  });
});
