import { Link, useRevalidator, useSearchParams } from "react-router";
import { Alert } from "~/components/ui/alert";
import { ErrorPage } from "~/components/error-page";
import { buttonClassName } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { getFilePage } from "~/features/files/content.server";
import { FileActions } from "~/features/files/components/file-actions";
import { FileDetailsPanel } from "~/features/files/components/file-details-panel";
import { FilePreview } from "~/features/files/components/file-preview";
import { downloadUrl, memberContentPath } from "~/features/files/components/preview-fetch";
import { formatBytes } from "~/features/files/files.constants";
import { loadFileExtras } from "~/features/files/organize.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { formatUtc } from "~/lib/format-utc";
import { titleMeta } from "~/lib/title";
import { RoomLiveUpdates } from "~/features/datarooms/components/room-live-updates";
import { FileCommentsPanel } from "~/features/datarooms/components/file-comments";
import { getFileComments } from "~/features/datarooms/comments.server";
import { markReadOnVisit } from "~/features/notifications/notifications.server";
import { redactedVersionsOf } from "~/features/redaction/redaction-setup.server";
import type { Route } from "./+types/file";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData?.file.name ?? "File");


export async function loader({ context, request, params }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    const page = await getFilePage(ctx, member.user.id, params.id);
    const extras = await loadFileExtras(ctx, member.user.id, params.id);
    // A room's file has comments; opening it marks the person's notifications about it read.
    const comments = page.dataroomId ? await getFileComments(ctx, member.user.id, page.file.id) : null;
    // Which versions a redaction made, for those who may redact (and download earlier versions).
    const redacted = page.canRedact ? await redactedVersionsOf(ctx, page.file.id) : [];
    if (page.dataroomId) await markReadOnVisit(ctx, member.user.id, page.dataroomId, `/files/${page.file.id}`);
    return {
      ...page,
      extras,
      comments,
      redacted,
      addedAt: formatUtc(page.file.createdAt),
      versions: page.versions.map((version) => ({ ...version, when: formatUtc(version.createdAt) })),
    };
  });
}

function Breadcrumbs({ crumbs, current }: { crumbs: { uid: string; label: string }[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-700">
        {crumbs.map((crumb) => (
          <li key={crumb.uid} className="flex items-center gap-1">
            <Link to={`/folders/${crumb.uid}`} className="rounded text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
              {crumb.label}
            </Link>
            <span aria-hidden="true" className="text-slate-500">
              /
            </span>
          </li>
        ))}
        <li aria-current="page" className="font-medium text-slate-900">
          {current}
        </li>
      </ol>
    </nav>
  );
}

export default function FilePage({ loaderData }: Route.ComponentProps) {
  const { file, crumbs, versions, canDownload, canEdit, canRedact, canShare, extras, addedAt, dataroomId, protection, comments, redacted } = loaderData;
  const redactedNote = (version: number) => {
    const found = redacted.find((one) => one.version === version);
    return found ? ` · redacted (${found.marks} mark${found.marks === 1 ? "" : "s"})` : "";
  };
  const [searchParams] = useSearchParams();
  const revalidator = useRevalidator();
  return (
    <div className="space-y-6">
      {dataroomId ? <RoomLiveUpdates roomId={dataroomId} reloadOn={["files.changed", "comments.changed"]} /> : null}
      <Breadcrumbs crumbs={crumbs} current={file.name} />
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-2">
          <h1 className="break-words text-2xl font-semibold text-slate-900">{file.name}</h1>
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-700">
            <div className="flex gap-1">
              <dt className="font-medium text-slate-900">Size</dt>
              <dd data-testid="file-size">{formatBytes(file.size)}</dd>
            </div>
            <div className="flex gap-1">
              <dt className="font-medium text-slate-900">Type</dt>
              <dd data-testid="file-type">{file.type}</dd>
            </div>
            <div className="flex gap-1">
              <dt className="font-medium text-slate-900">Added</dt>
              <dd>{addedAt}</dd>
            </div>
            <div className="flex gap-1">
              <dt className="font-medium text-slate-900">Version</dt>
              <dd>{file.version}</dd>
            </div>
          </dl>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {canEdit && crumbs[0] ? <FileActions file={file} rootFolderId={crumbs[0].uid} /> : null}
          {canRedact ? (
            <Link to={`/files/${file.id}/redact`} className={buttonClassName({ variant: "secondary" })}>
              Redact
            </Link>
          ) : null}
          {canShare ? (
            <a href={`/share-links/new?type=file&id=${file.id}`} className={buttonClassName({ variant: "secondary" })}>
              Share
            </a>
          ) : null}
          {canDownload ? (
            <a href={downloadUrl(memberContentPath(file.id))} download className={buttonClassName()}>
              Download
            </a>
          ) : null}
        </div>
      </header>

      {searchParams.get("redacted") === "1" ? (
        <Alert variant="success">Redacted: version {file.version} is the redacted document, checked on the server. Previews, downloads and share links now serve it; the original is kept as version {file.version - 1}.</Alert>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <section aria-labelledby="preview-heading" className="min-w-0 space-y-3">
          <h2 id="preview-heading" className="sr-only">
            Preview
          </h2>
          {protection.watermarked || protection.downloadProtected ? (
            <p className="text-sm text-slate-700" data-testid="protection-note">
              {[
                protection.watermarked ? "This preview carries your watermark (your e-mail, the time and your address), burned in by the server." : null,
                protection.downloadProtected ? "Downloading is turned off in this data room." : null,
              ]
                .filter(Boolean)
                .join(" ")}
            </p>
          ) : null}
          {/* Print protection: the pages are left out of print (a deterrent: a screenshot still works). */}
          <div className={protection.printProtected ? "print:hidden" : undefined}>
            <FilePreview fileId={file.id} name={file.name} type={file.type} size={file.size} canDownload={canDownload} watermarked={protection.watermarked} isInRoom={dataroomId !== null} />
          </div>
          {protection.printProtected ? (
            <p className="hidden text-base font-semibold print:block" data-testid="print-protected">
              Printing is turned off for the documents of this data room.
            </p>
          ) : null}
        </section>
        <aside className="space-y-6">
          <FileDetailsPanel fileId={file.id} extras={extras} canEdit={canEdit} />
        </aside>
      </div>

      {comments ? <FileCommentsPanel data={comments} onChanged={() => void revalidator.revalidate()} /> : null}

      <section aria-labelledby="versions-heading" className="space-y-3">
        <h2 id="versions-heading" className="text-lg font-semibold text-slate-900">
          Versions
        </h2>
        <Table caption="Versions of this file" isCaptionHidden>
          <TableHead>
            <TableRow>
              <TableHeaderCell>Version</TableHeaderCell>
              <TableHeaderCell>Size</TableHeaderCell>
              <TableHeaderCell>Type</TableHeaderCell>
              <TableHeaderCell>Uploaded</TableHeaderCell>
            </TableRow>
          </TableHead>
          <TableBody>
            <TableRow data-testid="version-row">
              <TableCell>
                {file.version} <span className="text-slate-600">(current{redactedNote(file.version)})</span>
              </TableCell>
              <TableCell>{formatBytes(file.size)}</TableCell>
              <TableCell>{file.type}</TableCell>
              <TableCell className="whitespace-nowrap">{formatUtc(file.updatedAt)}</TableCell>
            </TableRow>
            {versions.map((version) => (
              <TableRow key={version.id} data-testid="version-row">
                <TableCell>
                  {version.version}
                  {redactedNote(version.version) ? <span className="text-slate-600"> ({redactedNote(version.version).slice(3)})</span> : null}
                  {canRedact ? (
                    <>
                      {" "}
                      <a href={`/api/files/${file.id}/versions/${version.id}/download`} className="text-brand-700 underline" aria-label={`Download version ${version.version}`}>
                        Download
                      </a>
                    </>
                  ) : null}
                </TableCell>
                <TableCell>{formatBytes(version.size)}</TableCell>
                <TableCell>{version.type}</TableCell>
                <TableCell className="whitespace-nowrap">{version.when}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
