import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { deleteSecretsOf, listSecretsForExport } from "./secrets.queries.server";

/**
 * A member's secrets: the export lists them (label, views, dates; never content, which only the
 * links open, and never tokens). Erasure deletes them and their events: their links stop opening.
 */
export const secretsPersonalData = definePersonalDataSource({
  name: "secrets",
  async export(ctx, userId) {
    const rows = await listSecretsForExport(ctx.db, userId);
    if (rows.length === 0) return [];
    return [
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
    await deleteSecretsOf(ctx.db, userId);
    return { r2Keys: [] };
  },
});
