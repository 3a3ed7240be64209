import { useEffect, useState } from "react";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Textarea } from "~/components/ui/textarea";
import { readCsrfToken } from "~/lib/http";
import { sealAnswer } from "../request-crypto";
import { SECRET_TEXT_MAX_BYTES } from "../secrets.constants";

/** The visitor's answer, sealed here to the request's public key: only the requester can open it, not even us. */
export function AnswerForm({ token, publicKey, requester }: { token: string; publicKey: string; requester: string }) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [state, setState] = useState<"ready" | "sending" | "sent" | "closed">("ready");
  const [isReady, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!text.trim()) return setError("Write the secret first.");
    if (new TextEncoder().encode(text).byteLength > SECRET_TEXT_MAX_BYTES) return setError(`An answer holds at most ${SECRET_TEXT_MAX_BYTES / 1024} KB of text.`);
    setState("sending");
    const sealed = await sealAnswer(publicKey, { text });
    let response: Response;
    try {
      response = await fetch("/api/secret-request-answers", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-TOKEN": readCsrfToken(), "X-Requested-With": "XMLHttpRequest" },
        body: JSON.stringify({ token, ...sealed }),
      });
    } catch {
      setState("ready");
      return setError("The connection failed. Check your network and try again.");
    }
    if (response.ok) {
      setText("");
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
          <Textarea label="Your answer" description="Encrypted in this browser before it is sent." value={text} onChange={(event) => setText(event.target.value)} rows={5} required maxLength={SECRET_TEXT_MAX_BYTES} textareaClassName="font-mono" />
          <Button type="submit" isLoading={state === "sending"}>
            {state === "sending" ? "Encrypting..." : "Send securely"}
          </Button>
        </>
      )}
    </form>
  );
}
