/**
 * The builder page's draft of a workflow (/workflows/create) and the JSON it sends. Nothing here is
 * trusted: the server checks every rule (createWorkflowSchema and createWorkflow).
 */

export type Mode = "one" | "all" | "quorum";
export type Escalation = "remind" | "reassign" | "approve" | "reject";
export type StepKind = "approve" | "form" | "sign" | "move" | "copy" | "tag" | "metadata" | "case" | "email" | "share" | "webhook" | "back";
export type StepWhen = "always" | "approved" | "rejected";
export const WHEN_LABELS: Record<StepWhen, string> = { always: "Always", approved: "Only when approved so far", rejected: "Only when rejected (instead of ending the run)" };
export type DraftStep = {
  key: number;
  type: StepKind;
  name: string;
  when: StepWhen;
  caseTypeId: string;
  people: string;
  mode: Mode;
  quorumPercent: string;
  folderId: string;
  dueDays: string;
  escalation: Escalation;
  reassignTo: string;
  signers: string;
  /** Tags, separated by commas. */
  tags: string;
  /** Metadata, one "Key = value" a line. */
  entries: string;
  /** E-mail addresses, separated by commas. */
  to: string;
  subject: string;
  message: string;
  expiresInDays: string;
  allowDownload: boolean;
  url: string;
  formId: string;
  /** In a data room's workflow: the room roles whose people also approve. */
  roles: RoomRole[];
  /** A send-back step: the number of the step it goes back to, and how many times at most. */
  backTo: string;
  times: string;
};
export type RoomRole = "admin" | "member" | "guest";
export const ROOM_ROLE_CHOICES: Record<RoomRole, string> = { admin: "Owner and admins", member: "Members", guest: "Guests" };
export type DraftTrigger = { type: "manual" | "upload" | "envelope" | "form" | "receive" | "schedule"; folderId: string; formId: string; pageId: string; everyDays: string };

export const MODE_LABELS: Record<Mode, string> = { one: "Any one of them", all: "All of them", quorum: "A quorum (percent of them)" };
export const ESCALATION_LABELS: Record<Escalation, string> = { remind: "Remind them", reassign: "Hand it to someone else", approve: "Approve it and go on", reject: "Reject it (the run ends)" };
/** A form step's escalations, as its builder reads them. */
export const FORM_ESCALATION_LABELS: Record<Escalation, string> = { remind: "Remind them", reassign: "Ask someone else", approve: "Go on without the answer", reject: "Reject it (the run ends)" };
/** A sign step's escalations: a signature cannot be handed on or assumed. */
export const SIGN_ESCALATION_LABELS: Partial<Record<Escalation, string>> = { remind: "Remind those who have not signed", reject: "Void the document and reject it (the run ends)" };
/** What each kind is called in its step's legend, its default name, and its "Add …" button. */
export const STEP_KINDS: Record<StepKind, { legend: string; name: string; add: string }> = {
  approve: { legend: "approval", name: "Approval", add: "Add an approval" },
  form: { legend: "fill in a form", name: "Form", add: "Add a form to fill in" },
  sign: { legend: "signature", name: "Signature", add: "Add a signature" },
  move: { legend: "move the document", name: "Move", add: "Add a move" },
  copy: { legend: "copy the document", name: "Copy", add: "Add a copy" },
  tag: { legend: "tag the document", name: "Tag", add: "Add tags" },
  metadata: { legend: "set metadata", name: "Metadata", add: "Add metadata" },
  case: { legend: "file into a new case", name: "File into a case", add: "Add filing into a case" },
  email: { legend: "send an e-mail", name: "E-mail", add: "Add an e-mail" },
  share: { legend: "share the document", name: "Share", add: "Add a share link" },
  webhook: { legend: "call a webhook", name: "Webhook", add: "Add a webhook" },
  back: { legend: "send back to an earlier step", name: "Send back", add: "Add a send-back" },
};
/** The "Add …" buttons, grouped as a builder thinks of them. */
export const STEP_GROUPS: { label: string; kinds: StepKind[] }[] = [
  { label: "People", kinds: ["approve", "form", "sign"] },
  { label: "The document", kinds: ["move", "copy", "tag", "metadata", "case"] },
  { label: "Tell others", kinds: ["email", "share", "webhook"] },
  { label: "Loops", kinds: ["back"] },
];

export const draftStep = (key: number, type: StepKind, folderId: string, caseTypeId = "", name = STEP_KINDS[type].name, formId = ""): DraftStep => ({
  key,
  type,
  name,
  // A send-back is for the rejected path: a rejected draft goes round again.
  when: type === "back" ? "rejected" : "always",
  people: "",
  mode: "one",
  quorumPercent: "50",
  folderId,
  dueDays: "",
  escalation: "remind",
  reassignTo: "",
  signers: "",
  caseTypeId,
  tags: "",
  entries: "",
  to: "",
  subject: "",
  message: "",
  expiresInDays: "14",
  allowDownload: false,
  url: "",
  formId,
  roles: [],
  backTo: "1",
  times: "2",
});

/** "Sam Signer <sam@example.com>; ada@example.com" → the signers (a bare address is named by its first part). */
const parseSigners = (text: string) =>
  text
    .split(/[;\n]+/)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const match = /^(.*?)\s*<([^>]+)>$/.exec(entry);
      return match ? { name: match[1]!.trim() || match[2]!.split("@")[0]!, email: match[2]!.trim() } : { name: entry.split("@")[0]!, email: entry };
    });

const splitList = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);

/** "Status = Approved" lines → metadata entries (a line without "=" is a key with an empty value). */
const parseEntries = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf("=");
      return at < 0 ? { key: line, value: "" } : { key: line.slice(0, at).trim(), value: line.slice(at + 1).trim() };
    });

function triggerOf(trigger: DraftTrigger) {
  switch (trigger.type) {
    case "upload":
      return { type: "upload", folderId: trigger.folderId };
    case "schedule":
      return { type: "schedule", folderId: trigger.folderId, everyDays: Number(trigger.everyDays) };
    case "form":
      return { type: "form", formId: trigger.formId };
    case "receive":
      return { type: "receive", pageId: trigger.pageId };
    default:
      return { type: trigger.type };
  }
}

/** A human step's due time (days → hours) and what happens when it is overdue; nothing without a due time. */
const dueOf = (step: DraftStep) =>
  step.dueDays.trim() ? { dueInHours: Math.round(Number(step.dueDays) * 24), escalation: step.escalation === "reassign" ? { action: "reassign", to: step.reassignTo.trim() } : { action: step.escalation } } : {};

function stepOf(step: DraftStep) {
  const base = { type: step.type, name: step.name, when: step.when };
  switch (step.type) {
    case "approve":
      return {
        ...base,
        assignees: splitList(step.people),
        ...(step.roles.length > 0 ? { roles: step.roles } : {}),
        mode: step.mode,
        quorumPercent: step.mode === "quorum" ? Number(step.quorumPercent) || null : null,
        ...dueOf(step),
      };
    case "sign":
      return { ...base, signers: parseSigners(step.signers), ...dueOf(step) };
    case "case":
      return { ...base, caseTypeId: step.caseTypeId };
    case "move":
    case "copy":
      return { ...base, folderId: step.folderId };
    case "tag":
      return { ...base, tags: splitList(step.tags) };
    case "metadata":
      return { ...base, entries: parseEntries(step.entries) };
    case "email":
      return { ...base, to: splitList(step.to), subject: step.subject, message: step.message };
    case "share":
      return { ...base, to: splitList(step.to), expiresInDays: step.expiresInDays.trim() ? Number(step.expiresInDays) : null, allowDownload: step.allowDownload, message: step.message };
    case "webhook":
      return { ...base, url: step.url };
    case "form":
      return { ...base, formId: step.formId, to: step.to.trim(), ...dueOf(step) };
    case "back":
      return { ...base, to: Number(step.backTo), times: Number(step.times) };
  }
}

/** The JSON the server checks (createWorkflowSchema). */
export function definitionOf(name: string, trigger: DraftTrigger, steps: DraftStep[]) {
  return { name, trigger: triggerOf(trigger), steps: steps.map(stepOf) };
}
