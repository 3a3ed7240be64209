import { IntentForm } from "~/components/intent-form";
import { Button } from "~/components/ui/button";
import { SHARE_IP_MODE_LABELS, SHARE_RETENTION_CHOICES } from "../sharing.constants";
import type { SharePrivacy } from "../share-privacy.server";

/** What is kept of the visitors of a space's links; posted with intent "privacy" to the page's action. */
export function SharePrivacyForm({ privacy, canChange }: { privacy: SharePrivacy; canChange: boolean }) {
  return (
    <section aria-labelledby="privacy-heading" className="max-w-2xl space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="privacy-heading" className="text-lg font-semibold text-slate-900">
        Visitor privacy
      </h2>
      <p className="text-sm text-slate-700">What is kept about the people who open these links. New visits follow it at once; stored ones each night.</p>
      <IntentForm intent="privacy" className="space-y-4">
        <fieldset className="space-y-2" disabled={!canChange}>
          <legend className="text-sm font-medium text-slate-900">IP addresses</legend>
          {Object.entries(SHARE_IP_MODE_LABELS).map(([mode, label]) => (
            <label key={mode} className="flex items-center gap-2 text-sm text-slate-900">
              <input type="radio" name="ipMode" value={mode} defaultChecked={privacy.ipMode === mode} /> {label}
            </label>
          ))}
        </fieldset>
        <label className="block space-y-1.5 text-sm">
          <span className="block font-medium text-slate-900">Keep visits for</span>
          <select name="retentionDays" defaultValue={privacy.retentionDays === null ? "" : String(privacy.retentionDays)} disabled={!canChange} className="rounded-md border border-slate-500 bg-white px-3 py-2">
            {SHARE_RETENTION_CHOICES.map((days) => (
              <option key={days} value={days}>
                {days} days
              </option>
            ))}
            <option value="">As long as the link exists</option>
          </select>
        </label>
        {canChange ? <Button type="submit" variant="secondary">Save privacy</Button> : <p className="text-sm text-slate-600">Only the room's managers change this.</p>}
      </IntentForm>
    </section>
  );
}

/** The privacy form's fields as the service's input. */
export function readPrivacyForm(form: FormData) {
  const days = String(form.get("retentionDays") ?? "");
  return { ipMode: form.get("ipMode"), retentionDays: days === "" ? null : Number(days) };
}
