import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { z } from "zod";
import { TIER_LABELS } from "~/features/access/access.constants";
import { consumeAttempt } from "~/features/auth/attempt-limits.server";
import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from "~/features/auth/secrets.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import {
  expiryLabel,
  SECRET_FAILED_ATTEMPTS_MAX,
  SECRET_RECEIPT_DAYS,
  SECRETS_PER_HOUR,
  type SecretStatus,
} from "./secrets.constants";
import { maxSealedFileSize, removeSecretFiles, sweepEndedSecretFiles } from "./secret-files.server";
import { secretPlan } from "./secret-plan.server";
import { purgeOldRequests } from "./secret-requests.server";
import { createSecretSchema, revealSchema, updateSecretSchema } from "./secrets.schema";
import {
  burnSecret,
  changeSecret,
  consumeView,
  countLiveSecrets,
  findOwnSecret,
  findSecretByTokenHash,
  insertSecret,
  listMemberSecretActivity,
  listSecretEvents,
  listSecretFiles,
  listSecretsOf,
  purgeSecrets,
  recordFailedReveal,
  type SecretSummaryRow,
} from "./secrets.queries.server";

/**
 * One-time secrets (issue 23, docs/secrets.md). The browser seals the secret and keeps the key in
 * the link's #fragment; this service stores what it cannot read and decides, atomically, who gets
 * the ciphertext: a visitor whose proof (derived from the key, and the passphrase if any) matches,
 * while views are left and the secret has neither expired nor burned. Wrong proofs are counted
 * and burn the secret at SECRET_FAILED_ATTEMPTS_MAX; reveals are rate-limited per address.
 */

const HOUR_MS = 3_600_000;
const LIST_LIMIT = 200;
export const SECRET_NOT_FOUND = "This secret does not exist or you don't have access to it.";

function proofHashOf(proof: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(proof)));
}

export function statusOf(row: { hasContent: number | boolean; burnedAt: Date | null; viewCount: number; maxViews: number; expiresAt: Date }, now: Date): SecretStatus {
  if (row.burnedAt) return "burned";
  if (row.viewCount >= row.maxViews) return "viewed";
  if (!row.hasContent || row.expiresAt.getTime() <= now.getTime()) return "expired";
  return "live";
}

export type SecretView = {
  id: string;
  label: string;
  size: number;
  status: SecretStatus;
  hasPassphrase: boolean;
  /** Attached files (their names are sealed; only the count is known here). */
  files: number;
  maxViews: number;
  viewCount: number;
  viewsLeft: number;
  failedAttempts: number;
  expiresAt: string;
  lastViewedAt: string | null;
  burnedAt: string | null;
  burnReason: "owner" | "attempts" | null;
  createdAt: string;
};

function toView(row: SecretSummaryRow, now: Date): SecretView {
  const status = statusOf(row, now);
  return {
    id: row.id,
    label: row.label,
    size: row.size,
    status,
    hasPassphrase: Boolean(row.hasPassphrase),
    files: row.files,
    maxViews: row.maxViews,
    viewCount: row.viewCount,
    viewsLeft: status === "live" ? row.maxViews - row.viewCount : 0,
    failedAttempts: row.failedAttempts,
    expiresAt: row.expiresAt.toISOString(),
    lastViewedAt: row.lastViewedAt?.toISOString() ?? null,
    burnedAt: row.burnedAt?.toISOString() ?? null,
    burnReason: row.burnReason,
    createdAt: row.createdAt.toISOString(),
  };
}

/** POST /api/secrets: the sealed secret; answers the secret and the token for the link (shown once). */
export async function createSecret(ctx: ServiceContext, userId: string, input: unknown): Promise<{ secret: SecretView; token: string; files: { id: string }[] }> {
  const data = parseInput(createSecretSchema, input);
  if (data.size === 0 && data.files.length === 0) throw new AppError("VALIDATION_ERROR", "Write the secret or attach a file.");
  const { access, limits } = await secretPlan(ctx, userId);
  const largest = await maxSealedFileSize(ctx, userId);
  if (data.files.some((file) => file.storedSize > largest.bytes)) {
    throw new AppError("FORBIDDEN", `Your ${largest.tierLabel} plan attaches files of up to ${largest.label} to a secret. Choose a smaller file, or upgrade your plan for larger ones.`);
  }
  if (data.expiresInHours > limits.maxExpiryHours) {
    throw new AppError("FORBIDDEN", `Your ${TIER_LABELS[access.tier]} plan keeps secrets for at most ${expiryLabel(limits.maxExpiryHours)}. Choose a shorter expiry, or upgrade your plan for up to 30 days.`, {
      fieldErrors: { expiresInHours: [`At most ${expiryLabel(limits.maxExpiryHours)} on your plan.`] },
    });
  }
  const now = ctx.now();
  if (limits.liveSecrets !== -1 && (await countLiveSecrets(ctx.db, userId, now)) >= limits.liveSecrets) {
    throw new AppError("FORBIDDEN", `Your ${TIER_LABELS[access.tier]} plan allows ${limits.liveSecrets} secrets waiting to be read at a time. Burn one you no longer need, or upgrade your plan for more.`);
  }
  await consumeAttempt(ctx.env, "secret-create", { account: userId }, { limit: SECRETS_PER_HOUR, windowMs: HOUR_MS }, (minutes) => `You created ${SECRETS_PER_HOUR} secrets in the last hour, the most at a time. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`);
  const { token, hash } = newLinkToken();
  const id = crypto.randomUUID();
  const files = data.files.map((file, seq) => {
    const fileId = crypto.randomUUID();
    return { id: fileId, secretId: id, seq, storedSize: file.storedSize, r2Key: `secrets/${id}/${fileId}`, status: "pending" as const, createdAt: now };
  });
  await insertSecret(ctx.db, {
    id,
    userId,
    tokenHash: hash,
    label: data.label,
    ciphertext: data.ciphertext,
    size: data.size,
    proofHash: proofHashOf(data.proof),
    kdf: data.kdf,
    maxViews: data.maxViews,
    expiresAt: new Date(now.getTime() + data.expiresInHours * HOUR_MS),
    createdAt: now,
    updatedAt: now,
  }, files);
  ctx.logger.info("secret created", { userId, secretId: id, maxViews: data.maxViews, hours: data.expiresInHours, passphrase: data.kdf !== null, files: files.length });
  return { secret: toView((await findOwnSecret(ctx.db, userId, id))!, now), token, files: files.map((file) => ({ id: file.id })) };
}

export type SecretPlanView = { liveSecrets: number; maxExpiryHours: number; maxFileMb: number; live: number; tierLabel: string };

/** /secrets/new: the plan's limits and how many secrets are waiting now. */
export async function getSecretPlan(ctx: ServiceContext, userId: string): Promise<SecretPlanView> {
  const { access, limits } = await secretPlan(ctx, userId);
  return { ...limits, live: await countLiveSecrets(ctx.db, userId, ctx.now()), tierLabel: TIER_LABELS[access.tier] };
}

export type SecretsPage = { secrets: SecretView[]; activity: { secretId: string; label: string; kind: string; createdAt: string }[]; limits: SecretPlanView };

/** GET /api/secrets and /secrets: the member's secrets (never content) and their latest events. */
export async function listSecrets(ctx: ServiceContext, userId: string): Promise<SecretsPage> {
  const now = ctx.now();
  const { access, limits } = await secretPlan(ctx, userId);
  const [rows, activity, live] = await Promise.all([listSecretsOf(ctx.db, userId, LIST_LIMIT), listMemberSecretActivity(ctx.db, userId, 20), countLiveSecrets(ctx.db, userId, now)]);
  return {
    secrets: rows.map((row) => toView(row, now)),
    activity: activity.map((event) => ({ secretId: event.secretId, label: event.label, kind: event.kind, createdAt: event.createdAt.toISOString() })),
    limits: { ...limits, live, tierLabel: TIER_LABELS[access.tier] },
  };
}

const idSchema = z.uuid();

async function ownSecret(ctx: ServiceContext, userId: string, rawId: unknown): Promise<SecretSummaryRow> {
  const id = idSchema.safeParse(rawId);
  const row = id.success ? await findOwnSecret(ctx.db, userId, id.data) : undefined;
  if (!row) throw new AppError("NOT_FOUND", SECRET_NOT_FOUND);
  return row;
}

export type SecretReceipt = { secret: SecretView; events: { kind: string; detail: string | null; createdAt: string }[]; maxExpiryHours: number };

/** GET /api/secrets/{id} and /secrets/{id}: the receipt (status and events, never content). */
export async function getSecretReceipt(ctx: ServiceContext, userId: string, rawId: unknown): Promise<SecretReceipt> {
  const row = await ownSecret(ctx, userId, rawId);
  const { limits } = await secretPlan(ctx, userId);
  const events = await listSecretEvents(ctx.db, row.id, 100);
  return { secret: toView(row, ctx.now()), events: events.map((event) => ({ kind: event.kind, detail: event.detail, createdAt: event.createdAt.toISOString() })), maxExpiryHours: limits.maxExpiryHours };
}

/** PATCH /api/secrets/{id}: a live secret's expiry (from now), views left or label. */
export async function updateSecret(ctx: ServiceContext, userId: string, rawId: unknown, input: unknown): Promise<SecretReceipt> {
  const row = await ownSecret(ctx, userId, rawId);
  const data = parseInput(updateSecretSchema, input);
  const { access, limits } = await secretPlan(ctx, userId);
  const now = ctx.now();
  if (statusOf(row, now) !== "live") throw new AppError("CONFLICT", "This secret has ended: it can no longer be changed.");
  if (data.expiresInHours !== undefined && data.expiresInHours > limits.maxExpiryHours) {
    throw new AppError("FORBIDDEN", `Your ${TIER_LABELS[access.tier]} plan keeps secrets for at most ${expiryLabel(limits.maxExpiryHours)}.`, { fieldErrors: { expiresInHours: [`At most ${expiryLabel(limits.maxExpiryHours)} on your plan.`] } });
  }
  const detail = [
    data.expiresInHours !== undefined ? `expires in ${expiryLabel(data.expiresInHours)}` : null,
    data.viewsLeft !== undefined ? `${data.viewsLeft} view${data.viewsLeft === 1 ? "" : "s"} left` : null,
    data.label !== undefined ? "label changed" : null,
  ]
    .filter(Boolean)
    .join(", ");
  const changed = await changeSecret(ctx.db, userId, row.id, { expiresAt: data.expiresInHours !== undefined ? new Date(now.getTime() + data.expiresInHours * HOUR_MS) : undefined, viewsLeft: data.viewsLeft, label: data.label, detail }, now);
  if (!changed) throw new AppError("CONFLICT", "This secret has ended: it can no longer be changed.");
  return getSecretReceipt(ctx, userId, row.id);
}

/** POST /api/secrets/{id}/burn: ends it now (the content is deleted). */
export async function burnOwnSecret(ctx: ServiceContext, userId: string, rawId: unknown): Promise<SecretReceipt> {
  const row = await ownSecret(ctx, userId, rawId);
  if (!(await burnSecret(ctx.db, userId, row.id, ctx.now()))) throw new AppError("CONFLICT", "This secret has already ended.");
  await removeSecretFiles(ctx, await listSecretFiles(ctx.db, row.id));
  ctx.logger.info("secret burned", { userId, secretId: row.id });
  return getSecretReceipt(ctx, userId, row.id);
}

// ---- visitors ------------------------------------------------------------------------------------

export type SecretPageState =
  | { state: "ready"; kdf: { alg: "argon2id"; salt: string; m: number; t: number; p: number } | null; viewsLeft: number; expiresAt: string; files: number; isUploading: boolean }
  | { state: "missing" | "expired" | "viewed" | "burned" };

/** GET /secret/{token}: what the interstitial shows. Never the ciphertext, and counts nothing. */
export async function getSecretPage(ctx: ServiceContext, token: string): Promise<SecretPageState> {
  if (!LINK_TOKEN_PATTERN.test(token)) return { state: "missing" };
  const row = await findSecretByTokenHash(ctx.db, hashLinkToken(token));
  if (!row) return { state: "missing" };
  const status = statusOf(row, ctx.now());
  if (status !== "live") return { state: status };
  return { state: "ready", kdf: row.kdf, viewsLeft: row.maxViews - row.viewCount, expiresAt: row.expiresAt.toISOString(), files: row.fileCount, isUploading: row.pendingFiles > 0 };
}

const ENDED_MESSAGES: Record<Exclude<SecretPageState["state"], "ready">, string> = {
  missing: "This secret does not exist. Check that you copied the whole link.",
  expired: "This secret has expired and was deleted.",
  viewed: "This secret has already been viewed and was deleted.",
  burned: "This secret was burned and can no longer be viewed.",
};

export type RevealResult = { ciphertext: string; viewsLeft: number; files: { id: string; storedSize: number; r2Key: string }[] };

/**
 * POST /api/secret-reveals { token, proof }: the ciphertext once per view. A wrong proof is a 403
 * that says how many attempts are left (the last one burns the secret); an ended secret is a 410
 * that says why.
 */
export async function revealSecret(ctx: ServiceContext, input: unknown): Promise<RevealResult> {
  const data = parseInput(revealSchema, input);
  await consumeAttempt(ctx.env, "secret-reveal", { ip: ctx.client.ip ?? "unknown" }, undefined, (minutes) => `Too many attempts from your network. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`);
  if (!LINK_TOKEN_PATTERN.test(data.token)) throw new AppError("NOT_FOUND", ENDED_MESSAGES.missing);
  const tokenHash = hashLinkToken(data.token);
  const now = ctx.now();
  const opened = await consumeView(ctx.db, tokenHash, proofHashOf(data.proof), now);
  if (opened) {
    const files = await listSecretFiles(ctx.db, opened.id);
    return { ciphertext: opened.ciphertext, viewsLeft: opened.maxViews - opened.viewCount, files: files.map((file) => ({ id: file.id, storedSize: file.storedSize, r2Key: file.r2Key })) };
  }

  const row = await findSecretByTokenHash(ctx.db, tokenHash);
  if (!row) throw new AppError("NOT_FOUND", ENDED_MESSAGES.missing);
  const status = statusOf(row, now);
  if (status !== "live") throw new AppError("GONE", ENDED_MESSAGES[status]);
  if (row.pendingFiles > 0) throw new AppError("CONFLICT", "The sender is still uploading this secret's files. Try again in a moment: no view was used.");
  // Readable, so the proof was wrong: a wrong passphrase, or a link cut short.
  const failed = await recordFailedReveal(ctx.db, tokenHash, SECRET_FAILED_ATTEMPTS_MAX, now);
  if (!failed) throw new AppError("GONE", ENDED_MESSAGES.burned);
  if (failed.burned) {
    await removeSecretFiles(ctx, await listSecretFiles(ctx.db, row.id));
    throw new AppError("GONE", `That was the ${SECRET_FAILED_ATTEMPTS_MAX}th wrong attempt: the secret was burned and can no longer be viewed.`);
  }
  const left = SECRET_FAILED_ATTEMPTS_MAX - failed.failedAttempts;
  const what = row.kdf ? "The passphrase is wrong" : "This link's key is wrong or incomplete";
  throw new AppError("FORBIDDEN", `${what}. ${left} attempt${left === 1 ? "" : "s"} left before the secret is burned.`);
}

/** The nightly purge (job `secrets.purge`). */
export async function purgeExpiredSecrets(ctx: ServiceContext): Promise<{ expired: number; removed: number }> {
  // Files of ended secrets go before their rows can (the rows' deletion cascades to the files' rows).
  const before = await sweepEndedSecretFiles(ctx);
  const secrets = await purgeSecrets(ctx.db, ctx.now(), SECRET_RECEIPT_DAYS);
  const files = before + (await sweepEndedSecretFiles(ctx));
  const result = { expired: secrets.expired, removed: secrets.removed + files + (await purgeOldRequests(ctx)) };
  ctx.logger.info("secrets purged", result);
  return result;
}
