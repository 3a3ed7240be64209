import { useState } from "react";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { showToast } from "~/components/ui/toast";
import { unlockRequest } from "../request-crypto";
import type { KdfParams } from "../secret-crypto";

type Answer = { id: string; ephemeralKey: string; ciphertext: string; createdAt: string };

/** The answers, opened here with the request's passphrase (the private key is unwrapped in this browser only). */
export function RequestAnswers({ keys, answers, at }: { keys: { publicKey: string; wrappedKey: string; kdf: KdfParams }; answers: Answer[]; at: (iso: string) => string }) {
  const [passphrase, setPassphrase] = useState("");
  const [opened, setOpened] = useState<Record<string, string | null> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isWorking, setWorking] = useState(false);

  const onOpen = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setWorking(true);
    const open = await unlockRequest(passphrase, keys);
    if (!open) {
      setWorking(false);
      return setError("That passphrase does not open this request's answers.");
    }
    const texts: Record<string, string | null> = {};
    for (const answer of answers) texts[answer.id] = (await open(answer))?.text ?? null;
    setOpened(texts);
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
        const text = opened[answer.id];
        return (
          <li key={answer.id} className="space-y-2 rounded-md border border-slate-200 bg-white p-3">
            <p className="text-xs text-slate-600">Received {at(answer.createdAt)}</p>
            {text === null || text === undefined ? (
              <p className="text-sm text-red-700">This answer could not be opened: it was not sealed to this request's key.</p>
            ) : (
              <>
                <pre className="whitespace-pre-wrap break-words font-mono text-sm text-slate-900" data-testid="answer-text">
                  {text}
                </pre>
                <Button variant="secondary" size="sm" onClick={() => void navigator.clipboard.writeText(text).then(() => showToast("Copied.", { type: "success" }))}>
                  Copy
                </Button>
              </>
            )}
          </li>
        );
      })}
    </ol>
  );
}
