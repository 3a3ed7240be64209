import { useState } from "react";
import { Button } from "~/components/ui/button";
import { RadioGroup } from "~/components/ui/radio-group";
import { Select } from "~/components/ui/select";
import { showToast, toast, TOAST_MAX_VISIBLE, toastPositions, toastTimeouts, type ToastPlacement } from "~/components/ui/toast";
import { toastMessages, toastTypes, type ToastType } from "~/lib/toast.schema";

/** Markup that must be shown as text, never run (spec §9: no HTML in messages). */
export const KIT_HTML_TOAST_MESSAGE = "<b>bold</b><img src=x onerror=alert(1)>";
/** More than TOAST_MAX_VISIBLE, to show the limit. */
export const KIT_BURST_SIZE = 25;

function capitalize(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The interface kit's toasts: every type and position, the limit, literal markup and the helper messages. */
export function KitToastsSection() {
  const [type, setType] = useState<ToastType>("success");
  const [position, setPosition] = useState<ToastPlacement>("top-right");
  const options = { type, position };

  return (
    <section aria-labelledby="kit-toasts" className="space-y-4">
      <h2 id="kit-toasts" className="text-xl font-semibold text-slate-900">
        Toasts
      </h2>
      <p className="text-sm text-slate-700">
        A toast closes by itself (success and info after {toastTimeouts.success / 1000} s, warning after{" "}
        {toastTimeouts.warning / 1000} s, error after {toastTimeouts.error / 1000} s), when clicked, or when dragged sideways;
        hovering pauses it. At most {TOAST_MAX_VISIBLE} are shown at once.
      </p>
      <div className="flex flex-wrap items-start gap-6">
        <RadioGroup
          label="Type"
          orientation="horizontal"
          options={toastTypes.map((value) => ({ value, label: value }))}
          value={type}
          onValueChange={(value) => setType(toastTypes.find((t) => t === value) ?? "success")}
        />
        <Select
          label="Position"
          className="w-48"
          options={toastPositions.map((value) => ({ value, label: value }))}
          value={position}
          onValueChange={(value) => setPosition(toastPositions.find((p) => p === value) ?? "top-right")}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => showToast(`${capitalize(type)} toast, ${position}.`, options)}>
          Show toast
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            for (let index = 1; index <= KIT_BURST_SIZE; index += 1) showToast(`Toast ${index} of ${KIT_BURST_SIZE}`, options);
          }}
        >
          Show {KIT_BURST_SIZE} toasts
        </Button>
        <Button variant="secondary" size="sm" onClick={() => showToast(KIT_HTML_TOAST_MESSAGE, options)}>
          Show toast with HTML
        </Button>
        <Button variant="secondary" size="sm" onClick={() => toast.dismissAll()}>
          Dismiss all toasts
        </Button>
      </div>
      <div className="flex flex-wrap gap-2">
        {(["created", "updated", "deleted"] as const).map((kind) => (
          <Button key={kind} variant="secondary" size="sm" onClick={() => toast.success(toastMessages[kind]("Folder"), { position })}>
            {toastMessages[kind]("Folder")}
          </Button>
        ))}
      </div>
    </section>
  );
}
