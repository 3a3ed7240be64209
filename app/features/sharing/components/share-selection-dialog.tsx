import { useEffect, useState } from "react";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Modal } from "~/components/ui/modal";

export type SelectionShareOptions = { requireEmail: boolean; verifyEmail: boolean; allowDownload: boolean };

/**
 * "Share N items" from the file manager's selection (issue 22's batch share): one share link per
 * item, with the same few options; each link's page then has every other option. The links are
 * made in the background and listed on the room's Sharing page (or /share-links).
 */
export function ShareSelectionDialog({ count, open, onOpenChange, onShare }: { count: number; open: boolean; onOpenChange: (open: boolean) => void; onShare: (options: SelectionShareOptions) => void }) {
  const [options, setOptions] = useState<SelectionShareOptions>({ requireEmail: false, verifyEmail: false, allowDownload: true });
  useEffect(() => {
    if (open) setOptions({ requireEmail: false, verifyEmail: false, allowDownload: true });
  }, [open]);
  const set = (change: Partial<SelectionShareOptions>) => setOptions((current) => ({ ...current, ...change }));
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`Share ${count} item${count === 1 ? "" : "s"}`}
      description="Each item gets a share link of its own, with these options. Every link can be changed later on its own page."
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            onClick={() => {
              onShare(options);
              onOpenChange(false);
            }}
          >
            Create links
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <Checkbox label="Ask for e-mail" checked={options.requireEmail} onCheckedChange={(checked) => set({ requireEmail: checked === true, verifyEmail: checked === true && options.verifyEmail })} />
        <Checkbox label="Verify the e-mail with a code" checked={options.verifyEmail} onCheckedChange={(checked) => set({ verifyEmail: checked === true, requireEmail: checked === true || options.requireEmail })} />
        <Checkbox label="Allow downloads" checked={options.allowDownload} onCheckedChange={(checked) => set({ allowDownload: checked === true })} />
      </div>
    </Modal>
  );
}
