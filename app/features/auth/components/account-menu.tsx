import { type FormEvent } from "react";
import { Link } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { initialsOf } from "~/components/ui/initials";
import { showToast } from "~/components/ui/toast";
import { logout } from "../auth-store";
import type { PublicUser } from "../auth.types";

/**
 * The header's account area: sign-in links for visitors; for members their name, settings and
 * a sign-out button (POST /logout through the auth store; a plain form post without JavaScript).
 */
export function AccountMenu({ user }: { user: PublicUser | null }) {
  if (!user) {
    return (
      <div className="flex items-center gap-3 text-sm">
        <Link to="/login" className="font-medium text-slate-800 hover:text-slate-950">
          Sign in
        </Link>
        <Link to="/register" className="rounded-md bg-brand-600 px-3 py-1.5 font-medium text-white hover:bg-brand-700">
          Create account
        </Link>
      </div>
    );
  }

  async function onSignOut(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    try {
      await logout();
    } catch (error) {
      showToast(error instanceof Error ? error.message : "Logout failed", { type: "error" });
      return;
    }
    window.location.assign("/login");
  }

  return (
    <div className="flex items-center gap-3 text-sm">
      <Link to="/profile" className="flex items-center gap-2 text-slate-800 hover:text-slate-950">
        {/* Initials only: the header is on every page, public ones too, and stays light (G5). The
            link is named by its own text (the name, shown from md up), so what a speech-input user
            reads is what the link is called (WCAG 2.5.3). */}
        <span aria-hidden className="inline-flex h-8 w-8 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-800">
          {initialsOf(user.name)}
        </span>
        <span className="sr-only md:not-sr-only md:max-w-40 md:truncate">{user.name}</span>
        <span className="sr-only">, your profile</span>
      </Link>
      <form method="post" action="/logout" onSubmit={(event) => void onSignOut(event)}>
        <CsrfInput />
        <button type="submit" className="whitespace-nowrap rounded-md border border-slate-300 px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50">
          Sign out
        </button>
      </form>
    </div>
  );
}
