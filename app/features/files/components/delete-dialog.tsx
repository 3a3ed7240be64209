import { useEffect, useState } from "react";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Modal } from "~/components/ui/modal";
import { showToast } from "~/components/ui/toast";
import { http } from "~/lib/http";
import { TRASH_RETENTION_DAYS } from "../files.constants";
import { BATCH_FROM, MAX_ITEMS_PER_CALL, trashMessages } from "../trash.constants";

export type DeletableItem = { type: "file" | "folder"; id: string; name: string };

export type DeleteDialogProps = {
  items: DeletableItem[];
  /** The items are already in the trash: deleting them is always permanent. */
  inTrash: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called after a successful delete (the dialog has closed itself). */
  onDeleted: () => void;
  /** More than BATCH_FROM items: handed to the batch manager (the operations panel shows the progress). */
  onBatch?: (permanent: boolean) => void;
};

/** The API takes at most MAX_ITEMS_PER_CALL items a call; a larger selection goes in parts. */
function inParts<T>(items: T[]): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += MAX_ITEMS_PER_CALL) parts.push(items.slice(start, start + MAX_ITEMS_PER_CALL));
  return parts;
}

/**
 * Spec §2 "Delete dialog": titled "Delete N item(s)"; the display names are listed when there is
 * more than one item; the "Permanently delete this item/these items" box is hidden for items
 * already in the trash; "Delete" becomes "Permanently Delete" when deletion is permanent; while
 * the request runs the button says "Deleting..." and the dialog cannot be dismissed.
 */
export function DeleteDialog({ items, inTrash, open, onOpenChange, onDeleted, onBatch }: DeleteDialogProps) {
  const [isPermanentChosen, setIsPermanentChosen] = useState(false);
  const [isDeleting, setIsDeleting] = useState(false);

  // Every opening starts unticked.
  useEffect(() => {
    if (open) setIsPermanentChosen(false);
  }, [open]);

  const count = items.length;
  const isPermanent = inTrash || isPermanentChosen;
  const isSeveral = count > 1;

  const onConfirm = async () => {
    if (count === 0 || isDeleting) return;
    if (onBatch && count > BATCH_FROM) {
      onBatch(isPermanent);
      showToast(`${isPermanent ? "Deleting" : "Moving to the trash"} ${count} items: follow it under Operations.`, { type: "info" });
      onOpenChange(false);
      return;
    }
    setIsDeleting(true);
    try {
      for (const part of inParts(items)) {
        await http.post("/api/items/delete", {
          items: part.map((item) => ({ type: item.type, id: item.id })),
          permanent: isPermanent,
        });
      }
      showToast(isPermanent ? trashMessages.deleted(count) : trashMessages.moved(count), { type: "success" });
      onOpenChange(false);
      onDeleted();
    } catch {
      // The HTTP client has already told the member what went wrong; the dialog stays open to retry.
    } finally {
      setIsDeleting(false);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`Delete ${count} item(s)`}
      variant="danger"
      isDismissable={!isDeleting}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={isDeleting}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void onConfirm()} isLoading={isDeleting} disabled={count === 0}>
            {isDeleting ? "Deleting..." : isPermanent ? "Permanently Delete" : "Delete"}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <p className="text-sm text-slate-700" data-testid="delete-dialog-summary">
          {isPermanent
            ? `${isSeveral ? "These items" : "This item"} will be deleted for good. This cannot be undone.`
            : `${isSeveral ? "These items" : "This item"} will be moved to the trash, where ${isSeveral ? "they" : "it"} can be restored for ${TRASH_RETENTION_DAYS} days.`}
        </p>
        {isSeveral ? (
          <ul aria-label="Items to delete" className="max-h-48 list-disc space-y-1 overflow-y-auto pl-5 text-sm text-slate-900">
            {items.map((item) => (
              <li key={`${item.type}:${item.id}`} className="break-words">
                {item.name}
                {item.type === "folder" ? <span className="text-slate-600"> (folder)</span> : null}
              </li>
            ))}
          </ul>
        ) : null}
        {inTrash ? null : (
          <Checkbox
            label={isSeveral ? "Permanently delete these items" : "Permanently delete this item"}
            checked={isPermanentChosen}
            onCheckedChange={(checked) => setIsPermanentChosen(checked === true)}
            isDisabled={isDeleting}
          />
        )}
      </div>
    </Modal>
  );
}
