import { useEffect, useMemo, useState } from "react";
import { http } from "~/lib/http";
import type { FormDefinition } from "../form-fields";
import { FormRenderer, type ProgressReporter, type RendererFailure } from "./form-renderer";
import { FormThanks } from "./form-thanks";

// The password and e-mail steps travel in this chunk too (off the page's first load).
export { FormGate } from "./form-gates";

/**
 * The public form's interactive part (/forms/{id}/view): the renderer plus the visit's progress
 * for the builder dashboard. Loaded outside the page's first-load JavaScript (G5): the server
 * renders it whole (the route loads this module before rendering), the browser shows that HTML at
 * once and makes it interactive when this chunk arrives.
 */
export type PublicFormProps = {
  form: { id: string; version: number; title: string; description: string; definition: FormDefinition };
  failure: RendererFailure | null;
  search: string;
  turnstileSiteKey: string | null;
  /** Once the answers are in: the owner's thank-you message (instead of the form). */
  thanks?: { message: string } | null;
};

/** A visit's progress: a random id made in the browser, reported without waiting. */
function useProgress(formId: string, version: number): ProgressReporter | null {
  const [visitId, setVisitId] = useState<string | null>(null);
  useEffect(() => {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    setVisitId(btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""));
  }, []);
  return useMemo(
    () =>
      visitId
        ? { visitId, report: (page: number) => void http.post(`/api/forms/${formId}/progress`, { visit: visitId, version, page }, { handleErrors: false, background: true }).catch(() => undefined) }
        : null,
    [formId, version, visitId],
  );
}

export function PublicForm({ form, failure, search, turnstileSiteKey, thanks }: PublicFormProps) {
  const progress = useProgress(form.id, form.version);
  if (thanks) return <FormThanks message={thanks.message} />;
  return <FormRenderer form={form} failure={failure} params={new URLSearchParams(search)} progress={progress} turnstileSiteKey={turnstileSiteKey} submitUrl={`/api/forms/${form.id}/submissions`} />;
}
