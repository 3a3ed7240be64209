/**
 * What a data room's audit log records (issue 20 "Audit log", QUALITY S22): one action name per
 * kind of event, with the words the activities page and the CSV use. Shared by the server and the
 * browser (no bindings).
 */
export const AUDIT_ACTIONS = {
  "file.view": "Viewed a file",
  "file.download": "Downloaded a file",
  "folder.download": "Downloaded a folder",
  "file.upload": "Uploaded a file",
  "file.rename": "Renamed a file",
  "items.move": "Moved items",
  "items.copy": "Copied items",
  "items.delete": "Deleted items",
  "items.restore": "Restored items",
  "folder.create": "Created a folder",
  "folder.edit": "Edited a folder",
  "share.create": "Created a share link",
  "share.update": "Changed a share link",
  "share.revoke": "Revoked a share link",
  "comment.add": "Commented on a file",
  "comment.resolve": "Resolved a comment thread",
  "comment.reopen": "Reopened a comment thread",
  "comment.delete": "Deleted a comment",
  "permission.change": "Changed a permission",
  "invitation.send": "Invited someone",
  "invitation.resend": "Sent an invitation again",
  "invitation.revoke": "Withdrew an invitation",
  "member.join": "Joined the room",
  "member.remove": "Removed someone",
  "member.leave": "Left the room",
  "member.role": "Changed a role",
  "member.access": "Set when access ends",
  "room.transfer": "Transferred ownership",
  "room.update": "Changed the room's profile",
  "room.archive": "Archived the room",
  "room.unarchive": "Unarchived the room",
  "room.logo": "Changed the room's logo",
  "room.security": "Changed the room's security",
  "room.delete": "Deleted the room",
  "room.restore": "Restored the room",
  "audit.export": "Exported the audit log",
  "audit.prune": "Removed old entries under the retention policy",
  "form.submission": "Received a form submission",
  "signature.created": "Prepared a document for signature",
  "signature.sent": "Sent a document for signature",
  "signature.opened": "Opened a document to sign",
  "signature.signed": "Signed a document",
  "signature.declined": "Declined to sign a document",
  "signature.voided": "Voided a document sent for signature",
  "signature.expired": "A document sent for signature expired",
  "signature.reminded": "Reminded a recipient to sign",
  "signature.completed": "Sealed a signed document",
  "file.redact": "Redacted a file",
  "workflow.start": "Started a workflow",
  "workflow.decide": "Decided a workflow task",
  "workflow.end": "A workflow run ended",
  "case.open": "Opened a case",
  "case.change": "Changed a case",
  "case.comment": "Commented on a case",
  "access.refused": "Was refused",
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === "string" && Object.hasOwn(AUDIT_ACTIONS, value);
}

/** Entries per page of the activities page and GET /api/datarooms/{id}/audit. */
export const AUDIT_PAGE_SIZE = 100;

/** The hash before the first entry of a room. */
export const AUDIT_GENESIS_HASH = "0".repeat(64);

/** The words for an action ("file.download" → "Downloaded a file"); an unknown name as it is. */
export function auditActionLabel(action: string): string {
  return isAuditAction(action) ? AUDIT_ACTIONS[action] : action;
}
