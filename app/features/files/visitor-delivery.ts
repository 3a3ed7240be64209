/**
 * A file a visitor without an account sends (a receive page's submission, issue 24; a form's file
 * answer, issue 37) runs through the file manager's tus path in the owner's name. The module the
 * visitor sent it through says what happens around it: which content it refuses, how its arrival
 * reads in a room's audit log, what it records once the file exists, and what it does when none
 * of the submission's files is still on its way (tell the owner, once).
 */
export type VisitorDelivery = {
  /** Why a file whose first bytes say `contentType` is not kept (it is not what its name says), or null. */
  refusal(file: { uploadId: string; name: string }, contentType: string): string | null;
  /** How the file's arrival reads in a room's audit log ("received via …"). */
  auditDetail: string;
  /** The file exists: the sending module records it (idempotent; a retried completion records nothing twice). */
  record(file: { uploadId: string; fileId: string; name: string }): Promise<void>;
};
