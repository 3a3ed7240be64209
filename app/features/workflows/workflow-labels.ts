import type { BadgeVariant } from "~/components/ui/badge";

/** What a run's timeline entries and statuses say, on a run's page, a workflow's page and a case's timeline (browser-safe). */
export const RUN_EVENT_LABELS: Record<string, string> = {
  "run.started": "Started",
  "step.started": "Step started",
  "task.approved": "Approved",
  "task.rejected": "Rejected",
  "step.approved": "Step approved",
  "step.rejected": "Step rejected",
  "step.escalated": "Overdue",
  "signature.sent": "Sent for signature",
  "signature.completed": "Signed",
  "signature.ended": "Not signed",
  "file.moved": "Document moved",
  "file.copied": "Document copied",
  "file.tagged": "Tagged",
  "file.metadata": "Metadata set",
  "email.sent": "E-mail sent",
  "share.created": "Shared",
  "webhook.called": "Webhook called",
  "step.skipped": "Skipped (other path)",
  "step.sent_back": "Sent back",
  "step.rounds_used": "Not sent back again",
  "form.requested": "Form sent",
  "form.answered": "Form answered",
  "case.filed": "Filed into a case",
  "run.completed": "Completed",
  "run.rejected": "Ended: rejected",
  "run.cancelled": "Cancelled",
  "run.failed": "Failed",
};

export const RUN_STATUS: Record<string, { label: string; variant: BadgeVariant }> = {
  running: { label: "Running", variant: "info" },
  completed: { label: "Completed", variant: "success" },
  rejected: { label: "Rejected", variant: "danger" },
  cancelled: { label: "Cancelled", variant: "warning" },
  failed: { label: "Failed", variant: "danger" },
};
