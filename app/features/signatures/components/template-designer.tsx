import { useState } from "react";
import { Link } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClassName } from "~/components/ui/button";
import { readCsrfToken } from "~/lib/csrf-token";
import { ROLES_MAX, type SignField, type SignRole } from "../signature-fields";
import type { TemplateDetail } from "../templates.server";
import { FieldDesigner } from "./field-designer";

let sequence = 0;
const newRoleId = () => `role${Date.now().toString(36)}${(sequence += 1)}`;

/**
 * The template designer (issue 38, spec §2 "Signatures: template designer"): the template's name,
 * its recipient roles ("Buyer", "Seller"), and the fields placed for each on the PDF's pages.
 * Saved by revision: a save from a stale tab is refused with a message, never lost silently.
 */
export function TemplateDesigner({ template }: { template: TemplateDetail }) {
  const [name, setName] = useState(template.name);
  const [roles, setRoles] = useState<SignRole[]>(template.roles);
  const [fields, setFields] = useState<SignField[]>(template.fields);
  const [revision, setRevision] = useState(template.revision);
  const [state, setState] = useState<{ kind: "idle" | "saving" | "saved" } | { kind: "error"; message: string }>({ kind: "idle" });

  async function save() {
    setState({ kind: "saving" });
    try {
      const response = await fetch(`/api/signatures/templates/${template.id}`, {
        method: "PUT",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-TOKEN": readCsrfToken() },
        body: JSON.stringify({ revision, name, roles, fields: fields.filter((field) => roles.some((role) => role.id === field.roleId)) }),
      });
      const body = (await response.json().catch(() => ({}))) as { template?: TemplateDetail; message?: string };
      if (response.ok && body.template) {
        setRevision(body.template.revision);
        setState({ kind: "saved" });
      } else setState({ kind: "error", message: body.message ?? "The template could not be saved. Try again." });
    } catch {
      setState({ kind: "error", message: "The template could not be saved. Check your connection and try again." });
    }
  }

  return (
    <div className="space-y-6">
      <section className="space-y-3 rounded-md border border-slate-200 p-4" aria-labelledby="roles-heading">
        <label className="block text-sm font-medium text-slate-900">
          Template name
          <input value={name} maxLength={200} onChange={(event) => setName(event.target.value)} className="mt-1 block w-full max-w-xl rounded-md border border-slate-400 px-3 py-2 text-sm" />
        </label>
        <h2 id="roles-heading" className="text-lg font-semibold text-slate-900">
          Recipient roles
        </h2>
        <p className="text-sm text-slate-700">Each role is one person when you send: name them by what they do, like “Buyer” or “Company director”.</p>
        <ol className="space-y-2">
          {roles.map((role, index) => (
            <li key={role.id} className="flex flex-wrap items-end gap-2">
              <label className="block text-sm font-medium text-slate-900">
                Role {index + 1}
                <input value={role.name} maxLength={60} onChange={(event) => setRoles((list) => list.map((one) => (one.id === role.id ? { ...one, name: event.target.value } : one)))} className="mt-1 block w-64 max-w-full rounded-md border border-slate-400 px-3 py-2 text-sm" />
              </label>
              <Button type="button" size="sm" variant="ghost" disabled={roles.length === 1} aria-label={`Remove role ${index + 1}`} onClick={() => setRoles((list) => list.filter((one) => one.id !== role.id))}>
                Remove
              </Button>
            </li>
          ))}
        </ol>
        <Button type="button" size="sm" variant="secondary" disabled={roles.length >= ROLES_MAX} onClick={() => setRoles((list) => [...list, { id: newRoleId(), name: `Signer ${list.length + 1}` }])}>
          Add a role
        </Button>
      </section>
      <section className="space-y-3" aria-labelledby="template-fields-heading">
        <h2 id="template-fields-heading" className="text-lg font-semibold text-slate-900">
          Fields on “{template.documentName}”
        </h2>
        <FieldDesigner documentUrl={`/api/signatures/templates/${template.id}/document`} pageCount={template.pageCount} roles={roles} fields={fields} onChange={setFields} />
      </section>
      <div aria-live="polite">
        {state.kind === "error" ? <Alert variant="error">{state.message}</Alert> : null}
        {state.kind === "saved" ? <Alert variant="success">Saved.</Alert> : null}
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="button" onClick={() => void save()} disabled={state.kind === "saving"}>
          Save the template
        </Button>
        <Link to={`/signatures/create?templateId=${template.id}`} className={buttonClassName({ variant: "secondary" })}>
          Send from this template
        </Link>
      </div>
    </div>
  );
}
