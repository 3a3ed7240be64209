import { confirmEmailCode, EMAIL_PROOF_TTL_MS, type EmailProofScope, provenEmail, sendEmailCode } from "~/features/auth/email-proof.server";
import { hashLinkToken, LINK_TOKEN_PATTERN } from "~/features/auth/secrets.server";
import { enqueueJob } from "~/features/jobs/enqueue-job.server";
import { sendMail } from "~/features/mail/mailer.server";
import { mailOrigin, notifyMember } from "~/features/notifications/notifications.server";
import { readCookie } from "~/lib/cookies";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { currentTurn, mailRecipient, readObjectBytes, recordRoomEvent } from "./envelopes.server";
import { AUTOMATIC_TYPES, checkRecipientValues } from "./signature-fields";
import { LINK_CLOSED_MESSAGES, NOT_YOUR_TURN, SIGNING_PROOF_TTL_MS, signedName } from "./signatures.constants";
import { findRecipientByToken, findSenderOf, insertEvents, markRecipient, moveEnvelope, updateRecipient, type RecipientRow } from "./signatures.queries.server";
import { declineSchema, signSchema } from "./signatures.schema";
import { sealEnvelopeJob } from "./signatures.jobs";
import { deleteSignatureImages, missingImageFields, storeSignatureImage } from "./signature-images.server";
import { SIGNATURE_IMAGE_MAX_BYTES } from "./signatures.constants";

/**
 * The recipient's side (issue 38): one link per recipient (256-bit token, found by its hash), no
 * account. The link opens only that person's fields; the server decides whose turn it is, whether
 * the link still works (signed, declined, voided, expired, completed: each says so), and checks
 * every value against the recipient's own fields before anything is written.
 */

export const LINK_MISSING = "This signing link does not work. Check that you copied the whole address from the e-mail.";

import type { ClosedReason, SigningState, SigningView } from "./signing-types";
import { signalEnvelopeFinished } from "~/features/workflows/workflow-signals.server";

export type { ClosedReason, SigningState, SigningView };

type Found = NonNullable<Awaited<ReturnType<typeof findRecipientByToken>>>;

async function resolve(ctx: ServiceContext, token: string): Promise<Found> {
  const found = LINK_TOKEN_PATTERN.test(token) ? await findRecipientByToken(ctx.db, hashLinkToken(token)) : undefined;
  if (!found) throw new AppError("NOT_FOUND", LINK_MISSING);
  return found;
}

function viewOf(found: Found, senderName: string): SigningView {
  const { envelope, recipient } = found;
  return {
    envelope: { title: envelope.title, message: envelope.message, senderName, pageCount: envelope.pageCount, documentName: envelope.documentName, signingOrder: envelope.signingOrder, expiresAt: envelope.expiresAt?.toISOString() ?? null },
    recipient: { name: recipient.name, email: recipient.email, kind: recipient.kind },
    fields: envelope.fields.filter((field) => field.roleId === recipient.roleId),
  };
}

/** Why this link no longer signs, or null while it does. */
function closedReason(ctx: ServiceContext, found: Found): ClosedReason | null {
  const { envelope, recipient } = found;
  if (envelope.status === "completed" || envelope.status === "sealing") return "completed";
  if (envelope.status === "voided") return "voided";
  if (envelope.status === "expired" || (envelope.status === "sent" && envelope.expiresAt && envelope.expiresAt <= ctx.now())) return "expired";
  if (envelope.status === "declined") return recipient.status === "declined" ? "declined" : "otherDeclined";
  if (recipient.status === "signed") return recipient.kind === "approver" ? "approved" : "signed";
  if (envelope.status !== "sent") return "voided";
  return null;
}

const scopeOf = (recipientId: string): EmailProofScope => ({ purpose: "sign-email", id: recipientId, sendAction: "sign-code-send", checkAction: "sign-code" });

export const SIGNING_PROOF_COOKIE = "sign_proof";
export function signingProofCookie(value: string, isSecure: boolean): string {
  return `${SIGNING_PROOF_COOKIE}=${value}; Path=/; Max-Age=${value ? Math.min(EMAIL_PROOF_TTL_MS, SIGNING_PROOF_TTL_MS) / 1000 : 0}; HttpOnly; SameSite=Lax${isSecure ? "; Secure" : ""}`;
}
export function readSigningProof(cookieHeader: string | null | undefined): string | null {
  return readCookie(cookieHeader, SIGNING_PROOF_COOKIE);
}

async function codeProven(ctx: ServiceContext, recipient: RecipientRow, cookie: string | null | undefined): Promise<boolean> {
  if (!recipient.requireCode) return true;
  return (await provenEmail(ctx, scopeOf(recipient.id), cookie)) === recipient.email;
}

const event = (ctx: ServiceContext, envelopeId: string, recipient: RecipientRow, type: string, detail: string | null = null) => ({
  id: crypto.randomUUID(),
  envelopeId,
  recipientId: recipient.id,
  type,
  actor: `${recipient.name} <${recipient.email}>`,
  ip: ctx.client.ip,
  userAgent: ctx.client.userAgent,
  detail,
  at: ctx.now(),
});

/** GET /sign/{token}: what the recipient sees. The first opening is recorded (time, IP, device). */
export async function openSigningLink(ctx: ServiceContext, token: string, options: { cookie?: string | null; record?: boolean } = {}): Promise<SigningState> {
  const found = await resolve(ctx, token);
  const sender = (await findSenderOf(ctx.db, found.envelope.userId))?.name ?? "The sender";
  const view = viewOf(found, sender);
  const closed = closedReason(ctx, found);
  if (closed) return { state: "closed", reason: closed, message: LINK_CLOSED_MESSAGES[closed], signedDownload: found.envelope.status === "completed", ...view };
  const turn = currentTurn(found.envelope, found.recipients);
  if (found.recipient.kind === "viewer" || !turn.some((one) => one.id === found.recipient.id)) {
    const first = turn[0];
    return { state: "waiting", waitingFor: first?.name ?? "everyone else", message: found.recipient.kind === "viewer" ? "You get a copy of this document once everyone has signed." : NOT_YOUR_TURN(first?.name ?? "someone else"), ...view };
  }
  if (options.record !== false && found.recipient.status === "sent") {
    if (await updateRecipient(ctx.db, found.recipient.id, { status: "opened", openedAt: ctx.now() }, ["sent"])) {
      await insertEvents(ctx.db, [event(ctx, found.envelope.id, found.recipient, "opened")]);
      await recordRoomEvent(ctx, found.envelope, null, "signature.opened", `${found.recipient.email}, “${found.envelope.title}”`);
    }
  }
  return { state: "open", needsCode: !(await codeProven(ctx, found.recipient, options.cookie)), ...view };
}

/** A link that may act now (its turn, still open), or the refusal that says why not. */
async function actingRecipient(ctx: ServiceContext, token: string): Promise<Found> {
  const found = await resolve(ctx, token);
  const closed = closedReason(ctx, found);
  if (closed) throw new AppError("GONE", LINK_CLOSED_MESSAGES[closed]);
  if (found.recipient.kind === "viewer") throw new AppError("FORBIDDEN", "You get a copy of this document: there is nothing for you to sign.");
  const turn = currentTurn(found.envelope, found.recipients);
  if (!turn.some((one) => one.id === found.recipient.id)) throw new AppError("CONFLICT", NOT_YOUR_TURN(turn[0]?.name ?? "someone else"));
  return found;
}

/** POST /api/sign/{token}/code: mails the recipient a 6-digit code (only to their own address). */
export async function requestSigningCode(ctx: ServiceContext, token: string): Promise<string> {
  const found = await actingRecipient(ctx, token);
  if (!found.recipient.requireCode) throw new AppError("CONFLICT", "This document does not ask for a code: reload the page.");
  const sender = (await findSenderOf(ctx.db, found.envelope.userId))?.name ?? "The sender";
  const { cookie } = await sendEmailCode(ctx, scopeOf(found.recipient.id), found.recipient.email, (code, minutes) => ({ kind: "signature-email-code", code, minutes, title: found.envelope.title, senderName: sender }));
  return cookie;
}

/** POST /api/sign/{token}/code/confirm: the right code proves the address for this link (12 hours). */
export async function confirmSigningCode(ctx: ServiceContext, token: string, input: { code: unknown; cookie: string | null }): Promise<string> {
  const found = await actingRecipient(ctx, token);
  return (await confirmEmailCode(ctx, scopeOf(found.recipient.id), input.cookie, input.code)).cookie;
}

/** The day of signing as written into "Date signed" fields (UTC). */
const signingDay = (date: Date) => date.toISOString().slice(0, 10);

export type SignResult = { completed: boolean; next: string | null };

/**
 * POST /api/sign/{token}: the recipient's values and consent. Only their own fields are accepted
 * (anything else refuses the whole request); when they are the last, the envelope is sealed by a
 * queue job; in order, the next person is mailed their link.
 */
export async function signEnvelope(ctx: ServiceContext, token: string, input: unknown, cookie: string | null | undefined): Promise<SignResult> {
  const found = await actingRecipient(ctx, token);
  const { envelope, recipient } = found;
  if (!(await codeProven(ctx, recipient, cookie))) throw new AppError("FORBIDDEN", "Confirm your e-mail address first: enter the 6-digit code we sent you.");
  const data = parseInput(signSchema, input);
  const checked = checkRecipientValues(envelope.fields, recipient.roleId, data.values);
  if (checked.foreign.length) throw new AppError("FORBIDDEN", "You can fill in only your own fields. Reload the page and sign again.");
  const problems = Object.entries(checked.problems);
  if (problems.length) {
    const fieldErrors = Object.fromEntries(problems.map(([id, message]) => [id, [message]]));
    throw new AppError("VALIDATION_ERROR", problems[0]![1], { fieldErrors });
  }
  const missing = await missingImageFields(ctx, envelope, recipient.id, checked.values);
  if (missing.length) {
    const message = "Upload the picture of your signature again: it was not received.";
    throw new AppError("VALIDATION_ERROR", message, { fieldErrors: Object.fromEntries(missing.map((id) => [id, [message]])) });
  }
  const now = ctx.now();
  const values = { ...checked.values };
  for (const field of envelope.fields) {
    if (field.roleId !== recipient.roleId || !AUTOMATIC_TYPES.includes(field.type)) continue;
    values[field.id] = field.type === "email" ? recipient.email : signingDay(now);
  }
  const marked = await markRecipient(ctx.db, envelope.id, recipient.id, ["sent", "opened"], {
    status: "signed",
    values,
    signedAt: now,
    consentedAt: now,
    openedAt: recipient.openedAt ?? now,
    verification: recipient.requireCode ? "E-mail link and a 6-digit code sent to the address" : "E-mail link sent to the address",
    ip: ctx.client.ip,
    userAgent: ctx.client.userAgent,
  });
  if (!marked) throw new AppError("CONFLICT", "This document changed while you were signing (signed, voided or expired). Reload the page.");
  const verb = recipient.kind === "approver" ? "approved" : "signed";
  await insertEvents(ctx.db, [event(ctx, envelope.id, recipient, verb, "Agreed to sign electronically")]);
  await recordRoomEvent(ctx, envelope, null, "signature.signed", `${recipient.email} ${verb} “${envelope.title}”`);
  await notifyMember(ctx, { userId: envelope.userId, actorId: null, kind: "signature.signed", title: `${recipient.name} ${verb} “${envelope.title}”`, excerpt: "", link: `/signatures/${envelope.id}` });

  const recipients = found.recipients.map((one) => (one.id === recipient.id ? { ...one, status: "signed" as const } : one));
  const turn = currentTurn(envelope, recipients);
  if (turn.length === 0) {
    if (await moveEnvelope(ctx.db, envelope.id, ["sent"], { status: "sealing", completedAt: now, updatedAt: now })) {
      await enqueueJob(ctx, { definition: sealEnvelopeJob, payload: { envelopeId: envelope.id }, jobId: `signatures.seal:${envelope.id}`, priority: "high" });
    }
    return { completed: true, next: null };
  }
  await moveEnvelope(ctx.db, envelope.id, ["sent"], { updatedAt: now });
  if (envelope.signingOrder === "sequential") {
    const next = turn[0]!;
    const sender = (await findSenderOf(ctx.db, envelope.userId))?.name ?? "The sender";
    await mailRecipient(ctx, envelope, next, { reminder: false, senderName: sender });
    await insertEvents(ctx.db, [{ ...event(ctx, envelope.id, next, "sent", `Their turn: sent to ${next.email}`), actor: sender }]);
    return { completed: false, next: next.name };
  }
  return { completed: false, next: null };
}

/**
 * POST /api/sign/{token}/signature-image: a PNG or JPEG of the recipient's signature (the raw
 * body), kept for this recipient until the envelope is sealed. Returns the value to sign with.
 */
export async function uploadSignatureImage(ctx: ServiceContext, token: string, request: Request, cookie: string | null | undefined): Promise<{ value: string }> {
  const found = await actingRecipient(ctx, token);
  if (!(await codeProven(ctx, found.recipient, cookie))) throw new AppError("FORBIDDEN", "Confirm your e-mail address first: enter the 6-digit code we sent you.");
  if (Number(request.headers.get("content-length") ?? "0") > SIGNATURE_IMAGE_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "This picture is larger than 1 MB: use a smaller PNG or JPEG of your signature.");
  const bytes = new Uint8Array(await request.arrayBuffer());
  return { value: await storeSignatureImage(ctx, found.envelope, found.recipient.id, bytes) };
}

/** POST /api/sign/{token}/decline: the recipient declines with a reason; nobody can sign any more and the sender is told. */
export async function declineEnvelope(ctx: ServiceContext, token: string, input: unknown): Promise<void> {
  const found = await actingRecipient(ctx, token);
  const { envelope, recipient } = found;
  const { reason } = parseInput(declineSchema, input);
  const now = ctx.now();
  const marked = await markRecipient(ctx.db, envelope.id, recipient.id, ["sent", "opened"], { status: "declined", declinedAt: now, declineReason: reason, ip: ctx.client.ip, userAgent: ctx.client.userAgent });
  if (!marked || !(await moveEnvelope(ctx.db, envelope.id, ["sent"], { status: "declined", updatedAt: now }))) throw new AppError("CONFLICT", "This document changed meanwhile. Reload the page.");
  await insertEvents(ctx.db, [event(ctx, envelope.id, recipient, "declined", reason)]);
  await deleteSignatureImages(ctx, envelope);
  await recordRoomEvent(ctx, envelope, null, "signature.declined", `${recipient.email} declined “${envelope.title}”: ${reason}`);
  const sender = await findSenderOf(ctx.db, envelope.userId);
  if (sender) {
    await sendMail(ctx, { to: sender.email, userId: envelope.userId, template: { kind: "signature-declined", name: sender.name, title: envelope.title, declinedBy: `${recipient.name} (${recipient.email})`, reason, link: `${mailOrigin(ctx)}/signatures/${envelope.id}` } });
  }
  await notifyMember(ctx, { userId: envelope.userId, actorId: null, kind: "signature.declined", title: `${recipient.name} declined “${envelope.title}”`, excerpt: reason, link: `/signatures/${envelope.id}` });
  await signalEnvelopeFinished(ctx, envelope.id);
}

/** GET /api/sign/{token}/document: the PDF to read while signing (while the link works), or the sealed one once complete. */
export async function signingDocument(ctx: ServiceContext, token: string, which: "original" | "sealed"): Promise<{ bytes: Uint8Array<ArrayBuffer>; name: string }> {
  const found = await resolve(ctx, token);
  const { envelope } = found;
  if (which === "sealed") {
    if (envelope.status !== "completed" || !envelope.sealedKey || envelope.sealedSize === null) throw new AppError("NOT_FOUND", "The signed PDF is not ready yet: it is made when the last person signs.");
    return { bytes: await readObjectBytes(ctx, envelope.sealedKey, envelope.sealedSize), name: signedName(envelope.documentName) };
  }
  const closed = closedReason(ctx, found);
  if (closed && closed !== "signed" && closed !== "approved") throw new AppError("GONE", LINK_CLOSED_MESSAGES[closed]);
  return { bytes: await readObjectBytes(ctx, envelope.documentKey, envelope.documentSize), name: envelope.documentName };
}
