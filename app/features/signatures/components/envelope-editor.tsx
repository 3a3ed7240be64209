import { useState } from "react";
import { useNavigate } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { readCsrfToken } from "~/lib/http";
import { RECIPIENT_KIND_LABELS, RECIPIENT_KINDS, type RecipientKind, type SignField, type SignRole } from "../signature-fields";
import { FieldDesigner, ROLE_COLORS } from "./field-designer";

type Recipient = { roleId: string; name: string; email: string; kind: RecipientKind; requireCode: boolean };

/** A saved draft opened again (/signatures/{id}/edit): what the form starts from, and its revision. */
export type DraftEnvelope = {
  id: string;
  revision: number;
  title: string;
  message: string;
  signingOrder: "parallel" | "sequential";
  recipients: Recipient[];
  fields: SignField[];
  expiresInDays: number | null;
  reminderFirstDays: number | null;
  reminderEveryDays: number | null;
};

async function requestJson(path: string, method: "POST" | "PUT", body: unknown): Promise<{ ok: boolean; body: { envelope?: { id: string; revision: number }; message?: string } }> {
  const response = await fetch(path, { method, headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-TOKEN": readCsrfToken() }, body: JSON.stringify(body) });
  return { ok: response.ok, body: (await response.json().catch(() => ({}))) as { envelope?: { id: string; revision: number }; message?: string } };
}
const text = (value: number | null) => (value === null ? "" : String(value));

let roleSequence = 0;
const newRoleId = () => `r${Date.now().toString(36)}${(roleSequence += 1)}`;
const inputClass = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm";

/**
 * Preparing a document for signature (issue 38, spec §2 "Signatures: create"): who receives it
 * (signer, approver, or a copy), in which order, the message, expiry and reminders, then the
 * fields placed for each signer on the pages. Saved as a draft or sent at once; the server checks
 * everything again (every signer needs a field). A saved draft opens here again (`draft`): saving
 * replaces it by revision (a stale tab is told), sending saves it first.
 */
export function EnvelopeEditor({
  file,
  template = null,
  draft = null,
  dataroomId,
  initialTitle,
}: {
  file: { id: string; name: string; pageCount: number; documentUrl: string };
  /** Sending from a template: one recipient per role, its fields to start from. */
  template?: { id: string; name: string; roles: SignRole[]; fields: SignField[] } | null;
  draft?: DraftEnvelope | null;
  dataroomId: string | null;
  initialTitle: string;
}) {
  const navigate = useNavigate();
  const [title, setTitle] = useState(initialTitle);
  const [message, setMessage] = useState(draft?.message ?? "");
  const [signingOrder, setSigningOrder] = useState<"parallel" | "sequential">(draft?.signingOrder ?? "parallel");
  const [recipients, setRecipients] = useState<Recipient[]>(() =>
    draft ? draft.recipients : template ? template.roles.map((role) => ({ roleId: role.id, name: "", email: "", kind: "signer", requireCode: false })) : [{ roleId: newRoleId(), name: "", email: "", kind: "signer", requireCode: false }],
  );
  const [fields, setFields] = useState<SignField[]>(draft?.fields ?? template?.fields ?? []);
  const roleName = (roleId: string) => template?.roles.find((role) => role.id === roleId)?.name;
  const [expiresInDays, setExpiresInDays] = useState(text(draft?.expiresInDays ?? null));
  const [reminderFirstDays, setReminderFirstDays] = useState(text(draft?.reminderFirstDays ?? null));
  const [reminderEveryDays, setReminderEveryDays] = useState(text(draft?.reminderEveryDays ?? null));
  const [revision, setRevision] = useState(draft?.revision ?? 0);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const roles = recipients.filter((recipient) => recipient.kind !== "viewer").map((recipient, index) => ({ id: recipient.roleId, name: recipient.name.trim() || roleName(recipient.roleId) || `Recipient ${index + 1}` }));
  const change = (index: number, patch: Partial<Recipient>) => setRecipients((list) => list.map((recipient, at) => (at === index ? { ...recipient, ...patch } : recipient)));
  const number = (value: string) => (value.trim() === "" ? null : Number(value));

  async function save(send: boolean) {
    setBusy(true);
    setProblem(null);
    const viewerRoles = new Set(recipients.filter((recipient) => recipient.kind === "viewer").map((recipient) => recipient.roleId));
    const content = {
      title,
      message,
      signingOrder,
      recipients,
      fields: fields.filter((field) => !viewerRoles.has(field.roleId)),
      expiresInDays: number(expiresInDays),
      reminderFirstDays: number(reminderFirstDays),
      reminderEveryDays: number(reminderEveryDays),
    };
    try {
      let saved;
      if (draft) {
        saved = await requestJson(`/api/signatures/${draft.id}`, "PUT", { ...content, revision });
        if (saved.ok && saved.body.envelope) setRevision(saved.body.envelope.revision);
        if (saved.ok && send) saved = await requestJson(`/api/signatures/${draft.id}/send`, "POST", {});
      } else {
        saved = await requestJson("/api/signatures", "POST", { ...(template ? { templateId: template.id } : { fileId: file.id }), ...(dataroomId ? { dataroomId } : {}), ...content, send });
      }
      if (saved.ok && saved.body.envelope) {
        void navigate(`/signatures/${saved.body.envelope.id}`);
        return;
      }
      setProblem(saved.body.message ?? "The document could not be saved. Try again.");
    } catch {
      setProblem("The document could not be sent. Check your connection and try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-6">
      <section className="space-y-4 rounded-md border border-slate-200 p-4" aria-labelledby="who-heading">
        <h2 id="who-heading" className="text-lg font-semibold text-slate-900">
          Recipients
        </h2>
        <label className="block text-sm font-medium text-slate-900">
          Title
          <input value={title} maxLength={200} onChange={(event) => setTitle(event.target.value)} className={inputClass} required />
        </label>
        <ol className="space-y-3">
          {recipients.map((recipient, index) => (
            <li key={recipient.roleId} className="grid gap-2 rounded-md border-l-4 bg-slate-50 p-3 sm:grid-cols-2 lg:grid-cols-[1fr_1.3fr_10rem_auto_auto]" style={{ borderLeftColor: ROLE_COLORS[roles.findIndex((role) => role.id === recipient.roleId) % ROLE_COLORS.length] ?? "#94a3b8" }}>
              <label className="block text-sm font-medium text-slate-900">
                {roleName(recipient.roleId) ? `${roleName(recipient.roleId)}: name` : `Name ${index + 1}`}
                <input value={recipient.name} maxLength={120} onChange={(event) => change(index, { name: event.target.value })} className={inputClass} autoComplete="off" />
              </label>
              <label className="block text-sm font-medium text-slate-900">
                {roleName(recipient.roleId) ? `${roleName(recipient.roleId)}: e-mail` : `E-mail ${index + 1}`}
                <input type="email" value={recipient.email} maxLength={254} onChange={(event) => change(index, { email: event.target.value })} className={inputClass} autoComplete="off" />
              </label>
              <label className="block text-sm font-medium text-slate-900">
                Role {index + 1}
                <select value={recipient.kind} onChange={(event) => change(index, { kind: event.target.value as RecipientKind })} className={inputClass}>
                  {RECIPIENT_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {RECIPIENT_KIND_LABELS[kind]}
                    </option>
                  ))}
                </select>
              </label>
              <label className="flex items-center gap-2 self-end pb-2 text-sm text-slate-900">
                <input type="checkbox" checked={recipient.requireCode} onChange={(event) => change(index, { requireCode: event.target.checked })} className="h-4 w-4" disabled={recipient.kind === "viewer"} />
                E-mail code
              </label>
              <div className="self-end pb-1">
                <Button type="button" size="sm" variant="ghost" onClick={() => setRecipients((list) => list.filter((_, at) => at !== index))} disabled={recipients.length === 1 || template !== null} aria-label={`Remove recipient ${index + 1}`}>
                  Remove
                </Button>
              </div>
            </li>
          ))}
        </ol>
        {template ? null : (
          <Button type="button" variant="secondary" size="sm" onClick={() => setRecipients((list) => [...list, { roleId: newRoleId(), name: "", email: "", kind: "signer", requireCode: false }])} disabled={recipients.length >= 10}>
            Add a recipient
          </Button>
        )}
        <fieldset className="space-y-1 text-sm">
          <legend className="font-medium text-slate-900">Signing order</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name="order" checked={signingOrder === "parallel"} onChange={() => setSigningOrder("parallel")} /> Everyone at once
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="order" checked={signingOrder === "sequential"} onChange={() => setSigningOrder("sequential")} /> One after another, in the order above
          </label>
        </fieldset>
        <label className="block text-sm font-medium text-slate-900">
          Message (optional)
          <textarea value={message} maxLength={2000} rows={3} onChange={(event) => setMessage(event.target.value)} className={inputClass} />
        </label>
        <div className="grid gap-3 sm:grid-cols-3">
          <label className="block text-sm font-medium text-slate-900">
            Expires after (days)
            <input type="number" min={1} max={365} value={expiresInDays} onChange={(event) => setExpiresInDays(event.target.value)} className={inputClass} placeholder="Never" />
          </label>
          <label className="block text-sm font-medium text-slate-900">
            First reminder after (days)
            <input type="number" min={1} max={30} value={reminderFirstDays} onChange={(event) => setReminderFirstDays(event.target.value)} className={inputClass} placeholder="No reminders" />
          </label>
          <label className="block text-sm font-medium text-slate-900">
            Then every (days)
            <input type="number" min={1} max={30} value={reminderEveryDays} onChange={(event) => setReminderEveryDays(event.target.value)} className={inputClass} placeholder="Once only" />
          </label>
        </div>
      </section>
      <section className="space-y-3" aria-labelledby="fields-heading">
        <h2 id="fields-heading" className="text-lg font-semibold text-slate-900">
          Fields on “{file.name}”
        </h2>
        <p className="text-sm text-slate-700">Place at least one field for every signer. Each field is filled in only by the recipient it belongs to.</p>
        <FieldDesigner documentUrl={file.documentUrl} pageCount={file.pageCount} roles={roles} fields={fields} onChange={setFields} />
      </section>
      {problem ? <Alert variant="error">{problem}</Alert> : null}
      <div className="flex flex-wrap gap-3">
        <Button type="button" onClick={() => void save(true)} disabled={busy}>
          Send for signature
        </Button>
        <Button type="button" variant="secondary" onClick={() => void save(false)} disabled={busy}>
          {draft ? "Save the draft" : "Save as draft"}
        </Button>
      </div>
    </div>
  );
}
