/** E-signatures (issue 38): messages, limits and timings, shared by pages, the API and jobs. */

/** Spec §8: the default signature message; the server's refusal adds what unlocks it. */
export const SIGNATURES_DENIED = "E-signatures require appropriate permissions";
export const ENVELOPE_NOT_FOUND = "This document does not exist or you don't have access to it.";
export const TEMPLATE_NOT_FOUND = "This template does not exist or you don't have access to it.";

/** A PDF sent for signature, or checked on the verify page, may be this large. */
export const SIGN_PDF_MAX_BYTES = 25 * 1024 * 1024;
export const VERIFY_PDF_MAX_BYTES = 25 * 1024 * 1024;
export const RECIPIENTS_MAX = 10;
/** An uploaded picture of a signature (the page shrinks it to 900 × 300 first), and how many one recipient may try. */
export const SIGNATURE_IMAGE_MAX_BYTES = 1024 * 1024;
export const SIGNATURE_IMAGES_PER_RECIPIENT = 10;
export const MESSAGE_MAX = 2_000;
export const TITLE_MAX = 200;
/** Reminders: the first after 1–30 days, then every 1–30 days. */
export const REMINDER_DAYS_MAX = 30;
/** Reminders sent to one recipient at most. */
export const REMINDERS_MAX = 10;
/** An envelope may stay open up to a year. */
export const EXPIRY_DAYS_MAX = 365;
export const LIST_PAGE_SIZE = 25;

/** The signing link's cookie (consent and e-mail code passed), scoped to the link's path. */
export const SIGNING_PROOF_TTL_MS = 12 * 3600_000;

export const RECIPIENT_STATUS_LABELS = {
  waiting: "Waiting for their turn",
  sent: "Sent",
  opened: "Opened",
  signed: "Signed",
  declined: "Declined",
} as const;

export const ENVELOPE_STATUS_LABELS = {
  draft: "Draft",
  sent: "Waiting for signatures",
  sealing: "Sealing",
  completed: "Completed",
  declined: "Declined",
  voided: "Voided",
  expired: "Expired",
} as const;

/** What a signing link says once it no longer works (issue 38: "says which"). */
export const LINK_CLOSED_MESSAGES = {
  signed: "You have already signed this document. Thank you: everyone gets the sealed PDF by e-mail when the last person signs.",
  approved: "You have already approved this document.",
  declined: "You declined to sign this document. The sender has been told.",
  voided: "The sender voided this document: it can no longer be signed.",
  expired: "This signing link has expired: the document was not signed in time. Ask the sender to send it again.",
  completed: "This document is complete: everyone has signed and it has been sealed.",
  otherDeclined: "Someone else declined to sign this document, so it can no longer be signed.",
} as const;

export const NOT_YOUR_TURN = (name: string) => `This document is signed in order: ${name} signs first. You will get an e-mail when it is your turn.`;

export { isUuidShape } from "~/lib/uuid-shape";

/** The sealed file's name: "Contract.pdf" → "Contract (signed).pdf". */
export function signedName(documentName: string): string {
  return `${documentName.replace(/\.pdf$/i, "")} (signed).pdf`;
}
