import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { z } from "zod";
import { sendMail } from "~/features/mail/mailer.server";
import type { MailTemplate } from "~/features/mail/templates";
import { readConfig } from "~/lib/config.server";
import { hmacSign, timingSafeEqualString } from "~/lib/crypto.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { assertAttemptsLeft, consumeAttempt, type LimitedAction, recordFailedAttempt } from "./attempt-limits.server";
import { hashCode, newSixDigitCode } from "./secrets.server";

/**
 * A visitor without an account proves an e-mail address on a public page (a form that takes one
 * submission per verified address): a 6-digit code is mailed, and the right code gives a signed
 * proof of the address for that page. Both the pending code and the proof are one signed cookie
 * value (HMAC with SESSION_SECRET), bound to the page's kind and id: nothing is stored, and a
 * proof never counts anywhere else. Codes last 10 minutes, proofs 12 hours; sending is limited
 * per page and address, wrong codes by the attempt limiter (S11).
 */

export const EMAIL_CODE_TTL_MS = 10 * 60_000;
export const EMAIL_PROOF_TTL_MS = 12 * 3600_000;

export type EmailProofScope = {
  /** Signs for this kind of page only ("form-email"). */
  purpose: string;
  id: string;
  /** The attempt limiter's actions: codes sent, and wrong codes entered. */
  sendAction: LimitedAction;
  checkAction: LimitedAction;
};

export type EmailProofState = { email: string; verified: false; codeHash: string; expiresAt: number } | { email: string; verified: true; expiresAt: number };

const stateSchema = z.union([
  z.object({ email: z.string().max(254), verified: z.literal(false), codeHash: z.string().max(128), expiresAt: z.number() }),
  z.object({ email: z.string().max(254), verified: z.literal(true), expiresAt: z.number() }),
]);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function sign(ctx: ServiceContext, scope: EmailProofScope, body: string): Promise<string> {
  return hmacSign(readConfig(ctx.env).SESSION_SECRET, `${scope.purpose}:${scope.id}:${body}`);
}

async function seal(ctx: ServiceContext, scope: EmailProofScope, state: EmailProofState): Promise<string> {
  const body = encodeBase64urlNoPadding(encoder.encode(JSON.stringify(state)));
  return `${body}.${await sign(ctx, scope, body)}`;
}

/** The cookie's state for this page: genuine, for it, not expired; else null. */
export async function readEmailProof(ctx: ServiceContext, scope: EmailProofScope, cookie: string | null | undefined): Promise<EmailProofState | null> {
  if (!cookie || cookie.length > 2_000) return null;
  const [body, signature] = cookie.split(".");
  if (!body || !signature || !timingSafeEqualString(await sign(ctx, scope, body), signature)) return null;
  try {
    const state = stateSchema.parse(JSON.parse(decoder.decode(decodeBase64urlIgnorePadding(body))));
    return state.expiresAt > ctx.now().getTime() ? state : null;
  } catch {
    return null;
  }
}

/** The proven address, or null. */
export async function provenEmail(ctx: ServiceContext, scope: EmailProofScope, cookie: string | null | undefined): Promise<string | null> {
  const state = await readEmailProof(ctx, scope, cookie);
  return state?.verified ? state.email : null;
}

const emailSchema = z
  .string({ error: "Enter your e-mail address." })
  .trim()
  .toLowerCase()
  .max(254, "An e-mail address is at most 254 characters.")
  .pipe(z.email({ error: "Enter a valid e-mail address, such as name@example.com." }));
const codeSchema = z.string({ error: "Enter the 6-digit code from the e-mail." }).trim().regex(/^\d{6}$/, "Enter the 6-digit code from the e-mail.");

function readOrRefuse<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? "Check this value.";
  throw new AppError("VALIDATION_ERROR", message, { fieldErrors: { [field]: [message] } });
}

/** Mails a new code to the address (at most 10 in 15 minutes per page and address); the pending cookie's value. */
export async function sendEmailCode(ctx: ServiceContext, scope: EmailProofScope, rawEmail: unknown, mail: (code: string, minutes: number) => MailTemplate): Promise<{ email: string; cookie: string }> {
  const email = readOrRefuse(emailSchema, rawEmail, "email");
  await consumeAttempt(ctx.env, scope.sendAction, { account: `${scope.purpose}:${scope.id}:${email}`, ip: ctx.client.ip });
  const code = newSixDigitCode();
  const codeHash = await hashCode(readConfig(ctx.env).SESSION_SECRET, `${scope.purpose}:${scope.id}:${email}`, code);
  await sendMail(ctx, { to: email, userId: null, template: mail(code, EMAIL_CODE_TTL_MS / 60_000) });
  return { email, cookie: await seal(ctx, scope, { email, verified: false, codeHash, expiresAt: ctx.now().getTime() + EMAIL_CODE_TTL_MS }) };
}

/** Checks the code against the pending one; the proof cookie's value when right. */
export async function confirmEmailCode(ctx: ServiceContext, scope: EmailProofScope, cookie: string | null | undefined, rawCode: unknown): Promise<{ email: string; cookie: string }> {
  const state = await readEmailProof(ctx, scope, cookie);
  if (!state || state.verified) throw new AppError("VALIDATION_ERROR", "This code has expired. Ask for a new one.", { fieldErrors: { code: ["This code has expired. Ask for a new one."] } });
  const code = readOrRefuse(codeSchema, rawCode, "code");
  const keys = { account: `${scope.purpose}:${scope.id}:${state.email}`, ip: ctx.client.ip };
  await assertAttemptsLeft(ctx.env, scope.checkAction, keys);
  const hash = await hashCode(readConfig(ctx.env).SESSION_SECRET, `${scope.purpose}:${scope.id}:${state.email}`, code);
  if (!timingSafeEqualString(hash, state.codeHash)) {
    await recordFailedAttempt(ctx.env, scope.checkAction, keys);
    throw new AppError("UNAUTHENTICATED", "That code is not right. Check the newest e-mail we sent and try again.", { fieldErrors: { code: ["That code is not right."] } });
  }
  return { email: state.email, cookie: await seal(ctx, scope, { email: state.email, verified: true, expiresAt: ctx.now().getTime() + EMAIL_PROOF_TTL_MS }) };
}
