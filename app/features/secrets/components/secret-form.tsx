import { useState } from "react";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClassName } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { http, HttpError } from "~/lib/http";
import { secretLink, sealNewSecret } from "../secret-client";
import { uploadSealedFile } from "../secret-upload";
import { SealedFilesInput } from "./sealed-files-input";
import { expiryLabel, fileLimitLabel, SECRET_EXPIRY_CHOICES, SECRET_FILES_MAX, SECRET_MAX_VIEWS, SECRET_TEXT_MAX_BYTES } from "../secrets.constants";
import { copyText } from "~/components/copy-text";

type Created = { secret: { id: string }; token: string; files: { id: string }[] };

/**
 * "New secret": the text is sealed here, in the browser, before anything is sent; the server gets
 * the ciphertext and a proof, never the key (which goes into the link after #) nor the passphrase.
 * The link is shown once: nobody, not even us, can show it again.
 */
export function SecretForm({ maxExpiryHours, maxFileMb }: { maxExpiryHours: number; maxFileMb: number }) {
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [passphrase, setPassphrase] = useState("");
  const [expiresInHours, setExpiresInHours] = useState(Math.min(24, maxExpiryHours));
  const [maxViews, setMaxViews] = useState(1);
  const [label, setLabel] = useState("");
  const [stage, setStage] = useState<"idle" | "sealing" | "sending" | "uploading">("idle");
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ id: string; link: string } | null>(null);
  const choices = SECRET_EXPIRY_CHOICES.filter((hours) => hours <= maxExpiryHours);
  const bytes = new TextEncoder().encode(text).byteLength;

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!text.trim() && files.length === 0) return setError("Write the secret or attach a file.");
    if (files.length > SECRET_FILES_MAX) return setError(`A secret carries at most ${SECRET_FILES_MAX} files.`);
    const tooLarge = files.find((file) => file.size > maxFileMb * 1024 * 1024);
    if (tooLarge) return setError(`“${tooLarge.name}” is larger than your plan allows (${fileLimitLabel(maxFileMb)} a file).`);
    if (bytes > SECRET_TEXT_MAX_BYTES) return setError(`A secret holds at most ${SECRET_TEXT_MAX_BYTES / 1024} KB of text.`);
    setStage("sealing");
    try {
      const sealed = await sealNewSecret({ text, passphrase, expiresInHours, maxViews, label, files });
      setStage("sending");
      const answer = await http.post<Created>("/api/secrets", sealed.body, { handleErrors: false });
      // Each file sealed part by part on its way; the link works once all are in.
      setStage("uploading");
      for (const [index, file] of files.entries()) {
        await uploadSealedFile(file, answer.files[index]!.id, await sealed.fileKey(index), (sent, total) => setProgress(`Encrypting and uploading “${file.name}”: ${Math.floor((sent / Math.max(1, total)) * 100)} %`));
      }
      setProgress(null);
      setCreated({ id: answer.secret.id, link: secretLink(window.location.origin, answer.token, sealed.linkKey) });
      setText("");
      setPassphrase("");
      setFiles([]);
    } catch (failure) {
      setProgress(null);
      setError(failure instanceof HttpError ? failure.message : failure instanceof Error && /tus|response|request/i.test(failure.message) ? "A file could not be uploaded. Check your connection and create the secret again." : "The secret could not be sealed in this browser. Try another browser.");
    } finally {
      setStage("idle");
    }
  };

  if (created) {
    const copy = () => copyText(created.link, "Link");
    return (
      <section aria-labelledby="link-heading" className="space-y-4 rounded-lg border border-emerald-200 bg-emerald-50 p-4" data-testid="secret-created">
        <h2 id="link-heading" className="text-lg font-semibold text-slate-900">
          Your secret's link
        </h2>
        <input readOnly value={created.link} aria-label="Secret link" onFocus={(event) => event.currentTarget.select()} className="block w-full rounded-md border border-slate-500 bg-white px-3 py-2 font-mono text-sm" data-testid="secret-link" />
        <p className="text-sm text-slate-800">
          Copy it now: this is the only time it is shown. The part after # is the key; it never reaches our servers, so nobody can show you this link again. Send the passphrase, if you set one, another way.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button onClick={copy}>Copy link</Button>
          <a href={`/secrets/${created.id}`} className={buttonClassName({ variant: "secondary" })}>
            See its receipt
          </a>
          <Button variant="ghost" onClick={() => setCreated(null)}>
            Create another
          </Button>
        </div>
      </section>
    );
  }

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="max-w-2xl space-y-5" noValidate>
      {error ? <Alert variant="error">{error}</Alert> : null}
      <Textarea label="Secret" description="A password, an API key, a note. It is encrypted in this browser before it is sent." value={text} onChange={(event) => setText(event.target.value)} rows={6} maxLength={SECRET_TEXT_MAX_BYTES} textareaClassName="font-mono" />
      <SealedFilesInput files={files} onChange={setFiles} maxFileMb={maxFileMb} />
      <Input
        label="Passphrase (optional)"
        type="password"
        autoComplete="new-password"
        description="Needed to open it, on top of the link. Tell it to the recipient another way (by phone, say)."
        value={passphrase}
        onChange={(event) => setPassphrase(event.target.value)}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="block text-sm font-medium text-slate-900">
          Expires after
          <select className={nativeSelectClassName} value={expiresInHours} onChange={(event) => setExpiresInHours(Number(event.target.value))}>
            {choices.map((hours) => (
              <option key={hours} value={hours}>
                {expiryLabel(hours)}
              </option>
            ))}
          </select>
        </label>
        <Input
          label="Views"
          type="number"
          min={1}
          max={SECRET_MAX_VIEWS}
          value={maxViews}
          onChange={(event) => setMaxViews(Math.max(1, Math.min(SECRET_MAX_VIEWS, Number(event.target.value) || 1)))}
          description="1 = deleted after the first reading."
        />
      </div>
      <Input label="Label (optional)" value={label} onChange={(event) => setLabel(event.target.value)} maxLength={120} description="Only you see it, in your list. It is not encrypted: don't put the secret here." />
      {progress ? (
        <p className="text-sm text-slate-700" role="status">
          {progress}
        </p>
      ) : null}
      <Button type="submit" isLoading={stage !== "idle"}>
        {stage === "sealing" ? (passphrase ? "Deriving the key from the passphrase..." : "Encrypting...") : stage === "sending" ? "Saving..." : stage === "uploading" ? "Uploading..." : "Create secret"}
      </Button>
    </form>
  );
}
