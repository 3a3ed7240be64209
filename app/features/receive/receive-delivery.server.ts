import { hashLinkToken, LINK_TOKEN_PATTERN } from "~/features/auth/secrets.server";
import { requestCaseFromReceive } from "~/features/cases/cases.jobs";
import { requestSubmissionTriggers } from "~/features/workflows/workflows.jobs";
import { notifyMember } from "~/features/notifications/notifications.server";
import type { ServiceContext } from "~/lib/service-context.server";
import type { VisitorDelivery } from "~/features/files/visitor-delivery";
import { METADATA_VALUE_MAX } from "~/features/files/files.constants";
import { findLiveFolderByLabel } from "~/features/files/uploads.queries.server";
import { contentRefusal } from "./receive-rules";
import {
  countPendingSubmissionUploads,
  findSubmissionByGrant,
  findSubmissionWithPage,
  insertReceivedMetadata,
  markSubmissionNotified,
  recordDeliveredFile,
  type ReceiveSubmissionRow,
} from "./receive-submissions.queries.server";

/**
 * Delivery of what visitors send through receive pages (issue 24): the grant their uploads run
 * with, the content check on completion, the uploader's details as file metadata ("received
 * via"), and the owner told once a submission's files are all in. Called by the file manager's
 * upload path (uploads.server), which owns the bytes.
 */

/** The holder of a submission's grant: its page's owner (the uploads run in their name) and the submission. */
export async function receiveGrantHolder(ctx: ServiceContext, token: string): Promise<{ userId: string; submissionId: string } | null> {
  if (!LINK_TOKEN_PATTERN.test(token)) return null;
  const submission = await findSubmissionByGrant(ctx.db, hashLinkToken(token));
  return submission ? { userId: submission.userId, submissionId: submission.id } : null;
}

export type ReceivedFileRules = { submission: ReceiveSubmissionRow; allowedTypes: string[] };

export async function receivedFileRules(ctx: ServiceContext, submissionId: string): Promise<ReceivedFileRules | null> {
  const found = await findSubmissionWithPage(ctx.db, submissionId);
  return found ? { submission: found.submission, allowedTypes: found.allowedTypes ?? [] } : null;
}

/** Why a received file's content is refused (its first bytes do not match its type on a page that limits types), or null. */
export function receivedContentRefusal(rules: ReceivedFileRules, name: string, contentType: string): string | null {
  return contentRefusal(rules.allowedTypes.length > 0, name, contentType);
}

const clipValue = (value: string) => (value.length > METADATA_VALUE_MAX ? `${value.slice(0, METADATA_VALUE_MAX - 1)}…` : value);

/** The uploader's details as the file's metadata: where it came from, who sent it and their answers. */
export async function recordReceivedFile(ctx: ServiceContext, rules: ReceivedFileRules, file: { fileId: string; name: string }): Promise<void> {
  const { submission } = rules;
  const fileId = file.fileId;
  await recordDeliveredFile(ctx.db, submission.id, file);
  const entries = [
    { key: "Received via", value: submission.pageTitle },
    { key: "Received at", value: submission.createdAt.toISOString() },
    ...(submission.uploaderName ? [{ key: "Sender name", value: submission.uploaderName }] : []),
    ...(submission.uploaderEmail ? [{ key: "Sender e-mail", value: submission.uploaderEmail }] : []),
    ...submission.answers.map((answer) => ({ key: answer.label.slice(0, 64), value: answer.value })),
  ].map((entry) => ({ key: entry.key, value: clipValue(entry.value) }));
  await insertReceivedMetadata(ctx.db, fileId, entries, ctx.now());
}

/** What happens around a file sent through a receive page: its content check, its audit line, its metadata. */
export async function receiveDelivery(ctx: ServiceContext, submissionId: string): Promise<VisitorDelivery | null> {
  const rules = await receivedFileRules(ctx, submissionId);
  if (!rules) return null;
  return {
    refusal: (file, contentType) => receivedContentRefusal(rules, file.name, contentType),
    auditDetail: receivedAuditDetail(rules),
    record: (file) => recordReceivedFile(ctx, rules, { fileId: file.fileId, name: file.name }),
  };
}

/** How a received file is described in a room's audit log. */
export function receivedAuditDetail(rules: ReceivedFileRules): string {
  const { submission } = rules;
  const who = [submission.uploaderName, submission.uploaderEmail ? `<${submission.uploaderEmail}>` : null].filter(Boolean).join(" ");
  return `received via the receive page “${submission.pageTitle}”${who ? ` from ${who}` : ""}`;
}

/**
 * Once none of a submission's uploads is still on its way, its owner is told, once (in the app and
 * by e-mail as they chose): who sent how many files through which page, linking the folder.
 * `place` is where the submission's uploads go (the page's folder in its space).
 */
export async function settleSubmission(ctx: ServiceContext, submissionId: string, place: { spaceId: string; folderId: string }): Promise<void> {
  if ((await countPendingSubmissionUploads(ctx.db, submissionId)) > 0) return;
  const found = await findSubmissionWithPage(ctx.db, submissionId);
  const delivered = found?.submission.delivered ?? [];
  if (!found || delivered.length === 0) return;
  if (!(await markSubmissionNotified(ctx.db, submissionId, ctx.now()))) return;
  const { submission } = found;
  // The link: the sender's own folder when the page keeps one, else the page's folder.
  const folder = submission.folderLabel ? await findLiveFolderByLabel(ctx.db, place.spaceId, place.folderId, submission.folderLabel) : undefined;
  const who = submission.uploaderName ?? submission.uploaderEmail ?? "Someone";
  const count = `${delivered.length} file${delivered.length === 1 ? "" : "s"}`;
  await notifyMember(ctx, {
    userId: submission.userId,
    actorId: null,
    kind: "receive.files",
    title: `${who} sent ${count} through “${submission.pageTitle}”`,
    excerpt: delivered.map((file) => file.name).join(", "),
    link: `/folders/${folder?.id ?? place.folderId}`,
  });
  // The page opens a case for each submission, or was sent for a case: its files go into the case file (a job, retried until done).
  await requestCaseFromReceive(ctx, submissionId, found.caseTypeId !== null);
  // The page's workflows start one run each about the files that came (a job; once per submission).
  if (submission.pageId) await requestSubmissionTriggers(ctx, { kind: "receive", id: submissionId, sourceId: submission.pageId });
  ctx.logger.info("receive submission delivered", { submissionId, files: delivered.length });
}
