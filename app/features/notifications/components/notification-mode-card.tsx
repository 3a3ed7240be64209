import { IntentForm } from "~/components/intent-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { RadioGroup } from "~/components/ui/radio-group";
import { NOTIFICATION_MODE_LABELS } from "../notifications.constants";

type ModeOption = { value: string; label: string; description: string };

/** "E-mail me": instant, daily digest or off (and any choice before them, like a room's default), posted with intent "preference". */
export function NotificationModeCard({ label, defaultValue, before = [], isBusy }: { label: string; defaultValue: string; before?: ModeOption[]; isBusy: boolean }) {
  return (
    <Card>
      <CardContent className="space-y-4">
        <h2 className="text-lg font-semibold text-slate-900">E-mail me</h2>
        <IntentForm intent="preference" className="space-y-4">
          <RadioGroup
            label={label}
            name="mode"
            defaultValue={defaultValue}
            options={[...before, ...(["instant", "daily", "off"] as const).map((mode) => ({ value: mode, label: NOTIFICATION_MODE_LABELS[mode].label, description: NOTIFICATION_MODE_LABELS[mode].description }))]}
          />
          <Button type="submit" isLoading={isBusy}>
            Save
          </Button>
        </IntentForm>
      </CardContent>
    </Card>
  );
}
