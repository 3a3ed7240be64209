import { renderSVG } from "uqr";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { readMemberForm, redirectWithNotice } from "~/features/auth/auth-route.server";
import { caseTypeChoicesFor } from "~/features/cases/cases.server";
import { ReceivePageForm } from "~/features/receive/components/receive-page-form";
import { listReceiveFormChoices } from "~/features/forms/form-receive.server";
import { readReceivePageForm } from "~/features/receive/receive-form";
import { mailOrigin } from "~/features/notifications/notifications.server";
import { listFieldSets } from "~/features/receive/field-sets.server";
import { deleteReceivePage, getReceivePage, listReceivedSubmissions, updateReceivePage } from "~/features/receive/receive.server";
import { replaceReceivePageLogo } from "~/features/receive/receive-logo.server";
import { formatBytes } from "~/features/files/files.constants";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/page";
import { copyText } from "~/components/copy-text";
import { UpLink } from "~/components/up-link";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Receive page ${loaderData.page.title}` : "Receive page");

/** /receive-pages/{id}: the page's address (Copy, QR code), its options, Delete. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    const page = await getReceivePage(ctx, user.id, params.id);
    const url = `${mailOrigin(ctx)}${page.path}`;
    // The QR code is drawn here, so the page ships no QR library.
    const [fieldSets, received, formChoices, caseTypeChoices] = await Promise.all([listFieldSets(ctx, user.id), listReceivedSubmissions(ctx, user.id, page.id), listReceiveFormChoices(ctx, user.id), caseTypeChoicesFor(ctx, user.id)]);
    return { page, url, qr: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(url, { border: 2 }))}`, fieldSets, received, formChoices, caseTypeChoices };
  });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user, form, intent, ctx } = await readMemberForm(context, request);
  return runFormAction(
    async () => {
      if (intent === "update") {
        await updateReceivePage(ctx, user.id, params.id, readReceivePageForm(form, "edit"));
        return redirectWithNotice(context, `/receive-pages/${params.id}`, { type: "success", message: "Receive page saved." });
      }
      if (intent === "logo" || intent === "remove-logo") {
        const file = form.get("logo");
        await replaceReceivePageLogo(ctx, user.id, params.id, intent === "logo" ? (file instanceof File ? file : new File([], "")) : null);
        return redirectWithNotice(context, `/receive-pages/${params.id}`, { type: "success", message: intent === "logo" ? "Logo saved." : "Logo removed." });
      }
      if (intent === "delete") {
        await deleteReceivePage(ctx, user.id, params.id);
        return redirectWithNotice(context, "/receive-pages", { type: "success", message: "Receive page deleted. Files it received stay in their folder." });
      }
      throw new AppError("VALIDATION_ERROR", "Unknown action. Reload the page and try again.");
    },
    { intent },
  );
}

export default function ReceivePageView({ loaderData, actionData }: Route.ComponentProps) {
  const { page, url, qr, fieldSets, received } = loaderData;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const [canCopy, setCanCopy] = useState(false);
  useEffect(() => setCanCopy(typeof navigator.clipboard?.writeText === "function"), []);
  const copy = () => copyText(url, "Address");
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <UpLink to="/receive-pages">Receive pages</UpLink>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="break-words text-2xl font-semibold text-slate-900">{page.title}</h1>
          <Badge variant={page.status === "open" ? "success" : page.status === "closed" ? "neutral" : "warning"}>{page.status === "open" ? "Open" : page.status === "closed" ? "Closed" : "Past deadline"}</Badge>
        </div>
        <p className="text-sm text-slate-700">
          Files go to {page.destination.spaceName}: {page.destination.folderLabel ?? "a deleted folder"}.
        </p>
      </header>

      <section aria-labelledby="address-heading" className="flex max-w-3xl flex-wrap items-start gap-6 rounded-lg border border-slate-200 bg-white p-4">
        <div className="min-w-0 flex-1 space-y-3">
          <h2 id="address-heading" className="text-lg font-semibold text-slate-900">
            Address
          </h2>
          <input readOnly value={url} aria-label="Page address" className="block w-full rounded-md border border-slate-500 bg-slate-50 px-3 py-2 font-mono text-sm" data-testid="receive-page-url" />
          {canCopy ? (
            <Button variant="secondary" onClick={copy}>
              Copy address
            </Button>
          ) : null}
        </div>
        <img src={qr} alt={`QR code of the address of ${page.title}`} className="h-36 w-36 rounded border border-slate-200 bg-white" />
      </section>

      <section aria-labelledby="logo-heading" className="max-w-3xl space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="logo-heading" className="text-lg font-semibold text-slate-900">
          Logo
        </h2>
        {page.logoPath ? <img src={page.logoPath} alt={`Logo of ${page.title}`} className="h-12 w-auto max-w-[240px] object-contain" data-testid="receive-page-logo" /> : null}
        {failure && (failure.intent === "logo" || failure.intent === "remove-logo") ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {failure.message}
          </p>
        ) : null}
        <IntentForm intent="logo" encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
          <label className="block text-sm font-medium text-slate-900">
            {page.logoPath ? "Replace the logo" : "Add a logo"} (PNG, JPEG, WebP or GIF, up to 512 KB)
            <input type="file" name="logo" accept="image/png,image/jpeg,image/webp,image/gif" required className="mt-1 block text-sm" />
          </label>
          <Button type="submit" variant="secondary">
            Upload logo
          </Button>
        </IntentForm>
        {page.logoPath ? (
          <IntentForm intent="remove-logo">
            <Button type="submit" variant="ghost">
              Remove logo
            </Button>
          </IntentForm>
        ) : null}
      </section>

      <section aria-labelledby="received-heading" className="space-y-3">
        <h2 id="received-heading" className="text-lg font-semibold text-slate-900">
          Received
        </h2>
        {received.length === 0 ? (
          <p className="text-sm text-slate-700">Nothing yet. What people send lands in {page.destination.folderLabel ?? "the page's folder"}; you are notified each time.</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Received submissions">
            {received.map((submission) => (
              <li key={submission.id} className="space-y-1 p-3 text-sm" data-testid="received-submission">
                <p className="font-medium text-slate-900">
                  {[submission.name, submission.email].filter(Boolean).join(" · ") || "Someone (no name given)"}
                  <span className="font-normal text-slate-700">
                    {" "}
                    sent {submission.fileCount} {submission.fileCount === 1 ? "file" : "files"} ({formatBytes(submission.bytes)}) on {submission.createdAt.slice(0, 16).replace("T", " ")} UTC
                    {submission.folderLabel ? ` into “${submission.folderLabel}”` : ""}
                    {submission.delivered ? "" : " (not all in yet)"}
                  </span>
                </p>
                {submission.answers.length > 0 ? (
                  <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-slate-700">
                    {submission.answers.map((answer) => (
                      <div key={answer.label} className="contents">
                        <dt className="font-medium">{answer.label}</dt>
                        <dd className="break-words">{answer.value}</dd>
                      </div>
                    ))}
                  </dl>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {page.destination.folderLabel ? (
          <Link to={`/folders/${page.destination.folderId}`} className="text-sm font-medium text-brand-700 underline">
            Open {page.destination.folderLabel}
          </Link>
        ) : null}
      </section>

      <section aria-labelledby="options-heading" className="space-y-4">
        <h2 id="options-heading" className="text-lg font-semibold text-slate-900">
          Options
        </h2>
        <ReceivePageForm values={page} failure={failure?.intent === "logo" || failure?.intent === "remove-logo" ? null : failure} submitLabel="Save" fieldSets={fieldSets} formChoices={loaderData.formChoices} caseTypeChoices={loaderData.caseTypeChoices} />
      </section>

      <IntentForm intent="delete">
        <Button type="submit" variant="danger">
          Delete page
        </Button>
      </IntentForm>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
