import { useState, type FormEvent } from "react";
import { Form, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { HttpError, request, TimeoutError, type RequestOptions } from "~/lib/http";

const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof methods)[number];

/**
 * A playground for the one HTTP client: send a request and watch the global handling
 * (toasts, 401 → /login, 409 → reload, 419 → expiry notice and reload) happen for real.
 */
export function KitHttpSection() {
  const [url, setUrl] = useState("/api/health");
  const [method, setMethod] = useState<Method>("GET");
  const [isBackground, setBackground] = useState(false);
  const [result, setResult] = useState<string>("No request sent yet.");
  const [isSending, setSending] = useState(false);

  async function send(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    try {
      const options: RequestOptions = { method, background: isBackground, body: method === "GET" ? undefined : {} };
      const body = await request(url, options);
      setResult(`Success: ${JSON.stringify(body)}`);
    } catch (error) {
      if (error instanceof HttpError) setResult(`Failed with ${error.status}: ${error.message}`);
      else if (error instanceof TimeoutError) setResult(error.message);
      else setResult("Failed: network error");
    } finally {
      setSending(false);
    }
  }

  function expireCsrfToken() {
    document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.setAttribute("content", "expired-token");
    setResult("The page's CSRF token was replaced by an expired one. Send a POST to see what happens.");
  }

  function throwUncaughtError() {
    setTimeout(() => {
      throw new Error("Kit demonstration of an uncaught error");
    }, 0);
  }

  return (
    <section aria-labelledby="kit-http-heading" className="space-y-4" data-testid="kit-http">
      <h2 id="kit-http-heading" className="text-xl font-semibold text-slate-900">
        HTTP client
      </h2>
      <Card>
        <form onSubmit={(event) => void send(event)} className="flex flex-wrap items-end gap-3">
          <Select
            label="Method"
            className="w-32"
            options={methods.map((value) => ({ value, label: value }))}
            value={method}
            onValueChange={(value) => setMethod(methods.find((m) => m === value) ?? "GET")}
          />
          <Input label="Request URL" className="min-w-64 flex-1" value={url} onChange={(event) => setUrl(event.target.value)} />
          <Checkbox
            label="Background request (30 s timeout)"
            checked={isBackground}
            onCheckedChange={(checked) => setBackground(checked === true)}
          />
          <Button type="submit" isLoading={isSending}>
            Send request
          </Button>
        </form>
      </Card>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={expireCsrfToken}>
          Expire the CSRF token
        </Button>
        <Button variant="secondary" onClick={throwUncaughtError}>
          Throw an uncaught error
        </Button>
      </div>
      <p role="status" data-testid="http-result" className="text-sm text-slate-700">
        {result}
      </p>
      <FlashToastForm />
    </section>
  );
}

/** A real React Router form: the action redirects back here and flashes a toast through a cookie. */
function FlashToastForm() {
  const navigation = useNavigation();
  const isSaving = navigation.state !== "idle" && navigation.formAction === "/ui";
  return (
    <Card>
      <Form method="post" action="/ui" className="flex flex-wrap items-end gap-3">
        <CsrfInput />
        <input type="hidden" name="type" value="success" />
        <Input label="Thing to save" name="thing" defaultValue="Demo item" required />
        <Button type="submit" isLoading={isSaving}>
          Save and redirect
        </Button>
      </Form>
    </Card>
  );
}
