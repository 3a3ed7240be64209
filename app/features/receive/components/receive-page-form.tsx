import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { CaseTypeSelect } from "~/features/cases/components/case-type-select";
import type { ReceiveField } from "~/db/schema/receive";
import type { ReceivePageView } from "../receive.server";
import { RECEIVE_FIELD_TYPE_LABELS, RECEIVE_FIELDS_MAX, RECEIVE_MESSAGE_MAX, RECEIVE_TITLE_MAX } from "../receive.constants";

/** The options the form shows (a page's own, or the defaults of a new one). */
export type ReceivePageFormValues = Pick<
  ReceivePageView,
  "kind" | "title" | "message" | "deadlineAt" | "hasPassword" | "allowedTypes" | "maxFileMb" | "maxFilesPerUploader" | "perUploaderFolders" | "requireName" | "requireEmail" | "fields" | "formId" | "caseTypeId" | "brandColor" | "isOpen" | "slug"
>;

export const NEW_RECEIVE_PAGE: ReceivePageFormValues = {
  kind: "simple",
  title: "",
  message: "",
  deadlineAt: null,
  hasPassword: false,
  allowedTypes: [],
  maxFileMb: null,
  maxFilesPerUploader: null,
  perUploaderFolders: false,
  requireName: true,
  requireEmail: true,
  fields: [],
  formId: null,
  caseTypeId: null,
  brandColor: null,
  isOpen: true,
  slug: null,
};

const inputClass = "mt-1 block w-full rounded-md border border-slate-500 px-3 py-2 text-sm text-slate-900";
const labelClass = "block text-sm font-medium text-slate-900";
const checkClass = "flex items-center gap-2 text-sm text-slate-900";

/**
 * A form page's fields: add, change and remove them. The list travels in one hidden input (JSON),
 * filled on the server too, so the form keeps its fields when posted without JavaScript.
 */
export function FieldsEditor({ initial, fieldSets = [], legend = "Fields (form pages)" }: { initial: ReceiveField[]; fieldSets?: readonly { id: string; name: string; fields: ReceiveField[] }[]; legend?: string }) {
  const [fields, setFields] = useState<ReceiveField[]>(initial);
  const change = (index: number, patch: Partial<ReceiveField>) => setFields((current) => current.map((field, at) => (at === index ? { ...field, ...patch } : field)));
  const add = () => setFields((current) => [...current, { id: `field-${Date.now().toString(36)}`, type: "text", label: "", required: false }]);
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3" data-testid="fields-editor">
      <legend className="px-1 text-sm font-medium text-slate-900">{legend}</legend>
      <input type="hidden" name="fields" value={JSON.stringify(fields)} />
      {fieldSets.length > 0 ? (
        <label className={labelClass}>
          Use a saved set of fields
          <select
            className={nativeSelectClassName}
            value=""
            onChange={(event) => {
              const set = fieldSets.find((item) => item.id === event.target.value);
              if (set) setFields(set.fields.map((field) => ({ ...field })));
            }}
          >
            <option value="">Choose a set…</option>
            {fieldSets.map((set) => (
              <option key={set.id} value={set.id}>
                {set.name} ({set.fields.length} field{set.fields.length === 1 ? "" : "s"})
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {fields.length === 0 ? <p className="text-sm text-slate-600">No fields yet. A form page asks them before the files.</p> : null}
      {fields.map((field, index) => (
        <div key={field.id} className="grid gap-2 sm:grid-cols-[1fr_auto_auto_auto]" data-testid="field-row">
          <label className={labelClass}>
            Field {index + 1} label
            <input className={inputClass} value={field.label} onChange={(event) => change(index, { label: event.target.value })} maxLength={120} />
          </label>
          <label className={labelClass}>
            Type
            <select className={nativeSelectClassName} value={field.type} onChange={(event) => change(index, { type: event.target.value as ReceiveField["type"], options: event.target.value === "select" ? (field.options ?? ["", ""]) : undefined })}>
              {Object.entries(RECEIVE_FIELD_TYPE_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label className={`${checkClass} self-end pb-2`}>
            <input type="checkbox" checked={field.required} onChange={(event) => change(index, { required: event.target.checked })} className="h-4 w-4 accent-brand-600" />
            Required
          </label>
          <Button variant="ghost" size="sm" className="self-end" onClick={() => setFields((current) => current.filter((_, at) => at !== index))}>
            Remove field {index + 1}
          </Button>
          {field.type === "select" ? (
            <label className={`${labelClass} sm:col-span-4`}>
              Choices (one per line)
              <textarea className={inputClass} rows={3} value={(field.options ?? []).join("\n")} onChange={(event) => change(index, { options: event.target.value.split("\n") })} />
            </label>
          ) : null}
        </div>
      ))}
      {fields.length < RECEIVE_FIELDS_MAX ? (
        <Button variant="secondary" size="sm" onClick={add}>
          Add a field
        </Button>
      ) : null}
    </fieldset>
  );
}

/**
 * The options of a receive page (new and edit): what uploaders see, where files go (new only),
 * and the rules. A plain form post to the page's action; `failure` is the action's refusal.
 */
export function ReceivePageForm({
  values,
  destinations,
  defaultFolderId,
  failure,
  submitLabel,
  fieldSets,
  formChoices = [],
  caseTypeChoices = [],
}: {
  values: ReceivePageFormValues;
  /** The member's case types (Business), each submission may open a case of. */
  caseTypeChoices?: readonly { id: string; name: string }[];
  /** The member's published forms (without file questions) a form page may ask the questions of. */
  formChoices?: readonly { id: string; title: string; version: number }[];
  /** The member's saved sets of fields ("Settings: receive page forms"). */
  fieldSets?: readonly { id: string; name: string; fields: ReceiveField[] }[];
  /** New pages choose their folder; edited ones keep it. */
  destinations?: { uid: string; label: string; spaceName: string }[];
  defaultFolderId?: string;
  failure: { message: string; fieldErrors?: Record<string, string[]> } | null;
  submitLabel: string;
}) {
  const busy = useNavigation().state === "submitting";
  const isEdit = !destinations;
  const errorOf = (name: string) => failure?.fieldErrors?.[name]?.[0];
  return (
    <Form method="post" className="max-w-3xl space-y-5" noValidate>
      <CsrfInput />
      {isEdit ? <input type="hidden" name="intent" value="update" /> : null}
      {failure ? <Alert variant="error">{failure.message}</Alert> : null}
      <fieldset className="space-y-2">
        <legend className={labelClass}>Kind</legend>
        <label className={checkClass}>
          <input type="radio" name="kind" value="simple" defaultChecked={values.kind === "simple"} className="h-4 w-4 accent-brand-600" />
          Simple: a drop zone for files
        </label>
        <label className={checkClass}>
          <input type="radio" name="kind" value="form" defaultChecked={values.kind === "form"} className="h-4 w-4 accent-brand-600" />
          Form: fields first, then files
        </label>
      </fieldset>
      <label className={labelClass}>
        Title
        <input name="title" className={inputClass} defaultValue={values.title} maxLength={RECEIVE_TITLE_MAX} required aria-invalid={Boolean(errorOf("title")) || undefined} />
      </label>
      <label className={labelClass}>
        Message to uploaders
        <textarea name="message" className={inputClass} rows={3} defaultValue={values.message} maxLength={RECEIVE_MESSAGE_MAX} />
      </label>
      {destinations ? (
        <label className={labelClass}>
          Files go to
          <select name="folderId" className={nativeSelectClassName} defaultValue={defaultFolderId}>
            {destinations.map((target) => (
              <option key={target.uid} value={target.uid}>
                {target.spaceName}: {target.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <label className={labelClass}>
          Deadline (UTC, optional)
          <input name="deadlineAt" type="datetime-local" className={inputClass} defaultValue={values.deadlineAt ? values.deadlineAt.slice(0, 16) : ""} />
        </label>
        <label className={labelClass}>
          {values.hasPassword ? "New password (leave empty to keep it)" : "Password (optional)"}
          <input name="password" type="password" autoComplete="new-password" className={inputClass} />
        </label>
      </div>
      {values.hasPassword ? (
        <label className={checkClass}>
          <input type="checkbox" name="removePassword" className="h-4 w-4 accent-brand-600" />
          Remove the password
        </label>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-3">
        <label className={labelClass}>
          Allowed file types
          <input name="allowedTypes" className={inputClass} defaultValue={values.allowedTypes.join(", ")} placeholder="pdf, docx, jpg (empty: any)" />
        </label>
        <label className={labelClass}>
          Largest file (MB)
          <input name="maxFileMb" type="number" min={1} className={inputClass} defaultValue={values.maxFileMb ?? ""} />
        </label>
        <label className={labelClass}>
          Files per person
          <input name="maxFilesPerUploader" type="number" min={1} className={inputClass} defaultValue={values.maxFilesPerUploader ?? ""} />
        </label>
      </div>
      <fieldset className="space-y-2">
        <legend className={labelClass}>Uploaders</legend>
        <label className={checkClass}>
          <input type="checkbox" name="requireName" defaultChecked={values.requireName} className="h-4 w-4 accent-brand-600" />
          Ask for their name
        </label>
        <label className={checkClass}>
          <input type="checkbox" name="requireEmail" defaultChecked={values.requireEmail} className="h-4 w-4 accent-brand-600" />
          Ask for their e-mail
        </label>
        <label className={checkClass}>
          <input type="checkbox" name="perUploaderFolders" defaultChecked={values.perUploaderFolders} className="h-4 w-4 accent-brand-600" />
          A folder per person (named from their name and e-mail)
        </label>
      </fieldset>
      {formChoices.length > 0 || values.formId ? (
        <label className={labelClass}>
          Questions (form pages)
          <select name="formId" className={nativeSelectClassName} defaultValue={values.formId ?? ""} aria-describedby="receive-form-help" aria-invalid={Boolean(errorOf("formId")) || undefined}>
            <option value="">The page's own fields (below)</option>
            {formChoices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                The form “{choice.title}” (version {choice.version})
              </option>
            ))}
          </select>
          <span id="receive-form-help" className="mt-1 block text-xs font-normal text-slate-600">
            A form asks its own questions with its logic, then people add their files here. Forms that ask for files themselves are not listed.
          </span>
          {errorOf("formId") ? <span className="mt-1 block text-sm text-red-700">{errorOf("formId")}</span> : null}
        </label>
      ) : null}
      <CaseTypeSelect
        choices={caseTypeChoices}
        value={values.caseTypeId}
        className={labelClass}
        help="Each submission opens a case of this type: its files go into the case file and the sender takes part in the case. It opens where the page delivers: your own files, or a data room you manage (then the case lives in the room)."
      />
      <FieldsEditor initial={values.fields} fieldSets={fieldSets} />
      <div className="grid gap-4 sm:grid-cols-2">
        <label className={labelClass}>
          Custom address (optional)
          <input name="slug" className={inputClass} defaultValue={values.slug ?? ""} placeholder="tax-papers-2026" aria-invalid={Boolean(errorOf("slug")) || undefined} />
        </label>
        <label className={labelClass}>
          Accent colour (optional)
          <input name="brandColor" className={inputClass} defaultValue={values.brandColor ?? ""} placeholder="#1d4ed8" />
        </label>
      </div>
      {isEdit ? (
        <label className={checkClass}>
          <input type="checkbox" name="isOpen" defaultChecked={values.isOpen} className="h-4 w-4 accent-brand-600" />
          Open: the page takes files
        </label>
      ) : null}
      <Button type="submit" isLoading={busy}>
        {submitLabel}
      </Button>
    </Form>
  );
}
