import { clsx } from "clsx";
import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input, RequiredMark } from "~/components/ui/input";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { ProgressBar } from "~/components/ui/progress-bar";
import { UploadRow } from "~/features/files/components/upload-row";
import { formatBytes } from "~/features/files/files.constants";
import { DropZone, HiddenFilesInput, useLeaveWarning, useUploadQueue } from "~/features/files/components/upload-queue";
import { filesFromDrop, overallProgress, UPLOAD_RETRY_DELAYS, type DroppedItem, type PendingFile } from "~/features/files/upload-files";
import { HttpError, readCsrfToken, request } from "~/lib/http";
import { useHydrated } from "~/lib/use-hydrated";
import type { PublicReceivePage, ReceivedUpload, SubmissionStarted } from "../receive-public.server";
import { cleanReceivedName, fileRefusal } from "../receive-rules";

// A page backed by a form asks its questions with the form's own controls and logic, loaded only then.
const FormQuestions = lazy(() => import("~/features/forms/components/form-questions").then((module) => ({ default: module.FormQuestions })));

const TurnstileWidget = lazy(() => import("~/features/auth/components/turnstile-widget").then((module) => ({ default: module.TurnstileWidget })));

/**
 * A receive page's form (issue 24): the visitor's name and e-mail, the page's fields, and the
 * files and folders to send, each checked against the page's rules before anything is sent. Send
 * posts the whole submission; the server answers with one resumable upload per file, which run
 * (three at a time) through the file manager's tus path with the submission's grant, each with
 * its progress, Pause, Resume and Cancel, under an overall bar.
 */

type Chosen = PendingFile & { key: string; refusal: string | null };
type Phase = "compose" | "sending" | "uploading" | "done";
type Failure = { message: string; fieldErrors?: Record<string, string[] | undefined> };

let nextKey = 0;

export function ReceiveUploader({ address, page, task = null }: { address: string; page: PublicReceivePage; task?: string | null }) {
  const [phase, setPhase] = useState<Phase>("compose");
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [failure, setFailure] = useState<Failure | null>(null);
  const isReady = useHydrated();
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const grant = useRef("");
  const questionsRef = useRef<HTMLFormElement>(null);
  const [questionErrors, setQuestionErrors] = useState<Record<string, string>>({});
  const partSizes = useRef(new Map<string, number>());
  const listId = useId();

  const grantHeader = () => ({ "Strongroom-Upload-Grant": grant.current });
  const { items, enqueue, start, pause, cancel } = useUploadQueue({
    // The upload exists already (the submission made it): tus asks for its offset, then sends the rest.
    createUpload: async (tus, key, { file }, callbacks) =>
      new tus.Upload(file, {
        uploadUrl: `/api/uploads/${key}`,
        chunkSize: partSizes.current.get(key),
        retryDelays: UPLOAD_RETRY_DELAYS,
        headers: { "X-Requested-With": "XMLHttpRequest", ...grantHeader() },
        onBeforeRequest: (request) => request.setHeader("X-CSRF-TOKEN", readCsrfToken()),
        storeFingerprintForResuming: false,
        ...callbacks,
      }),
    // Withdrawn on the server too, so nothing is kept half-sent.
    onCancelUnstarted: (key) =>
      void request(`/api/uploads/${key}`, { method: "DELETE", headers: { ...grantHeader(), "Tus-Resumable": "1.0.0" }, handleErrors: false }).catch(() => undefined),
  });

  const add = (pending: PendingFile[]) => {
    if (pending.length === 0) return;
    setFailure(null);
    setChosen((current) => [
      ...current,
      ...pending.map((item) => ({ ...item, key: `chosen-${++nextKey}`, refusal: fileRefusal(page, { name: cleanReceivedName(item.file.name), size: item.file.size }) })),
    ]);
  };

  const onDrop = (dropped: DroppedItem[]) => {
    if (phase !== "compose") return;
    filesFromDrop(dropped, true)
      .then(add)
      .catch(() => setFailure({ message: "The dropped items could not be read. Use Choose files or Choose a folder instead." }));
  };

  useEffect(() => {
    if (phase === "uploading" && items.every((item) => item.status === "done" || item.status === "error")) setPhase("done");
  }, [items, phase]);

  useLeaveWarning(phase === "sending");

  const send = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const usable = chosen.filter((item) => item.refusal === null);
    if (usable.length === 0) return setFailure({ message: chosen.length > 0 ? "None of the chosen files can be sent: see why beside each." : "Add at least one file." });
    if (usable.length < chosen.length) return setFailure({ message: "Remove the files this page does not take (see why beside each), then send." });
    if (usable.length > page.maxFiles) return setFailure({ message: `This page takes at most ${page.maxFiles} files from each person. Remove ${usable.length - page.maxFiles}.` });
    const form = new FormData(event.currentTarget);
    let answers: Record<string, unknown> = {};
    if (page.form) {
      const { readQuestions } = await import("~/features/forms/components/form-questions");
      const read = readQuestions(questionsRef.current, page.form.definition);
      setQuestionErrors(read.errors);
      const problems = Object.keys(read.errors).length;
      if (problems > 0) return setFailure({ message: problems === 1 ? "One answer needs your attention." : `${problems} answers need your attention.` });
      answers = read.answers;
    } else {
      for (const field of page.fields) {
        const value = form.get(`field:${field.id}`);
        answers[field.id] = field.type === "checkbox" ? value === "on" : typeof value === "string" ? value : "";
      }
    }
    const body = {
      address,
      name: String(form.get("name") ?? ""),
      email: String(form.get("email") ?? ""),
      answers,
      files: usable.map((item) => ({ name: item.file.name, size: item.file.size, relativePath: item.relativePath })),
      website: String(form.get("website") ?? ""),
      ...(form.get("cf-turnstile-response") ? { turnstileToken: String(form.get("cf-turnstile-response")) } : {}),
      ...(task ? { task } : {}),
    };
    setPhase("sending");
    let submission: SubmissionStarted;
    try {
      submission = await request<SubmissionStarted>("/api/receive-submissions", { method: "POST", body, handleErrors: false, timeoutMs: 60_000 });
    } catch (error) {
      setPhase("compose");
      if (!(error instanceof HttpError)) return setFailure({ message: "The connection failed. Check your network and send again." });
      const refused = (error.body ?? {}) as { message?: string; fieldErrors?: Record<string, string[]> };
      if (page.form && refused.fieldErrors) setQuestionErrors(Object.fromEntries(Object.entries(refused.fieldErrors).map(([id, messages]) => [id, messages[0] ?? ""])));
      return setFailure({ message: refused.message ?? `The server answered ${error.status}. Send again.`, fieldErrors: refused.fieldErrors });
    }
    grant.current = submission.grant;
    submission.uploads.forEach((upload: ReceivedUpload) => partSizes.current.set(upload.id, upload.partSize));
    enqueue(submission.uploads.map((upload, index) => ({ key: upload.id, name: upload.name, relativePath: upload.relativePath, file: usable[index]!.file })));
    setPhase("uploading");
  };

  if (phase === "uploading" || phase === "done") {
    const overall = overallProgress(items);
    const done = items.filter((item) => item.status === "done").length;
    return (
      <section className="space-y-4 rounded-lg border border-slate-300 bg-white p-4" aria-label="Sending">
        {phase === "done" ? (
          done > 0 ? (
            <Alert variant="success" title="Sent">
              {done} {done === 1 ? "file was" : "files were"} sent to {page.ownerName}. You can close this page.
            </Alert>
          ) : (
            <Alert variant="error" title="Nothing was sent">
              {items.length === 0 ? "You cancelled every file. Reload the page to send files again." : "None of the files could be sent: see why below."}
            </Alert>
          )
        ) : null}
        <ProgressBar value={overall.percent} showValue size="lg" label={`Overall: ${done} of ${items.length} ${items.length === 1 ? "file" : "files"} sent (${formatBytes(overall.sent)} of ${formatBytes(overall.total)})`} />
        <ul className="space-y-3" aria-label="Files being sent">
          {items.map((item) => (
            <UploadRow key={item.key} item={item} onPause={pause} onResume={(key) => void start(key)} onCancel={(key) => void cancel(key).catch(() => undefined)} />
          ))}
        </ul>
      </section>
    );
  }

  const errorOf = (name: string) => failure?.fieldErrors?.[name]?.[0];
  const rules = [
    page.allowedTypes.length > 0 ? `${page.allowedTypes.map((type) => type.toUpperCase()).join(", ")} files` : null,
    page.maxFileMb !== null ? `up to ${page.maxFileMb.toLocaleString("en-US")} MB a file` : null,
    `at most ${page.maxFiles} files`,
    page.deadlineAt ? `until ${page.deadlineAt.slice(0, 16).replace("T", " ")} UTC` : null,
  ].filter(Boolean);

  return (
    <>
      {page.form ? (
        <Suspense fallback={<p className="text-sm text-slate-700">Loading the questions…</p>}>
          <FormQuestions definition={page.form.definition} errors={questionErrors} formRef={questionsRef} label={page.form.title} />
        </Suspense>
      ) : null}
    <form onSubmit={(event) => void send(event)} className="space-y-5 rounded-lg border border-slate-300 bg-white p-4" aria-label="Send files" data-ready={isReady ? "true" : undefined}>
      {failure ? (
        <Alert variant="error" title="Not sent">
          {failure.message}
        </Alert>
      ) : null}
      {/* A simple page is a drop zone: it asks who is sending only when it needs to know. */}
      {(page.kind === "form" && !page.form) || page.requireName || page.requireEmail ? (
        <div className="grid gap-4 sm:grid-cols-2">
          {(page.kind === "form" && !page.form) || page.requireName ? <Input label="Your name" name="name" autoComplete="name" required={page.requireName} maxLength={100} error={errorOf("name")} /> : null}
          {(page.kind === "form" && !page.form) || page.requireEmail ? (
            <Input label="Your e-mail" name="email" type="email" autoComplete="email" required={page.requireEmail} maxLength={254} error={errorOf("email")} />
          ) : null}
        </div>
      ) : null}
      {page.fields.map((field) =>
        field.type === "select" ? (
          <label key={field.id} className="block text-sm font-medium text-slate-900">
            {field.label}
            {field.required ? <RequiredMark /> : null}
            <select name={`field:${field.id}`} required={field.required} className={nativeSelectClassName} defaultValue="">
              <option value="">Choose…</option>
              {field.options?.map((option) => (
                <option key={option}>{option}</option>
              ))}
            </select>
            {errorOf(field.id) ? <span className="mt-1 block text-sm text-red-700">{errorOf(field.id)}</span> : null}
          </label>
        ) : field.type === "checkbox" ? (
          <label key={field.id} className="flex items-start gap-2 text-sm text-slate-900">
            <input type="checkbox" name={`field:${field.id}`} required={field.required} className="mt-0.5 h-4 w-4" />
            <span>
              {field.label}
              {field.required ? <RequiredMark /> : null}
              {errorOf(field.id) ? <span className="block text-red-700">{errorOf(field.id)}</span> : null}
            </span>
          </label>
        ) : (
          <Input key={field.id} label={field.label} name={`field:${field.id}`} type={field.type === "date" ? "date" : "text"} required={field.required} maxLength={1000} error={errorOf(field.id)} />
        ),
      )}
      {/* The honeypot: hidden from people and their screen readers; software that fills every field fills it. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label>
          Website
          <input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>

      <div className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-base font-semibold text-slate-900">Files</h2>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="secondary" onClick={() => fileInput.current?.click()}>
              Choose files
            </Button>
            <Button size="sm" variant="secondary" onClick={() => folderInput.current?.click()}>
              Choose a folder
            </Button>
          </div>
        </div>
        <p className="text-sm text-slate-700">This page takes {rules.join(", ")}.</p>
        <HiddenFilesInput
          inputRef={fileInput}
          testId="receive-files-input"
          label="Files to send"
          accept={page.allowedTypes.length > 0 ? page.allowedTypes.map((type) => `.${type}`).join(",") : undefined}
          onFiles={add}
        />
        <HiddenFilesInput inputRef={folderInput} folder testId="receive-folder-input" label="Folder to send" onFiles={add} />
        <DropZone testId="receive-drop-zone" onDrop={onDrop} accent={page.brandColor}>
          Drop files or folders here.
        </DropZone>
        {chosen.length > 0 ? (
          <ul className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-labelledby={listId}>
            <li id={listId} className="px-3 py-2 text-sm font-medium text-slate-900">
              {chosen.length} {chosen.length === 1 ? "file" : "files"} chosen ({formatBytes(chosen.reduce((sum, item) => sum + item.file.size, 0))})
            </li>
            {chosen.map((item) => {
              const shown = item.relativePath ? `${item.relativePath}/${item.file.name}` : item.file.name;
              return (
                <li key={item.key} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm" data-testid="receive-chosen" aria-label={shown}>
                  <span className={clsx("min-w-0 break-all", item.refusal ? "text-red-800" : "text-slate-900")}>
                    {shown} · {formatBytes(item.file.size)}
                    {item.refusal ? <span className="block">{item.refusal}</span> : null}
                  </span>
                  <Button size="sm" variant="ghost" aria-label={`Remove ${shown}`} onClick={() => setChosen((current) => current.filter((candidate) => candidate.key !== item.key))}>
                    Remove
                  </Button>
                </li>
              );
            })}
          </ul>
        ) : null}
      </div>
      {page.turnstileSiteKey ? (
        <Suspense fallback={null}>
          <TurnstileWidget siteKey={page.turnstileSiteKey} />
        </Suspense>
      ) : null}
      <Button type="submit" isLoading={phase === "sending"}>
        Send
      </Button>
    </form>
    </>
  );
}

