import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { galleryFavourites } from "~/db/schema";

/** Public galleries' favourites and per-photo figures: the only place drizzle is called for them. */

/** Marks or unmarks a picture for a visit; marking twice, or unmarking what is not marked, changes nothing. */
export async function setFavourite(db: Database, row: { visitId: string; fileId: string; favourite: boolean; now: Date }): Promise<void> {
  if (row.favourite) await db.insert(galleryFavourites).values({ visitId: row.visitId, fileId: row.fileId, createdAt: row.now }).onConflictDoNothing();
  else await db.delete(galleryFavourites).where(and(eq(galleryFavourites.visitId, row.visitId), eq(galleryFavourites.fileId, row.fileId)));
}

/** The pictures a visit marked. */
export async function listVisitFavourites(db: Database, visitId: string): Promise<string[]> {
  const rows = await db.select({ fileId: galleryFavourites.fileId }).from(galleryFavourites).where(eq(galleryFavourites.visitId, visitId)).all();
  return rows.map((row) => row.fileId);
}

export type LinkFavouriteRow = { visitId: string; email: string | null; startedAt: number; fileId: string; name: string | null; createdAt: number };
export type LinkPhotoRow = { fileId: string; name: string | null; views: number; downloads: number; favourites: number };

/**
 * A gallery link's proofing and figures: every visit's favourites (who marked which picture when),
 * and per picture its views (the screen size or video opened), downloads and favourites over
 * every visit.
 */
export async function loadGalleryFigures(db: Database, linkId: string): Promise<{ favourites: LinkFavouriteRow[]; photos: LinkPhotoRow[] }> {
  const favourites = await db.all<LinkFavouriteRow>(sql`
    SELECT g.visit_id AS visitId, v.email AS email, v.started_at AS startedAt, g.file_id AS fileId, files.name AS name, g.created_at AS createdAt
    FROM gallery_favourites g JOIN share_link_visits v ON v.id = g.visit_id LEFT JOIN files ON files.id = g.file_id
    WHERE v.link_id = ${linkId} ORDER BY v.started_at DESC, g.created_at`);
  const photos = await db.all<LinkPhotoRow>(sql`
    SELECT t.file_id AS fileId, files.name AS name, sum(t.views) AS views, sum(t.downloads) AS downloads, sum(t.favourites) AS favourites FROM (
      SELECT f.file_id, f.opens AS views, f.downloads, 0 AS favourites FROM share_visit_files f JOIN share_link_visits v ON v.id = f.visit_id WHERE v.link_id = ${linkId}
      UNION ALL
      SELECT g.file_id, 0, 0, 1 FROM gallery_favourites g JOIN share_link_visits v ON v.id = g.visit_id WHERE v.link_id = ${linkId}
    ) t LEFT JOIN files ON files.id = t.file_id GROUP BY t.file_id ORDER BY sum(t.views) DESC, files.name`);
  return { favourites, photos };
}
