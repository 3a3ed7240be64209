import { buttonClassName } from "~/components/ui/button";
import { CONDITION_OPERATORS, type FormField, freshId, type LogicRule, OPERATOR_LABELS, pageOfPosition, RULE_ACTIONS, takesAnswer } from "../form-fields";

/**
 * The builder's logic rules: "when <question> <is> <value> (and/or …), then show / hide / require
 * <field> or skip to <page>". The server checks every rule again when the form is published.
 */

const select = "rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600";
const ACTION_LABELS: Record<LogicRule["action"], string> = { show: "show", hide: "hide", require: "require", skip: "skip to" };

export function LogicEditor({ fields, rules, problems, onChange }: { fields: FormField[]; rules: LogicRule[]; problems: Map<number, string[]>; onChange: (rules: LogicRule[]) => void }) {
  const questions = fields.filter((field) => takesAnswer(field.type));
  const name = (field: FormField) => field.label || field.id;
  const pageBreaks = fields.map((field, index) => ({ field, index })).filter(({ field }) => field.type === "page_break");
  const update = (index: number, rule: LogicRule) => onChange(rules.map((item, at) => (at === index ? rule : item)));

  const add = () => {
    const first = questions[0];
    if (!first) return;
    const target = fields.find((field, index) => index > fields.indexOf(first) && field.type !== "page_break");
    onChange([...rules, { id: freshId("rule-", rules.map((rule) => rule.id)), match: "all", conditions: [{ field: first.id, operator: "equals", value: "" }], action: "show", target: target?.id ?? "" }]);
  };

  return (
    <div className="space-y-4" data-testid="logic-editor">
      {rules.length === 0 ? <p className="text-sm text-slate-700">No rules: every field is shown and the pages follow in order.</p> : null}
      <ol className="space-y-3">
        {rules.map((rule, index) => (
          <li key={rule.id} className="space-y-2 rounded-md border border-slate-300 bg-white p-3" data-testid="logic-rule">
            <p className="text-sm font-medium text-slate-900">Rule {index + 1}</p>
            {rule.conditions.map((condition, conditionIndex) => {
              const field = fields.find((item) => item.id === condition.field);
              const prefix = `rule-${rule.id}-${conditionIndex}`;
              return (
                <div key={conditionIndex} className="flex flex-wrap items-center gap-2 text-sm">
                  <span>{conditionIndex === 0 ? "When" : rule.match === "all" ? "and" : "or"}</span>
                  <label className="sr-only" htmlFor={`${prefix}-field`}>
                    Question
                  </label>
                  <select id={`${prefix}-field`} className={select} value={condition.field} onChange={(event) => update(index, { ...rule, conditions: rule.conditions.map((item, at) => (at === conditionIndex ? { ...item, field: event.target.value } : item)) })}>
                    {questions.map((question) => (
                      <option key={question.id} value={question.id}>
                        {name(question)}
                      </option>
                    ))}
                  </select>
                  <label className="sr-only" htmlFor={`${prefix}-operator`}>
                    Comparison
                  </label>
                  <select id={`${prefix}-operator`} className={select} value={condition.operator} onChange={(event) => update(index, { ...rule, conditions: rule.conditions.map((item, at) => (at === conditionIndex ? { ...item, operator: event.target.value as typeof item.operator } : item)) })}>
                    {CONDITION_OPERATORS.map((operator) => (
                      <option key={operator} value={operator}>
                        {OPERATOR_LABELS[operator]}
                      </option>
                    ))}
                  </select>
                  {condition.operator === "is_empty" || condition.operator === "is_not_empty" ? null : field?.options || field?.type === "checkbox" || field?.type === "consent" ? (
                    <>
                      <label className="sr-only" htmlFor={`${prefix}-value`}>
                        Value
                      </label>
                      <select id={`${prefix}-value`} className={select} value={condition.value ?? ""} onChange={(event) => update(index, { ...rule, conditions: rule.conditions.map((item, at) => (at === conditionIndex ? { ...item, value: event.target.value } : item)) })}>
                        <option value="">Choose…</option>
                        {(field.options ?? ["true", "false"]).map((option) => (
                          <option key={option} value={option}>
                            {field.options ? option : option === "true" ? "ticked" : "not ticked"}
                          </option>
                        ))}
                      </select>
                    </>
                  ) : (
                    <>
                      <label className="sr-only" htmlFor={`${prefix}-value`}>
                        Value
                      </label>
                      <input id={`${prefix}-value`} className={select} value={condition.value ?? ""} onChange={(event) => update(index, { ...rule, conditions: rule.conditions.map((item, at) => (at === conditionIndex ? { ...item, value: event.target.value } : item)) })} />
                    </>
                  )}
                  {rule.conditions.length > 1 ? (
                    <button type="button" className={buttonClassName({ variant: "ghost", size: "sm" })} onClick={() => update(index, { ...rule, conditions: rule.conditions.filter((_, at) => at !== conditionIndex) })} aria-label={`Remove condition ${conditionIndex + 1} of rule ${index + 1}`}>
                      Remove
                    </button>
                  ) : null}
                </div>
              );
            })}
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <button type="button" className={buttonClassName({ variant: "ghost", size: "sm" })} onClick={() => update(index, { ...rule, conditions: [...rule.conditions, { field: rule.conditions[0]!.field, operator: "equals", value: "" }] })}>
                Add a condition
              </button>
              {rule.conditions.length > 1 ? (
                <label className="flex items-center gap-1">
                  <span>Match</span>
                  <select className={select} value={rule.match} onChange={(event) => update(index, { ...rule, match: event.target.value as "all" | "any" })}>
                    <option value="all">all of them</option>
                    <option value="any">any of them</option>
                  </select>
                </label>
              ) : null}
            </div>
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span>then</span>
              <label className="sr-only" htmlFor={`rule-${rule.id}-action`}>
                Action
              </label>
              <select id={`rule-${rule.id}-action`} className={select} value={rule.action} onChange={(event) => update(index, { ...rule, action: event.target.value as LogicRule["action"], target: event.target.value === "skip" ? (pageBreaks[0]?.field.id ?? "end") : "" })}>
                {RULE_ACTIONS.map((action) => (
                  <option key={action} value={action}>
                    {ACTION_LABELS[action]}
                  </option>
                ))}
              </select>
              <label className="sr-only" htmlFor={`rule-${rule.id}-target`}>
                Target
              </label>
              <select id={`rule-${rule.id}-target`} className={select} value={rule.target} onChange={(event) => update(index, { ...rule, target: event.target.value })}>
                <option value="">Choose…</option>
                {rule.action === "skip" ? (
                  <>
                    {pageBreaks.map(({ field, index: position }) => (
                      <option key={field.id} value={field.id}>
                        Page {pageOfPosition(fields, position) + 1}
                      </option>
                    ))}
                    <option value="end">the end of the form</option>
                  </>
                ) : (
                  fields
                    .filter((field) => field.type !== "page_break")
                    .map((field) => (
                      <option key={field.id} value={field.id}>
                        {name(field)}
                      </option>
                    ))
                )}
              </select>
              <button type="button" className={buttonClassName({ variant: "ghost", size: "sm" })} onClick={() => onChange(rules.filter((_, at) => at !== index))} aria-label={`Delete rule ${index + 1}`}>
                Delete rule
              </button>
            </div>
            {problems.get(index)?.map((problem) => (
              <p key={problem} className="text-sm font-medium text-red-700">
                {problem}
              </p>
            ))}
          </li>
        ))}
      </ol>
      <button type="button" className={buttonClassName({ variant: "secondary", size: "sm" })} onClick={add} disabled={questions.length === 0}>
        Add a rule
      </button>
    </div>
  );
}
