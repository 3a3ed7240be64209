import { useState } from "react";
import type { FolderKind } from "~/db/schema/files";
import { Button } from "~/components/ui/button";
import { FieldError, Input } from "~/components/ui/input";
import { FOLDER_LABEL_MAX } from "../files.constants";
import { ColorField, colorTextError } from "./color-field";
import { FolderGlyph } from "./folder-glyph";
import { IconPicker } from "./icon-picker";

/** The editable fields of a folder (spec §3 "Folder": label, color, icon), as the form holds them. */
export type FolderFieldValues = { label: string; color: string; icon: string | null };
export type FolderFieldName = keyof FolderFieldValues;
export type FolderFieldErrors = Partial<Record<FolderFieldName, string>>;

export const LABEL_REQUIRED_MESSAGE = "Label is required.";

/** The checks the browser can make before sending (the server repeats them all). */
export function validateFolderFields(values: FolderFieldValues): FolderFieldErrors {
  const errors: FolderFieldErrors = {};
  if (values.label.trim() === "") errors.label = LABEL_REQUIRED_MESSAGE;
  const colorError = colorTextError(values.color);
  if (colorError) errors.color = colorError;
  return errors;
}

/** The first message per field of a server's 400 (`fieldErrors` of the error body). */
export function fieldErrorsFrom(body: unknown): FolderFieldErrors {
  const errors: FolderFieldErrors = {};
  if (!body || typeof body !== "object") return errors;
  const fieldErrors = (body as { fieldErrors?: unknown }).fieldErrors;
  if (!fieldErrors || typeof fieldErrors !== "object") return errors;
  for (const name of ["label", "color", "icon"] as const) {
    const messages = (fieldErrors as Record<string, unknown>)[name];
    if (Array.isArray(messages) && typeof messages[0] === "string") errors[name] = messages[0];
  }
  return errors;
}

export type FolderFieldsProps = {
  values: FolderFieldValues;
  onChange: (values: FolderFieldValues) => void;
  errors?: FolderFieldErrors;
  /** Shown in the icon button when no icon is chosen (the kind's default icon). */
  kind: FolderKind;
  hideAlpha?: boolean;
  /**
   * What "Remove icon" does. Left out, it only clears the field; the edit panel removes the icon
   * on the server at once (DELETE /folder/{uid}/delete-icon).
   */
  onRemoveIcon?: () => void;
  isRemovingIcon?: boolean;
  /** Adds a plain text box for the icon name that only exists when JavaScript is off. */
  hasNoScriptIconFallback?: boolean;
  idPrefix: string;
};

/**
 * Spec §2 "Edit folder panel" fields, shared by the panel and the new-folder page: Label (required,
 * with an asterisk), Color (a text box that opens a colour picker), Icon (a button that opens the
 * icon picker) with a delete-icon control while an icon is set. Every field carries its form name,
 * so the new-folder page also posts without JavaScript.
 */
export function FolderFields({
  values,
  onChange,
  errors = {},
  kind,
  hideAlpha,
  onRemoveIcon,
  isRemovingIcon = false,
  hasNoScriptIconFallback = false,
  idPrefix,
}: FolderFieldsProps) {
  const [isPickerOpen, setPickerOpen] = useState(false);
  const iconLabelId = `${idPrefix}-icon-label`;
  const iconErrorId = `${idPrefix}-icon-error`;
  const set = (patch: Partial<FolderFieldValues>) => onChange({ ...values, ...patch });

  return (
    <div className="space-y-5">
      <Input
        id={`${idPrefix}-label`}
        name="label"
        label="Label"
        required
        maxLength={FOLDER_LABEL_MAX}
        autoComplete="off"
        value={values.label}
        error={errors.label}
        onChange={(event) => set({ label: event.target.value })}
      />

      <ColorField
        id={`${idPrefix}-color`}
        name="color"
        value={values.color}
        hideAlpha={hideAlpha}
        error={errors.color}
        onChange={(color) => set({ color })}
      />

      <div role="group" aria-labelledby={iconLabelId} className="space-y-1.5">
        <p id={iconLabelId} className="text-sm font-medium text-slate-900">
          Icon
        </p>
        <input type="hidden" name="icon" value={values.icon ?? ""} />
        <div className="flex flex-wrap items-center gap-2">
          <Button
            variant="secondary"
            aria-describedby={errors.icon ? iconErrorId : undefined}
            aria-label={values.icon ? `Icon: ${values.icon}. Choose another icon` : "Choose an icon"}
            data-testid="icon-button"
            onClick={() => setPickerOpen(true)}
          >
            <FolderGlyph color={null} icon={values.icon} kind={kind} className="text-xl" />
            <span className={values.icon ? "font-mono" : undefined}>{values.icon ?? "Choose an icon"}</span>
          </Button>
          {values.icon ? (
            <Button
              variant="ghost"
              isLoading={isRemovingIcon}
              onClick={() => (onRemoveIcon ? onRemoveIcon() : set({ icon: null }))}
            >
              <span aria-hidden className="material-icons text-lg leading-none">
                delete
              </span>
              Remove icon
            </Button>
          ) : null}
        </div>
        {hasNoScriptIconFallback ? (
          <noscript>
            <label htmlFor={`${idPrefix}-icon-name`} className="block text-sm text-slate-700">
              Icon name (a Material icon name, e.g. folder_special)
            </label>
            <input
              id={`${idPrefix}-icon-name`}
              name="icon"
              type="text"
              maxLength={64}
              className="block w-full rounded-md border border-slate-500 px-3 py-2 text-sm"
            />
          </noscript>
        ) : null}
        {errors.icon ? <FieldError id={iconErrorId}>{errors.icon}</FieldError> : null}
      </div>

      <IconPicker open={isPickerOpen} onOpenChange={setPickerOpen} value={values.icon} onSelect={(icon) => set({ icon })} />
    </div>
  );
}
