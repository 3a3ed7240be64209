import type { BadgeVariant } from "~/components/ui/badge";

/** The badge colour of an envelope's or a recipient's status (list and envelope pages agree). */
export const STATUS_VARIANTS: Record<string, BadgeVariant> = { draft: "neutral", sent: "info", sealing: "info", completed: "success", declined: "danger", voided: "warning", expired: "warning", waiting: "neutral", opened: "info", signed: "success" };
