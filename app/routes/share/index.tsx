import { ErrorPage } from "~/components/error-page";
import { HelpLink } from "~/features/guide/components/help-link";
import { Alert } from "~/components/ui/alert";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { ShareLinksTable } from "~/features/sharing/components/share-links-table";
import { readPrivacyForm, SharePrivacyForm } from "~/features/sharing/components/share-privacy-form";
import { updateSharePrivacy } from "~/features/sharing/share-privacy.server";
import { unreadCountFor } from "~/features/notifications/notifications.server";
import { getMyShareLinks } from "~/features/sharing/sharing.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => titleMeta("Share links");

/** /share-links: the links of the member's own files (a room's links are on its sharing page), and their visitor privacy. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => ({ ...(await getMyShareLinks(ctx, user.id)), unread: await unreadCountFor(ctx, user.id, null) }));
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    await updateSharePrivacy(serviceContextFor(context), user.id, null, readPrivacyForm(form));
    return redirectWithNotice(context, "/share-links", { type: "success", message: "Visitor privacy saved." });
  });
}

export default function ShareLinksPage({ loaderData, actionData }: Route.ComponentProps) {
  const { links, privacy, unread } = loaderData;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Share links</h1>
          <HelpLink article="sharing">How share links work</HelpLink>
        <p className="max-w-3xl text-sm text-slate-700">
          Links to your own files and folders. Share from a file's or a folder's page; a data room's links are on its Sharing page. When a link is first opened you are told in your{" "}
          <a href="/notifications" className="font-medium text-brand-700 underline">
            notifications{unread > 0 ? ` (${unread} unread)` : ""}
          </a>
          .
        </p>
      </div>
      {links.length === 0 ? <p className="text-sm text-slate-700">You have not shared any of your files yet.</p> : <ShareLinksTable links={links} />}
      {failure ? <Alert variant="error">{failure.message}</Alert> : null}
      <SharePrivacyForm privacy={privacy} canChange />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
