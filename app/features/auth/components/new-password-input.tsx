import type { ComponentProps } from "react";
import { Input } from "~/components/ui/input";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../auth.constants";

/** The "choose a password" field of sign-up forms (the policy of S10, said in words). */
export function NewPasswordInput({ error }: { error?: ComponentProps<typeof Input>["error"] }) {
  return (
    <Input
      label="Password"
      name="password"
      type="password"
      autoComplete="new-password"
      required
      minLength={PASSWORD_MIN_LENGTH}
      maxLength={PASSWORD_MAX_LENGTH}
      description={`At least ${PASSWORD_MIN_LENGTH} characters. A long phrase is easier to remember and harder to guess.`}
      error={error}
    />
  );
}
