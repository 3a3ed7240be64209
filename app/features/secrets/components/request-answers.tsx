import { useState } from "react";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { showToast } from "~/components/ui/toast";
import { formatBytes } from "~/features/files/files.constants";
import { unlockRequest, type OpenedAnswer } from "../request-crypto";
import type { KdfParams } from "../secret-crypto";
import { exactReader, openSealedFile } from "../secret-files";
import { PREVIEWABLE_PICTURE } from "../secrets.constants";
import { copyText } from "~/components/copy-text";

type Answer = { id: string; ephemeralKey: string; ciphertext: string; createdAt: string; files: { id: string; storedSize: number; isReady: boolean }[] };

/** Fetches an answer file's sealed bytes and opens them here (null when they cannot be fetched or opened). */
async function openAnswerFile(requestId: string, file: Answer["files"][number], opened: OpenedAnswer, index: number): Promise<Blob | null> {
  const meta = opened.files?.[index] ?? { name: `file-${index + 1}`, size: 0, type: "" };
  const response = await fetch(`/api/secret-requests/${requestId}/files/${file.id}`, { credentials: "same-origin" });
  if (!response.ok || !response.body) return null;
  return openSealedFile(exactReader(response.body), file.storedSize, await opened.fileKey(index), meta.type);
}

/** Opens an answer file here and hands the result to the browser as a download. */
async function downloadAnswerFile(requestId: string, file: Answer["files"][number], opened: OpenedAnswer, index: number): Promise<boolean> {
  const blob = await openAnswerFile(requestId, file, opened, index);
  if (!blob) return false;
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = opened.files?.[index]?.name ?? `file-${index + 1}`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return true;
}

/** The answers, opened here with the request's passphrase (the private key is unwrapped in this browser only). */
export function RequestAnswers({ requestId, keys, answers, at }: { requestId: string; keys: { publicKey: string; wrappedKey: string; kdf: KdfParams }; answers: Answer[]; at: (iso: string) => string }) {
  const [passphrase, setPassphrase] = useState("");
  const [opened, setOpened] = useState<Record<string, OpenedAnswer | null> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isWorking, setWorking] = useState(false);
  // Pictures shown here from their opened bytes, by file id.
  const [shown, setShown] = useState<Record<string, string>>({});
  const show = async (file: Answer["files"][number], content: OpenedAnswer, index: number, name: string) => {
    const blob = await openAnswerFile(requestId, file, content, index);
    if (!blob) return showToast(`“${name}” could not be opened.`, { type: "error" });
    setShown((before) => ({ ...before, [file.id]: URL.createObjectURL(blob) }));
  };

  const onOpen = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setWorking(true);
    const open = await unlockRequest(passphrase, keys);
    if (!open) {
      setWorking(false);
      return setError("That passphrase does not open this request's answers.");
    }
    const all: Record<string, OpenedAnswer | null> = {};
    for (const answer of answers) all[answer.id] = await open(answer);
    setOpened(all);
    setPassphrase("");
    setWorking(false);
  };

  if (answers.length === 0) return <p className="text-sm text-slate-700">No answer yet. You will be notified when one arrives.</p>;
  if (!opened) {
    return (
      <form onSubmit={(event) => void onOpen(event)} className="max-w-md space-y-3" noValidate>
        {error ? <Alert variant="error">{error}</Alert> : null}
        <Input label="Passphrase" type="password" autoComplete="current-password" value={passphrase} onChange={(event) => setPassphrase(event.target.value)} description="The one you chose for this request. The answers are opened in this browser." />
        <Button type="submit" isLoading={isWorking}>
          {isWorking ? "Opening..." : `Open ${answers.length} answer${answers.length === 1 ? "" : "s"}`}
        </Button>
      </form>
    );
  }
  return (
    <ol className="space-y-4" data-testid="request-answers">
      {answers.map((answer) => {
        const content = opened[answer.id];
        return (
          <li key={answer.id} className="space-y-2 rounded-md border border-slate-200 bg-white p-3">
            <p className="text-xs text-slate-600">Received {at(answer.createdAt)}</p>
            {!content ? (
              <p className="text-sm text-red-700">This answer could not be opened: it was not sealed to this request's key.</p>
            ) : (
              <>
                {content.text ? (
                  <>
                    <pre className="whitespace-pre-wrap break-words font-mono text-sm text-slate-900" data-testid="answer-text">
                      {content.text}
                    </pre>
                    <Button variant="secondary" size="sm" onClick={() => copyText(content.text, "Answer")}>
                      Copy
                    </Button>
                  </>
                ) : null}
                {answer.files.length > 0 ? (
                  <ul className="space-y-1" data-testid="answer-files">
                    {answer.files.map((file, index) => {
                      const meta = content.files?.[index];
                      const name = meta?.name ?? `file ${index + 1}`;
                      return (
                        <li key={file.id} className="flex flex-wrap items-center gap-2 text-sm">
                          {file.isReady ? (
                            <Button
                              variant="secondary"
                              size="sm"
                              onClick={() => void downloadAnswerFile(requestId, file, content, index).then((isDone) => (isDone ? undefined : showToast(`“${name}” could not be downloaded or opened.`, { type: "error" })))}
                            >
                              Download {name}
                            </Button>
                          ) : (
                            <span className="text-slate-700">{name}: still being uploaded</span>
                          )}
                          {meta ? <span className="text-slate-600">({formatBytes(meta.size)})</span> : null}
                          {file.isReady && meta && PREVIEWABLE_PICTURE.test(meta.type) && !shown[file.id] ? (
                            <Button variant="ghost" size="sm" onClick={() => void show(file, content, index, name)}>
                              Show {name}
                            </Button>
                          ) : null}
                          {shown[file.id] ? <img src={shown[file.id]} alt={`Preview of ${name}`} className="mt-1 block max-h-80 max-w-full basis-full rounded-md border border-slate-200" /> : null}
                        </li>
                      );
                    })}
                  </ul>
                ) : null}
              </>
            )}
          </li>
        );
      })}
    </ol>
  );
}
