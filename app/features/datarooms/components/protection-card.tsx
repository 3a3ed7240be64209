import { useState } from "react";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import type { FieldErrors } from "~/lib/errors";
import {
  DEFAULT_WATERMARK,
  WATERMARK_FONT_SIZE,
  WATERMARK_OPACITY,
  WATERMARK_POSITION_LABELS,
  WATERMARK_POSITIONS,
  WATERMARK_TEMPLATE_MAX,
  WATERMARK_VARIABLES,
  type RoomProtection,
} from "../protection";

export type ProtectionCardProps = {
  protection: RoomProtection;
  available: { watermarking: boolean; downloadProtection: boolean; printProtection: boolean };
  isArchived: boolean;
  isSaving: boolean;
  failure: { message: string; fieldErrors?: FieldErrors } | null;
};

const positionOptions = WATERMARK_POSITIONS.map((position) => ({ value: position, label: WATERMARK_POSITION_LABELS[position] }));

/**
 * The security page's watermark, download protection and print protection (issue 20). A setting
 * the owner's plan lacks cannot be turned on (it says which plan has it); one already on can
 * always be turned off. The server checks all of it again.
 */
export function ProtectionCard({ protection, available, isArchived, isSaving, failure }: ProtectionCardProps) {
  const watermark = protection.watermark ?? DEFAULT_WATERMARK;
  const [isWatermarkOn, setIsWatermarkOn] = useState(protection.watermark !== null);
  const fieldError = (name: string) => failure?.fieldErrors?.[`watermark.${name}`]?.[0];
  const planNote = [
    !available.watermarking ? "Watermarking and print protection are part of the Pro plan and above." : null,
    !available.downloadProtection ? "Download protection is part of the Basic plan and above." : null,
  ].filter(Boolean);

  return (
    <Card>
      <CardContent className="space-y-4">
        <h2 className="text-lg font-semibold text-slate-900">Watermark, download and print protection</h2>
        <p className="text-sm text-slate-700">
          These apply to everyone who cannot manage this room's settings; the owner and admins always see and download the originals.
        </p>
        {planNote.length > 0 ? <Alert variant="info">{planNote.join(" ")} The room's owner can upgrade to use them.</Alert> : null}
        {isArchived ? (
          <Alert variant="info">This data room is archived and read-only. Unarchive it to change its security.</Alert>
        ) : (
          <IntentForm intent="protection" className="space-y-5">
            {failure && !failure.fieldErrors ? <Alert variant="error">{failure.message}</Alert> : null}
            <fieldset className="space-y-4">
              <legend className="sr-only">Watermark</legend>
              <Checkbox
                name="watermark"
                label="Watermark every document shown"
                description="The server burns the viewer's details into each PDF page it sends (not an overlay the browser could hide). While it is on, other file types are not shown and folders cannot be downloaded as zips."
                checked={isWatermarkOn}
                onCheckedChange={(checked) => setIsWatermarkOn(checked === true)}
                isDisabled={!available.watermarking && protection.watermark === null}
              />
              {isWatermarkOn ? (
                <div className="grid gap-4 sm:grid-cols-2">
                  <Input
                    className="sm:col-span-2"
                    label="Watermark text"
                    name="template"
                    defaultValue={watermark.template}
                    maxLength={WATERMARK_TEMPLATE_MAX}
                    required
                    description={`Variables: ${WATERMARK_VARIABLES.map((name) => `{{${name}}}`).join(", ")} (the viewer's e-mail, the UTC date and time of their copy, their address, the room's name).`}
                    error={fieldError("template")}
                  />
                  <Input
                    label="Opacity (%)"
                    name="opacity"
                    type="number"
                    min={WATERMARK_OPACITY.min * 100}
                    max={WATERMARK_OPACITY.max * 100}
                    step={1}
                    defaultValue={Math.round(watermark.opacity * 100)}
                    error={fieldError("opacity")}
                  />
                  <Input
                    label="Text size (pt)"
                    name="fontSize"
                    type="number"
                    min={WATERMARK_FONT_SIZE.min}
                    max={WATERMARK_FONT_SIZE.max}
                    step={1}
                    defaultValue={watermark.fontSize}
                    error={fieldError("fontSize")}
                  />
                  <Select className="sm:col-span-2" label="Position" name="position" options={positionOptions} defaultValue={watermark.position} error={fieldError("position")} />
                </div>
              ) : null}
            </fieldset>
            <Checkbox
              name="downloadProtection"
              label="Download protection (view only)"
              description="Nobody but the owner and admins can download files or folders, whatever their permissions say; files open in the viewer only. Combine it with the watermark so a copy taken from the screen names its taker."
              defaultChecked={protection.downloadProtection}
              isDisabled={!available.downloadProtection && !protection.downloadProtection}
            />
            <Checkbox
              name="printProtection"
              label="Print protection"
              description="The viewer leaves documents out when the page is printed and offers no print. This deters; it cannot stop a screenshot."
              defaultChecked={protection.printProtection}
              isDisabled={!available.printProtection && !protection.printProtection}
            />
            <div className="flex justify-end">
              <Button type="submit" isLoading={isSaving}>
                Save protection
              </Button>
            </div>
          </IntentForm>
        )}
      </CardContent>
    </Card>
  );
}
