import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { deleteFavoritesOf, listFavoritesForExport } from "./organize.queries.server";

/**
 * Favorites are the member's own rows (tags, metadata and templates belong to the files, which
 * the files source covers): the export lists them by name; erasure deletes them.
 */
export const favoritesPersonalData = definePersonalDataSource({
  name: "favorites",
  async export(ctx, userId) {
    const rows = await listFavoritesForExport(ctx.db, userId);
    if (rows.length === 0) return [];
    return [
      {
        path: "files/favorites.json",
        description: "The folders and files you starred as favorites, and when.",
        data: rows.map((row) => ({
          type: row.itemType,
          name: (row.itemType === "file" ? row.fileName : row.folderLabel) ?? "(no longer exists)",
          favoritedAt: row.createdAt.toISOString(),
        })),
      },
    ];
  },
  async erase(ctx, userId) {
    await deleteFavoritesOf(ctx.db, userId);
    return { r2Keys: [] };
  },
});
