import { useState, type FormEvent } from "react";
import { buttonClassName } from "~/components/ui/button";
import { http } from "~/lib/http";
import { CaseTypeSelect } from "~/features/cases/components/case-type-select";

/**
 * A form's public settings (issue 37): open or closed, a closing time, a maximum number of
 * submissions, the thank-you message or a redirect. They apply at once to the published form
 * (they are not part of a version).
 */

export type FormSettings = { isOpen: boolean; closesAt: string | null; maxSubmissions: number | null; thankYouMessage: string; redirectUrl: string | null; hasPassword: boolean; embedOrigins: string[]; fileFolderId: string | null; caseTypeId: string | null; filesPerSubmission: boolean; verifyEmail: boolean };
/** A folder the member may upload into (theirs or a room's). */
export type FileTarget = { uid: string; label: string; spaceName: string };

const label = "block text-sm font-medium text-slate-900";
const input = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600";

export function FormSettingsPanel({
  formId,
  settings,
  fileTargets,
  asksForFiles,
  caseTypeChoices = [],
}: {
  formId: string;
  settings: FormSettings;
  fileTargets: FileTarget[];
  asksForFiles: boolean;
  /** The member's case types (Business): each submission may open a case of one. */
  caseTypeChoices?: readonly { id: string; name: string }[];
}) {
  const [state, setState] = useState<{ kind: "idle" | "saving" | "saved" | "error"; message?: string }>({ kind: "idle" });
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const closes = text("closesAt");
    setState({ kind: "saving" });
    try {
      await http.patch(
        `/api/forms/${formId}/settings`,
        {
          isOpen: form.get("isOpen") === "on",
          // <input type="datetime-local"> is read as UTC (the label says so).
          closesAt: closes ? new Date(`${closes}Z`).toISOString() : null,
          maxSubmissions: text("maxSubmissions") ? Number(text("maxSubmissions")) : null,
          thankYouMessage: text("thankYouMessage"),
          redirectUrl: text("redirectUrl") || null,
          embedOrigins: text("embedOrigins").split(/[\s,]+/).filter(Boolean),
          fileFolderId: text("fileFolderId") || null,
          ...(form.has("caseTypeId") ? { caseTypeId: text("caseTypeId") || null } : {}),
          filesPerSubmission: form.get("filesPerSubmission") === "on",
          verifyEmail: form.get("verifyEmail") === "on",
          // Left empty: the password stays as it is, unless "remove" is ticked.
          ...(form.get("removePassword") === "on" ? { password: null } : text("password") ? { password: text("password") } : {}),
        },
        { handleErrors: false },
      );
      setState({ kind: "saved" });
    } catch (error) {
      setState({ kind: "error", message: error instanceof Error ? error.message : "The settings could not be saved." });
    }
  };
  return (
    <form className="space-y-4" onSubmit={(event) => void onSubmit(event)} data-testid="form-settings">
      <label className="flex items-center gap-2 text-sm text-slate-900">
        <input type="checkbox" name="isOpen" defaultChecked={settings.isOpen} className="h-4 w-4" />
        Open: the published form takes answers
      </label>
      <label className="flex items-start gap-2 text-sm text-slate-900">
        <input type="checkbox" name="verifyEmail" defaultChecked={settings.verifyEmail} className="mt-0.5 h-4 w-4" />
        <span>
          One submission per e-mail address: visitors confirm theirs with a code we e-mail them, and the address is kept with their answers
        </span>
      </label>
      <div>
        <label htmlFor="closesAt" className={label}>
          Closes at (UTC, optional)
        </label>
        <input id="closesAt" name="closesAt" type="datetime-local" defaultValue={settings.closesAt?.slice(0, 16) ?? ""} className={input} />
      </div>
      <div>
        <label htmlFor="maxSubmissions" className={label}>
          Most submissions (optional)
        </label>
        <input id="maxSubmissions" name="maxSubmissions" inputMode="numeric" defaultValue={settings.maxSubmissions ?? ""} className={input} />
      </div>
      <div>
        <label htmlFor="thankYouMessage" className={label}>
          Thank-you message
        </label>
        <textarea id="thankYouMessage" name="thankYouMessage" rows={3} defaultValue={settings.thankYouMessage} className={input} />
      </div>
      <div>
        <label htmlFor="redirectUrl" className={label}>
          Or send people to this address afterwards (https://…)
        </label>
        <input id="redirectUrl" name="redirectUrl" type="url" defaultValue={settings.redirectUrl ?? ""} className={input} />
      </div>
      <div>
        <label htmlFor="fileFolderId" className={label}>
          Files go to{asksForFiles ? "" : " (for file questions)"}
        </label>
        <select id="fileFolderId" name="fileFolderId" defaultValue={settings.fileFolderId ?? ""} className={input} aria-describedby="fileFolderId-help">
          <option value="">Choose a folder…</option>
          {fileTargets.map((target) => (
            <option key={target.uid} value={target.uid}>
              {target.spaceName}: {target.label}
            </option>
          ))}
        </select>
        <p id="fileFolderId-help" className="mt-1 text-xs text-slate-600">
          A folder of yours or of a data room. Files count against its storage; in a room, each arrival is in the room's audit log.
        </p>
        <CaseTypeSelect
          choices={caseTypeChoices}
          value={settings.caseTypeId}
          className={`${label} mt-3`}
          help="The case's fields take the answers to questions of the same label; its files go into the case file; the respondent takes part. It opens where the files go: your own files, or a data room you manage (then the case lives in the room)."
        />
        <label className="mt-2 flex items-center gap-2 text-sm text-slate-900">
          <input type="checkbox" name="filesPerSubmission" defaultChecked={settings.filesPerSubmission} className="h-4 w-4" />
          A folder per submission (named after the person when the form asks their name or e-mail)
        </label>
      </div>
      <div>
        <label htmlFor="embedOrigins" className={label}>
          Sites that may embed shared submissions (https origins, one per line)
        </label>
        <textarea id="embedOrigins" name="embedOrigins" rows={2} defaultValue={settings.embedOrigins.join("\n")} placeholder="https://portal.example.com" className={input} />
      </div>
      <div>
        <label htmlFor="password" className={label}>
          {settings.hasPassword ? "New password (leave empty to keep the current one)" : "Password visitors must enter (optional, 6 characters or more)"}
        </label>
        <input id="password" name="password" type="password" autoComplete="new-password" className={input} />
        {settings.hasPassword ? (
          <label className="mt-2 flex items-center gap-2 text-sm text-slate-900">
            <input type="checkbox" name="removePassword" className="h-4 w-4" />
            Remove the password
          </label>
        ) : null}
      </div>
      <div className="flex items-center gap-3">
        <button type="submit" className={buttonClassName()} disabled={state.kind === "saving"}>
          Save settings
        </button>
        <p role="status" className={state.kind === "error" ? "text-sm font-medium text-red-700" : "text-sm text-slate-700"}>
          {state.kind === "saved" ? "Settings saved." : state.kind === "error" ? state.message : ""}
        </p>
      </div>
    </form>
  );
}
