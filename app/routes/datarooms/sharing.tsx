import { ErrorPage } from "~/components/error-page";
import { buttonClassName } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { Alert } from "~/components/ui/alert";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { ShareLinksTable } from "~/features/sharing/components/share-links-table";
import { readPrivacyForm, SharePrivacyForm } from "~/features/sharing/components/share-privacy-form";
import { updateSharePrivacy } from "~/features/sharing/share-privacy.server";
import { getRoomSharing } from "~/features/sharing/sharing.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/sharing";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Sharing of ${loaderData.room.name}` : "Sharing") }];

/** /dataroom/{id}/sharing: every share link of the room with its rules, views and visitors (`share`; others 403, outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => getRoomSharing(serviceContextFor(context), user.id, params.id));
}

/** The visitor privacy of the room's links (`manage_settings`). */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    await updateSharePrivacy(serviceContextFor(context), user.id, params.id, readPrivacyForm(form));
    return redirectWithNotice(context, `/dataroom/${params.id}/sharing`, { type: "success", message: "Visitor privacy saved." });
  });
}


export default function DataroomSharingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { room, links, privacy, canManagePrivacy } = loaderData;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">Sharing</h1>
          <p className="max-w-3xl text-sm text-slate-700">Links that open this room's documents for people without an account. Share a file or a folder from its page, or the whole room here.</p>
        </div>
        {!room.archived ? (
          <a href={`/share-links/new?type=room&id=${room.id}`} className={buttonClassName()}>
            Share the whole room
          </a>
        ) : null}
      </div>
      {links.length === 0 ? (
        <p className="text-sm text-slate-700">No share links yet.</p>
      ) : (
        <ShareLinksTable links={links} />
      )}
      {failure ? <Alert variant="error">{failure.message}</Alert> : null}
      <SharePrivacyForm privacy={privacy} canChange={canManagePrivacy} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
