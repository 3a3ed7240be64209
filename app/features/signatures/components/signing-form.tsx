import { lazy, Suspense, useCallback, useEffect, useState, type FormEvent } from "react";
import { useRevalidator } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { DRAWN_PREFIX, TYPED_PREFIX } from "~/features/forms/signature-format";
import { readCsrfToken } from "~/lib/csrf-token";
import { AUTOMATIC_TYPES, CHECKED, DRAWN_TYPES, IMAGE_PREFIX, SIGN_FIELD_LABELS, type SignField } from "../signature-fields";
import type { SigningView } from "../signing-types";
import { SignaturePicture } from "./signature-picture";

// The pad and the PDF viewer load after the page (the signing page's first load stays small, G5).
const SignaturePad = lazy(() => import("~/features/forms/components/signature-pad").then((module) => ({ default: module.SignaturePad })));
const PdfPages = lazy(() => import("~/features/files/components/pdf-pages").then((module) => ({ default: module.PdfPages })));

async function post(path: string, body: unknown): Promise<{ ok: boolean; message: string; fieldErrors: Record<string, string[]> }> {
  try {
    const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-TOKEN": readCsrfToken() }, body: JSON.stringify(body), credentials: "same-origin" });
    const json = (await response.json().catch(() => ({}))) as { message?: string; fieldErrors?: Record<string, string[]> };
    return { ok: response.ok, message: json.message ?? (response.ok ? "" : "Something went wrong. Please try again."), fieldErrors: json.fieldErrors ?? {} };
  } catch {
    return { ok: false, message: "Your answer could not be sent. Check your connection and try again.", fieldErrors: {} };
  }
}

const fieldName = (field: SignField) => (field.label ? field.label : SIGN_FIELD_LABELS[field.type]);
const ordered = (fields: SignField[]) => [...fields].sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);

/** The e-mail code step, when the sender asked for one. */
function CodeStep({ token, email }: { token: string; email: string }) {
  const revalidator = useRevalidator();
  const [sent, setSent] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  return (
    <section className="space-y-3 rounded-md border border-slate-200 p-4" aria-labelledby="code-heading">
      <h2 id="code-heading" className="text-lg font-semibold text-slate-900">
        Confirm your e-mail address
      </h2>
      <p className="text-sm text-slate-700">The sender asked us to confirm it is you: we e-mail a 6-digit code to {email}.</p>
      {message ? <p className="text-sm text-red-800">{message}</p> : null}
      {!sent ? (
        <Button
          type="button"
          onClick={async () => {
            const result = await post(`/api/sign/${token}/code`, {});
            if (result.ok) setSent(true);
            setMessage(result.ok ? null : result.message);
          }}
        >
          E-mail me a code
        </Button>
      ) : (
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={async (event) => {
            event.preventDefault();
            const code = String(new FormData(event.currentTarget).get("code") ?? "");
            const result = await post(`/api/sign/${token}/code/confirm`, { code });
            if (result.ok) void revalidator.revalidate();
            else setMessage(result.message);
          }}
        >
          <label className="block text-sm font-medium text-slate-900">
            The 6-digit code
            <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required className="mt-1 block w-40 rounded-md border border-slate-400 px-3 py-2 text-base" />
          </label>
          <Button type="submit">Confirm</Button>
        </form>
      )}
    </section>
  );
}

function FieldControl({ token, field, recipientName, error, hydrated }: { token: string; field: SignField; recipientName: string; error?: string; hydrated: boolean }) {
  const id = `field-${field.id}`;
  const errorId = `${id}-error`;
  const label = `${fieldName(field)}${field.required ? "" : " (optional)"} · page ${field.page + 1}`;
  const described = error ? errorId : undefined;
  const onChange = useCallback(() => undefined, []);
  let control;
  if (AUTOMATIC_TYPES.includes(field.type)) {
    return (
      <div className="text-sm text-slate-700">
        <span className="font-medium text-slate-900">{label}:</span> {field.type === "email" ? "your e-mail address" : "today's date"}, filled in when you sign.
      </div>
    );
  }
  if (DRAWN_TYPES.includes(field.type)) {
    // Drawn only once the page runs in the browser: a pad shown before would not take strokes yet.
    control = hydrated ? (
      <SignaturePicture
        token={token}
        fieldId={field.id}
        label={fieldName(field)}
        pad={
          <Suspense fallback={<Spinner />}>
            <SignaturePad id={id} name={field.id} describedBy={described} invalid={Boolean(error)} onChange={onChange} />
          </Suspense>
        }
      />
    ) : (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the signature pad…
      </p>
    );
  } else if (field.type === "checkbox") {
    return (
      <div className="space-y-1">
        <label className="flex items-center gap-2 text-sm text-slate-900">
          <input id={id} type="checkbox" name={field.id} value={CHECKED} aria-describedby={described} aria-invalid={Boolean(error) || undefined} className="h-5 w-5" />
          {label}
        </label>
        {error ? <p id={errorId} className="text-sm text-red-800">{error}</p> : null}
      </div>
    );
  } else if (field.type === "radio") {
    return (
      <fieldset className="space-y-1" aria-describedby={described}>
        <legend className="text-sm font-medium text-slate-900">{label}</legend>
        {field.options.map((option) => (
          <label key={option} className="flex items-center gap-2 text-sm">
            <input type="radio" name={field.id} value={option} className="h-4 w-4" /> {option}
          </label>
        ))}
        {error ? <p id={errorId} className="text-sm text-red-800">{error}</p> : null}
      </fieldset>
    );
  } else if (field.type === "dropdown") {
    control = (
      <select id={id} name={field.id} aria-describedby={described} aria-invalid={Boolean(error) || undefined} className="block w-full max-w-md rounded-md border border-slate-400 bg-white px-3 py-2 text-base">
        <option value="">Choose…</option>
        {field.options.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
    );
  } else {
    control = (
      <input
        id={id}
        name={field.id}
        defaultValue={field.type === "name" ? recipientName : ""}
        inputMode={field.type === "number" ? "decimal" : undefined}
        autoComplete={field.type === "name" ? "name" : field.type === "stamp" ? "organization" : "off"}
        maxLength={500}
        aria-describedby={described}
        aria-invalid={Boolean(error) || undefined}
        className="block w-full max-w-md rounded-md border border-slate-400 bg-white px-3 py-2 text-base"
      />
    );
  }
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      {control}
      {error ? <p id={errorId} className="text-sm text-red-800">{error}</p> : null}
    </div>
  );
}

/** The values of the form, as the API takes them (an uploaded picture, else a drawing, else a typed name, for signatures). */
function valuesOf(form: HTMLFormElement, fields: SignField[]): Record<string, string | boolean> {
  const data = new FormData(form);
  const values: Record<string, string | boolean> = {};
  for (const field of fields) {
    if (AUTOMATIC_TYPES.includes(field.type)) continue;
    const raw = String(data.get(field.id) ?? "");
    if (DRAWN_TYPES.includes(field.type)) {
      const typed = String(data.get(`_typed_${field.id}`) ?? "").trim();
      const picture = String(data.get(`_image_${field.id}`) ?? "");
      const value = picture.startsWith(IMAGE_PREFIX) ? picture : raw.startsWith(DRAWN_PREFIX) ? raw : typed ? `${TYPED_PREFIX}${typed}` : "";
      if (value) values[field.id] = value;
    } else if (raw) values[field.id] = raw;
  }
  return values;
}

/**
 * The recipient's form (issue 38): their own fields, each as a labelled control in page order (the
 * accessible way to sign, on any screen), the document with those fields marked on its pages, the
 * consent to sign electronically, and declining with a reason.
 */
export function SigningForm({ token, view, needsCode }: { token: string; view: SigningView; needsCode: boolean }) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [declining, setDeclining] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const fields = ordered(view.fields);
  const approve = view.recipient.kind === "approver";

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    if (!(new FormData(form).get("consent") === "yes")) {
      setProblem("Agree to sign electronically first.");
      return;
    }
    setBusy(true);
    const result = await post(`/api/sign/${token}`, { consent: true, values: valuesOf(form, fields) });
    setBusy(false);
    if (result.ok) {
      void revalidator.revalidate();
      return;
    }
    setProblem(result.message);
    setErrors(Object.fromEntries(Object.entries(result.fieldErrors).map(([key, messages]) => [key, messages[0] ?? ""])));
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <section aria-label="The document" className="order-2 lg:order-1">
        <Suspense fallback={<Spinner />}>
          <PdfPages
            url={`/api/sign/${token}/document`}
            pageCount={view.envelope.pageCount}
            label={`${view.envelope.documentName}, ${view.envelope.pageCount} pages`}
            overlay={(page) =>
              fields
                .filter((field) => field.page === page)
                .map((field) => (
                  <a
                    key={field.id}
                    href={`#field-${field.id}`}
                    className="absolute flex items-center justify-center rounded border-2 border-amber-500 bg-amber-100/70 text-[10px] font-semibold text-amber-900 focus:outline-none focus:ring-2 focus:ring-indigo-600 sm:text-xs"
                    style={{ left: `${field.x * 100}%`, top: `${field.y * 100}%`, width: `${field.w * 100}%`, height: `${field.h * 100}%` }}
                  >
                    {fieldName(field)}
                  </a>
                ))
            }
          />
        </Suspense>
      </section>
      <div className="order-1 space-y-4 lg:sticky lg:top-4 lg:order-2 lg:self-start">
        {needsCode ? (
          <CodeStep token={token} email={view.recipient.email} />
        ) : (
          <form onSubmit={submit} className="space-y-4 rounded-md border border-slate-200 p-4" noValidate>
            <h2 className="text-lg font-semibold text-slate-900">{approve ? "Your approval" : "Your fields"}</h2>
            {problem ? <Alert variant="error">{problem}</Alert> : null}
            {fields.map((field) => (
              <FieldControl key={field.id} token={token} field={field} recipientName={view.recipient.name} error={errors[field.id]} hydrated={hydrated} />
            ))}
            <label className="flex items-start gap-2 text-sm text-slate-900">
              <input type="checkbox" name="consent" value="yes" required className="mt-0.5 h-5 w-5" />
              <span>I agree to {approve ? "approve" : "sign"} this document electronically, and that my electronic signature counts as my handwritten one.</span>
            </label>
            <noscript>
              <p className="text-sm text-red-800">Signing needs JavaScript: turn it on for this page.</p>
            </noscript>
            <Button type="submit" disabled={busy || !hydrated} className="w-full">
              {busy ? "Sending…" : approve ? "Approve" : "Sign and finish"}
            </Button>
          </form>
        )}
        <div className="rounded-md border border-slate-200 p-4">
          {!declining ? (
            <button type="button" className="text-sm font-medium text-red-800 underline" onClick={() => setDeclining(true)}>
              Decline to sign
            </button>
          ) : (
            <form
              className="space-y-3"
              onSubmit={async (event) => {
                event.preventDefault();
                const reason = String(new FormData(event.currentTarget).get("reason") ?? "");
                const result = await post(`/api/sign/${token}/decline`, { reason });
                if (result.ok) void revalidator.revalidate();
                else setProblem(result.message);
              }}
            >
              <label className="block text-sm font-medium text-slate-900">
                Why do you decline? The sender reads this.
                <textarea name="reason" required maxLength={1000} rows={3} className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-base" />
              </label>
              <div className="flex gap-2">
                <Button type="submit" variant="danger">
                  Decline
                </Button>
                <Button type="button" variant="secondary" onClick={() => setDeclining(false)}>
                  Keep it
                </Button>
              </div>
            </form>
          )}
        </div>
      </div>
    </div>
  );
}
