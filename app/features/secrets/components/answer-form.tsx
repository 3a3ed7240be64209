import { useState } from "react";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Textarea } from "~/components/ui/textarea";
import { readCsrfToken } from "~/lib/http";
import { useHydrated } from "~/lib/use-hydrated";
import { sealAnswer } from "../request-crypto";
import { sealedFileSize } from "../secret-files";
import { uploadSealedFile } from "../secret-upload";
import { SealedFilesInput } from "./sealed-files-input";
import { fileLimitLabel, SECRET_FILES_MAX, SECRET_TEXT_MAX_BYTES } from "../secrets.constants";

/** The visitor's answer, sealed here to the request's public key: only the requester can open it, not even us. */
export function AnswerForm({ token, publicKey, requester, maxFileMb }: { token: string; publicKey: string; requester: string; maxFileMb: number }) {
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [state, setState] = useState<"ready" | "sending" | "sent" | "closed">("ready");
  const isReady = useHydrated();

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!text.trim() && files.length === 0) return setError("Write the secret or attach a file.");
    if (files.length > SECRET_FILES_MAX) return setError(`At most ${SECRET_FILES_MAX} files.`);
    const tooLarge = files.find((file) => file.size > maxFileMb * 1024 * 1024);
    if (tooLarge) return setError(`“${tooLarge.name}” is larger than this request accepts (${fileLimitLabel(maxFileMb)} a file).`);
    if (new TextEncoder().encode(text).byteLength > SECRET_TEXT_MAX_BYTES) return setError(`An answer holds at most ${SECRET_TEXT_MAX_BYTES / 1024} KB of text.`);
    setState("sending");
    const sealed = await sealAnswer(publicKey, files.length > 0 ? { text, files: files.map((file) => ({ name: file.name, size: file.size, type: file.type })) } : { text });
    let response: Response;
    try {
      response = await fetch("/api/secret-request-answers", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-TOKEN": readCsrfToken(), "X-Requested-With": "XMLHttpRequest" },
        body: JSON.stringify({ token, ephemeralKey: sealed.ephemeralKey, ciphertext: sealed.ciphertext, size: sealed.size, files: files.map((file) => ({ storedSize: sealedFileSize(file.size) })) }),
      });
    } catch {
      setState("ready");
      return setError("The connection failed. Check your network and try again.");
    }
    if (response.ok) {
      const grants = ((await response.json().catch(() => ({}))) as { files?: { id: string; uploadToken: string }[] }).files ?? [];
      try {
        for (const [index, file] of files.entries()) {
          const grant = grants[index];
          if (!grant) throw new Error("no grant");
          await uploadSealedFile(file, grant.id, await sealed.fileKey(index), (sent, total) => setProgress(`Encrypting and uploading “${file.name}”: ${Math.floor((sent / Math.max(1, total)) * 100)} %`), grant.uploadToken);
        }
      } catch {
        setProgress(null);
        setState("ready");
        return setError("A file could not be uploaded. Check your connection and send the answer again.");
      }
      setProgress(null);
      setText("");
      setFiles([]);
      return setState("sent");
    }
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    setState(response.status === 410 || response.status === 404 ? "closed" : "ready");
    setError(body.message ?? `The server answered ${response.status}. Try again.`);
  };

  if (state === "sent") {
    return (
      <Alert variant="success" title="Sent">
        Your answer was encrypted in this browser and sent. Only {requester || "the requester"} can open it.
      </Alert>
    );
  }
  return (
    <form onSubmit={(event) => void onSubmit(event)} className="space-y-4" noValidate data-ready={isReady || undefined} data-testid="answer-form">
      {error ? <Alert variant="error">{error}</Alert> : null}
      {state === "closed" ? null : (
        <>
          <Textarea label="Your answer" description="Encrypted in this browser before it is sent." value={text} onChange={(event) => setText(event.target.value)} rows={5} maxLength={SECRET_TEXT_MAX_BYTES} textareaClassName="font-mono" />
          <SealedFilesInput files={files} onChange={setFiles} maxFileMb={maxFileMb} />
          {progress ? (
            <p className="text-sm text-slate-700" role="status">
              {progress}
            </p>
          ) : null}
          <Button type="submit" isLoading={state === "sending"}>
            {state === "sending" ? "Encrypting..." : "Send securely"}
          </Button>
        </>
      )}
    </form>
  );
}
