import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Dropdown, dropdownSizes, type DropdownEntry } from "~/components/ui/dropdown";
import { Modal, ModalClose, modalSizes, modalVariants } from "~/components/ui/modal";
import { RangeSlider } from "~/components/ui/range-slider";

const buttonClass =
  "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50";
const primaryButtonClass =
  "rounded-md border border-brand-600 bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50";
const dangerButtonClass =
  "rounded-md border border-red-600 bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-60";
const inputClass = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm";

/** How long the kit's pretend delete takes (the modal cannot be dismissed meanwhile). */
export const KIT_DELETE_DURATION_MS = 1500;

/** The interface kit's overlays: every modal size and variant, the dropdown menu and the range slider. */
export function KitOverlaysSection() {
  return (
    <section aria-labelledby="kit-overlays" className="space-y-8">
      <h2 id="kit-overlays" className="text-xl font-semibold text-slate-900">
        Overlays
      </h2>
      <ModalsDemo />
      <DropdownDemo />
      <SlidersDemo />
    </section>
  );
}

function Subsection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="space-y-3">
      <h3 className="text-lg font-medium text-slate-800">{title}</h3>
      {children}
    </div>
  );
}

function capitalize(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function ModalsDemo() {
  return (
    <Subsection title="Modals">
      <div className="flex flex-wrap gap-2">
        {modalSizes.map((size) => (
          <Modal
            key={size}
            size={size}
            title={`${size} modal`}
            description={`A modal of size "${size}".`}
            trigger={
              <button type="button" className={buttonClass}>
                Open {size} modal
              </button>
            }
            footer={<ModalClose className={primaryButtonClass}>OK</ModalClose>}
          >
            <p>Escape, the Close button or a click outside closes it.</p>
          </Modal>
        ))}
      </div>
      <div className="flex flex-wrap gap-2">
        {modalVariants.map((variant) => (
          <Modal
            key={variant}
            variant={variant}
            title={`${capitalize(variant)} modal`}
            description={`The "${variant}" variant.`}
            trigger={
              <button type="button" className={buttonClass}>
                Open {variant} modal
              </button>
            }
            footer={<ModalClose className={variant === "danger" ? dangerButtonClass : primaryButtonClass}>OK</ModalClose>}
          />
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <FormModalDemo />
        <DeleteModalDemo />
      </div>
    </Subsection>
  );
}

function FormModalDemo() {
  const [isOpen, setOpen] = useState(false);
  const [savedName, setSavedName] = useState<string | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSavedName(String(new FormData(event.currentTarget).get("folderName") ?? ""));
    setOpen(false);
  };
  return (
    <>
      <Modal
        title="Edit folder"
        description="Rename the folder and describe what it holds."
        open={isOpen}
        onOpenChange={setOpen}
        trigger={
          <button type="button" className={buttonClass}>
            Open form modal
          </button>
        }
        footer={
          <>
            <ModalClose className={buttonClass}>Cancel</ModalClose>
            <button type="submit" form="kit-edit-folder" className={primaryButtonClass}>
              Save
            </button>
          </>
        }
      >
        <form id="kit-edit-folder" className="space-y-3" onSubmit={onSubmit}>
          <label className="block text-sm font-medium text-slate-800">
            Folder name
            <input name="folderName" defaultValue="Contracts" className={inputClass} />
          </label>
          <label className="block text-sm font-medium text-slate-800">
            Description
            <input name="description" className={inputClass} />
          </label>
        </form>
      </Modal>
      <span className="text-sm text-slate-600" data-testid="modal-form-result">
        {savedName === null ? "Not saved yet" : `Saved: ${savedName}`}
      </span>
    </>
  );
}

/** While "Deleting..." the modal cannot be dismissed (isDismissable={false}). */
function DeleteModalDemo() {
  const [isOpen, setOpen] = useState(false);
  const [isDeleting, setDeleting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onDelete = () => {
    setDeleting(true);
    timer.current = setTimeout(() => {
      setDeleting(false);
      setOpen(false);
    }, KIT_DELETE_DURATION_MS);
  };
  return (
    <Modal
      variant="danger"
      size="sm"
      title="Delete folder?"
      description="The folder and its 12 files are deleted for everyone."
      open={isOpen}
      onOpenChange={setOpen}
      isDismissable={!isDeleting}
      trigger={
        <button type="button" className={buttonClass}>
          Open delete modal
        </button>
      }
      footer={
        <>
          <ModalClose className={buttonClass} disabled={isDeleting}>
            Cancel
          </ModalClose>
          <button type="button" className={dangerButtonClass} disabled={isDeleting} onClick={onDelete}>
            {isDeleting ? "Deleting..." : "Delete"}
          </button>
        </>
      }
    />
  );
}

const folderActions: DropdownEntry[] = [
  { type: "label", id: "label", label: "Folder" },
  { id: "Rename", label: "Rename" },
  { id: "Move", label: "Move" },
  { id: "Download", label: "Download" },
  { id: "Archive", label: "Archive", disabled: true },
  { type: "separator", id: "separator" },
  { id: "Delete", label: "Delete", danger: true },
];

function DropdownDemo() {
  const [lastAction, setLastAction] = useState<string | null>(null);
  return (
    <Subsection title="Dropdown">
      <div className="flex flex-wrap items-center gap-4">
        <Dropdown label="Folder actions" items={folderActions} onSelect={setLastAction} />
        {dropdownSizes.map((size) => (
          <Dropdown
            key={size}
            size={size}
            variant={size === "lg" ? "primary" : size === "sm" ? "ghost" : "default"}
            label={`${size} menu`}
            items={[
              { id: "Open", label: "Open" },
              { id: "Share", label: "Share" },
            ]}
            onSelect={setLastAction}
          />
        ))}
        <Dropdown label="Disabled menu" items={[{ id: "Nothing", label: "Nothing" }]} disabled />
      </div>
      <p className="text-sm text-slate-700" data-testid="dropdown-last-action">
        Last action: {lastAction ?? "none"}
      </p>
    </Subsection>
  );
}

function SliderDemo({ title, testId, value, children }: { title: string; testId: string; value: string; children: ReactNode }) {
  return (
    <div data-slider-demo={title} className="space-y-2 rounded-md border border-slate-200 bg-white p-4">
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium text-slate-800">{title}</span>
        <output className="tabular-nums text-slate-600" data-testid={testId}>
          {value}
        </output>
      </div>
      {children}
    </div>
  );
}

function SlidersDemo() {
  const [single, setSingle] = useState(30);
  const [range, setRange] = useState([20, 80]);
  const [temperature, setTemperature] = useState(37);
  const [stepped, setStepped] = useState(40);
  const [rightToLeft, setRightToLeft] = useState(60);
  const [locked, setLocked] = useState(50);
  const [noKeys, setNoKeys] = useState(50);
  const [vertical, setVertical] = useState(25);
  const [topDown, setTopDown] = useState([20, 60]);
  return (
    <Subsection title="Range slider">
      <div className="grid gap-4 md:grid-cols-2">
        <SliderDemo title="Single value" testId="slider-single-value" value={String(single)}>
          <RangeSlider label="Volume" value={single} onChange={setSingle} tooltip="hover" />
        </SliderDemo>
        <SliderDemo title="Range (two handles)" testId="slider-range-value" value={range.join(" – ")}>
          <RangeSlider label="Price range" value={range} onChange={setRange} tooltip="always" formatValue={(v) => `€${v}`} />
        </SliderDemo>
        <SliderDemo title="With marks" testId="slider-marks-value" value={`${temperature} °C`}>
          <RangeSlider
            label="Temperature"
            value={temperature}
            onChange={setTemperature}
            marks={{ 0: "0 °C", 26: "26 °C", 37: "37 °C", 100: "100 °C" }}
            tooltip="focus"
          />
        </SliderDemo>
        <SliderDemo title="With dots (step 10)" testId="slider-dots-value" value={String(stepped)}>
          <RangeSlider label="Stepped" value={stepped} onChange={setStepped} step={10} dots />
        </SliderDemo>
        <SliderDemo title="Right to left" testId="slider-rtl-value" value={String(rightToLeft)}>
          <RangeSlider
            label="Right to left"
            value={rightToLeft}
            onChange={setRightToLeft}
            direction="rtl"
            marks={{ 0: "0", 50: "50", 100: "100" }}
          />
        </SliderDemo>
        <SliderDemo title="Disabled" testId="slider-disabled-value" value={String(locked)}>
          <RangeSlider label="Disabled" value={locked} onChange={setLocked} disabled />
        </SliderDemo>
        <SliderDemo title="Keyboard off" testId="slider-nokeyboard-value" value={String(noKeys)}>
          <RangeSlider label="Keyboard off" value={noKeys} onChange={setNoKeys} keyboard={false} />
        </SliderDemo>
        <div className="grid grid-cols-2 gap-4">
          <SliderDemo title="Vertical" testId="slider-vertical-value" value={String(vertical)}>
            <RangeSlider
              label="Vertical"
              value={vertical}
              onChange={setVertical}
              direction="btt"
              marks={{ 0: "0", 50: "50", 100: "100" }}
              tooltip="hover"
            />
          </SliderDemo>
          <SliderDemo title="Top to bottom" testId="slider-ttb-value" value={topDown.join(" – ")}>
            <RangeSlider
              label="Top to bottom"
              value={topDown}
              onChange={setTopDown}
              direction="ttb"
              thumbLabels={["Upper handle", "Lower handle"]}
              step={10}
              dots
            />
          </SliderDemo>
        </div>
      </div>
    </Subsection>
  );
}
