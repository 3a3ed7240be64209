import { useState } from "react";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { http, HttpError } from "~/lib/http";
import { newRequestKeys } from "../request-crypto";
import { expiryLabel, SECRET_EXPIRY_CHOICES } from "../secrets.constants";

export const REQUEST_PASSPHRASE_MIN = 10;

/**
 * "Request a secret": the key pair is made here, and the private key is wrapped with the
 * passphrase before anything is sent. The passphrase is what opens the answers later, on any
 * device: we cannot recover it.
 */
export function RequestForm({ maxExpiryHours }: { maxExpiryHours: number }) {
  const [message, setMessage] = useState("");
  const [label, setLabel] = useState("");
  const [passphrase, setPassphrase] = useState("");
  const [again, setAgain] = useState("");
  const [expiresInHours, setExpiresInHours] = useState(Math.min(7 * 24, maxExpiryHours));
  const [maxResponses, setMaxResponses] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [isWorking, setWorking] = useState(false);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!message.trim()) return setError("Say what you are asking for.");
    if (passphrase.length < REQUEST_PASSPHRASE_MIN) return setError(`Choose a passphrase of at least ${REQUEST_PASSPHRASE_MIN} characters: it is the only way to open the answers.`);
    if (passphrase !== again) return setError("The two passphrases differ.");
    setWorking(true);
    try {
      const keys = await newRequestKeys(passphrase);
      const created = await http.post<{ request: { id: string } }>("/api/secret-requests", { message, label, ...keys, expiresInHours, maxResponses }, { handleErrors: false });
      window.location.assign(`/secrets/requests/${created.request.id}`);
    } catch (failure) {
      setError(failure instanceof HttpError ? failure.message : "The request could not be made in this browser. Try another browser.");
      setWorking(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="max-w-2xl space-y-5" noValidate>
      {error ? <Alert variant="error">{error}</Alert> : null}
      <Textarea label="What are you asking for?" description="Shown to whoever opens the link (not encrypted)." value={message} onChange={(event) => setMessage(event.target.value)} rows={3} maxLength={500} required />
      <Input label="Label (optional)" value={label} onChange={(event) => setLabel(event.target.value)} maxLength={120} description="Only you see it, in your list." />
      <div className="grid gap-4 sm:grid-cols-2">
        <Input label="Passphrase" type="password" autoComplete="new-password" value={passphrase} onChange={(event) => setPassphrase(event.target.value)} required description={`At least ${REQUEST_PASSPHRASE_MIN} characters. It opens the answers; we cannot recover it.`} />
        <Input label="Passphrase again" type="password" autoComplete="new-password" value={again} onChange={(event) => setAgain(event.target.value)} required />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="block text-sm font-medium text-slate-900">
          Open for
          <select className={nativeSelectClassName} value={expiresInHours} onChange={(event) => setExpiresInHours(Number(event.target.value))}>
            {SECRET_EXPIRY_CHOICES.filter((hours) => hours <= maxExpiryHours).map((hours) => (
              <option key={hours} value={hours}>
                {expiryLabel(hours)}
              </option>
            ))}
          </select>
        </label>
        <Input label="Answers" type="number" min={1} max={20} value={maxResponses} onChange={(event) => setMaxResponses(Math.max(1, Math.min(20, Number(event.target.value) || 1)))} description="It closes after this many." />
      </div>
      <Button type="submit" isLoading={isWorking}>
        {isWorking ? "Making the keys..." : "Create request"}
      </Button>
    </form>
  );
}
