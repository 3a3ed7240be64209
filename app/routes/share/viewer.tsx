import { lazy, Suspense, type ReactNode } from "react";
import { data, Form, redirect, useActionData } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClassName } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Spinner } from "~/components/ui/spinner";
import { PreviewError } from "~/features/files/components/preview-error";
import { passSharePageGate, readShareVisitCookie, shareVisitCookie, viewSharePage, type ShareViewerPage } from "~/features/sharing/share-viewer.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { requestContext, serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/viewer";

// The preview (and pdf.js behind it) loads after the page: the viewer's first load stays small (G5).
const FilePreview = lazy(() => import("~/features/files/components/file-preview").then((module) => ({ default: module.FilePreview })));

const PAGE_NAMES = { expired: "Preview Link Expired", refused: "Security Check Failed" } as const;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const page = loaderData?.page;
  if (!page) return titleMeta("Shared document");
  if (page.state === "expired" || page.state === "refused") return titleMeta(PAGE_NAMES[page.state]);
  return titleMeta(page.targetName);
};

// The address carries the link's secret: never sent to other sites as a referrer (same-origin, not
// no-referrer: the gates' form posts need their Origin for the CSRF check), never kept by a cache.
export const headers = () => ({ "Referrer-Policy": "same-origin", "Cache-Control": "no-store" });

function placeOf(request: Request, params: Route.LoaderArgs["params"]) {
  return { fileId: params.fileId, folderId: new URL(request.url).searchParams.get("folder") };
}

/**
 * /s/{token-or-slug} and /s/{key}/files/{fileId}: a share link's page for anyone who has it. The
 * gates in order (password, e-mail, code, agreement), then the document, or the folder's contents
 * for folder and room links. Every navigation loads the whole document (forms and links), so the
 * visit's cookie, scoped to /s/{key}, always travels with it.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { isSecure } = context.get(requestContext);
  const result = await runLoader(() => viewSharePage(serviceContextFor(context), params.key, readShareVisitCookie(request.headers.get("Cookie")), placeOf(request, params)));
  const headers = new Headers();
  if (result.cookie) headers.append("Set-Cookie", shareVisitCookie(params.key, result.cookie, isSecure));
  const status = result.page.state === "expired" ? 410 : result.page.state === "refused" ? 403 : 200;
  return data({ page: result.page, key: params.key }, { status, headers });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { isSecure } = context.get(requestContext);
  const form = await request.formData();
  const input = { gate: form.get("gate"), password: form.get("password"), email: form.get("email"), code: form.get("code"), name: form.get("name"), accept: form.get("accept") === "on" };
  return runFormAction(async () => {
    const result = await passSharePageGate(serviceContextFor(context), params.key, readShareVisitCookie(request.headers.get("Cookie")), input, placeOf(request, params));
    const url = new URL(request.url);
    const headers = new Headers();
    if (result.cookie) headers.append("Set-Cookie", shareVisitCookie(params.key, result.cookie, isSecure));
    return redirect(`${url.pathname}${url.search}`, { headers });
  });
}

export default function ShareViewer({ loaderData }: Route.ComponentProps) {
  const { page, key } = loaderData;
  return (
    <div className="mx-auto max-w-5xl space-y-6" data-testid="share-viewer">
      {page.state === "expired" ? (
        <PreviewError kind="expired" />
      ) : page.state === "refused" ? (
        <PreviewError kind="security" message={page.message} />
      ) : page.state === "gate" ? (
        <Gate page={page} />
      ) : (
        <Opened page={page} linkKey={key} />
      )}
    </div>
  );
}

function Header({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="space-y-1">
      <p className="text-sm text-slate-600">Shared with you through Strongroom</p>
      <h1 className="break-words text-2xl font-semibold text-slate-900">{title}</h1>
      {children}
    </header>
  );
}

const GATE_COPY = {
  password: "This link is protected with a password. Enter it to continue.",
  email: "Enter your e-mail address to continue.",
  code: "Enter the 6-digit code we sent you.",
  agreement: "Read and accept the agreement to continue.",
} as const;

function Gate({ page }: { page: Extract<ShareViewerPage, { state: "gate" }> }) {
  const failure = useActionData<typeof action>();
  const fieldErrors = failure?.fieldErrors ?? {};
  const error = (name: string) => fieldErrors[name]?.[0];
  return (
    <section className="mx-auto max-w-md space-y-5 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <Header title={page.targetName}>
        <p className="text-sm text-slate-700">{page.gate === "code" && page.pendingEmail ? `We sent a 6-digit code to ${page.pendingEmail}. It is valid for 10 minutes.` : GATE_COPY[page.gate]}</p>
      </Header>
      {failure && !Object.keys(fieldErrors).length ? <Alert variant="error">{failure.message}</Alert> : null}
      <Form method="post" reloadDocument className="space-y-4">
        <CsrfInput />
        <input type="hidden" name="gate" value={page.gate} />
        {page.gate === "password" ? <Input label="Password" name="password" type="password" autoComplete="off" required autoFocus error={error("password")} /> : null}
        {page.gate === "email" ? <Input label="E-mail address" name="email" type="email" autoComplete="email" required autoFocus error={error("email")} /> : null}
        {page.gate === "code" ? <Input label="Code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required autoFocus error={error("code")} /> : null}
        {page.gate === "agreement" ? (
          <>
            <div tabIndex={0} aria-label="Agreement" className="max-h-64 overflow-y-auto whitespace-pre-wrap rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
              {page.agreement}
            </div>
            <Input label="Your full name" name="name" autoComplete="name" required error={error("name")} />
            <label className="flex items-start gap-2 text-sm text-slate-800">
              <input type="checkbox" name="accept" required className="mt-1" />I have read the agreement and accept it.
            </label>
          </>
        ) : null}
        <Button type="submit" className="w-full">
          {page.gate === "agreement" ? "Accept and view" : page.gate === "code" ? "Verify" : "Continue"}
        </Button>
      </Form>
      {page.gate === "code" && page.pendingEmail ? (
        <Form method="post" reloadDocument className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <CsrfInput />
          <input type="hidden" name="gate" value="email" />
          <input type="hidden" name="email" value={page.pendingEmail} />
          No e-mail?
          <Button type="submit" variant="ghost" size="sm">
            Send a new code
          </Button>
        </Form>
      ) : null}
    </section>
  );
}

function Opened({ page, linkKey }: { page: Extract<ShareViewerPage, { state: "open" }>; linkKey: string }) {
  const { content, rules } = page;
  const base = `/s/${encodeURIComponent(linkKey)}`;
  const crumbs = content.crumbs;
  return (
    <>
      <Header title={content.kind === "file" ? content.file.name : content.folder.name}>
        {crumbs.length > 1 || (content.kind === "file" && crumbs.length) ? (
          <nav aria-label="Folders" className="flex flex-wrap gap-1 text-sm text-slate-700">
            {crumbs.map((crumb, index) => (
              <span key={crumb.id}>
                {index > 0 ? "/ " : ""}
                <a className="text-blue-700 underline" href={index === 0 ? base : `${base}?folder=${encodeURIComponent(crumb.id)}`}>
                  {crumb.name}
                </a>
              </span>
            ))}
          </nav>
        ) : null}
        <p className="text-sm text-slate-700" data-testid="share-rules">
          {[page.visitorEmail ? `Viewing as ${page.visitorEmail}.` : null, rules.watermarked ? "Documents carry a watermark with your details." : null, rules.canDownload ? null : "Downloading is turned off for this link."].filter(Boolean).join(" ")}
        </p>
      </Header>
      {content.kind === "file" ? (
        <section aria-label="Document" className="space-y-3">
          {rules.canDownload ? (
            <a href={`${base}/files/${encodeURIComponent(content.file.id)}/download`} download className={buttonClassName({ variant: "secondary" })}>
              Download
            </a>
          ) : null}
          <div className={rules.printProtected ? "print:hidden" : undefined}>
            <Suspense fallback={<Spinner label={`Loading ${content.file.name}`} className="py-10" />}>
              <FilePreview
                fileId={content.file.id}
                name={content.file.name}
                type={content.file.type}
                size={content.file.size}
                canDownload={rules.canDownload}
                watermarked={rules.watermarked}
                contentPath={`${base}/files/${encodeURIComponent(content.file.id)}`}
                pageTimeUrl={`${base}/files/${encodeURIComponent(content.file.id)}/page-time`}
              />
            </Suspense>
          </div>
          {rules.printProtected ? <p className="hidden font-semibold print:block">Printing is turned off for this document.</p> : null}
        </section>
      ) : (
        <section aria-label="Contents" className="rounded-lg border border-slate-200 bg-white">
          {content.folders.length + content.files.length === 0 ? <p className="p-4 text-sm text-slate-700">This folder is empty.</p> : null}
          <ul className="divide-y divide-slate-200">
            {content.folders.map((folder) => (
              <li key={folder.id} className="p-3">
                <a className="font-medium text-blue-700 underline" href={`${base}?folder=${encodeURIComponent(folder.id)}`}>
                  {folder.name}/
                </a>
              </li>
            ))}
            {content.files.map((file) => (
              <li key={file.id} className="flex items-center justify-between gap-3 p-3">
                <a className="min-w-0 break-words text-blue-700 underline" href={`${base}/files/${encodeURIComponent(file.id)}`}>
                  {file.name}
                </a>
                {rules.canDownload ? (
                  <a className="shrink-0 text-sm text-slate-700 underline" href={`${base}/files/${encodeURIComponent(file.id)}/download`} download aria-label={`Download ${file.name}`}>
                    Download
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
          {content.truncated ? <p className="p-3 text-sm text-slate-700">Only the first 500 items of this folder are listed.</p> : null}
        </section>
      )}
    </>
  );
}
