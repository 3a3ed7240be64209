import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import type { DraftStep } from "../workflow-draft";

type Props = {
  step: DraftStep;
  number: number;
  folders: { id: string; path: string }[];
  forms: { id: string; title: string }[];
  /** The steps before this one, by name: where a send-back may go. */
  earlier?: string[];
  update: (change: Partial<DraftStep>) => void;
};

/**
 * The fields of a form step, of the automatic steps in the builder (copy, tag, metadata,
 * e-mail, share, webhook) and of a send-back. What the server refuses comes back as the page's error, naming the step.
 */
export function StepKindFields({ step, number, folders, forms, earlier = [], update }: Props) {
  const message = <Textarea label={`Step ${number} message`} description="Optional." value={step.message} onChange={(event) => update({ message: event.target.value })} maxLength={2_000} rows={3} />;
  switch (step.type) {
    case "form":
      return (
        <>
          <label className="block text-sm text-slate-900">
            Step {number}: form to fill in
            <select className={nativeSelectClassName} value={step.formId} onChange={(event) => update({ formId: event.target.value })}>
              {forms.map((form) => (
                <option key={form.id} value={form.id}>
                  {form.title}
                </option>
              ))}
            </select>
          </label>
          <Input
            label={`Step ${number}: who fills it in (e-mail)`}
            description="They need no account. They get the form's link by e-mail; the run goes on once they send their answers."
            type="email"
            value={step.to}
            onChange={(event) => update({ to: event.target.value })}
          />
        </>
      );
    case "copy":
      return (
        <label className="block text-sm text-slate-900">
          Step {number}: copy into
          <select className={nativeSelectClassName} value={step.folderId} onChange={(event) => update({ folderId: event.target.value })}>
            {folders.map((folder) => (
              <option key={folder.id} value={folder.id}>
                {folder.path}
              </option>
            ))}
          </select>
          <span className="mt-1 block text-xs text-slate-600">The copy stays there; the steps after act on the original.</span>
        </label>
      );
    case "tag":
      return <Input label={`Step ${number} tags`} description="Separated by commas. The document keeps the tags it has." value={step.tags} onChange={(event) => update({ tags: event.target.value })} placeholder="contract, signed" />;
    case "metadata":
      return (
        <Textarea
          label={`Step ${number} metadata`}
          description="One field a line, like Status = Approved. A field the document has takes the new value; its other fields stay."
          value={step.entries}
          onChange={(event) => update({ entries: event.target.value })}
          rows={3}
          showCount={false}
        />
      );
    case "email":
      return (
        <>
          <Input label={`Step ${number}: e-mail to`} description="Addresses separated by commas; they need no account. The e-mail names the workflow and the document, never its content." value={step.to} onChange={(event) => update({ to: event.target.value })} />
          <Input label={`Step ${number} subject`} value={step.subject} onChange={(event) => update({ subject: event.target.value })} maxLength={150} />
          {message}
        </>
      );
    case "share":
      return (
        <>
          <Input label={`Step ${number}: share with`} description="Addresses separated by commas. Each gets a link only these addresses can open, after confirming theirs with a code." value={step.to} onChange={(event) => update({ to: event.target.value })} />
          <Input label={`Step ${number}: the link lasts (days)`} description="Leave empty for a link without an end." type="number" min={1} max={365} value={step.expiresInDays} onChange={(event) => update({ expiresInDays: event.target.value })} />
          <Checkbox label={`Step ${number}: allow downloading`} checked={step.allowDownload} onCheckedChange={(checked) => update({ allowDownload: checked === true })} />
          {message}
        </>
      );
    case "webhook":
      return (
        <Input
          label={`Step ${number} address`}
          description="A public https:// address. Each call is signed like a form's webhooks; the secret is on the workflow's page once saved. A receiver that fails is tried again for about half an hour, then the run fails."
          type="url"
          value={step.url}
          onChange={(event) => update({ url: event.target.value })}
          placeholder="https://example.com/hooks/strongroom"
        />
      );
    case "back":
      return (
        <>
          <label className="block text-sm text-slate-900">
            Step {number}: send back to
            <select className={nativeSelectClassName} value={step.backTo} onChange={(event) => update({ backTo: event.target.value })}>
              {earlier.map((name, index) => (
                <option key={index} value={String(index + 1)}>
                  {`Step ${index + 1}: ${name}`}
                </option>
              ))}
            </select>
            <span className="mt-1 block text-xs text-slate-600">The run goes round again from there: new tasks, a new envelope, a new form to fill in. Usually only when rejected, so a rejected draft is revised and reviewed again.</span>
          </label>
          <Input label={`Step ${number}: at most (times)`} description="After that many rounds the run goes on past this step (or ends rejected when nothing follows for the rejected path)." type="number" min={1} max={5} value={step.times} onChange={(event) => update({ times: event.target.value })} />
        </>
      );
    default:
      return null;
  }
}
