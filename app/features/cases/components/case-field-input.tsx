import { Input } from "~/components/ui/input";
import { nativeSelectClassName } from "~/components/ui/native-select";

export type CaseFieldShape = { key: string; label: string; type: string; required: boolean; options: string[] };

/** One field of a case type as a form input (`value.{key}`): a choice as a select, a number, a date or text; filled with a case's value when editing. */
export function CaseFieldInput({ field, value = null }: { field: CaseFieldShape; value?: string | number | null }) {
  const shown = value === null ? "" : String(value);
  if (field.type === "select") {
    return (
      <label className="block text-sm text-slate-900">
        {field.label}
        {field.required ? " (required)" : ""}
        <select name={`value.${field.key}`} className={nativeSelectClassName} required={field.required} defaultValue={shown}>
          <option value="">Choose…</option>
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </label>
    );
  }
  return <Input label={field.label} name={`value.${field.key}`} type={field.type === "number" ? "number" : field.type === "date" ? "date" : "text"} step={field.type === "number" ? "any" : undefined} required={field.required} defaultValue={shown} />;
}
