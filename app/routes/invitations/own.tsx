import { Link, redirect, useActionData, useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { acceptOwnInvitation, viewOwnInvitation } from "~/features/datarooms/invitations.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/own";

export const meta: Route.MetaFunction = () => titleMeta("Invitation");

/**
 * /invitations/{id}: an invitation to a data room, opened from the invitee's dashboard ("Needs
 * your attention") instead of the e-mail's link. Only the account whose confirmed address it was
 * sent to sees it (anyone else: 404); joining is a POST, with the same checks as the link.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const view = await runLoader(() => viewOwnInvitation(serviceContextFor(context), user.id, params.id));
  if (view.dataroomId) throw redirect(`/dataroom/${view.dataroomId}`);
  return { view };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  return runFormAction(async () => {
    const dataroomId = await acceptOwnInvitation(serviceContextFor(context), user.id, params.id);
    return redirectWithNotice(context, `/dataroom/${dataroomId}`, { type: "success", message: "You have joined the data room." });
  });
}

const dayFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

export default function OwnInvitationPage({ loaderData }: Route.ComponentProps) {
  const { view } = loaderData;
  const actionData = useActionData<typeof action>();
  const isBusy = useNavigation().state === "submitting";
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const invitation = view.invitation!;
  return (
    <div className="mx-auto max-w-xl space-y-5">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Invitation to “{invitation.roomName}”</h1>
        <p className="mt-1 text-slate-700">A data room on Strongroom</p>
      </div>
      <div className="space-y-3 rounded-xl bg-white p-5 text-sm text-slate-700 shadow-sm ring-1 ring-slate-200">
        <p>
          <strong>{invitation.inviterName}</strong> invited <strong>{invitation.email}</strong> to join as <strong>{invitation.roleLabel.toLowerCase()}</strong>.
        </p>
        {invitation.message ? <blockquote className="border-l-4 border-slate-300 pl-3 italic">{invitation.message}</blockquote> : null}
        {view.state === "open" ? (
          <>
            <p className="text-slate-600">The invitation works once and expires on {dayFormat.format(new Date(invitation.expiresAt))}.</p>
            {failure ? <Alert variant="error">{failure.message}</Alert> : null}
            <IntentForm intent="accept">
              <Button type="submit" isLoading={isBusy}>
                Join data room
              </Button>
            </IntentForm>
          </>
        ) : (
          <Alert variant="warning" title="This invitation can't be used">
            {view.problem}
          </Alert>
        )}
      </div>
      <Link to="/datarooms" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
        Your data rooms
      </Link>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
