import { z } from "zod";
import { TIER_LABELS } from "~/features/access/access.constants";
import { consumeAttempt } from "~/features/auth/attempt-limits.server";
import { decryptSecret, encryptSecret, hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from "~/features/auth/secrets.server";
import { notifyMember } from "~/features/notifications/notifications.server";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { maxSealedFileSize, secretPlan } from "./secret-plan.server";
import { expiryLabel, SECRET_RECEIPT_DAYS, SECRETS_PER_HOUR } from "./secrets.constants";
import { answerSchema, createRequestSchema } from "./secrets.schema";
import {
  closeRequest,
  countOpenRequests,
  deleteRequest,
  findOwnRequest,
  findAnswerFileOfOwner,
  findGrantedAnswerFile,
  findPendingAnswerFile,
  findRequestByTokenHash,
  findRequesterName,
  insertAnswer,
  listAnswerFileKeys,
  listAnswerFiles,
  listPurgeableAnswerFileKeys,
  markAnswerFileReady,
  insertSecretRequest,
  listRequestsOf,
  listResponses,
  purgeRequests,
  type SecretRequestRow,
} from "./secret-requests.queries.server";

/**
 * Requests for secrets (issue 23, docs/secrets.md): the member asks, anyone with the link answers,
 * sealed in their browser to the request's public key; only the member's browser opens answers
 * (the private key is stored wrapped by a passphrase we never see). The member is notified of
 * each answer.
 */

const HOUR_MS = 3_600_000;
export const REQUEST_NOT_FOUND = "This request does not exist or you don't have access to it.";

export type RequestStatus = "open" | "full" | "closed" | "expired";

function statusOf(row: Pick<SecretRequestRow, "closedAt" | "expiresAt" | "responseCount" | "maxResponses">, now: Date): RequestStatus {
  if (row.closedAt) return "closed";
  if (row.responseCount >= row.maxResponses) return "full";
  if (row.expiresAt.getTime() <= now.getTime()) return "expired";
  return "open";
}

export type SecretRequestView = { id: string; label: string; message: string; status: RequestStatus; responseCount: number; maxResponses: number; expiresAt: string; createdAt: string };

function toView(row: SecretRequestRow, now: Date): SecretRequestView {
  return { id: row.id, label: row.label, message: row.message, status: statusOf(row, now), responseCount: row.responseCount, maxResponses: row.maxResponses, expiresAt: row.expiresAt.toISOString(), createdAt: row.createdAt.toISOString() };
}

async function linkOf(ctx: ServiceContext, row: SecretRequestRow): Promise<string> {
  const token = await decryptSecret(readConfig(ctx.env).SESSION_SECRET, row.tokenSealed, "secret-request");
  return token ? `/secret-request/${new TextDecoder().decode(token)}` : "";
}

/** POST /api/secret-requests → 201 { request, path } (the path to share, with its token). */
export async function createSecretRequest(ctx: ServiceContext, userId: string, input: unknown): Promise<{ request: SecretRequestView; path: string }> {
  const data = parseInput(createRequestSchema, input);
  const { access, limits } = await secretPlan(ctx, userId);
  if (data.expiresInHours > limits.maxExpiryHours) {
    throw new AppError("FORBIDDEN", `Your ${TIER_LABELS[access.tier]} plan keeps requests open for at most ${expiryLabel(limits.maxExpiryHours)}. Choose a shorter time, or upgrade your plan for up to 30 days.`);
  }
  const now = ctx.now();
  if (limits.liveSecrets !== -1 && (await countOpenRequests(ctx.db, userId, now)) >= limits.liveSecrets) {
    throw new AppError("FORBIDDEN", `Your ${TIER_LABELS[access.tier]} plan allows ${limits.liveSecrets} open requests at a time. Close one you no longer need, or upgrade your plan for more.`);
  }
  await consumeAttempt(ctx.env, "secret-create", { account: userId }, { limit: SECRETS_PER_HOUR, windowMs: HOUR_MS }, (minutes) => `You created ${SECRETS_PER_HOUR} secrets and requests in the last hour, the most at a time. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`);
  const { token, hash } = newLinkToken();
  const row = {
    id: crypto.randomUUID(),
    userId,
    tokenHash: hash,
    tokenSealed: await encryptSecret(readConfig(ctx.env).SESSION_SECRET, new TextEncoder().encode(token), "secret-request"),
    message: data.message,
    label: data.label,
    publicKey: data.publicKey,
    wrappedKey: data.wrappedKey,
    kdf: data.kdf,
    maxResponses: data.maxResponses,
    responseCount: 0,
    expiresAt: new Date(now.getTime() + data.expiresInHours * HOUR_MS),
    closedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await insertSecretRequest(ctx.db, row);
  ctx.logger.info("secret request created", { userId, requestId: row.id });
  return { request: toView(row, now), path: `/secret-request/${token}` };
}

export async function listSecretRequests(ctx: ServiceContext, userId: string): Promise<SecretRequestView[]> {
  const now = ctx.now();
  return (await listRequestsOf(ctx.db, userId, 200)).map((row) => toView(row, now));
}

async function ownRequest(ctx: ServiceContext, userId: string, rawId: unknown): Promise<SecretRequestRow> {
  const id = z.uuid().safeParse(rawId);
  const row = id.success ? await findOwnRequest(ctx.db, userId, id.data) : undefined;
  if (!row) throw new AppError("NOT_FOUND", REQUEST_NOT_FOUND);
  return row;
}

export type SecretRequestPage = {
  request: SecretRequestView;
  path: string;
  /** What the member's browser needs to open the answers (the private key only wrapped). */
  keys: { publicKey: string; wrappedKey: string; kdf: SecretRequestRow["kdf"] };
  answers: { id: string; ephemeralKey: string; ciphertext: string; size: number; createdAt: string; files: { id: string; storedSize: number; isReady: boolean }[] }[];
};

/** GET /api/secret-requests/{id} and /secrets/requests/{id}: the request, its link and its sealed answers. */
export async function getSecretRequest(ctx: ServiceContext, userId: string, rawId: unknown): Promise<SecretRequestPage> {
  const row = await ownRequest(ctx, userId, rawId);
  const answers = await listResponses(ctx.db, row.id);
  const files = await listAnswerFiles(ctx.db, row.id);
  return {
    request: toView(row, ctx.now()),
    path: await linkOf(ctx, row),
    keys: { publicKey: row.publicKey, wrappedKey: row.wrappedKey, kdf: row.kdf },
    answers: answers.map((answer) => ({
      ...answer,
      createdAt: answer.createdAt.toISOString(),
      files: files.filter((file) => file.responseId === answer.id).map((file) => ({ id: file.id, storedSize: file.storedSize, isReady: file.status === "ready" })),
    })),
  };
}

/** POST /api/secret-requests/{id}/close: takes no more answers (those received stay). */
export async function closeSecretRequest(ctx: ServiceContext, userId: string, rawId: unknown): Promise<SecretRequestPage> {
  const row = await ownRequest(ctx, userId, rawId);
  if (!(await closeRequest(ctx.db, userId, row.id, ctx.now()))) throw new AppError("CONFLICT", "This request is already closed.");
  return getSecretRequest(ctx, userId, row.id);
}

/** DELETE /api/secret-requests/{id}: the request and every answer. */
export async function deleteSecretRequest(ctx: ServiceContext, userId: string, rawId: unknown): Promise<void> {
  const row = await ownRequest(ctx, userId, rawId);
  const keys = await listAnswerFileKeys(ctx.db, { requestId: row.id });
  await deleteRequest(ctx.db, userId, row.id);
  await deleteObjects(ctx, keys);
}

async function deleteObjects(ctx: ServiceContext, keys: readonly string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += 1000) await ctx.env.FILES.delete(keys.slice(start, start + 1000));
}

// ---- visitors ------------------------------------------------------------------------------------

export type RequestPageState = { state: "open"; message: string; publicKey: string; requester: string; expiresAt: string; maxFileMb: number } | { state: "missing" | "closed" | "expired" | "full" };

/** GET /secret-request/{token}: what the visitor's page shows. */
export async function getRequestPage(ctx: ServiceContext, token: string): Promise<RequestPageState> {
  if (!LINK_TOKEN_PATTERN.test(token)) return { state: "missing" };
  const row = await findRequestByTokenHash(ctx.db, hashLinkToken(token));
  if (!row) return { state: "missing" };
  const status = statusOf(row, ctx.now());
  if (status !== "open") return { state: status };
  const plan = await maxSealedFileSize(ctx, row.userId);
  return { state: "open", message: row.message, publicKey: row.publicKey, requester: await findRequesterName(ctx.db, row.userId), expiresAt: row.expiresAt.toISOString(), maxFileMb: plan.mb };
}

const CLOSED_MESSAGES: Record<Exclude<RequestStatus, "open">, string> = {
  closed: "This request was closed: it takes no more answers.",
  full: "This request already has all the answers it asked for.",
  expired: "This request has expired.",
};

/** POST /api/secret-request-answers { token, ephemeralKey, ciphertext, size }: anyone with the link. */
export async function answerSecretRequest(ctx: ServiceContext, input: unknown): Promise<{ received: true; files: { id: string; uploadToken: string }[] }> {
  const data = parseInput(answerSchema, input);
  if (data.size === 0 && data.files.length === 0) throw new AppError("VALIDATION_ERROR", "Write the secret or attach a file.");
  await consumeAttempt(ctx.env, "secret-reveal", { ip: ctx.client.ip ?? "unknown" }, undefined, (minutes) => `Too many attempts from your network. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`);
  if (!LINK_TOKEN_PATTERN.test(data.token)) throw new AppError("NOT_FOUND", "This request does not exist. Check that you copied the whole link.");
  const tokenHash = hashLinkToken(data.token);
  // Files: within the requester's plan, each with its own upload grant (the visitor has no account).
  if (data.files.length > 0) {
    const request = await findRequestByTokenHash(ctx.db, tokenHash);
    if (request) {
      const largest = await maxSealedFileSize(ctx, request.userId);
      if (data.files.some((file) => file.storedSize > largest.bytes)) throw new AppError("PAYLOAD_TOO_LARGE", `Files of up to ${largest.label} can be sent with this request. Choose a smaller file.`);
    }
  }
  const grants = data.files.map((file, seq) => ({ id: crypto.randomUUID(), seq, storedSize: file.storedSize, ...newLinkToken() }));
  const stored = await insertAnswer(
    ctx.db,
    tokenHash,
    { id: crypto.randomUUID(), ephemeralKey: data.ephemeralKey, ciphertext: data.ciphertext, size: data.size, files: grants.map((grant) => ({ id: grant.id, seq: grant.seq, storedSize: grant.storedSize, uploadTokenHash: grant.hash })) },
    ctx.now(),
  );
  if (!stored) {
    const row = await findRequestByTokenHash(ctx.db, tokenHash);
    if (!row) throw new AppError("NOT_FOUND", "This request does not exist. Check that you copied the whole link.");
    const status = statusOf(row, ctx.now());
    throw new AppError("GONE", status === "open" ? CLOSED_MESSAGES.full : CLOSED_MESSAGES[status]);
  }
  // With files, the member hears about it once they are all in (completeAnswerFile).
  if (grants.length === 0) await notifyAnswered(ctx, stored);
  ctx.logger.info("secret request answered", { requestId: stored.requestId, files: grants.length });
  return { received: true, files: grants.map((grant) => ({ id: grant.id, uploadToken: grant.token })) };
}

function notifyAnswered(ctx: ServiceContext, request: { requestId: string; userId: string; label: string }) {
  return notifyMember(ctx, { userId: request.userId, actorId: null, kind: "secret.received", title: `Someone answered your request${request.label ? ` “${request.label}”` : ""}`, excerpt: "Open it with your passphrase.", link: `/secrets/requests/${request.requestId}` });
}

/** The holder of an answer file's upload grant: the request's owner, in whose name the upload runs (for that file only). */
export async function uploadGrantOwner(ctx: ServiceContext, uploadToken: string): Promise<{ userId: string; fileId: string }> {
  const found = LINK_TOKEN_PATTERN.test(uploadToken) ? await findGrantedAnswerFile(ctx.db, hashLinkToken(uploadToken)) : undefined;
  if (!found) throw new AppError("NOT_FOUND", "This upload is not allowed: its grant is unknown, or the file is already in.");
  return { userId: found.userId, fileId: found.id };
}

/** Where a tus upload of an answer's sealed file goes (the request owner's pending file of exactly that size). */
export async function answerUploadTarget(ctx: ServiceContext, userId: string, fileId: string, length: number): Promise<{ r2Key: string } | null> {
  const file = await findPendingAnswerFile(ctx.db, userId, fileId);
  if (!file) return null;
  if (length !== file.storedSize) throw new AppError("VALIDATION_ERROR", `Upload-Length must be the sealed file's size (${file.storedSize} bytes).`);
  return { r2Key: file.r2Key };
}

/** An answer's file is in; the member is told once the answer's last file is. */
export async function completeAnswerFile(ctx: ServiceContext, fileId: string): Promise<void> {
  const done = await markAnswerFileReady(ctx.db, fileId);
  if (done?.isAnswerComplete) await notifyAnswered(ctx, done);
}

/** GET /api/secret-requests/{id}/files/{fileId}: an answer file's sealed bytes, for the request's owner (opened in their browser). */
export async function answerFileObject(ctx: ServiceContext, userId: string, requestId: unknown, fileId: unknown): Promise<{ body: ReadableStream; size: number }> {
  const ids = z.object({ requestId: z.uuid(), fileId: z.uuid() }).safeParse({ requestId, fileId });
  const file = ids.success ? await findAnswerFileOfOwner(ctx.db, userId, ids.data.requestId, ids.data.fileId) : undefined;
  if (!file || file.status !== "ready") throw new AppError("NOT_FOUND", "This file does not exist or you don't have access to it.");
  const object = await ctx.env.FILES.get(file.r2Key);
  if (!object) throw new AppError("NOT_FOUND", "This file's content is missing.");
  return { body: object.body, size: file.storedSize };
}

/** Part of the nightly `secrets.purge`: requests that stopped more than 30 days ago, with their answers. */
export async function purgeOldRequests(ctx: ServiceContext): Promise<number> {
  await deleteObjects(ctx, await listPurgeableAnswerFileKeys(ctx.db, ctx.now(), SECRET_RECEIPT_DAYS));
  return purgeRequests(ctx.db, ctx.now(), SECRET_RECEIPT_DAYS);
}
