import { Form, Link, redirect } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { Button } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { WelcomeSteps } from "~/features/guide/components/welcome-steps";
import { dismissWelcome, getWelcomeChecklist } from "~/features/guide/welcome.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/welcome";

export const meta: Route.MetaFunction = () => titleMeta("Welcome");

/** /welcome (spec §2 "Welcome"): the first-run checklist, ticked from what the account really did. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return { name: user.name, checklist: await getWelcomeChecklist(serviceContextFor(context), user) };
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const isShown = form.get("intent") === "show";
  await dismissWelcome(serviceContextFor(context), user.id, !isShown);
  return isShown ? { ok: true } : redirect("/dashboard");
}

export default function WelcomePage({ loaderData }: Route.ComponentProps) {
  const { name, checklist } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Welcome to Strongroom, {name}</h1>
        <p className="mt-1 text-slate-700">
          Five first steps. Each one ticks itself when you have done it. {checklist.doneCount} of {checklist.steps.length} done.
        </p>
      </div>
      <WelcomeSteps steps={checklist.steps} />
      <p className="text-sm text-slate-700">
        How each part works is in{" "}
        <Link to="/help" className="font-medium text-brand-700 underline">
          Help
        </Link>
        .
      </p>
      <Form method="post">
        <CsrfInput />
        <input type="hidden" name="intent" value={checklist.isDismissed ? "show" : "dismiss"} />
        <Button type="submit" variant="secondary">
          {checklist.isDismissed ? "Show the checklist on my dashboard again" : "Hide this checklist"}
        </Button>
      </Form>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
