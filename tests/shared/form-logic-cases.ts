import type { FormDefinition, FormField, LogicRule } from "~/features/forms/form-fields";
import type { Answers } from "~/features/forms/form-logic";

/**
 * The logic evaluator's cases (issue 37, ADR 029): run by the unit project (the browser's bundle,
 * happy-dom) and by the workers project (workerd), so the browser and the server are shown to
 * agree on every one of them.
 */

export type LogicCase = {
  name: string;
  definition: FormDefinition;
  answers: Answers;
  visible: string[];
  required: string[];
  path: number[];
};

const f = (id: string, type: FormField["type"], extra: Partial<FormField> = {}): FormField => ({ id, type, label: id, required: false, ...extra });
const when = (field: string, operator: LogicRule["conditions"][number]["operator"], value?: string) => ({ field, operator, value });
const rule = (id: string, action: LogicRule["action"], target: string, conditions: LogicRule["conditions"], match: "all" | "any" = "all"): LogicRule => ({ id, action, target, conditions, match });

const company: FormDefinition = {
  fields: [f("kind", "radio", { options: ["Person", "Company"], required: true }), f("company", "short_text"), f("vat", "short_text")],
  rules: [rule("r1", "show", "company", [when("kind", "equals", "Company")]), rule("r2", "require", "company", [when("kind", "equals", "Company")]), rule("r3", "show", "vat", [when("company", "is_not_empty")])],
};

const pages: FormDefinition = {
  fields: [f("role", "select", { options: ["Engineer", "Other"] }), f("p2", "page_break"), f("stack", "multi_select", { options: ["TS", "Go", "Rust"] }), f("p3", "page_break"), f("notes", "long_text")],
  rules: [rule("skip", "skip", "p3", [when("role", "not_equals", "Engineer")])],
};

export const LOGIC_CASES: LogicCase[] = [
  { name: "a field behind a show rule stays hidden until its condition holds", definition: company, answers: { kind: "Person", company: "Acme" }, visible: ["kind"], required: ["kind"], path: [0] },
  { name: "a show rule that holds shows the field and a require rule makes it required", definition: company, answers: { kind: "company" }, visible: ["kind", "company"], required: ["kind", "company"], path: [0] },
  { name: "a hidden field counts as unanswered for the rules after it", definition: company, answers: { kind: "Person", company: "Acme", vat: "x" }, visible: ["kind"], required: ["kind"], path: [0] },
  { name: "a chain of shown fields follows the answers", definition: company, answers: { kind: "Company", company: "Acme" }, visible: ["kind", "company", "vat"], required: ["kind", "company"], path: [0] },
  { name: "a skip rule jumps over a page, whose fields are then hidden", definition: pages, answers: { role: "Other", stack: ["Go"] }, visible: ["role", "notes"], required: [], path: [0, 2] },
  { name: "without the skip every page is visited", definition: pages, answers: { role: "Engineer" }, visible: ["role", "stack", "notes"], required: [], path: [0, 1, 2] },
  {
    name: "a skip to the end ends the form after that page",
    definition: { fields: pages.fields, rules: [rule("end", "skip", "end", [when("role", "equals", "Other")])] },
    answers: { role: "Other" },
    visible: ["role"],
    required: [],
    path: [0],
  },
  {
    name: "a hide rule wins over the field's own presence, and 'any' needs one condition",
    definition: { fields: [f("a", "number"), f("b", "checkbox"), f("c", "short_text", { required: true })], rules: [rule("h", "hide", "c", [when("a", "greater_than", "10"), when("b", "equals", "true")], "any")] },
    answers: { a: "11" },
    visible: ["a", "b"],
    required: [],
    path: [0],
  },
  {
    name: "numbers compare as numbers (9 is less than 10), not as text",
    definition: { fields: [f("a", "number"), f("c", "short_text")], rules: [rule("s", "show", "c", [when("a", "less_than", "10")])] },
    answers: { a: "9" },
    visible: ["a", "c"],
    required: [],
    path: [0],
  },
  {
    name: "an unticked box answers false",
    definition: { fields: [f("b", "checkbox"), f("c", "short_text")], rules: [rule("s", "show", "c", [when("b", "equals", "false")])] },
    answers: {},
    visible: ["b", "c"],
    required: [],
    path: [0],
  },
  {
    name: "contains looks inside multiple choices and text, without case",
    definition: { fields: [f("m", "multi_select", { options: ["Red", "Blue"] }), f("t", "short_text"), f("c", "short_text")], rules: [rule("s", "show", "c", [when("m", "contains", "blue"), when("t", "contains", "URGENT")])] },
    answers: { m: ["Red", "Blue"], t: "this is urgent" },
    visible: ["m", "t", "c"],
    required: [],
    path: [0],
  },
  {
    name: "dates compare in order",
    definition: { fields: [f("d", "date"), f("c", "short_text")], rules: [rule("s", "require", "c", [when("d", "greater_than", "2026-01-31")])] },
    answers: { d: "2026-02-01" },
    visible: ["d", "c"],
    required: ["c"],
    path: [0],
  },
];
