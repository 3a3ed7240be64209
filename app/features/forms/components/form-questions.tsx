import { useCallback, useEffect, useMemo, useState, type RefObject } from "react";
import { answersFromFormData, checkAnswers, type AnswerErrors } from "../form-answers";
import type { FormDefinition } from "../form-fields";
import { evaluateLogic, splitPages } from "../form-logic";
import { Field, logicAnswers, startingAnswers } from "./form-question";

/**
 * A form's questions asked inside another page (issue 37: a receive page backed by a form): every
 * page one under the other, the logic live (a question shows, hides or becomes required as earlier
 * answers change; a skipped page's questions are not asked). Its own HTML form, so the questions'
 * names never meet the host page's; the host reads the answers from `formRef` when it sends.
 */
export function FormQuestions({ definition, errors, formRef, label }: { definition: FormDefinition; errors: AnswerErrors; formRef: RefObject<HTMLFormElement | null>; label: string }) {
  const pages = useMemo(() => splitPages(definition.fields), [definition.fields]);
  const [answers, setAnswers] = useState(() => startingAnswers(definition.fields, undefined, undefined));
  const state = useMemo(() => evaluateLogic(definition, answers), [definition, answers]);
  const answered = useCallback(() => {
    if (formRef.current) setAnswers(logicAnswers(answersFromFormData(new FormData(formRef.current), definition)));
  }, [definition, formRef]);
  // Once interactive, the answers given before (while the page was still loading) count too.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    answered();
    setReady(true);
  }, [answered]);
  return (
    <form ref={formRef} onChange={answered} data-ready={ready ? "true" : undefined} onSubmit={(event) => event.preventDefault()} noValidate aria-label={label} className="space-y-5 rounded-lg border border-slate-300 bg-white p-4" data-testid="form-questions">
      {pages.map((items, index) =>
        state.path.includes(index)
          ? items.map((field) => (state.visible.has(field.id) ? <Field key={field.id} field={field} value={answers[field.id]} error={errors[field.id]} required={state.required.has(field.id)} onAnswered={answered} /> : null))
          : null,
      )}
    </form>
  );
}

/** The answers in the questions' form, raw (as the server takes them), with what the server would refuse. */
export function readQuestions(form: HTMLFormElement | null, definition: FormDefinition): { answers: Record<string, unknown>; errors: AnswerErrors } {
  const answers = form ? answersFromFormData(new FormData(form), definition) : {};
  return { answers, errors: checkAnswers(definition, answers).errors };
}
