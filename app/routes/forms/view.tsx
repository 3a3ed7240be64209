import { lazy, Suspense, type ComponentType } from "react";
import { data, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import type { RendererFailure } from "~/features/forms/components/form-renderer";
import type { PublicFormProps } from "~/features/forms/components/public-form";
import { confirmFormEmailCode, formEmailCookie, formUnlockCookie, openPublicForm, readFormEmailCookie, readFormUnlockCookie, requestFormEmailCode, submitForm, unlockForm } from "~/features/forms/form-submissions.server";
import type { FormGateProps } from "~/features/forms/components/form-gates";
import { requestContext } from "~/lib/request-context.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/view";

// The form's interactive part stays out of the first-load JavaScript (G5). The loader loads it on
// the server before rendering, so the HTML holds the whole form (also without JavaScript); the
// browser hydrates it when the chunk arrives (a completed Suspense boundary waits for it).
let LoadedForm: ComponentType<PublicFormProps> | null = null;
let LoadedGate: ComponentType<FormGateProps> | null = null;
const loadChunk = () =>
  import("~/features/forms/components/public-form").then((module) => {
    LoadedForm = module.PublicForm;
    LoadedGate = module.FormGate;
    return module;
  });
const loadPublicForm = () => loadChunk().then((module) => ({ default: module.PublicForm }));
const LazyPublicForm = lazy(loadPublicForm);
const LazyGate = lazy(() => loadChunk().then((module) => ({ default: module.FormGate })));

function PublicFormSlot(props: PublicFormProps) {
  return <Suspense fallback={<p className="text-sm text-slate-700">Loading the form…</p>}>{LoadedForm ? <LoadedForm {...props} /> : <LazyPublicForm {...props} />}</Suspense>;
}

/** The password and e-mail steps (and "answering as"), plain HTML forms, from the same chunk. */
function GateSlot(props: FormGateProps) {
  return <Suspense fallback={null}>{LoadedGate ? <LoadedGate {...props} /> : <LazyGate {...props} />}</Suspense>;
}

const ENDED = {
  missing: { title: "Form not found", text: "This form does not exist. Check the address you were given." },
  closed: { title: "Form closed", text: "This form is closed: it takes no more answers." },
  "past-closing": { title: "Form closed", text: "This form stopped taking answers at its closing time." },
  full: { title: "Form closed", text: "This form has all the answers it takes." },
} as const;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const opening = loaderData?.opening;
  if (!opening) return titleMeta("Form");
  if (opening.state === "open") return titleMeta(opening.form.title);
  if (opening.state === "password" || opening.state === "email") return titleMeta(opening.title);
  return titleMeta(ENDED[opening.state === "missing" ? "missing" : opening.reason].title);
};

// Answers are personal: never cached by a browser or a shared cache.
export const headers = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "same-origin" });

/** /forms/{id}/view (spec §2 "public form view"): anyone with the address, no account. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const cookie = readFormUnlockCookie(request.headers.get("Cookie"));
  const emailCookie = readFormEmailCookie(request.headers.get("Cookie"), params.id);
  const [opening] = await Promise.all([runLoader(() => openPublicForm(serviceContextFor(context), params.id, { countView: true, cookie, emailCookie })), loadPublicForm()]);
  // Hidden fields are filled from the address (?source=newsletter): read on the server, so the first render matches.
  const search = new URL(request.url).search.slice(0, 2_000);
  return data({ opening, search }, { status: opening.state === "missing" ? 404 : opening.state === "closed" ? 410 : opening.state === "password" ? 401 : 200 });
}

// A submission shows its answer from the action: the form is not loaded again (a view is counted once).
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? false : defaultShouldRevalidate;
}

/** A submission: posted as a plain form (so it works without JavaScript). */
export async function action({ context, request, params }: Route.ActionArgs) {
  const formData = await request.formData();
  // The gates come back to the same address (a workflow's ?task=… and hidden fields' values stay).
  const back = `/forms/${params.id}/view${new URL(request.url).search.slice(0, 2_000)}`;
  // The password gate: the right password sets the unlock cookie and loads the form.
  if (formData.get("_intent") === "unlock") {
    const { isSecure } = context.get(requestContext);
    return runFormAction(async () => {
      const cookie = await unlockForm(serviceContextFor(context), params.id, { password: formData.get("password") });
      return redirect(back, { headers: { "Set-Cookie": formUnlockCookie(cookie, isSecure) } });
    });
  }
  // One submission per verified address: the code is mailed, then entered (or another address chosen).
  const intent = formData.get("_intent");
  const cookieHeader = request.headers.get("Cookie");
  if (intent === "email-code" || intent === "email-verify" || intent === "email-change") {
    const { isSecure } = context.get(requestContext);
    return runFormAction(async () => {
      const ctx = serviceContextFor(context);
      const cookie = readFormUnlockCookie(cookieHeader);
      const value =
        intent === "email-change"
          ? ""
          : intent === "email-code"
            ? await requestFormEmailCode(ctx, params.id, { email: formData.get("email"), cookie })
            : await confirmFormEmailCode(ctx, params.id, { code: formData.get("code"), emailCookie: readFormEmailCookie(cookieHeader, params.id), cookie });
      return redirect(back, { headers: { "Set-Cookie": formEmailCookie(params.id, value, isSecure) } });
    });
  }
  return runFormAction(async () => {
    const result = await submitForm(serviceContextFor(context), params.id, { formData }, { cookie: readFormUnlockCookie(cookieHeader), emailCookie: readFormEmailCookie(cookieHeader, params.id) });
    if (!result.ok) {
      const values: Record<string, string | string[]> = {};
      for (const key of new Set(formData.keys())) {
        if (key.startsWith("_")) continue;
        const all = formData.getAll(key).map(String);
        values[key] = all.length > 1 ? all : all[0]!;
      }
      return data({ ok: false as const, message: result.message, errors: result.errors, values }, { status: 422 });
    }
    if (result.redirectUrl) throw redirect(result.redirectUrl);
    return { ok: true as const, thankYouMessage: result.thankYouMessage };
  });
}

export default function PublicFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { opening, search } = loaderData;
  const refused = actionData && "ok" in actionData && actionData.ok === false && !("errors" in actionData) ? actionData.message : null;
  if (opening.state === "password") return <GateSlot gate="password" title={opening.title} ownerName={opening.ownerName} refused={refused} />;
  if (opening.state === "email") {
    return <GateSlot gate="email" title={opening.title} ownerName={opening.ownerName} pendingEmail={opening.pendingEmail} answered={opening.answered} refused={refused} thanks={actionData && "ok" in actionData && actionData.ok === true ? actionData.thankYouMessage : null} />;
  }
  if (opening.state !== "open") {
    const ended = ENDED[opening.state === "missing" ? "missing" : opening.reason];
    return (
      <div className="mx-auto max-w-2xl space-y-2" data-testid="form-ended">
        <h1 className="text-2xl font-semibold text-slate-900">{ended.title}</h1>
        <p className="text-sm text-slate-700">{opening.state === "missing" ? ended.text : `“${opening.title}”: ${ended.text.charAt(0).toLowerCase()}${ended.text.slice(1)} Ask ${opening.ownerName} if you need to reach them.`}</p>
      </div>
    );
  }
  const { form } = opening;
  const failure: RendererFailure | null = actionData && "ok" in actionData && actionData.ok === false ? { message: actionData.message, errors: "errors" in actionData ? (actionData.errors as Record<string, string>) : {}, values: "values" in actionData ? (actionData.values as Record<string, string | string[]>) : undefined } : null;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <header className="space-y-2 border-t-4 border-brand-600 pt-4">
        <h1 className="text-2xl font-semibold text-slate-900">{form.title}</h1>
        {form.description ? <p className="whitespace-pre-wrap text-sm text-slate-700">{form.description}</p> : null}
        <p className="text-xs text-slate-600">A form by {form.ownerName}. Only they see your answers.</p>
        {opening.verifiedEmail ? <GateSlot gate="answering-as" email={opening.verifiedEmail} /> : null}
      </header>
      <PublicFormSlot form={form} failure={failure} search={search} turnstileSiteKey={opening.turnstileSiteKey ?? null} thanks={actionData && "ok" in actionData && actionData.ok === true ? { message: actionData.thankYouMessage } : null} />
    </div>
  );
}
