import { z } from "zod";
import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from "~/features/auth/secrets.server";
import { ipForPrivacy } from "~/features/sharing/sharing.constants";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { SHARE_DAYS, SUBMISSION_NOT_FOUND, isUuidShape } from "./forms.constants";
import { findShareByTokenHash, findSubmission, insertSubmissionShare, listShareOpenings, listSharesOfSubmission, recordShareOpening, revokeShareRow, type SubmissionShareRow } from "./forms.queries.server";
import { openForm } from "./form-access.server";
import { definitionOfVersion } from "./forms.server";
import { submissionView, type SubmissionView } from "./submission-view";

/**
 * Sharing one submission with someone outside (issue 37): /submissions/shared/{token}. The token
 * has 256 bits, is stored as SHA-256 only and shown to the owner once; the link ends at its expiry
 * or when revoked, at once, and then says so. Every opening is recorded (when, a shortened
 * address, the browser, embedded or not) and listed to the owner. The embedded view
 * (/submissions/embed/{token}) may be framed only by the sites the form's owner lists.
 */

export const SHARE_NOT_FOUND = "This link does not exist. Check the address you were given.";

const createShareSchema = z.object(
  {
    days: z.number({ error: "days: how long the link works (1, 7, 30 or 90 days)." }).refine((days) => (SHARE_DAYS as readonly number[]).includes(days), "A link works for 1, 7, 30 or 90 days."),
    note: z.string().trim().max(200, "A note is at most 200 characters.").default(""),
  },
  { error: "The request body must be an object with days (and a note)." },
);

export type ShareView = { id: string; note: string; status: "active" | "expired" | "revoked"; createdAt: string; expiresAt: string; revokedAt: string | null; opens: number; lastOpenedAt: string | null };

function shareView(share: SubmissionShareRow, now: Date): ShareView {
  return {
    id: share.id,
    note: share.note,
    status: share.revokedAt ? "revoked" : share.expiresAt.getTime() <= now.getTime() ? "expired" : "active",
    createdAt: share.createdAt.toISOString(),
    expiresAt: share.expiresAt.toISOString(),
    revokedAt: share.revokedAt?.toISOString() ?? null,
    opens: share.opens,
    lastOpenedAt: share.lastOpenedAt?.toISOString() ?? null,
  };
}

async function requireOwnSubmission(ctx: ServiceContext, userId: string, formId: string, submissionId: string) {
  const { form } = await openForm(ctx, userId, formId, "form.edit");
  const submission = isUuidShape(submissionId) ? await findSubmission(ctx.db, formId, submissionId) : undefined;
  if (!submission) throw new AppError("NOT_FOUND", SUBMISSION_NOT_FOUND);
  return { form, submission };
}

/** POST /api/forms/:id/submissions/:sid/shares → 201 with the address (shown this once). */
export async function createSubmissionShare(ctx: ServiceContext, userId: string, formId: string, submissionId: string, input: unknown): Promise<{ share: ShareView; path: string; embedPath: string }> {
  const data = parseInput(createShareSchema, input);
  await requireOwnSubmission(ctx, userId, formId, submissionId);
  const { token, hash } = newLinkToken();
  const now = ctx.now();
  const row: SubmissionShareRow = { id: crypto.randomUUID(), formId, submissionId, tokenHash: hash, note: data.note, expiresAt: new Date(now.getTime() + data.days * 86_400_000), revokedAt: null, opens: 0, lastOpenedAt: null, createdAt: now };
  await insertSubmissionShare(ctx.db, row);
  return { share: shareView(row, now), path: `/submissions/shared/${token}`, embedPath: `/submissions/embed/${token}` };
}

/** GET …/shares: the submission's links with their openings (newest 50). */
export async function listSubmissionShares(ctx: ServiceContext, userId: string, formId: string, submissionId: string) {
  await requireOwnSubmission(ctx, userId, formId, submissionId);
  const shares = await listSharesOfSubmission(ctx.db, formId, submissionId);
  const openings = await listShareOpenings(ctx.db, shares.map((share) => share.id), 50);
  const now = ctx.now();
  return {
    shares: shares.map((share) => shareView(share, now)),
    openings: openings.map((opening) => ({ shareId: opening.shareId, openedAt: opening.openedAt.toISOString(), ip: opening.ip, userAgent: opening.userAgent, embedded: opening.embedded })),
  };
}

/** DELETE …/shares/:shareId: the link stops working at once. */
export async function revokeSubmissionShare(ctx: ServiceContext, userId: string, formId: string, submissionId: string, shareId: string): Promise<void> {
  await requireOwnSubmission(ctx, userId, formId, submissionId);
  if (!isUuidShape(shareId) || !(await revokeShareRow(ctx.db, formId, shareId, ctx.now()))) throw new AppError("NOT_FOUND", "This link does not exist or is revoked already.");
}

export type SharedSubmissionOpening =
  | { state: "missing" }
  | { state: "expired" }
  | { state: "open"; formTitle: string; ownerName: string | null; submission: SubmissionView; expiresAt: string; embedOrigins: string[] };

/** /submissions/shared/{token} and /submissions/embed/{token}: the submission, recorded as opened. */
export async function openSharedSubmission(ctx: ServiceContext, token: string, options: { embedded?: boolean } = {}): Promise<SharedSubmissionOpening> {
  if (!LINK_TOKEN_PATTERN.test(token)) return { state: "missing" };
  const found = await findShareByTokenHash(ctx.db, hashLinkToken(token));
  if (!found) return { state: "missing" };
  const now = ctx.now();
  if (found.share.revokedAt || found.share.expiresAt.getTime() <= now.getTime()) return { state: "expired" };
  await recordShareOpening(ctx.db, { id: crypto.randomUUID(), shareId: found.share.id, openedAt: now, ip: ipForPrivacy(ctx.client.ip, "truncated"), userAgent: ctx.client.userAgent?.slice(0, 300) ?? null, embedded: options.embedded ?? false });
  const definition = await definitionOfVersion(ctx, found.form, found.submission.version);
  return { state: "open", formTitle: found.form.title, ownerName: null, submission: submissionView(found.submission, definition, { outside: true }), expiresAt: found.share.expiresAt.toISOString(), embedOrigins: found.form.embedOrigins };
}
