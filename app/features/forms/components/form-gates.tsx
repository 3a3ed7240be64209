import { CsrfInput } from "~/components/csrf-input";
import { FormThanks } from "./form-thanks";

/**
 * The steps before a public form (issue 37), plain HTML forms that post to the page (no JavaScript
 * needed), loaded with the form's chunk (off the page's first load, G5): the password, and for a
 * form that takes one submission per verified address the e-mail step (the visitor gives their
 * address, gets a 6-digit code by e-mail, enters it) and, once confirmed, "answering as".
 */

export type FormGateProps = ({ gate: "password" } & PasswordGateProps) | ({ gate: "email" } & FormEmailGateProps) | { gate: "answering-as"; email: string };

export function FormGate(props: FormGateProps) {
  if (props.gate === "password") return <FormPasswordGate {...props} />;
  if (props.gate === "email") return <FormEmailGate {...props} />;
  return <AnsweringAs email={props.email} />;
}

type PasswordGateProps = { title: string; ownerName: string; refused: string | null };

function FormPasswordGate({ title, ownerName, refused }: PasswordGateProps) {
  return (
    <div className="mx-auto max-w-md space-y-4" data-testid="form-password">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <p className="text-sm text-slate-700">{ownerName} protected this form with a password. Enter it to fill the form in.</p>
      <form method="post" className="space-y-3">
        <CsrfInput />
        <input type="hidden" name="_intent" value="unlock" />
        <label htmlFor="form-password-input" className="block text-sm font-medium text-slate-900">
          Password
        </label>
        <input id="form-password-input" name="password" type="password" autoComplete="current-password" required aria-invalid={refused ? true : undefined} aria-describedby={refused ? "form-password-error" : undefined} className={inputClass} />
        {refused ? (
          <p id="form-password-error" role="alert" className="text-sm font-medium text-red-700">
            {refused}
          </p>
        ) : null}
        <button type="submit" className={buttonClass}>
          Open the form
        </button>
      </form>
    </div>
  );
}

function AnsweringAs({ email }: { email: string }) {
  return (
    <form method="post" className="flex flex-wrap items-center gap-2 text-xs text-slate-700" data-testid="form-verified-email">
      <CsrfInput />
      <input type="hidden" name="_intent" value="email-change" />
      <span>
        Answering as <strong>{email}</strong> (confirmed).
      </span>
      <button type="submit" className="font-medium text-brand-700 underline">
        Use another address
      </button>
    </form>
  );
}

type FormEmailGateProps = {
  title: string;
  ownerName: string;
  pendingEmail: string | null;
  answered: string | null;
  refused: string | null;
  /** The answers just went in (the page reloads after a post without JavaScript): the thank-you message. */
  thanks: string | null;
};

const inputClass = "block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 sm:text-sm";
const buttonClass = "inline-flex h-10 items-center justify-center rounded-md bg-brand-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";
const linkClass = "text-sm font-medium text-brand-700 underline";

function FormEmailGate({ title, ownerName, pendingEmail, answered, refused, thanks }: FormEmailGateProps) {
  if (thanks !== null) {
    return (
      <div className="mx-auto max-w-2xl space-y-4">
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
        <FormThanks message={thanks} />
      </div>
    );
  }
  const error = refused ? (
    <p id="form-email-error" role="alert" className="text-sm font-medium text-red-700">
      {refused}
    </p>
  ) : null;
  return (
    <div className="mx-auto max-w-md space-y-4" data-testid="form-email-gate">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      {pendingEmail ? (
        <>
          <p className="text-sm text-slate-700">
            We sent a 6-digit code to <strong>{pendingEmail}</strong>. Enter it to open the form (it works for 10 minutes).
          </p>
          <form method="post" className="space-y-3">
            <CsrfInput />
            <input type="hidden" name="_intent" value="email-verify" />
            <label htmlFor="form-email-code" className="block text-sm font-medium text-slate-900">
              Code from the e-mail
            </label>
            <input id="form-email-code" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required aria-invalid={refused ? true : undefined} aria-describedby={refused ? "form-email-error" : undefined} className={inputClass} />
            {error}
            <button type="submit" className={buttonClass}>
              Confirm
            </button>
          </form>
          <div className="flex flex-wrap gap-4">
            <form method="post">
              <CsrfInput />
              <input type="hidden" name="_intent" value="email-code" />
              <input type="hidden" name="email" value={pendingEmail} />
              <button type="submit" className={linkClass}>
                Send a new code
              </button>
            </form>
            <form method="post">
              <CsrfInput />
              <input type="hidden" name="_intent" value="email-change" />
              <button type="submit" className={linkClass}>
                Use another address
              </button>
            </form>
          </div>
        </>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            {ownerName} takes one answer per e-mail address on this form. Enter yours: we send it a code to confirm it is yours.
          </p>
          {answered ? (
            <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
              {answered} has already answered this form. Ask {ownerName} if you need to change your answers.
            </p>
          ) : null}
          <form method="post" className="space-y-3">
            <CsrfInput />
            <input type="hidden" name="_intent" value="email-code" />
            <label htmlFor="form-email-address" className="block text-sm font-medium text-slate-900">
              Your e-mail address
            </label>
            <input id="form-email-address" name="email" type="email" autoComplete="email" required aria-invalid={refused ? true : undefined} aria-describedby={refused ? "form-email-error" : undefined} className={inputClass} />
            {error}
            <button type="submit" className={buttonClass}>
              Send me a code
            </button>
          </form>
        </>
      )}
    </div>
  );
}
