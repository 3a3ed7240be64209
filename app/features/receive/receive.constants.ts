import type { Tier } from "~/features/access/access.constants";

/**
 * Receive pages (issue 24): limits and rules shared by the browser and the server (which enforces
 * each). -1 means unlimited.
 */
export const RECEIVE_PAGE_LIMITS: Record<Tier, number> = { free: 1, basic: 5, pro: 25, business: -1, custom: -1 };
export const RECEIVE_TITLE_MAX = 120;
export const RECEIVE_MESSAGE_MAX = 2000;
export const RECEIVE_FIELDS_MAX = 20;
export const RECEIVE_FIELD_LABEL_MAX = 120;
export const RECEIVE_FIELD_OPTIONS_MAX = 30;
export const RECEIVE_TYPES_MAX = 40;
export const RECEIVE_FILES_PER_UPLOADER_MAX = 500;
export const RECEIVE_FIELD_TYPE_LABELS = { text: "Text", select: "Choice", checkbox: "Tick box", date: "Date" } as const;
/** Submissions a receive page takes from one network address in an hour (S28). */
export const RECEIVE_SUBMISSIONS_PER_HOUR = 20;
/** A page's logo: at most 512 KB, one of these image types (recognised by its bytes; never SVG). */
export const RECEIVE_LOGO_MAX_BYTES = 512 * 1024;
export const RECEIVE_LOGO_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
