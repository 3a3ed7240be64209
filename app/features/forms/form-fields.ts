/**
 * The parts of a form's definition (issue 37, docs/forms.md) that the browser needs: field types,
 * limits, the types of fields and rules, and the checks that a definition holds together. No zod
 * here, so the public form's first load stays small (G5); the schemas are in form-definition.ts.
 */

export const FIELD_TYPES = [
  "short_text",
  "long_text",
  "email",
  "number",
  "phone",
  "url",
  "date",
  "time",
  "select",
  "multi_select",
  "radio",
  "checkbox",
  "rating",
  "scale",
  "consent",
  "file",
  "signature",
  "hidden",
  "heading",
  "paragraph",
  "page_break",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  short_text: "Short text",
  long_text: "Long text",
  email: "E-mail",
  number: "Number",
  phone: "Phone",
  url: "Web address",
  date: "Date",
  time: "Time",
  select: "Drop-down",
  multi_select: "Multiple choice (several)",
  radio: "Single choice",
  checkbox: "Checkbox",
  rating: "Rating",
  scale: "Scale",
  consent: "Consent",
  file: "File upload",
  signature: "Signature",
  hidden: "Hidden field",
  heading: "Heading",
  paragraph: "Paragraph",
  page_break: "Page break",
};

/** Fields that show text or split pages and take no answer. */
export const LAYOUT_TYPES: readonly FieldType[] = ["heading", "paragraph", "page_break"];
export const CHOICE_TYPES: readonly FieldType[] = ["select", "multi_select", "radio"];
export const TEXT_TYPES: readonly FieldType[] = ["short_text", "long_text", "email", "phone", "url"];

export function takesAnswer(type: FieldType): boolean {
  return !LAYOUT_TYPES.includes(type);
}

export const FORM_TITLE_MAX = 120;
export const FORM_DESCRIPTION_MAX = 2_000;
export const FORM_FIELDS_MAX = 100;
export const FIELD_LABEL_MAX = 300;
export const FIELD_HELP_MAX = 1_000;
export const FIELD_OPTIONS_MAX = 50;
export const OPTION_MAX = 200;
export const RULES_MAX = 100;
export const CONDITIONS_MAX = 10;
/** The longest answer of any text field, whatever its own maximum says. */
export const ANSWER_TEXT_MAX = 10_000;
export const SHORT_TEXT_MAX = 500;
export const PATTERN_MAX = 200;
/** A file field: how many files one answer may hold, and how many types it may list. */
export const FILES_PER_FIELD_MAX = 10;
export const ACCEPT_TYPES_MAX = 20;
export * from "./signature-format";

/** Fields whose answers need the page's JavaScript (files go through resumable uploads; a signature is drawn). */
export const SCRIPTED_TYPES: readonly FieldType[] = ["file", "signature"];

export const CONDITION_OPERATORS = ["equals", "not_equals", "contains", "not_contains", "is_empty", "is_not_empty", "greater_than", "less_than"] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];
export const OPERATOR_LABELS: Record<ConditionOperator, string> = {
  equals: "is",
  not_equals: "is not",
  contains: "contains",
  not_contains: "does not contain",
  is_empty: "is empty",
  is_not_empty: "is answered",
  greater_than: "is more than",
  less_than: "is less than",
};

export const RULE_ACTIONS = ["show", "hide", "require", "skip"] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];


/** One question, text or page break of a form (checked by `formFieldSchema` in form-definition.ts). */
export type FormField = {
  id: string;
  type: FieldType;
  label: string;
  help?: string;
  placeholder?: string;
  defaultValue?: string | string[];
  required: boolean;
  options?: string[];
  /** Text: length; number, scale: value; multi-select: how many choices; rating: stars (max); file: how many files (max). */
  min?: number;
  max?: number;
  pattern?: string;
  patternMessage?: string;
  /** Hidden fields: the address's query parameter they are filled from (the field's id when unset). */
  param?: string;
  /** File fields: the extensions taken (lower-case, no dot; none: any), and the largest file in MB. */
  accept?: string[];
  maxFileMb?: number;
};

export type Condition = { field: string; operator: ConditionOperator; value?: string };
export type LogicRule = {
  id: string;
  match: "all" | "any";
  conditions: Condition[];
  action: RuleAction;
  /** show, hide, require: a field's id; skip: a page break's id (the page it starts) or "end". */
  target: string;
};
export type FormDefinition = { fields: FormField[]; rules: LogicRule[] };

export const EMPTY_DEFINITION: FormDefinition = { fields: [], rules: [] };

/** Why a definition does not hold together, by where the builder shows it; empty when it does. */
export function definitionProblems(fields: readonly FormField[], rules: readonly LogicRule[]): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const index = new Map<string, number>();
  fields.forEach((field, position) => {
    const name = field.label || field.type;
    if (index.has(field.id)) problems.push({ path: `fields.${position}.id`, message: `Two fields have the id “${field.id}”.` });
    index.set(field.id, position);
    if (takesAnswer(field.type) && field.type !== "hidden" && !field.label) problems.push({ path: `fields.${position}.label`, message: `Field ${position + 1} needs a label.` });
    if (field.type === "heading" && !field.label) problems.push({ path: `fields.${position}.label`, message: `The heading at ${position + 1} needs its text.` });
    if (CHOICE_TYPES.includes(field.type) && (field.options?.length ?? 0) < 2) problems.push({ path: `fields.${position}.options`, message: `“${name}” needs at least two choices.` });
    if (field.options && new Set(field.options).size !== field.options.length) problems.push({ path: `fields.${position}.options`, message: `“${name}” lists a choice twice.` });
    if (field.min !== undefined && field.max !== undefined && field.min > field.max) problems.push({ path: `fields.${position}.min`, message: `“${name}”: the minimum is above the maximum.` });
    if (field.type === "rating" && field.max !== undefined && (field.max < 3 || field.max > 10 || !Number.isInteger(field.max))) problems.push({ path: `fields.${position}.max`, message: `“${name}”: a rating has 3 to 10 stars.` });
    if (field.type === "scale" && ((field.min ?? 0) < 0 || (field.max ?? 10) > 10 || (field.max ?? 10) - (field.min ?? 0) < 1)) problems.push({ path: `fields.${position}.max`, message: `“${name}”: a scale runs between 0 and 10.` });
    if (field.type === "file" && field.max !== undefined && (field.max < 1 || field.max > FILES_PER_FIELD_MAX || !Number.isInteger(field.max))) problems.push({ path: `fields.${position}.max`, message: `“${name}”: a file question takes 1 to ${FILES_PER_FIELD_MAX} files.` });
    if (field.pattern !== undefined) {
      try {
        new RegExp(field.pattern, "u");
      } catch {
        problems.push({ path: `fields.${position}.pattern`, message: `“${name}”: the pattern is not a valid regular expression.` });
      }
    }
  });
  if (fields[0]?.type === "page_break") problems.push({ path: "fields.0.type", message: "A form cannot start with a page break." });
  if (fields.at(-1)?.type === "page_break") problems.push({ path: `fields.${fields.length - 1}.type`, message: "A form cannot end with a page break." });
  const ruleIds = new Set<string>();
  rules.forEach((rule, position) => {
    if (ruleIds.has(rule.id)) problems.push({ path: `rules.${position}.id`, message: `Two rules have the id “${rule.id}”.` });
    ruleIds.add(rule.id);
    const last = Math.max(...rule.conditions.map((condition) => index.get(condition.field) ?? Number.POSITIVE_INFINITY));
    for (const condition of rule.conditions) {
      const at = index.get(condition.field);
      if (at === undefined || !takesAnswer(fields[at]!.type)) problems.push({ path: `rules.${position}.conditions`, message: `Rule ${position + 1} looks at a field the form does not ask.` });
      else if (!["is_empty", "is_not_empty"].includes(condition.operator) && condition.value === undefined) problems.push({ path: `rules.${position}.conditions`, message: `Rule ${position + 1}: say what “${fields[at]!.label}” is compared with.` });
    }
    if (rule.action === "skip") {
      if (rule.target === "end") return;
      const target = index.get(rule.target);
      if (target === undefined || fields[target]!.type !== "page_break") problems.push({ path: `rules.${position}.target`, message: `Rule ${position + 1} skips to a page the form does not have.` });
      else if (Number.isFinite(last) && pageOfPosition(fields, target) <= pageOfPosition(fields, last)) problems.push({ path: `rules.${position}.target`, message: `Rule ${position + 1} can only skip forward, to a page after the questions it looks at.` });
      return;
    }
    const target = index.get(rule.target);
    if (target === undefined || !takesAnswer(fields[target]!.type) && fields[target]!.type !== "heading" && fields[target]!.type !== "paragraph") problems.push({ path: `rules.${position}.target`, message: `Rule ${position + 1} acts on a field the form does not have.` });
    else if (fields[target]!.type === "page_break") problems.push({ path: `rules.${position}.target`, message: `Rule ${position + 1}: a page break is skipped to, not shown or hidden.` });
    else if (Number.isFinite(last) && target <= last) problems.push({ path: `rules.${position}.target`, message: `Rule ${position + 1} can only act on a field after the questions it looks at.` });
    else if (rule.action === "require" && !takesAnswer(fields[target]!.type)) problems.push({ path: `rules.${position}.target`, message: `Rule ${position + 1}: only a question can be required.` });
  });
  return problems;
}

/** The page (0-based) of the field at a position: each page break before it starts one. */
export function pageOfPosition(fields: readonly Pick<FormField, "type">[], position: number): number {
  let page = 0;
  for (let at = 0; at <= position && at < fields.length; at += 1) if (fields[at]!.type === "page_break") page += 1;
  return page;
}

/** A new field of a type with sensible settings (the builder's palette). */
export function newField(type: FieldType, id: string): FormField {
  const field: FormField = { id, type, label: type === "page_break" ? "" : FIELD_TYPE_LABELS[type], required: false };
  if (CHOICE_TYPES.includes(type)) field.options = ["Option 1", "Option 2"];
  if (type === "rating") field.max = 5;
  if (type === "scale") Object.assign(field, { min: 0, max: 10 });
  if (type === "consent") field.label = "I agree to the terms";
  if (type === "file") Object.assign(field, { label: "Attach a file", max: 1 });
  if (type === "signature") field.label = "Your signature";
  if (type === "heading") field.label = "Section";
  if (type === "paragraph") field.label = "Some words for the person filling in the form.";
  return field;
}

/** A short id for a new field or rule, unique within the form. */
export function freshId(prefix: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (;;) {
    const id = `${prefix}${Math.random().toString(36).slice(2, 8)}`;
    if (!used.has(id)) return id;
  }
}
