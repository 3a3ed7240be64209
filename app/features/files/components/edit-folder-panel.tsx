import * as Dialog from "@radix-ui/react-dialog";
import { useRef, useState, type FormEvent } from "react";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { showToast } from "~/components/ui/toast";
import { handleHttpError, http, HttpError } from "~/lib/http";
import type { FolderSummary } from "../folders.server";
import { hasOpenColorPopover } from "./color-field";
import { fieldErrorsFrom, FolderFields, validateFolderFields, type FolderFieldErrors, type FolderFieldValues } from "./folder-fields";
import { DialogCloseButton } from "~/components/ui/modal";

/** Spec §8 "Folders": the toasts of the edit panel, word for word. */
export const folderToasts = {
  updated: "Folder updated successfully",
  updateFailed: "Could not update folder",
  iconRemoved: "Icon removed successfully",
  iconRemovalFailed: "Icon could not be removed.",
} as const;

type FolderResponse = { message: string; folder: FolderSummary };

/**
 * Failures the app handles the same way everywhere (spec §8 "Global HTTP handling"): sign-in again
 * (401), session expired (419), reload on conflict (409). Everything else gets the spec's toast.
 */
function isHandledGlobally(error: unknown): error is HttpError {
  return error instanceof HttpError && (error.status === 401 || error.status === 409 || error.status === 419);
}

export type EditFolderPanelProps = {
  folder: FolderSummary;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called with the folder as the server stored it, after a save or an icon removal. */
  onSaved: (folder: FolderSummary) => void;
  /** Spec §5 "Alpha can be hidden". */
  hideAlpha?: boolean;
};

/**
 * Spec §2 "Edit folder panel": a dialog sliding in from the right (focus trapped, Escape closes)
 * with Label, Color and Icon, and "Update". Saving sends PATCH /folder/{uid} and closes the panel
 * (§4 "Folder edit"); "Remove icon" sends DELETE /folder/{uid}/delete-icon at once.
 */
export function EditFolderPanel({ folder, open, onOpenChange, onSaved, hideAlpha }: EditFolderPanelProps) {
  const contentRef = useRef<HTMLDivElement>(null);
  const focusBeforeOpen = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          ref={contentRef}
          aria-describedby={undefined}
          data-testid="edit-folder-panel"
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col bg-white shadow-xl focus:outline-none"
          onOpenAutoFocus={() => {
            focusBeforeOpen.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            // The page opens the panel with its own button, not a Radix trigger: return focus there.
            event.preventDefault();
            if (focusBeforeOpen.current?.isConnected) focusBeforeOpen.current.focus();
          }}
          onEscapeKeyDown={(event) => {
            // Escape closes an open colour popover first, then the panel.
            if (hasOpenColorPopover(contentRef.current)) event.preventDefault();
          }}
        >
          <div className="border-b border-slate-200 py-4 pl-5 pr-12">
            <Dialog.Title className="text-lg font-semibold text-slate-900">Edit folder</Dialog.Title>
          </div>
          {/* Mounted only while open: each opening starts from the folder as it is now. */}
          <EditFolderForm folder={folder} hideAlpha={hideAlpha} onSaved={onSaved} onClose={() => onOpenChange(false)} />
          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function EditFolderForm({
  folder,
  hideAlpha,
  onSaved,
  onClose,
}: {
  folder: FolderSummary;
  hideAlpha?: boolean;
  onSaved: (folder: FolderSummary) => void;
  onClose: () => void;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<FolderFieldValues>({ label: folder.label, color: folder.color ?? "", icon: folder.icon });
  const [errors, setErrors] = useState<FolderFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const [isRemovingIcon, setRemovingIcon] = useState(false);
  const folderUrl = `/folder/${encodeURIComponent(folder.uid)}`;

  const onChange = (next: FolderFieldValues) => {
    // A field's message goes once the member changes that field.
    setErrors((current) => {
      const kept: FolderFieldErrors = {};
      for (const name of ["label", "color", "icon"] as const) if (current[name] && next[name] === values[name]) kept[name] = current[name];
      return kept;
    });
    setValues(next);
  };

  const focusFirstInvalid = (found: FolderFieldErrors) => {
    const first = (["label", "color"] as const).find((name) => found[name]);
    if (first) formRef.current?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSaving) return;
    setFormError(null);
    const found = validateFolderFields(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstInvalid(found);
      return;
    }
    setSaving(true);
    try {
      const color = values.color.trim();
      const body = await http.patch<FolderResponse>(
        folderUrl,
        { label: values.label.trim(), color: color === "" ? null : color, icon: values.icon },
        { handleErrors: false },
      );
      showToast(folderToasts.updated, { type: "success" });
      onSaved(body.folder);
      onClose();
    } catch (error) {
      if (isHandledGlobally(error)) return handleHttpError(error);
      showToast(folderToasts.updateFailed, { type: "error" });
      if (error instanceof HttpError && error.status === 400) {
        const fromServer = fieldErrorsFrom(error.body);
        setErrors(fromServer);
        if (Object.keys(fromServer).length === 0) setFormError(error.message);
        else focusFirstInvalid(fromServer);
      } else {
        setFormError(error instanceof HttpError ? error.message : "The folder could not be saved. Check your connection and try again.");
      }
    } finally {
      setSaving(false);
    }
  };

  const onRemoveIcon = async () => {
    setRemovingIcon(true);
    try {
      const body = await http.delete<FolderResponse>(`${folderUrl}/delete-icon`, undefined, { handleErrors: false });
      setValues((current) => ({ ...current, icon: null }));
      setErrors((current) => ({ ...current, icon: undefined }));
      showToast(folderToasts.iconRemoved, { type: "success" });
      onSaved(body.folder);
      // The control is gone: keep focus in the panel, on the icon button.
      formRef.current?.querySelector<HTMLButtonElement>('[data-testid="icon-button"]')?.focus();
    } catch (error) {
      if (isHandledGlobally(error)) return handleHttpError(error);
      showToast(folderToasts.iconRemovalFailed, { type: "error" });
    } finally {
      setRemovingIcon(false);
    }
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="flex min-h-0 flex-1 flex-col" aria-busy={isSaving || undefined}>
      <div className="min-h-0 flex-1 space-y-5 overflow-y-auto px-5 py-4">
        {formError ? <Alert variant="error">{formError}</Alert> : null}
        <FolderFields
          idPrefix="edit-folder"
          values={values}
          onChange={onChange}
          errors={errors}
          kind={folder.kind}
          hideAlpha={hideAlpha}
          onRemoveIcon={() => void onRemoveIcon()}
          isRemovingIcon={isRemovingIcon}
        />
      </div>
      <div className="flex justify-end gap-2 border-t border-slate-200 bg-slate-50 px-5 py-3">
        <Dialog.Close asChild>
          <Button variant="secondary">Cancel</Button>
        </Dialog.Close>
        <Button type="submit" isLoading={isSaving}>
          Update
        </Button>
      </div>
    </form>
  );
}
