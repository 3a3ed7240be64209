import { z } from "zod";
import { checkFeature, withinLimit } from "~/features/access/access-check";
import { loadMemberAccess } from "~/features/access/access.server";
import { consumeAttempt } from "~/features/auth/attempt-limits.server";
import { isPageUnlocked, type PageLock, unlockPage } from "~/features/auth/page-unlock.server";
import { LINK_TOKEN_PATTERN, hashLinkToken, newLinkToken } from "~/features/auth/secrets.server";
import { verifyTurnstile } from "~/features/auth/turnstile.server";
import { newObjectKey, sealsObjects } from "~/features/files/encryption.server";
import { FOLDER_DEPTH_MAX, UPLOAD_EXPIRY_MS, partSizeFor } from "~/features/files/files.constants";
import { requireFolderAccess } from "~/features/files/spaces.server";
import { assertFilesFit, spaceUsage } from "~/features/files/storage.server";
import { SLUG_MAX, SLUG_PATTERN } from "~/features/sharing/sharing.constants";
import { readConfig } from "~/lib/config.server";
import { readCookie } from "~/lib/cookies";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import type { ReceiveField } from "~/db/schema";
import { RECEIVE_FILES_PER_UPLOADER_MAX, RECEIVE_SUBMISSIONS_PER_HOUR } from "./receive.constants";
import type { ReceivePageRow } from "./receive.queries.server";
import { cleanReceivedName, fileRefusal, uploaderFolderLabel } from "./receive-rules";
import { readReceivePageLogo } from "./receive-logo.server";
import { receiveLogoPath } from "./receive.server";
import { countFilesFromEmail, findReceivePageByAddress, insertSubmissionWithUploads, type NewReceivedUpload } from "./receive-submissions.queries.server";
import { receiveFormAnswers, receivePageQuestions, type ReceivePageQuestions } from "~/features/forms/form-receive.server";
import { signalCaseRequestAnswered } from "~/features/cases/case-requests.server";

/**
 * A receive page's public side (issue 24, docs/receive-pages.md): what a visitor sees at
 * /r/{slug or token}, the password gate, and a submission: the visitor's details and answers and
 * the files they are about to send, checked whole (the page's rules, the owner's quota and
 * limits) and turned into resumable uploads at once, so a submission that does not fit leaves
 * nothing behind. The uploads then run through the file manager's tus path with the submission's
 * grant, in the owner's name, into the page's folder (or the person's own folder below it).
 */

export type PublicReceivePage = {
  title: string;
  message: string;
  kind: ReceivePageRow["kind"];
  ownerName: string;
  brandColor: string | null;
  logoPath: string | null;
  deadlineAt: string | null;
  allowedTypes: string[];
  maxFileMb: number | null;
  maxFiles: number;
  requireName: boolean;
  requireEmail: boolean;
  perUploaderFolders: boolean;
  fields: ReceiveField[];
  /** The questions of the form the page is backed by (instead of `fields`), or null. */
  form: Pick<ReceivePageQuestions, "title" | "definition"> | null;
  turnstileSiteKey: string | null;
};

export type ReceiveOpening =
  | { state: "missing" }
  | { state: "closed"; title: string; ownerName: string }
  | { state: "past-deadline"; title: string; ownerName: string; deadlineAt: string }
  | { state: "password"; title: string; ownerName: string; brandColor: string | null; logoPath: string | null }
  | { state: "open"; page: PublicReceivePage };

const PAGE_MISSING = "This receive page does not exist. Check the address you were given.";
const PAGE_CLOSED = "This page is closed: it takes no more files. Ask the person who sent you the link.";

type Found = { page: ReceivePageRow; ownerName: string };

async function findByAddress(ctx: ServiceContext, address: string): Promise<Found | undefined> {
  if (LINK_TOKEN_PATTERN.test(address)) return findReceivePageByAddress(ctx.db, { tokenHash: hashLinkToken(address) });
  const slug = address.toLowerCase();
  if (slug.length <= SLUG_MAX && SLUG_PATTERN.test(slug)) return findReceivePageByAddress(ctx.db, { slug });
  return undefined;
}

/** Whether the page takes files now: open, before its deadline, and its owner still allowed receive pages. */
async function standing(ctx: ServiceContext, { page }: Found): Promise<"open" | "closed" | "past-deadline"> {
  if (!page.isOpen) return "closed";
  if (page.deadlineAt && page.deadlineAt.getTime() <= ctx.now().getTime()) return "past-deadline";
  const access = await loadMemberAccess(ctx, page.userId);
  return checkFeature(access, "receive_pages") ? "open" : "closed";
}

// ---- the password gate: a signed cookie bound to the page and its current password ----------------

export const RECEIVE_UNLOCK_COOKIE = "receive_unlock";
export const RECEIVE_UNLOCK_TTL_MS = 12 * 3600_000;

/** The Set-Cookie value for an unlocked page (the API's submissions need it too, so its path is /). */
export function receiveUnlockCookie(value: string, isSecure: boolean): string {
  return `${RECEIVE_UNLOCK_COOKIE}=${value}; Path=/; Max-Age=${RECEIVE_UNLOCK_TTL_MS / 1000}; HttpOnly; SameSite=Lax${isSecure ? "; Secure" : ""}`;
}

export function readReceiveUnlockCookie(cookieHeader: string | null | undefined): string | null {
  return readCookie(cookieHeader, RECEIVE_UNLOCK_COOKIE);
}

const lockOf = (page: ReceivePageRow): PageLock => ({ purpose: "receive-unlock", id: page.id, passwordHash: page.passwordHash });

/** Whether the cookie unlocks this page: genuine, for it, not expired, and made under its current password. */
function isUnlocked(ctx: ServiceContext, page: ReceivePageRow, cookie: string | null | undefined): Promise<boolean> {
  return isPageUnlocked(ctx, lockOf(page), cookie);
}

function publicView(ctx: ServiceContext, address: string, { page, ownerName }: Found, questions: ReceivePageQuestions | null): PublicReceivePage {
  const config = readConfig(ctx.env);
  return {
    title: page.title,
    message: page.message,
    kind: page.kind,
    ownerName,
    brandColor: page.brandColor,
    logoPath: receiveLogoPath(`/r/${address}`, page.logoKey),
    deadlineAt: page.deadlineAt?.toISOString() ?? null,
    allowedTypes: page.allowedTypes,
    maxFileMb: page.maxFileMb,
    maxFiles: page.maxFilesPerUploader ?? RECEIVE_FILES_PER_UPLOADER_MAX,
    requireName: page.requireName,
    requireEmail: page.requireEmail,
    perUploaderFolders: page.perUploaderFolders,
    fields: page.kind === "form" && !page.formId ? page.fields : [],
    form: page.kind === "form" && questions ? { title: questions.title, definition: questions.definition } : null,
    turnstileSiteKey: config.isTurnstileEnabled ? (config.TURNSTILE_SITE_KEY ?? null) : null,
  };
}

/** What a visitor sees at /r/{address}. Reads only. */
export async function openReceivePage(ctx: ServiceContext, address: string, cookie: string | null | undefined): Promise<ReceiveOpening> {
  const found = await findByAddress(ctx, address);
  if (!found) return { state: "missing" };
  const { page, ownerName } = found;
  const state = await standing(ctx, found);
  if (state === "closed") return { state, title: page.title, ownerName };
  if (state === "past-deadline") return { state, title: page.title, ownerName, deadlineAt: page.deadlineAt!.toISOString() };
  if (!(await isUnlocked(ctx, page, cookie))) return { state: "password", title: page.title, ownerName, brandColor: page.brandColor, logoPath: receiveLogoPath(`/r/${address}`, page.logoKey) };
  return { state: "open", page: publicView(ctx, address, found, await receivePageQuestions(ctx, page.userId, page.formId)) };
}

/** GET /r/{address}/logo: the page's logo (shown on its gate and its form), or null. */
export async function receivePageLogo(ctx: ServiceContext, address: string) {
  const found = await findByAddress(ctx, address);
  return found ? readReceivePageLogo(ctx, { key: found.page.logoKey, type: found.page.logoType }) : null;
}

const unlockSchema = z.object({ password: z.string({ error: "Enter the page's password." }).min(1, "Enter the page's password.").max(1_000) }, { error: "Enter the page's password." });

/**
 * The password gate: a wrong password is counted per page and per address (the attempt limiter,
 * S11); the right one gives the cookie's value (12 hours, this page, this password).
 */
export async function unlockReceivePage(ctx: ServiceContext, address: string, input: unknown): Promise<string> {
  const found = await findByAddress(ctx, address);
  if (!found) throw new AppError("NOT_FOUND", PAGE_MISSING);
  const { password } = parseInput(unlockSchema, input);
  return unlockPage(ctx, lockOf(found.page), password, { action: "receive-password", ttlMs: RECEIVE_UNLOCK_TTL_MS, wrong: "That password is not right. Check it with the person who sent you the link." });
}

// ---- a submission ---------------------------------------------------------------------------------

const submissionSchema = z.object(
  {
    address: z.string({ error: "address: Which page is this for?" }).min(1).max(200),
    name: z.string().trim().max(100, "A name is at most 100 characters.").default(""),
    email: z.union([z.literal(""), z.email({ error: "Enter a valid e-mail address." }).trim().toLowerCase().max(254)]).default(""),
    // A form-backed page's answers take the form's shapes (choices, a drawn signature); each is checked by its question.
    answers: z.record(z.string().max(40), z.union([z.string().max(50_000, "An answer is at most 50,000 characters."), z.boolean(), z.array(z.string().max(1_000)).max(100)])).default({}),
    files: z
      .array(
        z.object({
          name: z.string({ error: "Each file needs a name." }).min(1, "Each file needs a name.").max(1_000),
          size: z.number({ error: "Each file needs its size in bytes." }).int().min(0),
          relativePath: z.string().max(4_000).default(""),
        }),
      )
      .min(1, "Add at least one file.")
      .max(RECEIVE_FILES_PER_UPLOADER_MAX, `At most ${RECEIVE_FILES_PER_UPLOADER_MAX} files at once.`),
    /** The honeypot: a field people never see, so never fill. */
    website: z.string().max(500).default(""),
    turnstileToken: z.string().max(2_048).optional(),
    /** The ticket of a case's request when the page was sent for a case (the link's ?task=); anything else is ignored. */
    task: z.string().max(200).optional(),
  },
  { error: "The request body must be an object with the page's address and the files." },
);

export type ReceivedUpload = { id: string; name: string; relativePath: string; size: number; partSize: number };
export type SubmissionStarted = { submissionId: string; grant: string; folderLabel: string | null; uploads: ReceivedUpload[] };

/** The answers to the page's fields, checked against them: [{ label, value }] in the page's order. */
function readAnswers(fields: readonly ReceiveField[], answers: Record<string, string | boolean | string[]>): { label: string; value: string }[] {
  const errors: Record<string, string[]> = {};
  const read: { label: string; value: string }[] = [];
  for (const field of fields) {
    const raw = answers[field.id];
    let value = "";
    if (field.type === "checkbox") value = raw === true || raw === "on" || raw === "true" ? "Yes" : "";
    else if (typeof raw === "string") value = raw.trim();
    if (value.length > 1_000) errors[field.id] = ["An answer is at most 1,000 characters."];
    else if (value && field.type === "select" && !field.options?.includes(value)) errors[field.id] = [`Choose one of the choices for “${field.label}”.`];
    else if (value && field.type === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(value)) errors[field.id] = [`“${field.label}” is a date (YYYY-MM-DD).`];
    else if (!value && field.required) errors[field.id] = [field.type === "checkbox" ? `Tick “${field.label}”.` : `Fill in “${field.label}”.`];
    if (value) read.push({ label: field.label, value: field.type === "checkbox" ? "Yes" : value });
    else if (field.type === "checkbox") read.push({ label: field.label, value: "No" });
  }
  const first = Object.values(errors)[0]?.[0];
  if (first) throw new AppError("VALIDATION_ERROR", first, { fieldErrors: errors });
  return read;
}

/** Words a visitor can act on when the owner's space cannot take the files (their plan's details are not the visitor's business). */
const NO_ROOM = "These files do not fit: the storage of the person you are sending to is full. Nothing was sent; let them know.";

/**
 * POST /api/receive-submissions. Checks, in order: the page takes files (open, before its deadline,
 * unlocked), the honeypot and Turnstile, the rate limits (per address on this page, and per address),
 * the visitor's details and answers, every file (cleaned name, type, size, count), then the owner's
 * folder, quota and limits for all the files together. Only then is anything written: the
 * submission and its uploads, in one batch.
 */
export async function submitToReceivePage(ctx: ServiceContext, cookie: string | null | undefined, input: unknown): Promise<SubmissionStarted> {
  const data = parseInput(submissionSchema, input);
  const found = await findByAddress(ctx, data.address);
  if (!found) throw new AppError("NOT_FOUND", PAGE_MISSING);
  const { page } = found;
  const state = await standing(ctx, found);
  if (state === "closed") throw new AppError("GONE", PAGE_CLOSED);
  if (state === "past-deadline") throw new AppError("GONE", `This page stopped taking files on ${page.deadlineAt!.toISOString().slice(0, 16).replace("T", " ")} UTC. Ask the person who sent you the link.`);
  if (!(await isUnlocked(ctx, page, cookie))) throw new AppError("UNAUTHENTICATED", "Enter the page's password first (reload the page).");

  const ip = ctx.client.ip;
  if (data.website) {
    ctx.logger.warn("receive page honeypot filled", { pageId: page.id });
    throw new AppError("VALIDATION_ERROR", "This submission could not be accepted.");
  }
  const config = readConfig(ctx.env);
  if (!(await verifyTurnstile(config, { token: data.turnstileToken, ip, idempotencyKey: crypto.randomUUID() }))) {
    throw new AppError("FORBIDDEN", "Confirm you are a person (the check above the Send button), then send again.");
  }
  await consumeAttempt(ctx.env, "receive-submit", { account: `${page.id}:${ip ?? "unknown"}`, ip }, { limit: RECEIVE_SUBMISSIONS_PER_HOUR, windowMs: 3600_000 }, (minutes) =>
    `Too many submissions from your network. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
  );

  const name = data.name || null;
  const email = data.email || null;
  if (page.requireName && !name) throw new AppError("VALIDATION_ERROR", "Enter your name.", { fieldErrors: { name: ["Enter your name."] } });
  if (page.requireEmail && !email) throw new AppError("VALIDATION_ERROR", "Enter your e-mail address.", { fieldErrors: { email: ["Enter your e-mail address."] } });
  const questions = page.kind === "form" ? await receivePageQuestions(ctx, page.userId, page.formId) : null;
  const answers = questions ? receiveFormAnswers(questions, data.answers) : readAnswers(page.kind === "form" && !page.formId ? page.fields : [], data.answers);

  const folderLabel = page.perUploaderFolders && (name || email) ? uploaderFolderLabel(name, email) : null;
  const files = data.files.map((file) => {
    const cleaned = cleanReceivedName(file.name);
    const refusal = fileRefusal(page, { name: cleaned, size: file.size });
    if (refusal) throw new AppError(file.size === 0 ? "VALIDATION_ERROR" : "PAYLOAD_TOO_LARGE", refusal);
    const path = file.relativePath
      .split("/")
      .filter((segment) => segment.trim() !== "")
      .map((segment) => cleanReceivedName(segment, "folder"));
    const full = folderLabel ? [folderLabel, ...path] : path;
    if (full.length > FOLDER_DEPTH_MAX) throw new AppError("VALIDATION_ERROR", `“${file.name}” is in too many nested folders (at most ${FOLDER_DEPTH_MAX}).`);
    return { name: cleaned, size: file.size, relativePath: full.join("/") };
  });
  if (page.maxFilesPerUploader !== null) {
    const earlier = email ? await countFilesFromEmail(ctx.db, page.id, email) : 0;
    if (earlier + files.length > page.maxFilesPerUploader) {
      throw new AppError(
        "VALIDATION_ERROR",
        `This page takes at most ${page.maxFilesPerUploader} file${page.maxFilesPerUploader === 1 ? "" : "s"} from each person${earlier ? `; you have sent ${earlier} already` : ""}. Remove ${earlier + files.length - page.maxFilesPerUploader}.`,
      );
    }
  }

  // The owner's folder, quota and limits, for all the files together.
  const folder = await requireFolderAccess(ctx, page.userId, page.folderId, "files.upload").catch(() => {
    throw new AppError("GONE", PAGE_CLOSED);
  });
  const usage = await spaceUsage(ctx, folder.spaceId);
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  try {
    assertFilesFit(usage, files[0]!.name, bytes, files.length);
  } catch {
    throw new AppError("PAYLOAD_TOO_LARGE", NO_ROOM);
  }
  // Every folder the files name counts as new (an upper bound: existing ones are found on completion).
  const newFolders = new Set(files.flatMap((file) => file.relativePath.split("/").filter(Boolean).map((_, index, all) => all.slice(0, index + 1).join("/")))).size;
  if (newFolders > 0 && !withinLimit(usage.access.limits, "max_dataroom_folders", usage.folderCount, newFolders)) throw new AppError("PAYLOAD_TOO_LARGE", NO_ROOM);

  const { token, hash } = newLinkToken();
  const now = ctx.now();
  const seal = sealsObjects(folder.roomPermissions !== null, usage.access);
  const uploads: NewReceivedUpload[] = files.map((file) => ({
    id: crypto.randomUUID(),
    name: file.name,
    relativePath: file.relativePath,
    length: file.size,
    partSize: partSizeFor(file.size),
    r2Key: newObjectKey("files", folder.spaceId, seal),
  }));
  const submissionId = crypto.randomUUID();
  await insertSubmissionWithUploads(
    ctx.db,
    { id: submissionId, pageId: page.id, userId: page.userId, pageTitle: page.title, uploaderName: name, uploaderEmail: email, answers, grantHash: hash, folderLabel, fileCount: files.length, bytes, createdAt: now },
    { spaceId: folder.spaceId, folderId: page.folderId, expiresAt: new Date(now.getTime() + UPLOAD_EXPIRY_MS) },
    uploads,
  );
  // Sent for a case (the link carried a case's ticket): the submission answers it, filed into the case once its files are in.
  await signalCaseRequestAnswered(ctx, { ticket: data.task, source: { kind: "receive", id: page.id }, submissionId });
  ctx.logger.info("receive page submission", { pageId: page.id, submissionId, files: files.length, bytes });
  return {
    submissionId,
    grant: token,
    folderLabel,
    uploads: uploads.map((upload) => ({ id: upload.id, name: upload.name, relativePath: upload.relativePath, size: upload.length, partSize: upload.partSize })),
  };
}
