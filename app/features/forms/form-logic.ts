import { type Condition, type FormDefinition, type FormField, type LogicRule, takesAnswer } from "./form-fields";

/**
 * The one logic evaluator (issue 37, ADR 029): the builder's preview, the public form in the
 * browser and the server's check of every submission run this same function, so what a visitor
 * sees hidden is what the server refuses to store, and what is required in the browser is required
 * on the server.
 *
 * Semantics. The form is walked page by page, in order. A field targeted by a "show" rule is hidden
 * until one of its show rules holds; a "hide" rule that holds hides it; a "require" rule that holds
 * makes it required. Conditions look only at earlier fields (the builder refuses anything else), and
 * a hidden or skipped field counts as unanswered. After a page, the first "skip" rule that holds and
 * whose last condition is on that page jumps forward to its page (or to the end); the pages jumped
 * over are not visited: their fields are hidden.
 */

export type AnswerValue = string | string[];
export type Answers = Readonly<Record<string, AnswerValue | undefined>>;

export type LogicState = {
  /** Fields shown to the visitor (on a visited page and not hidden by a rule). */
  visible: ReadonlySet<string>;
  /** Visible questions that must be answered. */
  required: ReadonlySet<string>;
  /** The pages visited, in order (0-based); the last one ends the form. */
  path: readonly number[];
  pageCount: number;
};

export function isEmptyAnswer(value: AnswerValue | undefined): boolean {
  return value === undefined || (Array.isArray(value) ? value.length === 0 : value.trim() === "");
}

const fold = (text: string) => text.trim().toLocaleLowerCase("en-US");

function compare(left: string, right: string): number {
  const a = Number(left);
  const b = Number(right);
  if (left.trim() !== "" && right.trim() !== "" && Number.isFinite(a) && Number.isFinite(b)) return a - b;
  // Dates (YYYY-MM-DD) and times (HH:MM) order as text.
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Whether one condition holds for an answer (undefined: unanswered, hidden or skipped). */
export function conditionHolds(condition: Condition, answer: AnswerValue | undefined, type?: FormField["type"]): boolean {
  // A box left unticked answers "false".
  const value = (type === "checkbox" || type === "consent") && isEmptyAnswer(answer) ? "false" : answer;
  const wanted = condition.value ?? "";
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  switch (condition.operator) {
    case "is_empty":
      return isEmptyAnswer(value);
    case "is_not_empty":
      return !isEmptyAnswer(value);
    case "equals":
      return values.some((item) => fold(item) === fold(wanted));
    case "not_equals":
      return !values.some((item) => fold(item) === fold(wanted));
    case "contains":
      return values.some((item) => fold(item).includes(fold(wanted)));
    case "not_contains":
      return !values.some((item) => fold(item).includes(fold(wanted)));
    case "greater_than":
      return values.length === 1 && !isEmptyAnswer(values[0]) && compare(values[0]!, wanted) > 0;
    case "less_than":
      return values.length === 1 && !isEmptyAnswer(values[0]) && compare(values[0]!, wanted) < 0;
  }
}

function ruleHolds(rule: LogicRule, answerOf: (id: string) => AnswerValue | undefined, typeOf: (id: string) => FormField["type"] | undefined): boolean {
  const results = rule.conditions.map((condition) => conditionHolds(condition, answerOf(condition.field), typeOf(condition.field)));
  return rule.match === "any" ? results.some(Boolean) : results.every(Boolean);
}

export function evaluateLogic(definition: Pick<FormDefinition, "fields" | "rules">, answers: Answers): LogicState {
  const { fields, rules } = definition;
  const pages: FormField[][] = [[]];
  const pageOf = new Map<string, number>();
  const typeOf = new Map<string, FormField["type"]>();
  for (const field of fields) {
    if (field.type === "page_break") pages.push([]);
    pages.at(-1)!.push(field);
    pageOf.set(field.id, pages.length - 1);
    typeOf.set(field.id, field.type);
  }
  const visible = new Set<string>();
  const required = new Set<string>();
  const answerOf = (id: string) => (visible.has(id) ? answers[id] : undefined);
  const holds = (rule: LogicRule) => ruleHolds(rule, answerOf, (id) => typeOf.get(id));
  const byTarget = (action: LogicRule["action"], id: string) => rules.filter((rule) => rule.action === action && rule.target === id);

  const path: number[] = [];
  let page = 0;
  while (page < pages.length) {
    path.push(page);
    for (const field of pages[page]!) {
      if (field.type === "page_break") continue;
      const shows = byTarget("show", field.id);
      const shown = (shows.length === 0 || shows.some(holds)) && !byTarget("hide", field.id).some(holds);
      if (!shown) continue;
      visible.add(field.id);
      if (takesAnswer(field.type) && field.type !== "hidden" && (field.required || byTarget("require", field.id).some(holds))) required.add(field.id);
    }
    const here = page;
    const skip = rules.find((rule) => {
      if (rule.action !== "skip") return false;
      const from = Math.max(...rule.conditions.map((condition) => pageOf.get(condition.field) ?? Number.POSITIVE_INFINITY));
      return from === here && holds(rule);
    });
    const target = skip ? (skip.target === "end" ? pages.length : (pageOf.get(skip.target) ?? here + 1)) : here + 1;
    page = target > here ? target : here + 1;
  }
  return { visible, required, path, pageCount: pages.length };
}

/** The form's pages: its fields between page breaks (the breaks themselves left out). */
export function splitPages(fields: readonly FormField[]): FormField[][] {
  const pages: FormField[][] = [[]];
  for (const field of fields) {
    if (field.type === "page_break") pages.push([]);
    else pages.at(-1)!.push(field);
  }
  return pages;
}
