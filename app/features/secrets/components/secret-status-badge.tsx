import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { SECRET_STATUS_LABELS, type SecretStatus } from "../secrets.constants";

const VARIANTS: Record<SecretStatus, BadgeVariant> = { live: "info", viewed: "success", expired: "neutral", burned: "danger" };

export function SecretStatusBadge({ status }: { status: SecretStatus }) {
  return <Badge variant={VARIANTS[status]}>{SECRET_STATUS_LABELS[status]}</Badge>;
}
