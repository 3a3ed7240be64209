import { TRASH_RETENTION_MS } from "./files.constants";

/**
 * The trash's rules and wording, shared by the server and the browser (no zod, no bindings, so
 * the delete dialog can import it without pulling anything else into the page's bundle).
 */

/** Items per POST /api/items/delete or /api/items/restore; the dialog sends larger selections in parts. */
export const MAX_ITEMS_PER_CALL = 100;
/** Selections larger than this are moved or deleted by the batch manager, in the background, with progress (issue 22). */
export const BATCH_FROM = 10;
/** Where batch `archive` puts items (issue 22): this folder at the top of the space, made on first use. */
export const ARCHIVE_FOLDER_LABEL = "Archive";

/** What a restored item is renamed with when its old place already holds something of that name. */
export const RESTORED_SUFFIX = " (restored)";

export type ItemType = "file" | "folder";
export type ItemRef = { type: ItemType; id: string };

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days until the nightly purge may remove an item trashed at `trashedAt` (0 on the last day). */
export function daysLeftInTrash(trashedAt: number, now: number): number {
  return Math.max(0, Math.ceil((trashedAt + TRASH_RETENTION_MS - now) / DAY_MS));
}

/** "1 item" / "3 items". */
export function itemCount(count: number): string {
  return `${count} item${count === 1 ? "" : "s"}`;
}

export const trashMessages = {
  moved: (count: number) => `Moved ${itemCount(count)} to the trash`,
  deleted: (count: number) => `Permanently deleted ${itemCount(count)}`,
  restored: (count: number) => `Restored ${itemCount(count)}`,
} as const;
