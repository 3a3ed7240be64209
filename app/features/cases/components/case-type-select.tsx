import { nativeSelectClassName } from "~/components/ui/native-select";

/**
 * "Open a case for each submission" (issue 41): the member's case types, on a receive page's and a
 * form's settings. Posts `caseTypeId` (empty: no case). Not shown without case types (or the plan).
 */
export function CaseTypeSelect({ choices, value, help, className }: { choices: readonly { id: string; name: string }[]; value: string | null; help: string; className?: string }) {
  if (choices.length === 0) return null;
  return (
    <label className={className ?? "block text-sm font-medium text-slate-900"}>
      Open a case for each submission (optional)
      <select name="caseTypeId" className={nativeSelectClassName} defaultValue={value ?? ""} aria-describedby="case-type-help">
        <option value="">No case</option>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            A “{choice.name}” case
          </option>
        ))}
      </select>
      <span id="case-type-help" className="mt-1 block text-xs font-normal text-slate-600">
        {help}
      </span>
    </label>
  );
}
