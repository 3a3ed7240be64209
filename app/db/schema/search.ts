import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const searchItemTypes = ["file", "folder"] as const;
export type SearchItemType = (typeof searchItemTypes)[number];

/**
 * Where a file's text stands in the index: waiting for the extraction job, indexed, or why it has
 * none (no text layer, a type we do not read, over the size we read, unreadable). Folders: "none".
 */
export const contentStates = ["pending", "indexed", "empty", "unsupported", "too_large", "failed", "none"] as const;
export type ContentState = (typeof contentStates)[number];

/**
 * One row per file and folder in the search index (issue 36, ADR 028). `doc_id` is the rowid of
 * the item's row in the FTS5 table `search_text(name, body)` (migration 0033, written by hand:
 * drizzle-kit does not model virtual tables or triggers). Triggers on `files` and `folders` keep
 * both in step with every insert, rename, new version and delete, whichever code path made it;
 * the extraction job fills `body`. Where an item is, whether it is in the trash and who may open
 * it are never copied here: a search joins the live rows and asks the room authority.
 */
export const searchEntries = sqliteTable(
  "search_entries",
  {
    docId: integer("doc_id").primaryKey({ autoIncrement: false }),
    itemType: text("item_type", { enum: searchItemTypes }).notNull(),
    itemId: text("item_id").notNull(),
    contentState: text("content_state", { enum: contentStates }).notNull().default("none"),
    /** The stored object whose text is (or is to be) indexed: a new version changes it. */
    contentKey: text("content_key"),
    contentChars: integer("content_chars").notNull().default(0),
    indexedAt: integer("indexed_at", { mode: "timestamp_ms" }),
  },
  (table) => [
    uniqueIndex("search_entries_item_unique").on(table.itemId),
    index("search_entries_pending_idx").on(table.docId).where(sql`content_state = 'pending'`),
  ],
);
