import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { deleteRequestsOf, listAnswerFileKeys, listRequestsOf } from "./secret-requests.queries.server";
import { deleteSecretsOf, listSecretFileKeysOf, listSecretsForExport } from "./secrets.queries.server";

/**
 * A member's secrets and requests: the export lists them (label, views, dates; never content,
 * which only the links or the passphrase open, and never tokens). Erasure deletes them, their
 * events and the answers: their links stop opening.
 */
export const secretsPersonalData = definePersonalDataSource({
  name: "secrets",
  async export(ctx, userId) {
    const rows = await listSecretsForExport(ctx.db, userId);
    const requests = await listRequestsOf(ctx.db, userId, 10_000);
    const records = [];
    if (requests.length > 0) {
      records.push({
        path: "secrets/requests.json",
        description: "Your requests for secrets: what you asked, how many answers came, and dates. The answers are sealed to keys only your passphrase opens, so they are not here.",
        data: requests.map((row) => ({ id: row.id, label: row.label, message: row.message, answers: row.responseCount, maxAnswers: row.maxResponses, expiresAt: row.expiresAt.toISOString(), closedAt: row.closedAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() })),
      });
    }
    if (rows.length === 0) return records;
    return [
      ...records,
      {
        path: "secrets/secrets.json",
        description: "The one-time secrets you created: label, views, expiry and dates. Their content is encrypted with keys only their links hold, so it is not here.",
        data: rows.map((row) => ({
          id: row.id,
          label: row.label,
          views: row.viewCount,
          maxViews: row.maxViews,
          expiresAt: row.expiresAt.toISOString(),
          burnedAt: row.burnedAt?.toISOString() ?? null,
          createdAt: row.createdAt.toISOString(),
        })),
      },
    ];
  },
  async erase(ctx, userId) {
    // The attached files' objects are deleted after the rows, by the account deletion's job.
    const r2Keys = [...(await listSecretFileKeysOf(ctx.db, userId)), ...(await listAnswerFileKeys(ctx.db, { userId }))];
    await deleteSecretsOf(ctx.db, userId);
    await deleteRequestsOf(ctx.db, userId);
    return { r2Keys };
  },
});
