import { Form, Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { listDevMailbox } from "~/features/mail/dev-mailbox.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/mail";

export const meta: Route.MetaFunction = () => titleMeta("Mailbox");
export const headers = () => ({ "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });

/**
 * The development mailbox: every message the `outbox` mail driver stored, newest first. It
 * does not exist in production (404), where the outbox is a delivery queue, not a mailbox.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const to = new URL(request.url).searchParams.get("to")?.trim().toLowerCase() ?? "";
  const messages = await runLoader(() => listDevMailbox(serviceContextFor(context), { to }));
  return { to, messages };
}

const URL_PATTERN = /(https?:\/\/[^\s<>"]+)/g;

/** Plain-text body with its links made clickable (same-tab, so tests and people can follow them). */
function MailText({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <pre className="whitespace-pre-wrap break-words font-sans text-sm text-slate-800">
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="text-brand-700 underline">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </pre>
  );
}

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold text-slate-900">Mailbox</h1>
        <p className="text-sm text-slate-700">
          Development only: messages stored by the <code>outbox</code> mail driver. Nothing here was sent to a real inbox.
        </p>
      </header>
      <Form method="get" className="flex items-end gap-2">
        <Input label="Recipient" name="to" type="email" defaultValue={loaderData.to} className="w-72" />
        <Button type="submit" variant="secondary">
          Filter
        </Button>
        {loaderData.to ? (
          <Link to="/dev/mail" className="px-2 py-2 text-sm text-brand-700 underline">
            Show all
          </Link>
        ) : null}
      </Form>
      {loaderData.messages.length === 0 ? (
        <p className="text-slate-700">No messages yet.</p>
      ) : (
        <ol className="space-y-4">
          {loaderData.messages.map((mail) => (
            <li key={mail.id}>
              <article className="rounded-lg border border-slate-200 bg-white p-4" data-testid="mail-message" aria-label={mail.subject}>
                <header className="mb-3 flex flex-wrap items-center gap-2 text-sm">
                  <h2 className="text-base font-semibold text-slate-900">{mail.subject}</h2>
                  <Badge variant="neutral">{mail.template}</Badge>
                  <span className="text-slate-600">
                    to <span data-testid="mail-to">{mail.to}</span> · {mail.createdAt}
                  </span>
                </header>
                <MailText text={mail.text} />
              </article>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
