import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { Form, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { buttonClassName } from "~/components/ui/button";
import { formatBytes } from "~/features/files/files.constants";
import { HttpError, http } from "~/lib/http";
import { useHydrated } from "~/lib/use-hydrated";
import { answersFromFormData, checkAnswers, FORM_ERROR_KEY, TURNSTILE_FIELD, type AnswerErrors } from "../form-answers";
import type { FormDefinition } from "../form-fields";
import { type AnswerValue, type Answers, evaluateLogic, splitPages } from "../form-logic";
import { HONEYPOT_FIELD } from "../forms.constants";
import { FormThanks } from "./form-thanks";
import { Field, logicAnswers, startingAnswers } from "./form-question";

/**
 * The form as a visitor fills it in (issue 37): the public form (/forms/{id}/view) and the
 * preview in test mode render this. It is a plain HTML form that posts to its page, so a form
 * without logic works without JavaScript (every page shown one under the other). Once hydrated it
 * goes page by page, runs the shared logic evaluator on every change and checks each page's
 * answers with the same rules as the server, which still decides. A form with file questions is
 * sent as JSON once hydrated: the answers first, then each file through the resumable upload path
 * with the grant the submission gave, with its progress.
 */

export type RendererForm = { title: string; description: string; definition: FormDefinition };
export type RendererFailure = { message: string; errors: AnswerErrors; values?: Record<string, AnswerValue> };

// Turnstile (when configured) loads after the form's first paint (G5).
const TurnstileWidget = lazy(() => import("~/features/auth/components/turnstile-widget").then((module) => ({ default: module.TurnstileWidget })));

/** Where a visit got to (the builder dashboard's starts and drop-off): page 0 at the first answer, later pages on "Next". */
export type ProgressReporter = { visitId: string; report: (page: number) => void };

/** A JSON submission's course: its answers on their way, then its files, then done. */
type Sending = { stage: "answers" } | { stage: "files"; names: string[]; sizes: number[]; sent: number[] } | { stage: "done"; message: string; test: boolean; failed: string[] };
type SentAnswers = { ok: true; submissionId: string; thankYouMessage: string; redirectUrl: string | null; test: boolean; files?: { grant: string; uploads: { id: string; fieldId: string; partSize: number }[] } };

export function FormRenderer({ form, failure, params, submitLabel = "Send", progress, turnstileSiteKey, submitUrl }: { form: RendererForm; failure?: RendererFailure | null; params?: URLSearchParams; submitLabel?: string; progress?: ProgressReporter | null; turnstileSiteKey?: string | null; /** Where a form with files is sent as JSON (the API). */ submitUrl?: string }) {
  const { fields } = form.definition;
  const pages = useMemo(() => splitPages(fields), [fields]);
  const [answers, setAnswers] = useState<Answers>(() => startingAnswers(fields, params, failure?.values));
  const [errors, setErrors] = useState<AnswerErrors>(failure?.errors ?? {});
  const hydrated = useHydrated();
  const [page, setPage] = useState(0);
  const [trail, setTrail] = useState<number[]>([]);
  const formRef = useRef<HTMLFormElement>(null);
  const started = useRef(false);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const state = useMemo(() => evaluateLogic(form.definition, answers), [form.definition, answers]);
  const [sending, setSending] = useState<Sending | null>(null);
  const [sendFailure, setSendFailure] = useState<string | null>(null);
  const hasFiles = Boolean(submitUrl) && fields.some((field) => field.type === "file");

  useEffect(() => {
    if (!failure) return;
    setErrors(failure.errors);
    // Go to the first page with a problem.
    const first = pages.findIndex((items) => items.some((field) => failure.errors[field.id]));
    if (first >= 0) setPage(first);
  }, [failure, pages]);

  const readRaw = () => (formRef.current ? answersFromFormData(new FormData(formRef.current), form.definition) : (answers as Record<string, unknown>));
  const readAnswers = () => logicAnswers(readRaw());
  const answered = useCallback(() => {
    if (formRef.current) setAnswers(logicAnswers(answersFromFormData(new FormData(formRef.current), form.definition)));
  }, [form.definition]);

  /** The problems of the shown questions of some pages, as the server would find them (the same check). */
  const problemsOn = (pageIndexes: number[], raw: Record<string, unknown>): AnswerErrors => {
    const { errors: all } = checkAnswers(form.definition, raw);
    const found: AnswerErrors = {};
    for (const index of pageIndexes) for (const field of pages[index] ?? []) if (all[field.id] && field.type !== "hidden") found[field.id] = all[field.id]!;
    return found;
  };

  const focusFirst = (found: AnswerErrors) => {
    const id = Object.keys(found)[0];
    if (!id) return;
    requestAnimationFrame(() => (document.getElementById(`field-${id}`) ?? document.querySelector<HTMLElement>(`[data-field="${id}"] input`))?.focus());
  };

  const next = () => {
    const raw = readRaw();
    const current = logicAnswers(raw);
    setAnswers(current);
    const found = problemsOn([page], raw);
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

  const showProblems = (found: AnswerErrors) => {
    setErrors(found);
    const first = pages.findIndex((items) => items.some((field) => found[field.id]));
    if (first >= 0 && first !== page) setPage(first);
    focusFirst(found);
  };

  /** A form with files: the answers as JSON, then each file with the submission's grant. */
  const sendWithFiles = async (formData: FormData, raw: Record<string, unknown>) => {
    setSendFailure(null);
    setSending({ stage: "answers" });
    const posted = (name: string) => (typeof formData.get(name) === "string" ? formData.get(name) : undefined);
    let result: SentAnswers;
    try {
      result = await http.post<SentAnswers>(submitUrl!, { answers: { ...raw, _visit: posted("_visit"), _task: posted("_task"), [HONEYPOT_FIELD]: posted(HONEYPOT_FIELD), [TURNSTILE_FIELD]: posted(TURNSTILE_FIELD) } }, { handleErrors: false, timeoutMs: 60_000 });
    } catch (error) {
      setSending(null);
      const body = (error instanceof HttpError ? error.body : null) as { message?: string; errors?: AnswerErrors } | null;
      if (body?.errors) return showProblems(body.errors);
      return setSendFailure(body?.message ?? "The connection failed: nothing was sent. Check your network and send again.");
    }
    const uploads = result.files?.uploads ?? [];
    const chosen = new Map<string, File[]>();
    for (const field of fields) if (field.type === "file") chosen.set(field.id, formData.getAll(field.id).filter((item): item is File => typeof item !== "string" && item.name !== ""));
    const items = uploads.map((upload) => ({ uploadId: upload.id, partSize: upload.partSize, file: chosen.get(upload.fieldId)!.shift()! }));
    let failed: string[] = [];
    if (items.length > 0) {
      setSending({ stage: "files", names: items.map((item) => item.file.name), sizes: items.map((item) => item.file.size), sent: items.map(() => 0) });
      const { sendFormFiles } = await import("./form-file-uploads");
      const failures = await sendFormFiles(result.files!.grant, items, (index, sent) =>
        setSending((current) => (current?.stage === "files" ? { ...current, sent: current.sent.map((value, at) => (at === index ? sent : value)) } : current)),
      );
      failed = failures.map((failure) => `“${items[failure.index]!.file.name}”: ${failure.message}`);
    }
    if (result.redirectUrl && !result.test && failed.length === 0) return window.location.assign(result.redirectUrl);
    setSending({ stage: "done", message: result.thankYouMessage, test: result.test, failed });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    const raw = readRaw();
    const found = problemsOn(state.path as number[], raw);
    if (Object.keys(found).length > 0) {
      event.preventDefault();
      return showProblems(found);
    }
    if (hasFiles) {
      event.preventDefault();
      void sendWithFiles(new FormData(event.currentTarget), raw);
    }
  };

  if (sending?.stage === "done") {
    return (
      <div className="space-y-3">
        <FormThanks message={sending.message} test={sending.test} />
        {sending.failed.length > 0 ? (
          <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            <p className="font-medium">Your answers were sent, but {sending.failed.length === 1 ? "one file" : `${sending.failed.length} files`} could not be:</p>
            <ul className="mt-1 list-disc pl-5">
              {sending.failed.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    );
  }
  if (sending?.stage === "files") {
    const total = sending.sizes.reduce((sum, size) => sum + size, 0);
    const sent = sending.sent.reduce((sum, value) => sum + value, 0);
    return (
      <section className="space-y-3" aria-label="Sending your files" data-testid="form-files-progress">
        <p role="status" className="text-sm text-slate-900">
          Your answers are in. Sending your files ({formatBytes(sent)} of {formatBytes(total)}): keep this page open.
        </p>
        <ul className="space-y-2">
          {sending.names.map((name, index) => (
            <li key={`${name}-${index}`} className="space-y-1 text-sm text-slate-900">
              <span className="break-all">{name}</span>
              <progress className="block h-2 w-full" max={sending.sizes[index] || 1} value={sending.sent[index]} aria-label={`${name}: ${Math.round(((sending.sent[index] ?? 0) / (sending.sizes[index] || 1)) * 100)}% sent`} />
            </li>
          ))}
        </ul>
      </section>
    );
  }

  const last = !hydrated || state.path.indexOf(page) === state.path.length - 1 || state.path.indexOf(page) === -1;
  const problemCount = Object.keys(errors).filter((key) => key !== FORM_ERROR_KEY).length;

  return (
    <Form method="post" ref={formRef} noValidate onSubmit={onSubmit} onChange={() => {
        setAnswers(readAnswers());
        if (!started.current && progress) {
          started.current = true;
          progress.report(0);
        }
      }} className="space-y-6" data-testid="public-form" data-ready={hydrated ? "true" : undefined} aria-busy={busy || undefined}>
      <CsrfInput />
      {progress ? <input type="hidden" name="_visit" value={progress.visitId} /> : null}
      {/* Opened from a workflow's form step (?task=…): the answer tells the waiting run. */}
      {params?.get("task") ? <input type="hidden" name="_task" value={params.get("task")!.slice(0, 64)} /> : null}
      {sendFailure || failure?.message || errors[FORM_ERROR_KEY] ? (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800" data-testid="form-failure">
          {errors[FORM_ERROR_KEY] ?? sendFailure ?? failure?.message}
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
                <Field key={field.id} field={field} value={answers[field.id]} error={errors[field.id]} required={state.required.has(field.id)} onAnswered={answered} />
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
          <button type="submit" className={buttonClassName()} disabled={busy || sending !== null}>
            {busy || sending ? "Sending…" : submitLabel}
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
