import { CHOICE_TYPES, FIELD_TYPE_LABELS, type FormField, TEXT_TYPES } from "../form-fields";

/**
 * The selected field's settings in the builder: label, help, placeholder, default, required and
 * the checks its kind has (length, range, pattern, choices). Every change goes through `onChange`
 * (one undo step each).
 */

const label = "block text-sm font-medium text-slate-900";
const input = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600";

function numberOrUndefined(value: string): number | undefined {
  if (value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

export function FieldProperties({ field, onChange }: { field: FormField; onChange: (changes: Partial<FormField>) => void }) {
  const id = (name: string) => `prop-${field.id}-${name}`;
  const isQuestion = !["heading", "paragraph", "page_break"].includes(field.type);
  const isText = TEXT_TYPES.includes(field.type);
  const set = (changes: Partial<FormField>) => onChange(changes);
  if (field.type === "page_break") {
    return <p className="text-sm text-slate-700">A page break starts a new page. Logic rules can skip to it.</p>;
  }
  return (
    <div className="space-y-4" data-testid="field-properties">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-600">{FIELD_TYPE_LABELS[field.type]}</p>
      <div>
        <label htmlFor={id("label")} className={label}>
          {field.type === "paragraph" ? "Text" : field.type === "heading" ? "Heading" : field.type === "hidden" ? "Name (only you see it)" : "Question"}
        </label>
        {field.type === "paragraph" ? (
          <textarea id={id("label")} className={input} rows={4} value={field.label} onChange={(event) => set({ label: event.target.value })} />
        ) : (
          <input id={id("label")} className={input} value={field.label} onChange={(event) => set({ label: event.target.value })} />
        )}
      </div>
      {isQuestion && field.type !== "hidden" ? (
        <>
          <div>
            <label htmlFor={id("help")} className={label}>
              Help text
            </label>
            <input id={id("help")} className={input} value={field.help ?? ""} onChange={(event) => set({ help: event.target.value || undefined })} />
          </div>
          <label className="flex items-center gap-2 text-sm text-slate-900">
            <input type="checkbox" checked={field.required} onChange={(event) => set({ required: event.target.checked })} className="h-4 w-4" />
            Required
          </label>
        </>
      ) : null}
      {isText || field.type === "number" || field.type === "select" ? (
        <div>
          <label htmlFor={id("placeholder")} className={label}>
            Placeholder
          </label>
          <input id={id("placeholder")} className={input} value={field.placeholder ?? ""} onChange={(event) => set({ placeholder: event.target.value || undefined })} />
        </div>
      ) : null}
      {CHOICE_TYPES.includes(field.type) ? (
        <div>
          <label htmlFor={id("options")} className={label}>
            Choices, one per line
          </label>
          <textarea
            id={id("options")}
            className={input}
            rows={Math.min(10, Math.max(3, (field.options?.length ?? 0) + 1))}
            value={(field.options ?? []).join("\n")}
            onChange={(event) => set({ options: event.target.value.split("\n").map((line) => line.replace(/^\s+/, "")).slice(0, 50) })}
            onBlur={(event) => set({ options: event.target.value.split("\n").map((line) => line.trim()).filter(Boolean) })}
          />
        </div>
      ) : null}
      {isText || field.type === "number" || field.type === "multi_select" || field.type === "scale" || field.type === "rating" ? (
        <div className="grid grid-cols-2 gap-3">
          {field.type !== "rating" ? (
            <div>
              <label htmlFor={id("min")} className={label}>
                {isText ? "Fewest characters" : field.type === "multi_select" ? "Fewest choices" : "Lowest"}
              </label>
              <input id={id("min")} className={input} inputMode="decimal" value={field.min ?? ""} onChange={(event) => set({ min: numberOrUndefined(event.target.value) })} />
            </div>
          ) : null}
          <div>
            <label htmlFor={id("max")} className={label}>
              {isText ? "Most characters" : field.type === "multi_select" ? "Most choices" : field.type === "rating" ? "Stars" : "Highest"}
            </label>
            <input id={id("max")} className={input} inputMode="decimal" value={field.max ?? ""} onChange={(event) => set({ max: numberOrUndefined(event.target.value) })} />
          </div>
        </div>
      ) : null}
      {field.type === "short_text" ? (
        <div className="space-y-3">
          <div>
            <label htmlFor={id("pattern")} className={label}>
              Pattern (a regular expression the whole answer must match)
            </label>
            <input id={id("pattern")} className={`${input} font-mono`} value={field.pattern ?? ""} onChange={(event) => set({ pattern: event.target.value || undefined })} />
          </div>
          <div>
            <label htmlFor={id("patternMessage")} className={label}>
              Message when it does not match
            </label>
            <input id={id("patternMessage")} className={input} value={field.patternMessage ?? ""} onChange={(event) => set({ patternMessage: event.target.value || undefined })} />
          </div>
        </div>
      ) : null}
      {field.type === "file" ? (
        <div className="space-y-3">
          <div>
            <label htmlFor={id("accept")} className={label}>
              File types taken (extensions, such as pdf, jpg; empty: any)
            </label>
            <input
              id={id("accept")}
              className={input}
              value={(field.accept ?? []).join(", ")}
              onChange={(event) => {
                const types = event.target.value.split(/[\s,]+/).map((type) => type.replace(/^\./, "").toLowerCase()).filter(Boolean);
                set({ accept: types.length > 0 ? types.slice(0, 20) : undefined });
              }}
            />
          </div>
          <div className="grid grid-cols-2 gap-3">
            <div>
              <label htmlFor={id("max")} className={label}>
                Most files
              </label>
              <input id={id("max")} className={input} inputMode="numeric" value={field.max ?? ""} onChange={(event) => set({ max: numberOrUndefined(event.target.value) })} />
            </div>
            <div>
              <label htmlFor={id("maxFileMb")} className={label}>
                Largest file (MB)
              </label>
              <input id={id("maxFileMb")} className={input} inputMode="numeric" value={field.maxFileMb ?? ""} onChange={(event) => set({ maxFileMb: numberOrUndefined(event.target.value) })} />
            </div>
          </div>
          <p className="text-xs text-slate-600">Files go to the folder chosen in Settings (“Files go to”), counted against your storage.</p>
        </div>
      ) : null}
      {field.type === "signature" ? <p className="text-sm text-slate-700">People draw their signature with a mouse, finger or pen, or type their name instead.</p> : null}
      {isQuestion && field.type !== "multi_select" && field.type !== "consent" && field.type !== "file" && field.type !== "signature" ? (
        <div>
          <label htmlFor={id("default")} className={label}>
            {field.type === "hidden" ? "Value when the address has none" : "Default answer"}
          </label>
          <input id={id("default")} className={input} value={typeof field.defaultValue === "string" ? field.defaultValue : ""} onChange={(event) => set({ defaultValue: event.target.value || undefined })} />
        </div>
      ) : null}
      {field.type === "hidden" ? (
        <div>
          <label htmlFor={id("param")} className={label}>
            Filled from the address parameter
          </label>
          <input id={id("param")} className={`${input} font-mono`} value={field.param ?? ""} placeholder={field.id} onChange={(event) => set({ param: event.target.value || undefined })} />
          <p className="mt-1 text-xs text-slate-600">
            For example /forms/…/view?{field.param || field.id}=newsletter fills it with “newsletter”.
          </p>
        </div>
      ) : null}
    </div>
  );
}
