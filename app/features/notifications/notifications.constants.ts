import type { NotificationMode } from "~/db/schema";

/**
 * Notifications (issue 20): the kinds, the words for each way of hearing about a room, and the
 * page size. Shared by the server and the browser (no bindings).
 */
export const NOTIFICATION_KINDS = {
  "comment.mention": "Mentioned you",
  "comment.reply": "Replied in a thread",
  "comment.new": "Commented on your file",
  "file.upload": "Added files",
  "share.opened": "Opened your share link",
  "secret.received": "Sent you a secret",
  "receive.files": "Sent you files",
  "form.submission": "Answered your form",
  "form.webhook-disabled": "Turned off a webhook",
  "signature.signed": "Signed your document",
  "signature.completed": "Completed your document",
  "signature.declined": "Declined your document",
  "workflow.task": "Asked you to approve",
  "print.ordered": "Ordered prints from your gallery",
} as const;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

export const NOTIFICATION_MODE_LABELS: Record<NotificationMode, { label: string; description: string }> = {
  instant: { label: "Instant", description: "An e-mail as each thing happens." },
  daily: { label: "Daily digest", description: "One e-mail a day (07:00 UTC) with everything new." },
  off: { label: "Off", description: "No e-mails. This page still collects everything." },
};

/** Notifications per page of /dataroom/{id}/notifications and its JSON twin. */
export const NOTIFICATIONS_PAGE_SIZE = 50;
/** A digest e-mail lists at most this many notifications, then says how many more. */
export const DIGEST_MAX_ITEMS = 20;
/** An excerpt in a notification is at most this long. */
export const EXCERPT_MAX = 200;
