import type { ReactNode } from "react";
import { Alert } from "~/components/ui/alert";

/** The narrow centred card every sign-in page uses. */
export function AuthLayout({ title, description, children, footer }: { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md">
      <div className="rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
        {description ? <div className="mt-2 text-sm text-slate-700">{description}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
      {footer ? <div className="mt-4 text-center text-sm text-slate-700">{footer}</div> : null}
    </div>
  );
}

/** The form-level refusal (wrong password, too many attempts…), announced to screen readers. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return <Alert variant="error">{message}</Alert>;
}

/** The first message for a field from an action's fieldErrors. */
export function fieldError(fieldErrors: Record<string, string[]> | undefined, name: string): string | undefined {
  return fieldErrors?.[name]?.[0];
}
