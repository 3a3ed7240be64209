import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Modal } from "~/components/ui/modal";
import { showToast } from "~/components/ui/toast";
import { handleHttpError, http, HttpError } from "~/lib/http";
import { FILE_NAME_MAX, FOLDER_LABEL_MAX } from "../files.constants";

export type RenamableItem = { type: "file" | "folder"; id: string; name: string };

/** The message a refused name deserves on the field, from the server's field errors or its message. */
function fieldMessage(error: HttpError): string {
  const body = error.body && typeof error.body === "object" ? (error.body as { fieldErrors?: Record<string, string[]> }) : {};
  return body.fieldErrors?.name?.[0] ?? body.fieldErrors?.label?.[0] ?? error.message;
}

/**
 * Rename one file (PATCH /api/files/{id} { name }) or folder (PATCH /folder/{uid} { label }).
 * The name opens selected up to a file's extension, as desktops do; a name the server refuses
 * (taken, too long, a slash) is said on the field and the dialog stays open.
 */
export function RenameDialog({
  item,
  open,
  onOpenChange,
  onRenamed,
}: {
  item: RenamableItem | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRenamed: (name: string) => void;
}) {
  const [name, setName] = useState(item?.name ?? "");
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const itemType = item?.type;
  const itemName = item?.name ?? "";
  // Every opening starts from the current name.
  useEffect(() => {
    if (!open) return;
    setName(itemName);
    setError(null);
    // Once the dialog is up: the field focused, the name selected without its extension.
    const timer = setTimeout(() => {
      const dot = itemType === "file" ? itemName.lastIndexOf(".") : -1;
      inputRef.current?.focus();
      inputRef.current?.setSelectionRange(0, dot > 0 ? dot : itemName.length);
    }, 0);
    return () => clearTimeout(timer);
  }, [open, itemType, itemName]);

  if (!item) return null;
  const noun = item.type === "file" ? "file" : "folder";

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (isSaving) return;
    const wanted = name.trim();
    if (!wanted) return setError(item.type === "file" ? "The file needs a name." : "Label is required.");
    if (wanted === item.name) return onOpenChange(false);
    setIsSaving(true);
    setError(null);
    try {
      if (item.type === "file") await http.patch(`/api/files/${item.id}`, { name: wanted }, { handleErrors: false });
      else await http.patch(`/folder/${item.id}`, { label: wanted }, { handleErrors: false });
      showToast(`Renamed to “${wanted}”`, { type: "success" });
      onOpenChange(false);
      onRenamed(wanted);
    } catch (caught) {
      if (caught instanceof HttpError && caught.status === 400) setError(fieldMessage(caught));
      else handleHttpError(caught);
    } finally {
      setIsSaving(false);
    }
  };

  const formId = `rename-${item.id}`;
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`Rename ${noun}`}
      isDismissable={!isSaving}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={isSaving}>
            Cancel
          </Button>
          <Button type="submit" form={formId} isLoading={isSaving}>
            {isSaving ? "Renaming..." : "Rename"}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={(event) => void onSubmit(event)} noValidate>
        <Input
          ref={inputRef}
          label="Name"
          name="name"
          required
          autoComplete="off"
          maxLength={item.type === "file" ? FILE_NAME_MAX : FOLDER_LABEL_MAX}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={error}
        />
      </form>
    </Modal>
  );
}
