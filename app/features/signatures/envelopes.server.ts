import { checkFeature, checkPermission } from "~/features/access/access-check";
import { loadMemberAccess, type MemberAccess } from "~/features/access/access.server";
import { decryptSecret, encryptSecret, newLinkToken } from "~/features/auth/secrets.server";
import { auditRoom } from "~/features/datarooms/audit-record.server";
import type { AuditAction } from "~/features/datarooms/audit.constants";
import { requireDataroom } from "~/features/datarooms/datarooms.server";
import { isEncryptedKey } from "~/features/files/encryption-format";
import { newObjectKey, putStoredObject, readStoredBytes } from "~/features/files/encryption.server";
import { requireFileAccess } from "~/features/files/spaces.server";
import { listPdfsOfMember } from "~/features/files/folders.queries.server";
import { sendMail } from "~/features/mail/mailer.server";
import { mailOrigin } from "~/features/notifications/notifications.server";
import { decodeCursor, encodeCursor } from "~/features/files/spaces.server";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { z } from "zod";
import { RECIPIENT_KIND_LABELS, rolesWithFields, type SignField, type SignRole } from "./signature-fields";
import {
  ENVELOPE_NOT_FOUND,
  isUuidShape,
  LIST_PAGE_SIZE,
  SIGN_PDF_MAX_BYTES,
  SIGNATURES_DENIED,
  signedName,
  TEMPLATE_NOT_FOUND,
} from "./signatures.constants";
import {
  findEnvelope,
  findEnvelopeWithPeople,
  findOwnTemplate,
  findSenderOf,
  insertEnvelope,
  insertEvents,
  LIST_VIEWS,
  listEnvelopes,
  listWaitingForMember,
  moveEnvelope,
  replaceDraft,
  updateRecipient,
  type EnvelopeRow,
  type EventRow,
  type RecipientRow,
} from "./signatures.queries.server";
import { sha256Hex } from "./signing-identity.server";
import { deleteSignatureImages } from "./signature-images.server";
import { createEnvelopeSchema, envelopeInputSchema, voidSchema, type EnvelopeInput } from "./signatures.schema";
import { signalEnvelopeFinished } from "~/features/workflows/workflow-signals.server";

/**
 * Envelopes, the sender's side (issue 38, docs/signatures.md): prepare a document for signature
 * (from a PDF of the member's or a room's, or a template), send it, follow it, send again, void.
 * Who may: the `e_signatures` feature (Pro and up) or the `e_signature.access` add-on permission;
 * inside a room also its `request_signatures` permission. Signing itself is free for recipients
 * (signing.server.ts).
 */

/** Refuses (403, the spec's default message and what unlocks it) a member without e-signatures. */
export function requireSignatures(access: MemberAccess): void {
  if (checkFeature(access, "e_signatures") || checkPermission(access, "e_signature.access")) return;
  throw new AppError("FORBIDDEN", `${SIGNATURES_DENIED}: e_signature.access. It is part of the Pro plan and above, or comes with the e-signatures add-on.`);
}

export async function signaturesAccess(ctx: ServiceContext, userId: string): Promise<MemberAccess> {
  const access = await loadMemberAccess(ctx, userId);
  requireSignatures(access);
  return access;
}

export const notFound = () => new AppError("NOT_FOUND", ENVELOPE_NOT_FOUND);

/**
 * An envelope the caller may see and manage: their own, or one of a room where they hold
 * `request_signatures` (a room outsider gets 404 from the room check, a member without it 403).
 */
export async function requireEnvelope(ctx: ServiceContext, userId: string, id: unknown): Promise<EnvelopeRow> {
  if (typeof id !== "string" || !isUuidShape(id)) throw notFound();
  const envelope = await findEnvelope(ctx.db, id);
  if (!envelope) throw notFound();
  if (envelope.userId === userId) return envelope;
  if (!envelope.dataroomId) throw notFound();
  await requireDataroom(ctx, userId, envelope.dataroomId, "request_signatures");
  return envelope;
}

// ---- the document --------------------------------------------------------------------------

export type SignDocument = { spaceId: string; dataroomId: string | null; sourceFileId: string | null; sourceFolderId: string | null; name: string; key: string; size: number; sha256: string; pageCount: number };

/** How many pages a PDF has (refusing what is not one). */
export async function countPdfPages(bytes: Uint8Array, name: string): Promise<number> {
  const { PDF } = await import("@libpdf/core");
  try {
    const pdf = await PDF.load(bytes);
    const pages = pdf.getPageCount();
    if (pages < 1) throw new Error("no pages");
    return pages;
  } catch {
    throw new AppError("VALIDATION_ERROR", `“${name}” could not be read as a PDF. Save it again as a PDF and upload that.`);
  }
}

/** The bytes of a stored object (whole). */
export async function readObjectBytes(ctx: ServiceContext, key: string, size: number): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = await readStoredBytes(ctx, key, size);
  if (!bytes) throw new AppError("CONFLICT", "The document's content is missing. Prepare it again from the file.");
  return bytes;
}

/**
 * A PDF of the member's (or a room's, with `request_signatures` there) copied into an object of
 * its own, so later edits, versions or deletion of the file never change what people sign.
 */
export async function snapshotPdf(ctx: ServiceContext, userId: string, fileId: string): Promise<SignDocument> {
  const { file, isDataroom } = await requireFileAccess(ctx, userId, fileId, "files.download");
  if (isDataroom) await requireDataroom(ctx, userId, file.spaceId, "request_signatures");
  if (file.contentType !== "application/pdf") throw new AppError("VALIDATION_ERROR", `“${file.name}” is not a PDF: choose a PDF to send for signature.`);
  if (file.size > SIGN_PDF_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", `“${file.name}” is larger than the 25 MB a document to sign may be.`);
  const bytes = await readObjectBytes(ctx, file.r2Key, file.size);
  const pageCount = await countPdfPages(bytes, file.name);
  const key = newObjectKey("signatures", file.spaceId, isEncryptedKey(file.r2Key));
  await putStoredObject(ctx, key, bytes, { httpMetadata: { contentType: "application/pdf" } });
  return { spaceId: file.spaceId, dataroomId: isDataroom ? file.spaceId : null, sourceFileId: file.id, sourceFolderId: file.folderId, name: file.name, key, size: file.size, sha256: file.sha256 ?? (await sha256Hex(bytes)), pageCount };
}

export type SendingSetup = {
  pdfs: { id: string; name: string; spaceName: string }[];
  chosen: { id: string; name: string; pageCount: number; documentUrl: string } | null;
  /** Sending from a template: its roles (one recipient each) and fields. */
  template: { id: string; name: string; roles: SignRole[]; fields: SignField[] } | null;
  dataroom: { id: string; name: string } | null;
  sender: { name: string; email: string };
};

/**
 * /signatures/create (and a room's): the PDFs the member may send (the room's only, inside a
 * room), and the chosen one's page count for the designer.
 */
export async function prepareSending(ctx: ServiceContext, userId: string, query: { fileId?: string | null; templateId?: string | null; dataroomId?: string | null }): Promise<SendingSetup> {
  await signaturesAccess(ctx, userId);
  const room = query.dataroomId ? await requireDataroom(ctx, userId, query.dataroomId, "request_signatures") : null;
  const pdfs = await listPdfsOfMember(ctx.db, userId, 200, room?.id);
  let chosen: SendingSetup["chosen"] = null;
  let template: SendingSetup["template"] = null;
  if (query.templateId) {
    const found = isUuidShape(query.templateId) ? await findOwnTemplate(ctx.db, userId, query.templateId) : undefined;
    if (!found) throw new AppError("NOT_FOUND", TEMPLATE_NOT_FOUND);
    chosen = { id: found.id, name: found.documentName, pageCount: found.pageCount, documentUrl: `/api/signatures/templates/${found.id}/document` };
    template = { id: found.id, name: found.name, roles: found.roles, fields: found.fields };
  } else if (query.fileId) {
    const { file, isDataroom } = await requireFileAccess(ctx, userId, query.fileId, "files.download");
    if (isDataroom) await requireDataroom(ctx, userId, file.spaceId, "request_signatures");
    if (room && file.spaceId !== room.id) throw new AppError("VALIDATION_ERROR", "Choose a PDF of this data room.");
    if (file.contentType !== "application/pdf") throw new AppError("VALIDATION_ERROR", `“${file.name}” is not a PDF: choose a PDF to send for signature.`);
    if (file.size > SIGN_PDF_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", `“${file.name}” is larger than the 25 MB a document to sign may be.`);
    const pageCount = await countPdfPages(await readObjectBytes(ctx, file.r2Key, file.size), file.name);
    chosen = { id: file.id, name: file.name, pageCount, documentUrl: `/api/files/${file.id}/download` };
  }
  return { pdfs, chosen, template, dataroom: room ? { id: room.id, name: room.name } : null, sender: await senderOf(ctx, userId) };
}

// ---- checks --------------------------------------------------------------------------------

/** Fields on pages that exist, each for a recipient of the envelope; ids unique. */
export function checkFields(fields: SignField[], pageCount: number, roleIds: Set<string>): void {
  const seen = new Set<string>();
  for (const field of fields) {
    if (seen.has(field.id)) throw new AppError("VALIDATION_ERROR", `fields: Two fields share the id "${field.id}".`);
    seen.add(field.id);
    if (field.page >= pageCount) throw new AppError("VALIDATION_ERROR", `fields: A field is on page ${field.page + 1}, but the document has ${pageCount} page${pageCount === 1 ? "" : "s"}.`);
    if (!roleIds.has(field.roleId)) throw new AppError("VALIDATION_ERROR", "fields: Every field must belong to one of the recipients.");
  }
}

function checkRecipients(input: EnvelopeInput): void {
  const emails = new Set<string>();
  const roles = new Set<string>();
  for (const recipient of input.recipients) {
    if (emails.has(recipient.email)) throw new AppError("VALIDATION_ERROR", `recipients: ${recipient.email} is on the list twice. Each person is one recipient.`);
    if (roles.has(recipient.roleId)) throw new AppError("VALIDATION_ERROR", "recipients: Two recipients share one role. Give each their own.");
    emails.add(recipient.email);
    roles.add(recipient.roleId);
  }
  if (input.reminderEveryDays !== null && input.reminderFirstDays === null) throw new AppError("VALIDATION_ERROR", "reminderFirstDays: Say after how many days the first reminder goes out.");
}

/** Sending needs every signer (and approver) to have a field, and every field a recipient. */
export function sendProblem(fields: SignField[], recipients: Pick<RecipientRow, "roleId" | "name" | "kind">[]): string | null {
  const withFields = rolesWithFields(fields);
  const missing = recipients.filter((recipient) => recipient.kind === "signer" && !withFields.has(recipient.roleId));
  if (missing.length) return `${missing.map((recipient) => recipient.name).join(", ")} ${missing.length === 1 ? "has" : "have"} no field to sign yet. Place at least one field for every signer.`;
  if (recipients.every((recipient) => recipient.kind === "viewer")) return "Add at least one person who signs or approves.";
  return null;
}

// ---- create, edit, send --------------------------------------------------------------------

export type EnvelopeSummary = {
  id: string;
  title: string;
  status: EnvelopeRow["status"];
  dataroomId: string | null;
  signingOrder: EnvelopeRow["signingOrder"];
  documentName: string;
  recipients: { name: string; email: string; kind: string; status: string }[];
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  completedAt: string | null;
  expiresAt: string | null;
};

export type EnvelopeDetail = EnvelopeSummary & {
  message: string;
  revision: number;
  pageCount: number;
  fields: SignField[];
  documentSha256: string;
  sealedSha256: string | null;
  sealedFileId: string | null;
  reminderFirstDays: number | null;
  reminderEveryDays: number | null;
  voidReason: string | null;
  isOwner: boolean;
  people: {
    id: string;
    roleId: string;
    position: number;
    name: string;
    email: string;
    kind: RecipientRow["kind"];
    kindLabel: string;
    requireCode: boolean;
    status: RecipientRow["status"];
    sentAt: string | null;
    openedAt: string | null;
    signedAt: string | null;
    declinedAt: string | null;
    declineReason: string | null;
    remindersSent: number;
  }[];
  events: { at: string; type: string; actor: string; detail: string | null; ip: string | null }[];
};

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

function summaryOf(envelope: EnvelopeRow, recipients: { name: string; email: string; kind: string; status: string }[]): EnvelopeSummary {
  return {
    id: envelope.id,
    title: envelope.title,
    status: envelope.status,
    dataroomId: envelope.dataroomId,
    signingOrder: envelope.signingOrder,
    documentName: envelope.documentName,
    recipients,
    createdAt: envelope.createdAt.toISOString(),
    updatedAt: envelope.updatedAt.toISOString(),
    sentAt: iso(envelope.sentAt),
    completedAt: iso(envelope.completedAt),
    expiresAt: iso(envelope.expiresAt),
  };
}

function detailOf(userId: string, envelope: EnvelopeRow, recipients: RecipientRow[], events: EventRow[]): EnvelopeDetail {
  return {
    ...summaryOf(envelope, recipients.map((recipient) => ({ name: recipient.name, email: recipient.email, kind: recipient.kind, status: recipient.status }))),
    message: envelope.message,
    revision: envelope.revision,
    pageCount: envelope.pageCount,
    fields: envelope.fields,
    documentSha256: envelope.documentSha256,
    sealedSha256: envelope.sealedSha256,
    sealedFileId: envelope.sealedFileId,
    reminderFirstDays: envelope.reminderFirstDays,
    reminderEveryDays: envelope.reminderEveryDays,
    voidReason: envelope.voidReason,
    isOwner: envelope.userId === userId,
    people: recipients.map((recipient) => ({
      id: recipient.id,
      roleId: recipient.roleId,
      position: recipient.position,
      name: recipient.name,
      email: recipient.email,
      kind: recipient.kind,
      kindLabel: RECIPIENT_KIND_LABELS[recipient.kind],
      requireCode: recipient.requireCode,
      status: recipient.status,
      sentAt: iso(recipient.sentAt),
      openedAt: iso(recipient.openedAt),
      signedAt: iso(recipient.signedAt),
      declinedAt: iso(recipient.declinedAt),
      declineReason: recipient.declineReason,
      remindersSent: recipient.remindersSent,
    })),
    events: events.map((event) => ({ at: event.at.toISOString(), type: event.type, actor: event.actor, detail: event.detail, ip: event.ip })),
  };
}

export async function getEnvelope(ctx: ServiceContext, userId: string, id: unknown): Promise<EnvelopeDetail> {
  const envelope = await requireEnvelope(ctx, userId, id);
  const found = await findEnvelopeWithPeople(ctx.db, envelope.id);
  if (!found) throw notFound();
  return detailOf(userId, found.envelope, found.recipients, found.events);
}

/** GET /api/signatures/:id/document: the envelope's own copy of the PDF, or the sealed one once complete. */
export async function envelopeDocument(ctx: ServiceContext, userId: string, id: unknown, which: "original" | "sealed"): Promise<{ bytes: Uint8Array<ArrayBuffer>; name: string }> {
  const envelope = await requireEnvelope(ctx, userId, id);
  if (which === "sealed") {
    if (envelope.status !== "completed" || !envelope.sealedKey || envelope.sealedSize === null) throw new AppError("NOT_FOUND", "The signed PDF is made when the last person signs.");
    return { bytes: await readObjectBytes(ctx, envelope.sealedKey, envelope.sealedSize), name: signedName(envelope.documentName) };
  }
  return { bytes: await readObjectBytes(ctx, envelope.documentKey, envelope.documentSize), name: envelope.documentName };
}

/** The sender's name for events and e-mails. */
async function senderOf(ctx: ServiceContext, userId: string): Promise<{ name: string; email: string }> {
  return (await findSenderOf(ctx.db, userId)) ?? { name: "A Strongroom member", email: "" };
}

export async function recordRoomEvent(ctx: ServiceContext, envelope: Pick<EnvelopeRow, "id" | "title" | "dataroomId">, userId: string | null, action: AuditAction, detail: string): Promise<void> {
  if (!envelope.dataroomId) return;
  await auditRoom(ctx, envelope.dataroomId, userId, { action, target: { type: "signature", id: envelope.id, name: envelope.title }, detail });
}

const expiryFrom = (now: Date, days: number | null) => (days === null ? null : new Date(now.getTime() + days * 86_400_000));

/**
 * POST /api/signatures: a new envelope from a PDF or a template, as a draft, or sent at once
 * (`send: true`). In a room (`dataroomId`, or a PDF of the room) it needs `request_signatures`.
 */
export async function createEnvelope(ctx: ServiceContext, userId: string, input: unknown): Promise<EnvelopeDetail> {
  await signaturesAccess(ctx, userId);
  const data = parseInput(createEnvelopeSchema, input);
  checkRecipients(data);
  let document: SignDocument;
  let fields = data.fields;
  if (data.templateId) {
    const template = isUuidShape(data.templateId) ? await findOwnTemplate(ctx.db, userId, data.templateId) : undefined;
    if (!template) throw new AppError("NOT_FOUND", TEMPLATE_NOT_FOUND);
    if (data.dataroomId) await requireDataroom(ctx, userId, data.dataroomId, "request_signatures");
    const bytes = await readObjectBytes(ctx, template.documentKey, template.documentSize);
    const spaceId = data.dataroomId ?? template.spaceId;
    const key = newObjectKey("signatures", spaceId, isEncryptedKey(template.documentKey) || data.dataroomId !== undefined);
    await putStoredObject(ctx, key, bytes, { httpMetadata: { contentType: "application/pdf" } });
    document = { spaceId, dataroomId: data.dataroomId ?? null, sourceFileId: template.sourceFileId, sourceFolderId: null, name: template.documentName, key, size: template.documentSize, sha256: await sha256Hex(bytes), pageCount: template.pageCount };
    if (fields.length === 0) fields = template.fields;
    const given = new Set(data.recipients.map((recipient) => recipient.roleId));
    const missing = template.roles.filter((role) => !given.has(role.id) && fields.some((field) => field.roleId === role.id));
    if (missing.length) throw new AppError("VALIDATION_ERROR", `recipients: Add a recipient for the role “${missing[0]!.name}”.`);
  } else if (data.fileId) {
    document = await snapshotPdf(ctx, userId, data.fileId);
    if (data.dataroomId && document.dataroomId !== data.dataroomId) throw new AppError("VALIDATION_ERROR", "fileId: Choose a PDF of this data room.");
  } else {
    throw new AppError("VALIDATION_ERROR", "fileId: Choose a PDF or a template to send.");
  }
  checkFields(fields, document.pageCount, new Set(data.recipients.map((recipient) => recipient.roleId)));
  const now = ctx.now();
  const id = crypto.randomUUID();
  const sender = await senderOf(ctx, userId);
  await insertEnvelope(
    ctx.db,
    {
      id,
      userId,
      dataroomId: document.dataroomId,
      spaceId: document.spaceId,
      templateId: data.templateId ?? null,
      title: data.title,
      message: data.message,
      signingOrder: data.signingOrder,
      sourceFileId: document.sourceFileId,
      sourceFolderId: document.sourceFolderId,
      documentName: document.name,
      documentKey: document.key,
      documentSize: document.size,
      documentSha256: document.sha256,
      pageCount: document.pageCount,
      fields,
      expiresAt: expiryFrom(now, data.expiresInDays),
      reminderFirstDays: data.reminderFirstDays,
      reminderEveryDays: data.reminderEveryDays,
      createdAt: now,
      updatedAt: now,
    },
    data.recipients.map((recipient, position) => ({ id: crypto.randomUUID(), envelopeId: id, position, ...recipient })),
    { id: crypto.randomUUID(), envelopeId: id, type: "created", actor: sender.name, ip: ctx.client.ip, userAgent: ctx.client.userAgent, detail: `From “${document.name}” (SHA-256 ${document.sha256})`, at: now },
  );
  await recordRoomEvent(ctx, { id, title: data.title, dataroomId: document.dataroomId }, userId, "signature.created", `“${data.title}” for ${data.recipients.length} recipient${data.recipients.length === 1 ? "" : "s"}`);
  ctx.logger.info("signatures.created", { envelopeId: id, dataroomId: document.dataroomId, pages: document.pageCount, fields: fields.length });
  if (data.send) return sendEnvelope(ctx, userId, id);
  return getEnvelope(ctx, userId, id);
}

/** PUT /api/signatures/:id: a draft's title, message, recipients, fields, expiry and reminders (by revision). */
export async function updateDraft(ctx: ServiceContext, userId: string, id: unknown, input: unknown): Promise<EnvelopeDetail> {
  const envelope = await requireEnvelope(ctx, userId, id);
  await signaturesAccess(ctx, userId);
  const data = parseInput(envelopeInputSchema.extend({ revision: z.number().int().min(1) }), input);
  if (envelope.status !== "draft") throw new AppError("CONFLICT", "This document was already sent: void it and prepare a new one to change it.");
  checkRecipients(data);
  checkFields(data.fields, envelope.pageCount, new Set(data.recipients.map((recipient) => recipient.roleId)));
  const saved = await replaceDraft(
    ctx.db,
    envelope.id,
    data.revision,
    { title: data.title, message: data.message, signingOrder: data.signingOrder, fields: data.fields, expiresAt: expiryFrom(ctx.now(), data.expiresInDays), reminderFirstDays: data.reminderFirstDays, reminderEveryDays: data.reminderEveryDays, updatedAt: ctx.now() },
    data.recipients.map((recipient, position) => ({ id: crypto.randomUUID(), position, ...recipient })),
  );
  if (!saved) throw new AppError("CONFLICT", "This draft changed in another tab or was sent meanwhile. Reload it and make your change again.");
  return getEnvelope(ctx, userId, envelope.id);
}

/** The link a recipient signs at, and its token's two stored forms (hash to find it, sealed to resend it). */
async function issueLink(ctx: ServiceContext): Promise<{ token: string; tokenHash: string; tokenSealed: string }> {
  const { token, hash } = newLinkToken();
  const tokenSealed = await encryptSecret(readConfig(ctx.env).SESSION_SECRET, new TextEncoder().encode(token), "signing-link");
  return { token, tokenHash: hash, tokenSealed };
}

export function signingLink(ctx: ServiceContext, token: string): string {
  return `${mailOrigin(ctx)}/sign/${token}`;
}

/** A new link for one recipient (replacing any earlier one): its address. */
export async function issueRecipientLink(ctx: ServiceContext, recipientId: string): Promise<string> {
  const issued = await issueLink(ctx);
  await updateRecipient(ctx.db, recipientId, { tokenHash: issued.tokenHash, tokenSealed: issued.tokenSealed });
  return signingLink(ctx, issued.token);
}

/** E-mails one recipient their link (a new one when they have none yet, else the same one again). */
export async function mailRecipient(ctx: ServiceContext, envelope: EnvelopeRow, recipient: RecipientRow, options: { reminder: boolean; senderName: string }): Promise<void> {
  let token: string | null = null;
  if (recipient.tokenSealed) {
    const plain = await decryptSecret(readConfig(ctx.env).SESSION_SECRET, recipient.tokenSealed, "signing-link");
    token = plain ? new TextDecoder().decode(plain) : null;
  }
  const now = ctx.now();
  if (!token) {
    const issued = await issueLink(ctx);
    token = issued.token;
    await updateRecipient(ctx.db, recipient.id, { tokenHash: issued.tokenHash, tokenSealed: issued.tokenSealed });
  }
  if (recipient.status === "waiting") await updateRecipient(ctx.db, recipient.id, { status: "sent", sentAt: now }, ["waiting"]);
  await sendMail(ctx, {
    to: recipient.email,
    userId: null,
    template: {
      kind: "signature-request",
      name: recipient.name,
      senderName: options.senderName,
      title: envelope.title,
      message: envelope.message,
      link: signingLink(ctx, token),
      expiresOn: envelope.expiresAt ? envelope.expiresAt.toISOString().slice(0, 10) : null,
      reminder: options.reminder,
      approve: recipient.kind === "approver",
    },
  });
}

/** Who acts now: everyone who signs or approves (parallel), or the first of them who has not yet (sequential). */
export function currentTurn(envelope: Pick<EnvelopeRow, "signingOrder">, recipients: RecipientRow[]): RecipientRow[] {
  const actors = recipients.filter((recipient) => recipient.kind !== "viewer").sort((a, b) => a.position - b.position);
  const pending = actors.filter((recipient) => recipient.status !== "signed");
  return envelope.signingOrder === "parallel" ? pending : pending.slice(0, 1);
}

/** POST /api/signatures/:id/send: a draft goes out; the links are mailed to whoever signs now. */
export async function sendEnvelope(ctx: ServiceContext, userId: string, id: unknown): Promise<EnvelopeDetail> {
  const envelope = await requireEnvelope(ctx, userId, id);
  await signaturesAccess(ctx, userId);
  if (envelope.status !== "draft") throw new AppError("CONFLICT", "This document was already sent.");
  const found = await findEnvelopeWithPeople(ctx.db, envelope.id);
  if (!found) throw notFound();
  const problem = sendProblem(found.envelope.fields, found.recipients);
  if (problem) throw new AppError("VALIDATION_ERROR", problem);
  if (found.envelope.expiresAt && found.envelope.expiresAt <= ctx.now()) throw new AppError("VALIDATION_ERROR", "expiresInDays: The expiry date has passed. Choose a later one.");
  const now = ctx.now();
  if (!(await moveEnvelope(ctx.db, envelope.id, ["draft"], { status: "sent", sentAt: now, updatedAt: now }))) throw new AppError("CONFLICT", "This document was already sent.");
  const sender = await senderOf(ctx, found.envelope.userId);
  const turn = currentTurn(found.envelope, found.recipients);
  for (const recipient of turn) await mailRecipient(ctx, found.envelope, recipient, { reminder: false, senderName: sender.name });
  await insertEvents(ctx.db, [
    { id: crypto.randomUUID(), envelopeId: envelope.id, type: "sent", actor: sender.name, ip: ctx.client.ip, userAgent: ctx.client.userAgent, detail: `To ${turn.map((recipient) => `${recipient.name} <${recipient.email}>`).join(", ")}${found.envelope.signingOrder === "sequential" ? " (signing in order)" : ""}`, at: now },
  ]);
  await recordRoomEvent(ctx, found.envelope, userId, "signature.sent", `“${found.envelope.title}” to ${found.recipients.map((recipient) => recipient.email).join(", ")}`);
  return getEnvelope(ctx, userId, envelope.id);
}

/** POST /api/signatures/:id/recipients/:recipientId/resend: "Send again": the same link, mailed once more. */
export async function resendToRecipient(ctx: ServiceContext, userId: string, id: unknown, recipientId: unknown): Promise<EnvelopeDetail> {
  const envelope = await requireEnvelope(ctx, userId, id);
  await signaturesAccess(ctx, userId);
  if (envelope.status !== "sent") throw new AppError("CONFLICT", "Only a document waiting for signatures can be sent again.");
  const found = await findEnvelopeWithPeople(ctx.db, envelope.id);
  const recipient = found?.recipients.find((one) => one.id === recipientId);
  if (!found || !recipient) throw new AppError("NOT_FOUND", "This recipient is not on the document.");
  if (!currentTurn(found.envelope, found.recipients).some((one) => one.id === recipient.id)) {
    throw new AppError("CONFLICT", recipient.status === "signed" ? `${recipient.name} has already signed.` : `It is not ${recipient.name}'s turn yet: they get the link when the people before them have signed.`);
  }
  const sender = await senderOf(ctx, found.envelope.userId);
  await mailRecipient(ctx, found.envelope, recipient, { reminder: true, senderName: sender.name });
  const now = ctx.now();
  await updateRecipient(ctx.db, recipient.id, { remindersSent: recipient.remindersSent + 1, lastRemindedAt: now });
  await insertEvents(ctx.db, [{ id: crypto.randomUUID(), envelopeId: envelope.id, recipientId: recipient.id, type: "resent", actor: sender.name, ip: ctx.client.ip, userAgent: ctx.client.userAgent, detail: `Sent again to ${recipient.email}`, at: now }]);
  await recordRoomEvent(ctx, found.envelope, userId, "signature.reminded", `${recipient.email}, “${found.envelope.title}”`);
  return getEnvelope(ctx, userId, envelope.id);
}

/** POST /api/signatures/:id/void: nobody can sign any more; those who had the link are told. */
export async function voidEnvelope(ctx: ServiceContext, userId: string, id: unknown, input: unknown): Promise<EnvelopeDetail> {
  const envelope = await requireEnvelope(ctx, userId, id);
  const { reason } = parseInput(voidSchema, input);
  const now = ctx.now();
  if (!(await moveEnvelope(ctx.db, envelope.id, ["draft", "sent"], { status: "voided", voidedAt: now, voidReason: reason || null, updatedAt: now }))) {
    throw new AppError("CONFLICT", envelope.status === "completed" || envelope.status === "sealing" ? "Everyone has signed: a completed document cannot be voided." : "This document is no longer waiting for signatures.");
  }
  await deleteSignatureImages(ctx, envelope);
  const found = await findEnvelopeWithPeople(ctx.db, envelope.id);
  const sender = await senderOf(ctx, envelope.userId);
  for (const recipient of found?.recipients ?? []) {
    if (recipient.status === "waiting" || envelope.status === "draft") continue;
    await sendMail(ctx, { to: recipient.email, userId: null, template: { kind: "signature-voided", name: recipient.name, title: envelope.title, senderName: sender.name, reason } });
  }
  await insertEvents(ctx.db, [{ id: crypto.randomUUID(), envelopeId: envelope.id, type: "voided", actor: (userId === envelope.userId ? sender : await senderOf(ctx, userId)).name, ip: ctx.client.ip, userAgent: ctx.client.userAgent, detail: reason || null, at: now }]);
  await recordRoomEvent(ctx, envelope, userId, "signature.voided", `“${envelope.title}”${reason ? `: ${reason}` : ""}`);
  await signalEnvelopeFinished(ctx, envelope.id);
  return getEnvelope(ctx, userId, envelope.id);
}

/** "Signatures waiting for me" (the dashboard's attention feed): each with the member's own signing link. */
export async function signaturesWaitingFor(ctx: ServiceContext, userId: string, limit: number) {
  const rows = await listWaitingForMember(ctx.db, userId, limit);
  const secret = readConfig(ctx.env).SESSION_SECRET;
  const items = [];
  for (const row of rows) {
    const token = row.tokenSealed ? await decryptSecret(secret, row.tokenSealed, "signing-link") : null;
    if (!token) continue;
    items.push({ id: row.id, title: row.title, senderName: row.senderName, approve: row.kind === "approver", sentAt: row.sentAt, expiresAt: row.expiresAt, href: `/sign/${new TextDecoder().decode(token)}` });
  }
  return items;
}

// ---- lists ---------------------------------------------------------------------------------

const listQuerySchema = z.object({
  view: z.enum(LIST_VIEWS).default("all"),
  q: z.string().trim().max(200).default(""),
  cursor: z.string().max(200).optional(),
});

export type EnvelopePage = { envelopes: EnvelopeSummary[]; nextCursor: string | null; view: (typeof LIST_VIEWS)[number]; q: string };

/** GET /api/signatures (the member's: sent by them or to them) and a room's (`request_signatures`). */
export async function listDocuments(ctx: ServiceContext, userId: string, rawQuery: unknown, dataroomId: string | null = null): Promise<EnvelopePage> {
  const query = parseInput(listQuerySchema, rawQuery);
  if (dataroomId) await requireDataroom(ctx, userId, dataroomId, "request_signatures");
  const email = (await findSenderOf(ctx.db, userId))?.email ?? "";
  const after = decodeCursor(query.cursor);
  const rows = await listEnvelopes(ctx.db, {
    view: query.view,
    email: email.toLowerCase(),
    userId,
    dataroomId,
    words: query.q.split(/\s+/).filter(Boolean).slice(0, 8),
    after: after && typeof after.value === "number" ? { value: after.value, id: after.id } : null,
    limit: LIST_PAGE_SIZE,
  });
  const visible = rows.slice(0, LIST_PAGE_SIZE);
  const last = visible.at(-1);
  return {
    envelopes: visible.map((row) => summaryOf(row.envelope, row.recipients)),
    nextCursor: rows.length > LIST_PAGE_SIZE && last ? encodeCursor({ value: last.envelope.updatedAt.getTime(), id: last.envelope.id }) : null,
    view: query.view,
    q: query.q,
  };
}
