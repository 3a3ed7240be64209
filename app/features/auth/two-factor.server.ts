import { createTOTPKeyURI } from "@oslojs/otp";
import { encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import qrcode from "qrcode-generator";
import { z } from "zod";
import { sendMail } from "~/features/mail/mailer.server";
import { AppError } from "~/lib/errors";
import { readConfig } from "~/lib/config.server";
import { parseInput } from "~/lib/validation";
import { recordAuthEvent } from "./activity.server";
import { formatWhen, type AuthCall } from "./auth-context.server";
import { countUnusedRecoveryCodes, deleteRecoveryCodes, replaceRecoveryCodes, updateSession, updateUser } from "./auth.queries.server";
import { otpCodeSchema } from "./auth.schema";
import { assertRecentlyAuthenticated, type Member } from "./account.server";
import { matchTotpStep, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "./login.server";
import { decryptSecret, encryptSecret, hashCode, newRecoveryCodes } from "./secrets.server";
import { recordFailedAttempt, assertAttemptsLeft } from "./attempt-limits.server";

export type TotpSetup = {
  /** The key, encrypted, for the confirmation form (never the raw key in a hidden field). */
  sealedKey: string;
  /** Base32 key for typing into an app by hand. */
  manualKey: string;
  uri: string;
  qrSvg: string;
};

/** Starts authenticator-app setup: a fresh 160-bit key as an otpauth:// URI and its QR code. */
export async function beginTotpSetup(call: AuthCall, member: Member): Promise<TotpSetup> {
  assertRecentlyAuthenticated(call, member);
  const key = new Uint8Array(20);
  crypto.getRandomValues(key);
  const config = readConfig(call.ctx.env);
  return totpSetupFor(config.APP_NAME, member.user.email, key, await encryptSecret(config.SESSION_SECRET, key));
}

function totpSetupFor(appName: string, email: string, key: Uint8Array, sealedKey: string): TotpSetup {
  const uri = createTOTPKeyURI(appName, email, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS);
  const qr = qrcode(0, "M");
  qr.addData(uri);
  qr.make();
  const qrSvg = qr.createSvgTag({ cellSize: 4, margin: 4, scalable: true });
  return { sealedKey, manualKey: encodeBase32UpperCaseNoPadding(key), uri, qrSvg };
}

/**
 * The same setup again from its sealed key, so a mistyped code does not force a new QR code
 * (the app already holds this key). Null when the sealed key is not one of ours.
 */
export async function resumeTotpSetup(call: AuthCall, member: Member, sealedKey: unknown): Promise<TotpSetup | null> {
  assertRecentlyAuthenticated(call, member);
  if (typeof sealedKey !== "string" || sealedKey.length > 200) return null;
  const config = readConfig(call.ctx.env);
  const key = await decryptSecret(config.SESSION_SECRET, sealedKey);
  return key ? totpSetupFor(config.APP_NAME, member.user.email, key, sealedKey) : null;
}

async function storeRecoveryCodes(call: AuthCall, userId: string): Promise<string[]> {
  const secret = readConfig(call.ctx.env).SESSION_SECRET;
  const codes = newRecoveryCodes();
  const hashes = await Promise.all(codes.map((code) => hashCode(secret, `recovery:${userId}`, code)));
  await replaceRecoveryCodes(call.ctx.db, userId, hashes, call.ctx.now());
  return codes;
}

async function alertTwoFactorChange(call: AuthCall, member: Member, change: string): Promise<void> {
  await sendMail(call.ctx, {
    to: member.user.email,
    userId: member.user.id,
    template: {
      kind: "security-two-factor-changed",
      name: member.user.name,
      when: formatWhen(call.ctx.now()),
      change,
      securityLink: `${call.origin}/settings/security`,
    },
  });
}

/** Finishes setup once the app shows a valid code; returns the recovery codes (shown once). */
export async function enableTotp(call: AuthCall, member: Member, input: { sealedKey: unknown; code: unknown }): Promise<{ recoveryCodes: string[] }> {
  assertRecentlyAuthenticated(call, member);
  const code = parseInput(otpCodeSchema, input.code);
  const sealedKey = parseInput(z.string().min(10).max(200), input.sealedKey);
  const key = await decryptSecret(readConfig(call.ctx.env).SESSION_SECRET, sealedKey);
  if (!key) throw new AppError("VALIDATION_ERROR", "The setup expired. Start again.");
  const keys = { account: member.user.id };
  await assertAttemptsLeft(call.ctx.env, "2fa", keys);
  const step = await matchTotpStep(call.ctx.env, { totpSecret: sealedKey, totpLastUsedStep: null }, code, call.ctx.now());
  if (step === null) {
    await recordFailedAttempt(call.ctx.env, "2fa", keys);
    throw new AppError("VALIDATION_ERROR", "That code is not correct. Check the time on your phone and try the current code.", {
      fieldErrors: { code: ["That code is not correct."] },
    });
  }
  await updateUser(call.ctx.db, member.user.id, {
    totpSecret: sealedKey,
    totpEnabledAt: call.ctx.now(),
    totpLastUsedStep: step,
    updatedAt: call.ctx.now(),
  });
  // The code just checked proves the factor in this session too (a room's 2FA requirement accepts it).
  await updateSession(call.ctx.db, member.session.id, { secondFactorAt: call.ctx.now() });
  const recoveryCodes = await storeRecoveryCodes(call, member.user.id);
  await recordAuthEvent(call.ctx, { userId: member.user.id, type: "two_factor_enabled", meta: call.meta, detail: "authenticator app" });
  await alertTwoFactorChange(call, member, "An authenticator app was turned on for two-factor sign-in");
  return { recoveryCodes };
}

function assertNotLastRequiredFactor(member: Member, remaining: boolean): void {
  if (member.user.require2fa && !remaining) {
    throw new AppError("VALIDATION_ERROR", "Your security level requires two-factor authentication. Change it on the Security level page first.");
  }
}

export async function disableTotp(call: AuthCall, member: Member): Promise<void> {
  assertRecentlyAuthenticated(call, member);
  if (!member.user.totpEnabledAt) return;
  assertNotLastRequiredFactor(member, member.user.email2faEnabledAt !== null);
  await updateUser(call.ctx.db, member.user.id, { totpSecret: null, totpEnabledAt: null, totpLastUsedStep: null, updatedAt: call.ctx.now() });
  await deleteRecoveryCodes(call.ctx.db, member.user.id);
  await recordAuthEvent(call.ctx, { userId: member.user.id, type: "two_factor_disabled", meta: call.meta, detail: "authenticator app" });
  await alertTwoFactorChange(call, member, "The authenticator app was turned off for two-factor sign-in");
}

export async function regenerateRecoveryCodes(call: AuthCall, member: Member): Promise<{ recoveryCodes: string[] }> {
  assertRecentlyAuthenticated(call, member);
  if (!member.user.totpEnabledAt) throw new AppError("VALIDATION_ERROR", "Turn on an authenticator app first.");
  const recoveryCodes = await storeRecoveryCodes(call, member.user.id);
  await recordAuthEvent(call.ctx, { userId: member.user.id, type: "recovery_codes_regenerated", meta: call.meta });
  return { recoveryCodes };
}

export async function setEmailTwoFactor(call: AuthCall, member: Member, enabled: boolean): Promise<void> {
  assertRecentlyAuthenticated(call, member);
  if (enabled === (member.user.email2faEnabledAt !== null)) return;
  if (!enabled) assertNotLastRequiredFactor(member, member.user.totpEnabledAt !== null);
  await updateUser(call.ctx.db, member.user.id, { email2faEnabledAt: enabled ? call.ctx.now() : null, updatedAt: call.ctx.now() });
  await recordAuthEvent(call.ctx, {
    userId: member.user.id,
    type: enabled ? "two_factor_enabled" : "two_factor_disabled",
    meta: call.meta,
    detail: "e-mail codes",
  });
  await alertTwoFactorChange(call, member, enabled ? "E-mail codes were turned on for two-factor sign-in" : "E-mail codes were turned off for two-factor sign-in");
}

export async function twoFactorStatus(call: AuthCall, member: Member) {
  return {
    totpEnabled: member.user.totpEnabledAt !== null,
    email2faEnabled: member.user.email2faEnabledAt !== null,
    recoveryCodesLeft: member.user.totpEnabledAt ? await countUnusedRecoveryCodes(call.ctx.db, member.user.id) : 0,
    require2fa: member.user.require2fa,
  };
}
