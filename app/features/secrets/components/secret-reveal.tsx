import { useEffect, useState } from "react";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { readCsrfToken } from "~/lib/http";
import { formatBytes } from "~/features/files/files.constants";
import { revealKeys } from "../secret-client";
import { exactReader, openSealedFile } from "../secret-files";
import { PREVIEWABLE_PICTURE, REVEAL_STREAM_TYPE } from "../secrets.constants";
import type { KdfParams } from "../secret-crypto";
import { copyText } from "~/components/copy-text";

type State =
  | { kind: "ready" }
  | { kind: "working"; progress: number | null }
  | { kind: "shown"; text: string; viewsLeft: number; files: { name: string; size: number; type: string; url: string }[] }
  | { kind: "ended"; message: string };

/**
 * The visitor's side of a secret: nothing is fetched until "Reveal secret" is pressed (so link
 * previews in chat and mail use no view). Then the proof is derived here from the link's #key
 * (and the passphrase), sent, and the ciphertext that comes back is opened here. The key is taken
 * out of the address bar once the secret is shown.
 */
export function SecretReveal({ token, kdf, viewsLeft, files, isUploading }: { token: string; kdf: KdfParams | null; viewsLeft: number; files: number; isUploading: boolean }) {
  const [state, setState] = useState<State>({ kind: "ready" });
  const [passphrase, setPassphrase] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [hasKey, setHasKey] = useState(true);
  // Hydrated: the form's controls are React's now (tests and people type after this).
  const [isReady, setReady] = useState(false);
  useEffect(() => {
    setHasKey(/^#[A-Za-z0-9_-]{43}$/.test(window.location.hash));
    setReady(true);
  }, []);

  const reveal = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    if (kdf && !passphrase) return setError("Enter the passphrase the sender gave you.");
    setState({ kind: "working", progress: kdf ? 0 : null });
    const keys = await revealKeys(window.location.hash, passphrase, kdf, (progress) => setState({ kind: "working", progress }));
    if (!keys) {
      setState({ kind: "ready" });
      return setError("This link is incomplete: the key after # is missing or cut off. Ask the sender for the whole link.");
    }
    let response: Response;
    try {
      response = await fetch("/api/secret-reveals", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-TOKEN": readCsrfToken(), "X-Requested-With": "XMLHttpRequest" },
        body: JSON.stringify({ token, proof: keys.proof }),
      });
    } catch {
      setState({ kind: "ready" });
      return setError("The connection failed. Check your network and try again: no view was used.");
    }
    if (response.ok && response.body && (response.headers.get("content-type") ?? "").startsWith(REVEAL_STREAM_TYPE)) {
      // A header, then each sealed file: opened segment by segment as it arrives.
      const read = exactReader(response.body);
      const headLength = await read(4);
      const head = headLength ? await read(new DataView(headLength.buffer).getUint32(0)) : null;
      const header = head ? (JSON.parse(new TextDecoder().decode(head)) as { ciphertext: string; viewsLeft: number; files: { storedSize: number }[] }) : null;
      const opened = header ? await keys.open(header.ciphertext) : null;
      if (!header || !opened) return setState({ kind: "ended", message: "The secret arrived but could not be opened with this link's key." });
      const files: { name: string; size: number; type: string; url: string }[] = [];
      for (const [index, sealed] of header.files.entries()) {
        const meta = opened.files?.[index] ?? { name: `file-${index + 1}`, size: 0, type: "" };
        setState({ kind: "working", progress: null });
        const blob = await openSealedFile(read, sealed.storedSize, await keys.fileKey(index), meta.type);
        if (!blob) return setState({ kind: "ended", message: `“${meta.name}” arrived damaged and could not be opened.` });
        files.push({ name: meta.name, size: blob.size, type: blob.type, url: URL.createObjectURL(blob) });
      }
      history.replaceState(null, "", window.location.pathname);
      return setState({ kind: "shown", text: opened.text, viewsLeft: header.viewsLeft, files });
    }
    const body = (await response.json().catch(() => ({}))) as { ciphertext?: string; viewsLeft?: number; message?: string };
    if (response.ok && body.ciphertext) {
      const opened = await keys.open(body.ciphertext);
      if (!opened) return setState({ kind: "ended", message: "The secret arrived but could not be opened with this link's key." });
      history.replaceState(null, "", window.location.pathname);
      return setState({ kind: "shown", text: opened.text, viewsLeft: body.viewsLeft ?? 0, files: [] });
    }
    if (response.status === 410 || response.status === 404) return setState({ kind: "ended", message: body.message ?? "This secret can no longer be viewed." });
    setState({ kind: "ready" });
    setError(body.message ?? `The server answered ${response.status}. Try again.`);
  };

  if (state.kind === "shown") {
    const copy = () => copyText(state.text, "Secret");
    return (
      <section aria-labelledby="secret-heading" className="space-y-3" data-testid="secret-shown">
        <h2 id="secret-heading" className="text-lg font-semibold text-slate-900">
          The secret
        </h2>
        {state.text ? (
          <>
            <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-sm text-slate-900" data-testid="secret-text">
              {state.text}
            </pre>
            <Button variant="secondary" onClick={copy}>
              Copy
            </Button>
          </>
        ) : null}
        {state.files.length > 0 ? (
          <ul className="space-y-1" data-testid="secret-files">
            {state.files.map((file) => (
              <li key={file.url}>
                <a href={file.url} download={file.name} className="font-medium text-brand-700 underline underline-offset-2">
                  Download {file.name}
                </a>{" "}
                <span className="text-sm text-slate-600">({formatBytes(file.size)})</span>
                {/* Opened here, never on the server: a picture is shown from its opened bytes (no SVG: it is a document, not a picture). */}
                {PREVIEWABLE_PICTURE.test(file.type) ? <img src={file.url} alt={`Preview of ${file.name}`} className="mt-2 max-h-80 max-w-full rounded-md border border-slate-200" /> : null}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="text-sm text-slate-700">
          {state.viewsLeft === 0
            ? "This was its last view: it has been deleted from our servers. Copy it now; reloading the page will not show it again."
            : `It can be viewed ${state.viewsLeft} more time${state.viewsLeft === 1 ? "" : "s"}.`}
        </p>
      </section>
    );
  }
  if (state.kind === "ended") return <Alert variant="error">{state.message}</Alert>;

  return (
    <form onSubmit={(event) => void reveal(event)} className="space-y-4" noValidate data-ready={isReady || undefined} data-testid="secret-reveal">
      {!hasKey ? <Alert variant="warning">This link has no key after #, so the secret cannot be opened. Ask the sender for the whole link.</Alert> : null}
      {error ? <Alert variant="error">{error}</Alert> : null}
      {kdf ? <Input label="Passphrase" type="password" autoComplete="off" value={passphrase} onChange={(event) => setPassphrase(event.target.value)} description="The sender gave it to you separately." /> : null}
      {isUploading ? <Alert variant="info">The sender is still uploading this secret's files. Reveal it in a moment.</Alert> : null}
      <p className="text-sm text-slate-700">
        {files > 0 ? `It has ${files} file${files === 1 ? "" : "s"}. ` : ""}Revealing uses one of its {viewsLeft} remaining view{viewsLeft === 1 ? "" : "s"}.
      </p>
      <Button type="submit" isLoading={state.kind === "working"} disabled={!hasKey}>
        {state.kind === "working" ? (state.progress !== null && state.progress < 1 ? `Checking the passphrase... ${Math.round(state.progress * 100)} %` : "Opening...") : "Reveal secret"}
      </Button>
    </form>
  );
}
