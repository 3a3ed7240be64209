import { Form, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClassName } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { NEW_PUBLIC_GALLERY, NEW_SHARE_LINK, ShareLinkOptions } from "~/features/sharing/components/share-link-options";
import { readShareLinkForm } from "~/features/sharing/share-link-form";
import { createShareLink, prepareShareLink } from "~/features/sharing/sharing.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData?.isGallery ? "Publish public gallery" : "Create share link");

const KIND_LABELS = { file: "file", folder: "folder and everything in it", room: "whole data room" } as const;

function targetOf(request: Request) {
  const params = new URL(request.url).searchParams;
  return { type: params.get("type") ?? undefined, id: params.get("id") ?? undefined };
}

/** /share-links/new?type=file|folder|room&id=: the options of a new link (spec §2 "Share: create share link"). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const isGallery = new URL(request.url).searchParams.get("presentation") === "gallery";
  return runLoader(async () => ({ ...(await prepareShareLink(serviceContextFor(context), user.id, targetOf(request))), isGallery }));
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    const link = await createShareLink(serviceContextFor(context), user.id, { target: targetOf(request), ...readShareLinkForm(form, "create") });
    const message = link.presentation === "gallery" ? "Public gallery published. Copy its address below." : "Share link created. Copy it below.";
    return redirectWithNotice(context, `/share-links/${link.id}`, { type: "success", message });
  });
}

export default function NewShareLinkPage({ loaderData, actionData }: Route.ComponentProps) {
  const { target, roomId, features, isGallery } = loaderData;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const busy = useNavigation().state === "submitting";
  const back = isGallery ? `/folders/${target.id}/gallery` : roomId ? `/dataroom/${roomId}/sharing` : target.type === "file" ? `/files/${target.id}` : "/folders";
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">{isGallery ? "Publish a public gallery" : "Create share link"}</h1>
        {isGallery ? (
          <p className="text-sm text-slate-700">
            Of the pictures and videos in <strong className="break-words">{target.name}</strong> (not its subfolders). Visitors open it without an account at /public-gallery/…, on any screen, under the rules you set here; you see who opened it, what they
            viewed and downloaded, and the pictures each marked as a favourite.
            {features.gallery ? "" : " Public galleries are not in your plan: see Settings → Plan."}
          </p>
        ) : (
        <p className="text-sm text-slate-700">
          For the {KIND_LABELS[target.type]} <strong className="break-words">{target.name}</strong>. People with the link open it without an account, under the rules you set here
          {roomId ? "; the room's own protection (download protection, watermark) always applies on top." : "."}
        </p>
        )}
      </header>
      {failure ? <Alert variant="error">{failure.message}</Alert> : null}
      <Form method="post" className="space-y-6">
        <CsrfInput />
        <ShareLinkOptions values={isGallery ? NEW_PUBLIC_GALLERY : NEW_SHARE_LINK} features={features} mode="create" fieldErrors={failure?.fieldErrors} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" isLoading={busy}>
            {isGallery ? "Publish gallery" : "Create link"}
          </Button>
          <a href={back} className={buttonClassName({ variant: "secondary" })}>
            Cancel
          </a>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
