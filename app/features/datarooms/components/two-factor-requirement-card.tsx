import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import type { FieldErrors } from "~/lib/errors";

export type TwoFactorRequirementCardProps = {
  isRequired: boolean;
  isAvailable: boolean;
  yourSecondFactor: { enrolled: boolean; passed: boolean };
  isArchived: boolean;
  isSaving: boolean;
  failure: { message: string; fieldErrors?: FieldErrors } | null;
};

/**
 * The security page's 2FA requirement (issue 20): only sessions that passed a second factor open
 * the room, the owner's included; the server refuses to turn it on from a session that did not,
 * so no one shuts themself out.
 */
export function TwoFactorRequirementCard({ isRequired, isAvailable, yourSecondFactor, isArchived, isSaving, failure }: TwoFactorRequirementCardProps) {
  const yours = yourSecondFactor.passed
    ? "Your session passed a second factor."
    : yourSecondFactor.enrolled
      ? "Your session did not pass a second factor: sign in again with your code before requiring it."
      : "Your account has no second factor yet: set one up in Settings first.";
  return (
    <Card>
      <CardContent className="space-y-4">
        <h2 className="text-lg font-semibold text-slate-900">Two-factor sign-in</h2>
        <p className="text-sm text-slate-700">
          Require everyone, you included, to have signed in with a second factor (an authenticator app or an e-mail code). Others are sent to a page that explains how
          to set it up. {yours}
        </p>
        {!isAvailable && !isRequired ? (
          <Alert variant="info">Requiring two-factor sign-in is part of the Pro plan and above. The room's owner can upgrade to use it.</Alert>
        ) : isArchived ? (
          <Alert variant="info">This data room is archived and read-only. Unarchive it to change its security.</Alert>
        ) : (
          <IntentForm intent="two-factor" className="space-y-4">
            <Checkbox
              name="required"
              label="Require two-factor sign-in to open this room"
              defaultChecked={isRequired}
              error={failure?.fieldErrors?.required?.[0] ?? (failure ? failure.message : undefined)}
            />
            <div className="flex justify-end">
              <Button type="submit" isLoading={isSaving}>
                Save two-factor requirement
              </Button>
            </div>
          </IntentForm>
        )}
      </CardContent>
    </Card>
  );
}
