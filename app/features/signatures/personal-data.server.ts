import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { deleteSignatureImages } from "./signature-images.server";
import { deleteSignatureDataOf, listEnvelopesSentBy, listOwnTemplates } from "./signatures.queries.server";

/**
 * A member's e-signature records (issue 38): the documents they sent (title, recipients with
 * their statuses and times, the history) and their templates. Never a link token. Erasure
 * deletes them and returns the envelopes' own copies of the PDFs for deletion. A signed PDF saved
 * as a file stays with the files of its space (a room keeps its copy; the member's own files go
 * with theirs). What a member signed in someone else's envelope is that sender's record.
 */
export const signaturesPersonalData = definePersonalDataSource({
  name: "signatures",
  async export(ctx, userId) {
    const sent = await listEnvelopesSentBy(ctx.db, userId);
    const templates = await listOwnTemplates(ctx.db, userId);
    return [
      ...(sent.length
        ? [
            {
              path: "signatures/documents.json",
              description: "The documents you sent for signature: recipients, their answers' times and the history of each.",
              data: sent.map(({ envelope, recipients, events }) => ({
                id: envelope.id,
                title: envelope.title,
                status: envelope.status,
                document: envelope.documentName,
                documentSha256: envelope.documentSha256,
                sealedSha256: envelope.sealedSha256,
                createdAt: envelope.createdAt.toISOString(),
                recipients: recipients.map((recipient) => ({ name: recipient.name, email: recipient.email, kind: recipient.kind, status: recipient.status, signedAt: recipient.signedAt?.toISOString() ?? null, declineReason: recipient.declineReason })),
                history: events.map((event) => ({ at: event.at.toISOString(), type: event.type, actor: event.actor, detail: event.detail })),
              })),
            },
          ]
        : []),
      ...(templates.length ? [{ path: "signatures/templates.json", description: "Your e-signature templates: roles and the fields placed for them.", data: templates.map((template) => ({ id: template.id, name: template.name, document: template.documentName, roles: template.roles, fields: template.fields })) }] : []),
    ];
  },
  async erase(ctx, userId) {
    const { keys, envelopes } = await deleteSignatureDataOf(ctx.db, userId);
    // Pictures of signatures still kept (envelopes not sealed yet) go too.
    for (const envelope of envelopes) await deleteSignatureImages(ctx, envelope);
    return { r2Keys: keys };
  },
});
