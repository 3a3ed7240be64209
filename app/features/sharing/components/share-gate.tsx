import { Form, useActionData } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import type { ActionFailure } from "~/lib/action-result.server";
import { useHydrated } from "~/lib/use-hydrated";
import type { ShareViewerPage } from "../share-viewer.server";
import { ShareHeader } from "./share-header";

const GATE_COPY = {
  password: "This link is protected with a password. Enter it to continue.",
  email: "Enter your e-mail address to continue.",
  code: "Enter the 6-digit code we sent you.",
  agreement: "Read and accept the agreement to continue.",
} as const;

/** A share link's gate: its form, posted as a whole document (the visit's cookie is scoped to /s/{key}). */
export function ShareGate({ page }: { page: Extract<ShareViewerPage, { state: "gate" }> }) {
  const failure = useActionData<ActionFailure | undefined>();
  const fieldErrors = failure?.fieldErrors ?? {};
  const error = (name: string) => fieldErrors[name]?.[0];
  const isReady = useHydrated();
  return (
    <section className="mx-auto max-w-md space-y-5 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <ShareHeader title={page.targetName}>
        <p className="text-sm text-slate-700">{page.gate === "code" && page.pendingEmail ? `We sent a 6-digit code to ${page.pendingEmail}. It is valid for 10 minutes.` : GATE_COPY[page.gate]}</p>
      </ShareHeader>
      {failure && !Object.keys(fieldErrors).length ? <Alert variant="error">{failure.message}</Alert> : null}
      <Form method="post" reloadDocument className="space-y-4" data-testid="share-gate" data-ready={isReady || undefined}>
        <CsrfInput />
        <input type="hidden" name="gate" value={page.gate} />
        {page.gate === "password" ? <Input label="Password" name="password" type="password" autoComplete="off" required autoFocus error={error("password")} /> : null}
        {page.gate === "email" ? <Input label="E-mail address" name="email" type="email" autoComplete="email" required autoFocus error={error("email")} /> : null}
        {page.gate === "code" ? <Input label="Code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required autoFocus error={error("code")} /> : null}
        {page.gate === "agreement" ? (
          <>
            <div tabIndex={0} aria-label="Agreement" className="max-h-64 overflow-y-auto whitespace-pre-wrap rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
              {page.agreement}
            </div>
            <Input label="Your full name" name="name" autoComplete="name" required error={error("name")} />
            <label className="flex items-start gap-2 text-sm text-slate-800">
              <input type="checkbox" name="accept" required className="mt-1" />I have read the agreement and accept it.
            </label>
          </>
        ) : null}
        <Button type="submit" className="w-full">
          {page.gate === "agreement" ? "Accept and view" : page.gate === "code" ? "Verify" : "Continue"}
        </Button>
      </Form>
      {page.gate === "code" && page.pendingEmail ? (
        <Form method="post" reloadDocument className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <CsrfInput />
          <input type="hidden" name="gate" value="email" />
          <input type="hidden" name="email" value={page.pendingEmail} />
          No e-mail?
          <Button type="submit" variant="ghost" size="sm">
            Send a new code
          </Button>
        </Form>
      ) : null}
    </section>
  );
}

