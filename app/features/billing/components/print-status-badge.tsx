import { Badge } from "~/components/ui/badge";
import type { PrintOrderStatus } from "~/db/schema/billing";

/** A print order's status as a badge: a warning where it ended without prints (failed, refunded, not paid). */
export function PrintStatusBadge({ status, label }: { status: PrintOrderStatus; label: string }) {
  return <Badge variant={status === "failed" || status === "refunded" || status === "expired" ? "warning" : "success"}>{label}</Badge>;
}
