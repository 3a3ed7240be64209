import { clsx } from "clsx";
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { Form, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { buttonClassName } from "~/components/ui/button";
import { answersFromFormData, fieldError, FORM_ERROR_KEY, initialValue, type AnswerErrors } from "../form-answers";
import type { FormDefinition, FormField } from "../form-fields";
import { type AnswerValue, type Answers, evaluateLogic, splitPages } from "../form-logic";
import { HONEYPOT_FIELD } from "../forms.constants";

/**
 * The form as a visitor fills it in (issue 37): the public form (/forms/{id}/view) and the
 * preview in test mode render this. It is a plain HTML form that posts to its page, so a form
 * without logic works without JavaScript (every page shown one under the other). Once hydrated it
 * goes page by page, runs the shared logic evaluator on every change and checks each page's
 * answers with the same rules as the server, which still decides.
 */

export type RendererForm = { title: string; description: string; definition: FormDefinition };
export type RendererFailure = { message: string; errors: AnswerErrors; values?: Record<string, AnswerValue> };

const inputClass = "block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 aria-[invalid=true]:border-red-700 sm:text-sm";

function startingAnswers(fields: readonly FormField[], params: URLSearchParams | undefined, values: Record<string, AnswerValue> | undefined): Answers {
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

function Field({ field, value, error, required }: { field: FormField; value: AnswerValue | undefined; error: string | undefined; required: boolean }) {
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

// Turnstile (when configured) loads after the form's first paint (G5).
const TurnstileWidget = lazy(() => import("~/features/auth/components/turnstile-widget").then((module) => ({ default: module.TurnstileWidget })));

/** Where a visit got to (the builder dashboard's starts and drop-off): page 0 at the first answer, later pages on "Next". */
export type ProgressReporter = { visitId: string; report: (page: number) => void };

export function FormRenderer({ form, failure, params, submitLabel = "Send", progress, turnstileSiteKey }: { form: RendererForm; failure?: RendererFailure | null; params?: URLSearchParams; submitLabel?: string; progress?: ProgressReporter | null; turnstileSiteKey?: string | null }) {
  const { fields } = form.definition;
  const pages = useMemo(() => splitPages(fields), [fields]);
  const [answers, setAnswers] = useState<Answers>(() => startingAnswers(fields, params, failure?.values));
  const [errors, setErrors] = useState<AnswerErrors>(failure?.errors ?? {});
  const [hydrated, setHydrated] = useState(false);
  const [page, setPage] = useState(0);
  const [trail, setTrail] = useState<number[]>([]);
  const formRef = useRef<HTMLFormElement>(null);
  const started = useRef(false);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const state = useMemo(() => evaluateLogic(form.definition, answers), [form.definition, answers]);

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (!failure) return;
    setErrors(failure.errors);
    // Go to the first page with a problem.
    const first = pages.findIndex((items) => items.some((field) => failure.errors[field.id]));
    if (first >= 0) setPage(first);
  }, [failure, pages]);

  const readAnswers = () => (formRef.current ? (answersFromFormData(new FormData(formRef.current), form.definition) as Answers) : answers);

  /** The problems of the shown questions of some pages, as the server would find them. */
  const problemsOn = (pageIndexes: number[], current: Answers): AnswerErrors => {
    const now = evaluateLogic(form.definition, current);
    const found: AnswerErrors = {};
    for (const index of pageIndexes)
      for (const field of pages[index] ?? []) {
        if (!now.visible.has(field.id) || field.type === "hidden") continue;
        const error = fieldError(field, current[field.id], now.required.has(field.id));
        if (error) found[field.id] = error;
      }
    return found;
  };

  const focusFirst = (found: AnswerErrors) => {
    const id = Object.keys(found)[0];
    if (!id) return;
    requestAnimationFrame(() => (document.getElementById(`field-${id}`) ?? document.querySelector<HTMLElement>(`[data-field="${id}"] input`))?.focus());
  };

  const next = () => {
    const current = readAnswers();
    setAnswers(current);
    const found = problemsOn([page], current);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirst(found);
    const path = evaluateLogic(form.definition, current).path;
    const after = path[path.indexOf(page) + 1];
    if (after === undefined) return;
    setTrail((previous) => [...previous, page]);
    setPage(after);
    progress?.report(after);
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>("h2, [data-page-start]")?.focus());
  };

  const back = () => {
    setErrors({});
    setTrail((previous) => {
      const copy = [...previous];
      const to = copy.pop();
      if (to !== undefined) setPage(to);
      return copy;
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    const current = readAnswers();
    const found = problemsOn(state.path as number[], current);
    if (Object.keys(found).length > 0) {
      event.preventDefault();
      setErrors(found);
      const first = pages.findIndex((items) => items.some((field) => found[field.id]));
      if (first >= 0 && first !== page) setPage(first);
      focusFirst(found);
    }
  };

  const last = !hydrated || state.path.indexOf(page) === state.path.length - 1 || state.path.indexOf(page) === -1;
  const problemCount = Object.keys(errors).filter((key) => key !== FORM_ERROR_KEY).length;

  return (
    <Form method="post" ref={formRef} noValidate onSubmit={onSubmit} onChange={() => {
        setAnswers(readAnswers());
        if (!started.current && progress) {
          started.current = true;
          progress.report(0);
        }
      }} className="space-y-6" data-testid="public-form" aria-busy={busy || undefined}>
      <CsrfInput />
      {progress ? <input type="hidden" name="_visit" value={progress.visitId} /> : null}
      {failure?.message || errors[FORM_ERROR_KEY] ? (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800" data-testid="form-failure">
          {errors[FORM_ERROR_KEY] ?? failure?.message}
        </div>
      ) : problemCount > 0 && hydrated ? (
        <p role="status" className="text-sm font-medium text-red-700">
          {problemCount === 1 ? "One answer needs your attention." : `${problemCount} answers need your attention.`}
        </p>
      ) : null}
      {pages.map((items, index) => {
        // Before hydration every page is shown; then only the current one (the others stay in the form, hidden).
        const shown = !hydrated || index === page;
        const visited = !hydrated || state.path.includes(index);
        return (
          <section key={index} hidden={!shown} aria-label={pages.length > 1 ? `Page ${index + 1} of ${pages.length}` : undefined} className="space-y-5">
            {pages.length > 1 && hydrated ? (
              <p className="text-sm text-slate-600" tabIndex={-1} data-page-start>
                Page {state.path.indexOf(index) + 1 || index + 1} of {state.path.length}
              </p>
            ) : null}
            {items.map((field) =>
              visited && (state.visible.has(field.id) || (!hydrated && !form.definition.rules.some((rule) => rule.target === field.id && rule.action === "show"))) ? (
                <Field key={field.id} field={field} value={answers[field.id]} error={errors[field.id]} required={state.required.has(field.id)} />
              ) : null,
            )}
          </section>
        );
      })}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label>
          Leave this empty
          <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>
      {turnstileSiteKey && last ? (
        <Suspense fallback={null}>
          <TurnstileWidget siteKey={turnstileSiteKey} />
        </Suspense>
      ) : null}
      <div className="flex flex-wrap gap-3">
        {hydrated && trail.length > 0 ? (
          <button type="button" className={buttonClassName({ variant: "secondary" })} onClick={back}>
            Back
          </button>
        ) : null}
        {last ? (
          <button type="submit" className={buttonClassName()} disabled={busy}>
            {busy ? "Sending…" : submitLabel}
          </button>
        ) : (
          <button type="button" className={buttonClassName()} onClick={next}>
            Next
          </button>
        )}
      </div>
    </Form>
  );
}
