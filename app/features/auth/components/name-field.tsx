import { Input } from "~/components/ui/input";
import { NAME_MAX_LENGTH } from "../auth.constants";

/** The member's display name, as the account and profile pages both edit it. */
export function NameField({ defaultValue, error }: { defaultValue: string; error?: string }) {
  return <Input label="Name" name="name" autoComplete="name" required maxLength={NAME_MAX_LENGTH} defaultValue={defaultValue} error={error} />;
}
