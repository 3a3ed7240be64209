import { clsx } from "clsx";
import { initialValue } from "../form-answers";
import type { FormField } from "../form-fields";
import type { AnswerValue, Answers } from "../form-logic";
import { SignaturePad } from "./signature-pad";

/**
 * One question as a visitor answers it (issue 37): its label, help, control and message, for
 * every field type. Shared by the form renderer (the public form and the preview) and a receive
 * page that asks a form's questions.
 */

const inputClass = "block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 aria-[invalid=true]:border-red-700 sm:text-sm";

/** Answers as the logic sees them: a file question's answer is the chosen files' names. */
export function logicAnswers(raw: Record<string, unknown>): Answers {
  const answers: Record<string, AnswerValue | undefined> = {};
  for (const [key, value] of Object.entries(raw)) {
    answers[key] = Array.isArray(value) && value.some((item) => typeof item === "object") ? value.map((item: { name?: unknown }) => String(item?.name ?? "")) : (value as AnswerValue);
  }
  return answers;
}

function fileRules(field: FormField): string {
  const most = field.max ?? 1;
  return [field.accept?.length ? `${field.accept.map((type) => type.toUpperCase()).join(", ")} files` : null, field.maxFileMb ? `up to ${field.maxFileMb.toLocaleString("en-US")} MB each` : null, most > 1 ? `at most ${most} files` : "one file"].filter(Boolean).join(", ");
}

export function startingAnswers(fields: readonly FormField[], params: URLSearchParams | undefined, values: Record<string, AnswerValue> | undefined): Answers {
  const answers: Record<string, AnswerValue | undefined> = {};
  for (const field of fields) answers[field.id] = values ? values[field.id] : initialValue(field, params);
  return answers;
}

function FieldControl({ field, value, error, describedBy }: { field: FormField; value: AnswerValue | undefined; error: string | undefined; describedBy: string | undefined }) {
  const id = `field-${field.id}`;
  const common = { id, name: field.id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy, required: undefined };
  const text = typeof value === "string" ? value : undefined;
  switch (field.type) {
    case "long_text":
      return <textarea {...common} rows={5} defaultValue={text} placeholder={field.placeholder} className={inputClass} />;
    case "select":
      return (
        <select {...common} defaultValue={text ?? ""} className={inputClass}>
          <option value="">{field.placeholder || "Choose…"}</option>
          {field.options?.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
    case "checkbox":
    case "consent":
      return null;
    case "file":
      return (
        <>
          <p id={`${id}-rules`} className="text-xs text-slate-600">
            {fileRules(field)}.
          </p>
          <input
            {...common}
            type="file"
            multiple={(field.max ?? 1) > 1}
            accept={field.accept?.length ? field.accept.map((type) => `.${type}`).join(",") : undefined}
            aria-describedby={[`${id}-rules`, describedBy].filter(Boolean).join(" ")}
            className="block w-full text-sm text-slate-900 file:mr-3 file:rounded-md file:border file:border-slate-400 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
          />
          <noscript>
            <p className="text-sm text-amber-800">Sending files needs JavaScript: turn it on and reload the page.</p>
          </noscript>
        </>
      );
    default: {
      const type = { email: "email", number: "text", phone: "tel", url: "url", date: "date", time: "time" }[field.type as string] ?? "text";
      const inputMode = field.type === "number" ? "decimal" : undefined;
      const autoComplete = field.type === "email" ? "email" : field.type === "phone" ? "tel" : undefined;
      return <input {...common} type={type} inputMode={inputMode} autoComplete={autoComplete} defaultValue={text} placeholder={field.placeholder} className={inputClass} />;
    }
  }
}

function ChoiceGroup({ field, value, error, describedBy }: { field: FormField; value: AnswerValue | undefined; error: string | undefined; describedBy: string | undefined }) {
  const multiple = field.type === "multi_select";
  const choices =
    field.type === "rating"
      ? Array.from({ length: field.max ?? 5 }, (_, index) => String(index + 1))
      : field.type === "scale"
        ? Array.from({ length: (field.max ?? 10) - (field.min ?? 0) + 1 }, (_, index) => String((field.min ?? 0) + index))
        : (field.options ?? []);
  const chosen = new Set(Array.isArray(value) ? value : value ? [value] : []);
  const row = field.type === "rating" || field.type === "scale";
  return (
    <div className={clsx(row ? "flex flex-wrap gap-2" : "space-y-2")} aria-describedby={describedBy}>
      {multiple ? <input type="hidden" name={`_multi_${field.id}`} value="1" /> : null}
      {choices.map((choice) => (
        <label key={choice} className={clsx("flex items-center gap-2 text-sm text-slate-900", row && "min-w-10 justify-center rounded-md border border-slate-400 px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50")}>
          <input type={multiple ? "checkbox" : "radio"} name={field.id} value={choice} defaultChecked={chosen.has(choice)} aria-invalid={error ? true : undefined} className={clsx(row && "sr-only")} />
          <span>{field.type === "rating" ? `${choice} ★` : choice}</span>
        </label>
      ))}
    </div>
  );
}

export function Field({ field, value, error, required, onAnswered }: { field: FormField; value: AnswerValue | undefined; error: string | undefined; required: boolean; onAnswered: () => void }) {
  const help = field.help ? `field-${field.id}-help` : undefined;
  const errorId = error ? `field-${field.id}-error` : undefined;
  const describedBy = [help, errorId].filter(Boolean).join(" ") || undefined;
  if (field.type === "heading") return <h2 className="pt-2 text-lg font-semibold text-slate-900">{field.label}</h2>;
  if (field.type === "paragraph") return <p className="whitespace-pre-wrap text-sm text-slate-700">{field.label}</p>;
  if (field.type === "hidden") return <input type="hidden" name={field.id} value={typeof value === "string" ? value : ""} />;
  const mark = required ? (
    <span className="ml-0.5 text-red-700" aria-hidden="true">
      *
    </span>
  ) : null;
  const helpText = help ? (
    <p id={help} className="text-sm text-slate-600">
      {field.help}
    </p>
  ) : null;
  const errorText = errorId ? (
    <p id={errorId} className="text-sm font-medium text-red-700">
      {error}
    </p>
  ) : null;
  if (field.type === "checkbox" || field.type === "consent") {
    return (
      <div className="space-y-1" data-field={field.id}>
        <label className="flex items-start gap-2 text-sm text-slate-900">
          <input type="checkbox" id={`field-${field.id}`} name={field.id} value="true" defaultChecked={value === "true"} aria-invalid={error ? true : undefined} aria-describedby={describedBy} className="mt-0.5 h-4 w-4" />
          <span>
            {field.label}
            {mark}
            {required ? <span className="sr-only"> (required)</span> : null}
          </span>
        </label>
        {helpText}
        {errorText}
      </div>
    );
  }
  if (field.type === "signature") {
    return (
      <div className="space-y-1" data-field={field.id}>
        <p id={`field-${field.id}-label`} className="text-sm font-medium text-slate-900">
          {field.label}
          {mark}
          {required ? <span className="sr-only"> (required)</span> : null}
        </p>
        {helpText}
        <SignaturePad id={`field-${field.id}`} name={field.id} describedBy={[`field-${field.id}-label`, describedBy].filter(Boolean).join(" ")} invalid={Boolean(error)} initial={typeof value === "string" ? value : undefined} onChange={onAnswered} />
        {errorText}
      </div>
    );
  }
  if (["radio", "multi_select", "rating", "scale"].includes(field.type)) {
    return (
      <fieldset className="space-y-1" data-field={field.id}>
        <legend className="mb-1 text-sm font-medium text-slate-900">
          {field.label}
          {mark}
          {required ? <span className="sr-only"> (required)</span> : null}
        </legend>
        {helpText}
        <ChoiceGroup field={field} value={value} error={error} describedBy={describedBy} />
        {errorText}
      </fieldset>
    );
  }
  return (
    <div className="space-y-1" data-field={field.id}>
      <label htmlFor={`field-${field.id}`} className="block text-sm font-medium text-slate-900">
        {field.label}
        {mark}
        {required ? <span className="sr-only"> (required)</span> : null}
      </label>
      {helpText}
      <FieldControl field={field} value={value} error={error} describedBy={describedBy} />
      {errorText}
    </div>
  );
}
