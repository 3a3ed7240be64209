import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { files } from "./files";

/**
 * A picture's derivatives and what its EXIF says (issue 40), one row per stored object (a file's
 * content: a new version gets a row of its own). Made once by the `galleries.derivatives` job
 * through Cloudflare Images; the derivative objects live in R2 beside the original, named after
 * it (`{r2Key}.thumb`, `{r2Key}.screen`, ADR 033), and are deleted with it.
 */
export const mediaItems = sqliteTable(
  "media_items",
  {
  /** The original's R2 key. */
  sourceKey: text("source_key").primaryKey(),
  fileId: text("file_id")
    .notNull()
    .references(() => files.id, { onDelete: "cascade" }),
  /** "ready": both derivatives are stored; "failed": the picture could not be read (`error`). */
  status: text("status", { enum: ["ready", "failed"] }).notNull(),
  error: text("error"),
  /** The screen size's pixels: the picture as shown (upright by its EXIF), at most 2048 a side. */
  width: integer("width"),
  height: integer("height"),
  thumbBytes: integer("thumb_bytes"),
  screenBytes: integer("screen_bytes"),
  /** EXIF, read once; shown only where the owner allows it. The date as written (EXIF has no zone). */
  takenAt: text("taken_at"),
  /** The same date as milliseconds, read as UTC (EXIF has no zone): the gallery's date order. */
  takenAtMs: integer("taken_at_ms"),
  camera: text("camera"),
  latitude: real("latitude"),
  longitude: real("longitude"),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("media_items_file_idx").on(table.fileId)],
);
