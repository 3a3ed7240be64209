import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { z } from "zod";
import { assertAttemptsLeft, consumeAttempt, recordFailedAttempt } from "~/features/auth/attempt-limits.server";
import { scryptParamsFor, verifyPassword } from "~/features/auth/password.server";
import { LINK_TOKEN_PATTERN, hashCode, hashLinkToken, newSixDigitCode } from "~/features/auth/secrets.server";
import { findIsDataroomSpace } from "~/features/files/space-role.queries.server";
import { sendMail } from "~/features/mail/mailer.server";
import { notifyMember, notifyRoom } from "~/features/notifications/notifications.server";
import { readConfig } from "~/lib/config.server";
import { hmacSign, timingSafeEqualString } from "~/lib/crypto.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import type { SharePresentation } from "~/db/schema/sharing";
import { parseInput } from "~/lib/validation";
import { visitorIp } from "./share-privacy.server";
import { SLUG_MAX, SLUG_PATTERN, type ShareLinkStatus } from "./sharing.constants";
import { countShareView, findShareLinkByKey, findTargetName, insertAgreement, insertShareVisit, type ShareLinkRow } from "./sharing.queries.server";

/**
 * Opening a share link (issue 21, step 2): the gates in order — password, e-mail, code, agreement —
 * then the link is open. A visitor's progress is a visit: signed (HMAC with SESSION_SECRET), bound
 * to one link, expiring after 12 hours, kept in a cookie by the viewer page. It never grants
 * anything outside its link. Every rule is checked again on each request from the link's current
 * row, so revoking, expiring or changing a list applies at the next request.
 */

export const SHARE_VISIT_TTL_MS = 12 * 3600_000;
export const SHARE_CODE_TTL_MS = 10 * 60_000;
export const SHARE_CODE_MINUTES = SHARE_CODE_TTL_MS / 60_000;

export type ShareVisit = {
  /** The visit's own id: its analytics row, once counted. */
  id: string;
  linkId: string;
  passwordOk: boolean;
  email: string | null;
  verified: boolean;
  agreed: boolean;
  /** A code sent and not yet entered: to which address, its HMAC, until when. */
  code: { email: string; hash: string; expiresAt: number } | null;
  /** Whether this visit was counted as a view already. */
  counted: boolean;
  expiresAt: number;
};

export type ShareGate = "password" | "email" | "code" | "agreement";
export type ShareLinkSummary = { id: string; targetType: ShareLinkRow["targetType"]; targetId: string; targetName: string; agreement: string | null; verifyEmail: boolean; spaceId: string };
export type ShareOpening =
  | { state: "missing" }
  | { state: "expired"; status: Exclude<ShareLinkStatus, "active"> }
  | { state: "refused"; message: string }
  | { state: "gate"; gate: ShareGate; link: ShareLinkSummary; visit: ShareVisit; pendingEmail: string | null }
  | { state: "open"; link: ShareLinkSummary; visit: ShareVisit; row: ShareLinkRow };

// ---- the visit, signed ----------------------------------------------------------------------------

const visitSchema = z.object({
  id: z.string().max(64),
  linkId: z.string(),
  passwordOk: z.boolean(),
  email: z.string().nullable(),
  verified: z.boolean(),
  agreed: z.boolean(),
  code: z.object({ email: z.string(), hash: z.string(), expiresAt: z.number() }).nullable(),
  counted: z.boolean(),
  expiresAt: z.number(),
});

export async function signVisit(ctx: ServiceContext, visit: ShareVisit): Promise<string> {
  const body = encodeBase64urlNoPadding(new TextEncoder().encode(JSON.stringify(visit)));
  return `${body}.${await hmacSign(readConfig(ctx.env).SESSION_SECRET, `share-visit:${body}`)}`;
}

/** The visit in a cookie, if it is genuine, for this link, and not expired; otherwise null. */
export async function readVisit(ctx: ServiceContext, value: string | null | undefined, linkId: string): Promise<ShareVisit | null> {
  if (!value || value.length > 4_000) return null;
  const [body, signature] = value.split(".");
  if (!body || !signature) return null;
  const expected = await hmacSign(readConfig(ctx.env).SESSION_SECRET, `share-visit:${body}`);
  if (!timingSafeEqualString(expected, signature)) return null;
  try {
    const parsed = visitSchema.safeParse(JSON.parse(new TextDecoder().decode(decodeBase64urlIgnorePadding(body))));
    if (!parsed.success || parsed.data.linkId !== linkId || parsed.data.expiresAt <= ctx.now().getTime()) return null;
    return parsed.data;
  } catch {
    return null;
  }
}

function newVisit(ctx: ServiceContext, linkId: string): ShareVisit {
  return { id: crypto.randomUUID(), linkId, passwordOk: false, email: null, verified: false, agreed: false, code: null, counted: false, expiresAt: ctx.now().getTime() + SHARE_VISIT_TTL_MS };
}

// ---- finding the link ------------------------------------------------------------------------------

/**
 * The link a key names: a token (43 characters) by its hash, or a custom address; only at its own
 * kind of address (a gallery's key at /s/ names nothing, and a document link's at /public-gallery/).
 */
async function findByKey(ctx: ServiceContext, key: string, presentation: SharePresentation): Promise<ShareLinkRow | undefined> {
  let row: ShareLinkRow | undefined;
  if (LINK_TOKEN_PATTERN.test(key)) row = await findShareLinkByKey(ctx.db, { tokenHash: hashLinkToken(key) });
  else {
    const slug = key.toLowerCase();
    if (slug.length <= SLUG_MAX && SLUG_PATTERN.test(slug)) row = await findShareLinkByKey(ctx.db, { slug });
  }
  return row?.presentation === presentation ? row : undefined;
}

/** A link's state now; `counted`: the visitor was counted already (they keep reading a used-up link). */
export function shareLinkStatus(row: ShareLinkRow, now: Date, counted = false): ShareLinkStatus {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return "expired";
  // A visitor already counted keeps reading; a new one is refused once the views are used up.
  if (!counted && row.maxViews !== null && row.viewCount >= row.maxViews) return "used-up";
  return "active";
}

const domainOf = (email: string) => `@${email.split("@")[1] ?? ""}`;

/** Whether the link's lists let this address in (the deny list wins; an empty allow list allows all). */
export function emailAllowed(row: Pick<ShareLinkRow, "allowList" | "denyList">, email: string): boolean {
  const address = email.toLowerCase();
  const listed = (list: string[]) => list.includes(address) || list.includes(domainOf(address));
  if (listed(row.denyList)) return false;
  return row.allowList.length === 0 || listed(row.allowList);
}

const notForYou = (email: string) => `This link is not available to ${email}. Ask the person who shared it to add your address.`;

function nextGate(row: ShareLinkRow, visit: ShareVisit): ShareGate | null {
  if (row.passwordHash && !visit.passwordOk) return "password";
  if (row.verifyEmail && !visit.verified) return visit.code && visit.code.expiresAt > 0 ? "code" : "email";
  if (row.requireEmail && !visit.email) return "email";
  if (row.agreement && !visit.agreed) return "agreement";
  return null;
}

async function summaryOf(ctx: ServiceContext, row: ShareLinkRow): Promise<ShareLinkSummary> {
  return { id: row.id, targetType: row.targetType, targetId: row.targetId, targetName: (await findTargetName(ctx.db, row)) ?? "Shared document", agreement: row.agreement, verifyEmail: row.verifyEmail, spaceId: row.spaceId };
}

/** Where a visitor stands with a link: missing, expired (revoked, past its expiry, used up), refused, at a gate, or open. Reads only. */
export async function openShareLink(ctx: ServiceContext, key: string, cookie: string | null | undefined, presentation: SharePresentation = "document"): Promise<ShareOpening> {
  const row = await findByKey(ctx, key, presentation);
  if (!row) return { state: "missing" };
  const visit = (await readVisit(ctx, cookie, row.id)) ?? newVisit(ctx, row.id);
  const status = shareLinkStatus(row, ctx.now(), visit.counted);
  if (status !== "active") return { state: "expired", status };
  // The lists may have changed since the visitor gave their address.
  if (visit.email && !emailAllowed(row, visit.email)) return { state: "refused", message: notForYou(visit.email) };
  const link = await summaryOf(ctx, row);
  const gate = nextGate(row, visit);
  if (gate) return { state: "gate", gate, link, visit, pendingEmail: visit.code?.email ?? null };
  return { state: "open", link, visit, row };
}

/** Why a missing, expired or refused link is not opened: the same words for its page, its documents and its reports. */
export function refusalOf(opening: Extract<ShareOpening, { state: "missing" | "expired" | "refused" }>): AppError {
  if (opening.state === "missing") return new AppError("NOT_FOUND", "This link does not exist. Check the address you were given.");
  if (opening.state === "expired") return new AppError("NOT_FOUND", "The preview link has expired. Please try refreshing the page.");
  return new AppError("FORBIDDEN", opening.message);
}

// ---- passing the gates -----------------------------------------------------------------------------

const gateInputSchema = z.discriminatedUnion("gate", [
  z.object({ gate: z.literal("password"), password: z.string({ error: "Enter the link's password." }).min(1, "Enter the link's password.").max(1_000) }),
  z.object({ gate: z.literal("email"), email: z.email({ error: "Enter a valid e-mail address." }).trim().toLowerCase().max(254) }),
  z.object({ gate: z.literal("code"), code: z.string({ error: "Enter the 6-digit code." }).trim().regex(/^\d{6}$/, "Enter the 6-digit code from the e-mail.") }),
  z.object({
    gate: z.literal("agreement"),
    name: z.string({ error: "Type your full name to accept." }).trim().min(2, "Type your full name to accept.").max(100, "A name is at most 100 characters."),
    accept: z.literal(true, { error: "Tick the box to accept the agreement." }),
  }),
]);

/**
 * Passes one gate of a link (the one the visitor is at; others are refused as out of order) and
 * returns the visit to keep. Passwords and codes are limited per link (or link and address) and per
 * IP by the attempt limiter (S11: the 11th wrong one in 15 minutes is refused); codes are sent
 * at most 10 times in 15 minutes per address.
 */
export async function passShareGate(ctx: ServiceContext, key: string, cookie: string | null | undefined, input: unknown, presentation: SharePresentation = "document"): Promise<{ opening: ShareOpening; cookie: string }> {
  const current = await openShareLink(ctx, key, cookie, presentation);
  if (current.state !== "gate") {
    if (current.state === "open") return { opening: current, cookie: await signVisit(ctx, current.visit) };
    throw refusalOf(current);
  }
  const data = parseInput(gateInputSchema, input);
  // The code gate also takes a new address ("send to another address").
  const expected = current.gate === "code" && data.gate === "email" ? "email" : current.gate;
  if (data.gate !== expected) throw new AppError("CONFLICT", "This step is not the next one for this link. Reload the page.");
  const row = (await findByKey(ctx, key, presentation))!;
  const visit = { ...current.visit };
  const ip = ctx.client.ip;

  if (data.gate === "password") {
    const keys = { account: `link:${row.id}`, ip };
    await assertAttemptsLeft(ctx.env, "link-password", keys);
    const check = await verifyPassword(data.password, row.passwordHash!, scryptParamsFor(ctx.env));
    if (!check.valid) {
      await recordFailedAttempt(ctx.env, "link-password", keys);
      throw new AppError("UNAUTHENTICATED", "That password is not right. Check it with the person who shared the link.");
    }
    visit.passwordOk = true;
  } else if (data.gate === "email") {
    if (!emailAllowed(row, data.email)) throw new AppError("FORBIDDEN", notForYou(data.email));
    if (row.verifyEmail) {
      await consumeAttempt(ctx.env, "link-code-send", { account: `${row.id}:${data.email}`, ip });
      const code = newSixDigitCode();
      visit.code = { email: data.email, hash: await hashCode(readConfig(ctx.env).SESSION_SECRET, `share:${row.id}:${data.email}`, code), expiresAt: ctx.now().getTime() + SHARE_CODE_TTL_MS };
      visit.email = null;
      visit.verified = false;
      await sendMail(ctx, { to: data.email, userId: null, template: { kind: "share-link-code", code, minutes: SHARE_CODE_MINUTES, targetName: current.link.targetName } });
    } else {
      visit.email = data.email;
    }
  } else if (data.gate === "code") {
    const pending = visit.code!;
    if (pending.expiresAt <= ctx.now().getTime()) throw new AppError("VALIDATION_ERROR", "code: This code has expired. Ask for a new one.");
    const keys = { account: `${row.id}:${pending.email}`, ip };
    await assertAttemptsLeft(ctx.env, "link-code", keys);
    const hash = await hashCode(readConfig(ctx.env).SESSION_SECRET, `share:${row.id}:${pending.email}`, data.code);
    if (!timingSafeEqualString(hash, pending.hash)) {
      await recordFailedAttempt(ctx.env, "link-code", keys);
      throw new AppError("UNAUTHENTICATED", "That code is not right. Check the newest e-mail we sent and try again.");
    }
    visit.email = pending.email;
    visit.verified = true;
    visit.code = null;
  } else {
    await insertAgreement(ctx.db, { id: crypto.randomUUID(), linkId: row.id, name: data.name, email: visit.email, ip: await visitorIp(ctx, row.spaceId), acceptedAt: ctx.now() });
    visit.agreed = true;
  }
  const signed = await signVisit(ctx, visit);
  return { opening: await openShareLink(ctx, key, signed, presentation), cookie: signed };
}

/**
 * Counts the visit as one view of the link (once per visit), refusing when the link's view limit
 * was reached by others in the meantime. Returns the visit to keep.
 */
export async function countShareVisit(ctx: ServiceContext, opening: Extract<ShareOpening, { state: "open" }>): Promise<{ visit: ShareVisit; usedUp: boolean }> {
  if (opening.visit.counted) return { visit: opening.visit, usedUp: false };
  if (!(await countShareView(ctx.db, opening.row.id, ctx.now()))) return { visit: opening.visit, usedUp: true };
  // The first view tells whoever made the link: in the room (live, by mail as they chose), or, for
  // their own files, in their notifications outside rooms.
  if (opening.row.viewCount === 0 && opening.row.createdBy) {
    const notice = { actorId: null, kind: "share.opened" as const, title: `${opening.visit.email ?? "Someone"} opened your share link${opening.row.name ? ` “${opening.row.name}”` : ""}`, excerpt: opening.link.targetName, link: `/share-links/${opening.row.id}` };
    if (await findIsDataroomSpace(ctx.db, opening.row.spaceId)) await notifyRoom(ctx, { ...notice, roomId: opening.row.spaceId }, [opening.row.createdBy]);
    else await notifyMember(ctx, { ...notice, userId: opening.row.createdBy });
  }
  const now = ctx.now();
  await insertShareVisit(ctx.db, { id: opening.visit.id, linkId: opening.row.id, email: opening.visit.email, ip: await visitorIp(ctx, opening.row.spaceId), userAgent: ctx.client.userAgent?.slice(0, 200) ?? null, startedAt: now, lastSeenAt: now });
  return { visit: { ...opening.visit, counted: true }, usedUp: false };
}
