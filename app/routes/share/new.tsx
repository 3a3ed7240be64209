import { Form, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClassName } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { NEW_SHARE_LINK, ShareLinkOptions } from "~/features/sharing/components/share-link-options";
import { readShareLinkForm } from "~/features/sharing/share-link-form";
import { createShareLink, prepareShareLink } from "~/features/sharing/sharing.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = () => titleMeta("Create share link");

const KIND_LABELS = { file: "file", folder: "folder and everything in it", room: "whole data room" } as const;

function targetOf(request: Request) {
  const params = new URL(request.url).searchParams;
  return { type: params.get("type") ?? undefined, id: params.get("id") ?? undefined };
}

/** /share-links/new?type=file|folder|room&id=: the options of a new link (spec §2 "Share: create share link"). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => prepareShareLink(serviceContextFor(context), user.id, targetOf(request)));
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    const link = await createShareLink(serviceContextFor(context), user.id, { target: targetOf(request), ...readShareLinkForm(form, "create") });
    return redirectWithNotice(context, `/share-links/${link.id}`, { type: "success", message: "Share link created. Copy it below." });
  });
}

export default function NewShareLinkPage({ loaderData, actionData }: Route.ComponentProps) {
  const { target, roomId, features } = loaderData;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const busy = useNavigation().state === "submitting";
  const back = roomId ? `/dataroom/${roomId}/sharing` : target.type === "file" ? `/files/${target.id}` : "/folders";
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Create share link</h1>
        <p className="text-sm text-slate-700">
          For the {KIND_LABELS[target.type]} <strong className="break-words">{target.name}</strong>. People with the link open it without an account, under the rules you set here
          {roomId ? "; the room's own protection (download protection, watermark) always applies on top." : "."}
        </p>
      </header>
      {failure ? <Alert variant="error">{failure.message}</Alert> : null}
      <Form method="post" className="space-y-6">
        <CsrfInput />
        <ShareLinkOptions values={NEW_SHARE_LINK} features={features} mode="create" fieldErrors={failure?.fieldErrors} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" isLoading={busy}>
            Create link
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
