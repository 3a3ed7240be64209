import { Form, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";

/** A receive page's password gate: a plain form post; the right password unlocks the page for 12 hours. */
export function ReceivePasswordGate({ failure }: { failure: string | null }) {
  const navigation = useNavigation();
  return (
    <Form method="post" className="space-y-4 rounded-lg border border-slate-300 bg-white p-4" aria-label="Unlock the page">
      <CsrfInput />
      <p className="text-sm text-slate-900">This page is protected by a password. Enter it to send your files.</p>
      {failure ? (
        <Alert variant="error" title="Not unlocked">
          {failure}
        </Alert>
      ) : null}
      <Input label="Password" name="password" type="password" required autoComplete="off" />
      <Button type="submit" isLoading={navigation.state !== "idle"}>
        Continue
      </Button>
    </Form>
  );
}
