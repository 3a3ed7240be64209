import { decryptSecret } from "~/features/auth/secrets.server";
import { isEncryptedKey } from "~/features/files/encryption-format";
import { newObjectKey, putStoredObject } from "~/features/files/encryption.server";
import { freeNames } from "~/features/files/free-names.server";
import { movedName } from "~/features/files/move.server";
import { sendMail } from "~/features/mail/mailer.server";
import { mailOrigin, notifyMember } from "~/features/notifications/notifications.server";
import { requestContentIndexing } from "~/features/search/search.jobs";
import { readConfig } from "~/lib/config.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { issueRecipientLink, readObjectBytes, recordRoomEvent, signingLink } from "./envelopes.server";
import { sealPdf, type SealRecipient } from "./seal-pdf.server";
import { deleteSignatureImages, imagesForSeal } from "./signature-images.server";
import { RECIPIENT_KIND_LABELS } from "./signature-fields";
import { sha256Hex, signingIdentity } from "./signing-identity.server";
import { signedName } from "./signatures.constants";
import { claimSealedObject, findEnvelopeWithPeople, findSenderOf, folderForSealedFile, insertEvents, insertSealedFile, moveEnvelope } from "./signatures.queries.server";
import { signalEnvelopeFinished } from "~/features/workflows/workflow-signals.server";
import { requestEnvelopeTriggers } from "~/features/workflows/workflows.jobs";

/**
 * The queue job's use case (issue 38): when the last person has signed, the envelope is sealed
 * (seal-pdf.server.ts), kept as the envelope's own object, saved as a new file next to the
 * original ("… (signed).pdf", in the room when it came from one), and everyone gets a link to
 * it by e-mail. Idempotent (delivery is at least once): the first run's sealed object and file
 * stand; a later run finishes what an interrupted one left and sends nothing twice once complete.
 */

/** A UUID derived from a text (the sealed file's id from its envelope's): the same every run. */
async function derivedId(text: string): Promise<string> {
  const hex = await sha256Hex(new TextEncoder().encode(text));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function completeEnvelope(ctx: ServiceContext, envelopeId: string): Promise<"completed" | "skipped"> {
  let found = await findEnvelopeWithPeople(ctx.db, envelopeId);
  if (!found || found.envelope.status !== "sealing") return "skipped";
  const sender = (await findSenderOf(ctx.db, found.envelope.userId)) ?? { name: "A Strongroom member", email: "" };
  const completedAt = found.envelope.completedAt ?? ctx.now();

  // This run's sealed bytes when its object is the one that stands (the file copy below reuses them).
  let sealedBytes: Uint8Array<ArrayBuffer> | null = null;
  if (!found.envelope.sealedKey) {
    const { envelope, recipients, events } = found;
    const original = await readObjectBytes(ctx, envelope.documentKey, envelope.documentSize);
    const values: Record<string, string> = {};
    for (const recipient of recipients) Object.assign(values, recipient.values ?? {});
    const sealRecipients: SealRecipient[] = recipients.map((recipient) => ({
      name: recipient.name,
      email: recipient.email,
      kind: RECIPIENT_KIND_LABELS[recipient.kind],
      verification: recipient.kind === "viewer" ? "Gets a copy by e-mail" : (recipient.verification ?? "E-mail link sent to the address"),
      ip: recipient.ip,
      userAgent: recipient.userAgent,
      sentAt: recipient.sentAt,
      openedAt: recipient.openedAt,
      signedAt: recipient.kind === "viewer" ? completedAt : recipient.signedAt,
    }));
    const sealed = await sealPdf({
      original,
      envelopeId: envelope.id,
      title: envelope.title,
      sender,
      fields: envelope.fields,
      values,
      images: await imagesForSeal(ctx, envelope, recipients),
      recipients: sealRecipients,
      events: [...events.map((event) => ({ at: event.at, who: event.actor, what: event.detail ? `${event.type}: ${event.detail}` : event.type, ip: event.ip })), { at: completedAt, who: "Strongroom", what: "completed: sealed with the platform's certificate", ip: null }],
      completedAt,
      verifyUrl: `${mailOrigin(ctx)}/signatures/verify`,
      identity: await signingIdentity(ctx.env),
    });
    const bytes = new Uint8Array(sealed.bytes);
    const sha256 = await sha256Hex(bytes);
    const key = newObjectKey("signatures", envelope.spaceId, isEncryptedKey(envelope.documentKey));
    await putStoredObject(ctx, key, bytes, { httpMetadata: { contentType: "application/pdf" } });
    if (await claimSealedObject(ctx.db, envelope.id, { key, sha256, size: bytes.byteLength })) sealedBytes = bytes;
    else await ctx.env.FILES.delete(key);
    // The sealed PDF holds the pictures that were used; the uploads themselves go.
    await deleteSignatureImages(ctx, envelope);
    ctx.logger.info("signatures.sealed", { envelopeId: envelope.id, pages: sealed.pageCount, size: bytes.byteLength });
    found = await findEnvelopeWithPeople(ctx.db, envelopeId);
    if (!found || found.envelope.status !== "sealing" || !found.envelope.sealedKey) return "skipped";
  }

  const { envelope, recipients } = found;
  // The sealed file next to the original (or in the space's top folder when that folder is gone).
  const fileId = await derivedId(`sealed:${envelope.id}`);
  const folderId = await folderForSealedFile(ctx.db, envelope.spaceId, envelope.sourceFolderId);
  if (folderId && envelope.sealedKey && envelope.sealedSize !== null && envelope.sealedSha256) {
    const bytes = sealedBytes ?? (await readObjectBytes(ctx, envelope.sealedKey, envelope.sealedSize));
    const [name] = await freeNames(ctx, "file", folderId, [signedName(envelope.documentName)], movedName, new Set());
    const r2Key = newObjectKey("files", envelope.spaceId, isEncryptedKey(envelope.sealedKey));
    await putStoredObject(ctx, r2Key, bytes, { httpMetadata: { contentType: "application/pdf" } });
    const now = ctx.now();
    const inserted = await insertSealedFile(ctx.db, { id: fileId, spaceId: envelope.spaceId, folderId, name: name!, size: bytes.byteLength, contentType: "application/pdf", sha256: envelope.sealedSha256, r2Key, uploadedBy: envelope.userId, createdAt: now, updatedAt: now });
    if (inserted) await requestContentIndexing(ctx, fileId, r2Key);
    else await ctx.env.FILES.delete(r2Key);
  }
  if (!(await moveEnvelope(ctx.db, envelope.id, ["sealing"], { status: "completed", sealedFileId: folderId ? fileId : null, completedAt, updatedAt: ctx.now() }))) return "skipped";
  await insertEvents(ctx.db, [{ id: crypto.randomUUID(), envelopeId: envelope.id, type: "completed", actor: "Strongroom", ip: null, userAgent: null, detail: `Sealed; SHA-256 ${envelope.sealedSha256}`, at: ctx.now() }]);
  await recordRoomEvent(ctx, envelope, null, "signature.completed", `“${envelope.title}”, SHA-256 ${envelope.sealedSha256}`);

  // Everyone gets the signed PDF: recipients through their own link, the sender through the envelope's page.
  const secret = readConfig(ctx.env).SESSION_SECRET;
  const verifyLink = `${mailOrigin(ctx)}/signatures/verify`;
  for (const recipient of recipients) {
    const token = recipient.tokenSealed ? await decryptSecret(secret, recipient.tokenSealed, "signing-link") : null;
    // A viewer (or anyone whose link cannot be read back) gets a link of their own now, to fetch the copy.
    const link = token ? signingLink(ctx, new TextDecoder().decode(token)) : await issueRecipientLink(ctx, recipient.id);
    await sendMail(ctx, { to: recipient.email, userId: null, template: { kind: "signature-completed", name: recipient.name, title: envelope.title, link, sha256: envelope.sealedSha256 ?? "", verifyLink } });
  }
  // The sender hears through their notifications (in the app, and by e-mail as they chose).
  await notifyMember(ctx, { userId: envelope.userId, actorId: null, kind: "signature.completed", title: `“${envelope.title}” is signed by everyone`, excerpt: `Sealed, SHA-256 ${envelope.sealedSha256}. ${folderId ? "The signed PDF is saved next to the original." : ""}`.trim(), link: `/signatures/${envelope.id}` });
  // A workflow that sent it goes on with the signed copy; workflows started by a completed envelope start.
  await signalEnvelopeFinished(ctx, envelope.id);
  await requestEnvelopeTriggers(ctx, envelope);
  return "completed";
}
