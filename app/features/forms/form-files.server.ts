import { requestCaseFromForm } from "~/features/cases/cases.jobs";
import { requestSubmissionTriggers } from "~/features/workflows/workflows.jobs";
import { withinLimit } from "~/features/access/access-check";
import { LINK_TOKEN_PATTERN, hashLinkToken, newLinkToken } from "~/features/auth/secrets.server";
import { newObjectKey, sealsObjects } from "~/features/files/encryption.server";
import { UPLOAD_EXPIRY_MS, partSizeFor } from "~/features/files/files.constants";
import { defaultFolderId } from "~/features/files/folders.server";
import { listUploadTargets, type UploadTarget } from "~/features/files/organize.server";
import { requireFolderAccess } from "~/features/files/spaces.server";
import { assertFilesFit, spaceUsage } from "~/features/files/storage.server";
import type { VisitorDelivery } from "~/features/files/visitor-delivery";
import { contentRefusal, uploaderFolderLabel } from "~/features/receive/receive-rules";
import { notifyMember } from "~/features/notifications/notifications.server";
import { auditRoom } from "~/features/datarooms/audit-record.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import type { FormSubmissionFile } from "~/db/schema";
import { readChosenFiles } from "./form-answers";
import type { AnswerValue } from "./form-logic";
import type { FormDefinition } from "./form-fields";
import { enqueueSubmissionWebhooks } from "./form-webhooks.server";
import { countPendingFormUploads, findFormSubmissionByGrant, findSubmissionWithForm, markFormSubmissionSettled, recordFormFile, type FormRow, type NewFormUpload } from "./forms.queries.server";

/**
 * A form's file answers (issue 37, docs/forms.md). The visitor's browser sends the names and sizes
 * with the answers; the server checks them against their questions, the owner's folder, quota and
 * limits, all together, and only then writes the submission with one resumable upload per file
 * and a grant (≥ 128 bits, kept hashed). The bytes then go through the file manager's tus path in
 * the owner's name, into the form's folder (or a subfolder per submission), and are checked by
 * their content like every upload. The owner hears of the submission once its files are all in.
 */

/** The folders a form's files may go to: every folder the member may upload into, theirs or a room's (their Inbox first). */
export async function listFormFileTargets(ctx: ServiceContext, userId: string): Promise<UploadTarget[]> {
  return listUploadTargets(ctx, userId, await defaultFolderId(ctx, userId, "inbox"));
}

export type FormUpload = { id: string; fieldId: string; name: string; size: number; partSize: number };
export type FormFilesStarted = { grant: string; uploads: FormUpload[] };

type Chosen = { fieldId: string; name: string; size: number; checkType: boolean };

/** The files of the answered file questions that were shown (a hidden question's files are never taken). */
export function chosenFilesOf(definition: FormDefinition, raw: Readonly<Record<string, unknown>>, values: Readonly<Record<string, AnswerValue>>): Chosen[] {
  const chosen: Chosen[] = [];
  for (const field of definition.fields) {
    if (field.type !== "file" || values[field.id] === undefined) continue;
    for (const file of readChosenFiles(field, raw[field.id]).files ?? []) chosen.push({ fieldId: field.id, name: file.name, size: file.size, checkType: (field.accept?.length ?? 0) > 0 });
  }
  return chosen;
}

const NO_ROOM = "These files do not fit: the storage of the person you are sending them to is full. Nothing was sent; let them know.";
const NO_FOLDER = "This form cannot take files at the moment. Nothing was sent; tell the person who sent you the link.";

/** The subfolder of one submission: the person's name and e-mail when the form asks them, else the time and a short id. */
function submissionFolderLabel(definition: FormDefinition, values: Readonly<Record<string, AnswerValue>>, submissionId: string, now: Date): string {
  const answerOf = (test: (label: string, type: string) => boolean) => {
    const field = definition.fields.find((candidate) => test(candidate.label, candidate.type) && typeof values[candidate.id] === "string");
    return field ? (values[field.id] as string) : null;
  };
  const email = answerOf((_, type) => type === "email");
  const name = answerOf((label, type) => type === "short_text" && /\bname\b/i.test(label));
  if (name || email) return uploaderFolderLabel(name, email);
  return `Submission ${now.toISOString().slice(0, 16).replace("T", " ").replace(":", ".")} ${submissionId.slice(0, 8)}`;
}

export type PreparedFiles = {
  token: string;
  grantHash: string;
  entries: FormSubmissionFile[];
  target: { spaceId: string; folderId: string; expiresAt: Date };
  uploads: NewFormUpload[];
};

/**
 * Everything checked before anything is written: the form has a folder its owner may still upload
 * into, and all the files together fit the owner's quota, file and folder limits. Refusals are
 * whole (413, 410): the visitor is told and nothing is kept.
 */
export async function prepareFormFiles(ctx: ServiceContext, form: FormRow, chosen: readonly Chosen[], context: { definition: FormDefinition; values: Readonly<Record<string, AnswerValue>>; submissionId: string; now: Date }): Promise<PreparedFiles> {
  if (!form.fileFolderId) throw new AppError("GONE", NO_FOLDER);
  const folder = await requireFolderAccess(ctx, form.userId, form.fileFolderId, "files.upload").catch(() => {
    throw new AppError("GONE", NO_FOLDER);
  });
  const usage = await spaceUsage(ctx, folder.spaceId);
  const bytes = chosen.reduce((sum, file) => sum + file.size, 0);
  try {
    assertFilesFit(usage, chosen[0]!.name, bytes, chosen.length);
  } catch {
    throw new AppError("PAYLOAD_TOO_LARGE", NO_ROOM);
  }
  const label = form.filesPerSubmission ? submissionFolderLabel(context.definition, context.values, context.submissionId, context.now) : "";
  if (label && !withinLimit(usage.access.limits, "max_dataroom_folders", usage.folderCount, 1)) throw new AppError("PAYLOAD_TOO_LARGE", NO_ROOM);
  const seal = sealsObjects(folder.roomPermissions !== null, usage.access);
  const uploads = chosen.map((file) => ({ id: crypto.randomUUID(), name: file.name, relativePath: label, length: file.size, partSize: partSizeFor(file.size), r2Key: newObjectKey("files", folder.spaceId, seal) }));
  const { token, hash } = newLinkToken();
  return {
    token,
    grantHash: hash,
    entries: uploads.map((upload, index) => ({ uploadId: upload.id, fieldId: chosen[index]!.fieldId, name: upload.name, size: upload.length, checkType: chosen[index]!.checkType, fileId: null })),
    target: { spaceId: folder.spaceId, folderId: form.fileFolderId, expiresAt: new Date(context.now.getTime() + UPLOAD_EXPIRY_MS) },
    uploads,
  };
}

export function startedFiles(prepared: PreparedFiles): FormFilesStarted {
  return {
    grant: prepared.token,
    uploads: prepared.uploads.map((upload, index) => ({ id: upload.id, fieldId: prepared.entries[index]!.fieldId, name: upload.name, size: upload.length, partSize: upload.partSize })),
  };
}

/** The holder of a form submission's grant: the form's owner (the uploads run in their name) and the submission. */
export async function formGrantHolder(ctx: ServiceContext, token: string): Promise<{ userId: string; submissionId: string } | null> {
  if (!LINK_TOKEN_PATTERN.test(token)) return null;
  const found = await findFormSubmissionByGrant(ctx.db, hashLinkToken(token));
  return found ? { userId: found.ownerId, submissionId: found.id } : null;
}

/** What happens around a file sent as a form's answer: its content check, its audit line, and the submission noting the file. */
export async function formFileDelivery(ctx: ServiceContext, submissionId: string): Promise<VisitorDelivery | null> {
  const found = await findSubmissionWithForm(ctx.db, submissionId);
  if (!found) return null;
  const { submission, form } = found;
  return {
    refusal: ({ uploadId, name }, contentType) => contentRefusal(submission.files.find((file) => file.uploadId === uploadId)?.checkType ?? false, name, contentType),
    auditDetail: `received with a submission to the form “${form.title}”`,
    record: (file) => recordFormFile(ctx.db, submissionId, file),
  };
}

/**
 * Once none of a submission's uploads is on its way (arrived, withdrawn, refused or given up), the
 * owner is told, once: in the app and by e-mail as they chose, and the form's webhooks are sent.
 */
export async function settleFormSubmission(ctx: ServiceContext, submissionId: string): Promise<void> {
  if ((await countPendingFormUploads(ctx.db, submissionId)) > 0) return;
  if (!(await markFormSubmissionSettled(ctx.db, submissionId, ctx.now()))) return;
  const found = await findSubmissionWithForm(ctx.db, submissionId);
  if (!found || found.submission.isTest) return;
  await announceSubmission(ctx, found.form, found.submission);
}

/** The data room the form's folder is in (its submissions go into that room's audit log), or null. */
async function roomOfForm(ctx: ServiceContext, form: FormRow): Promise<string | null> {
  if (!form.fileFolderId) return null;
  const folder = await requireFolderAccess(ctx, form.userId, form.fileFolderId, "files.upload").catch(() => null);
  return folder && folder.roomPermissions !== null ? folder.spaceId : null;
}

/**
 * The owner hears of a submission: live in their open tabs, in "Needs your attention", by e-mail as
 * they chose; its webhooks go out; and when the form delivers into a data room's folder, the room's
 * audit log records it (a visitor without an account: no actor, their confirmed address in the detail).
 */
export async function announceSubmission(ctx: ServiceContext, form: FormRow, submission: { id: string; version: number; answers: Record<string, AnswerValue>; files: FormSubmissionFile[]; verifiedEmail: string | null }): Promise<void> {
  await enqueueSubmissionWebhooks(ctx, form, submission.id);
  // The form opens a case for each submission, or the submission answers a form sent for a case (a job, retried until done; once per submission).
  await requestCaseFromForm(ctx, submission.id, form.caseTypeId !== null);
  // The form's workflows start one run each about the submission (a job; once per submission).
  await requestSubmissionTriggers(ctx, { kind: "form", id: submission.id, sourceId: form.id });
  // The answers themselves stay in the app (a notice or an e-mail never carries them).
  const count = Object.keys(submission.answers).length;
  const arrived = submission.files.filter((file) => file.fileId !== null).length;
  const missing = submission.files.length - arrived;
  const files = submission.files.length === 0 ? "" : `, ${arrived} file${arrived === 1 ? "" : "s"}${missing ? ` (${missing} did not arrive)` : ""}`;
  const excerpt = `${count} answer${count === 1 ? "" : "s"}${files}, version ${submission.version}.`;
  await notifyMember(ctx, { userId: form.userId, actorId: null, kind: "form.submission", title: `New submission to “${form.title}”`, excerpt, link: `/forms/${form.id}/submissions/${submission.id}` });
  const roomId = await roomOfForm(ctx, form);
  if (roomId) {
    await auditRoom(ctx, roomId, null, { action: "form.submission", target: { type: "form", id: form.id, name: form.title }, detail: `${excerpt.slice(0, -1)}${submission.verifiedEmail ? `, from ${submission.verifiedEmail} (confirmed)` : ""}` });
  }
}
