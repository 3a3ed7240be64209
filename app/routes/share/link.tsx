import { renderSVG } from "uqr";
import { useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClassName } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { ShareLinkOptions } from "~/features/sharing/components/share-link-options";
import { getShareLinkPage } from "~/features/sharing/share-analytics.server";
import { getGalleryFigures, type GalleryFigures } from "~/features/galleries/public-gallery.server";
import { readShareLinkForm } from "~/features/sharing/share-link-form";
import { STATUS_VARIANTS } from "~/features/sharing/components/share-links-table";
import { SHARE_STATUS_LABELS } from "~/features/sharing/sharing.constants";
import { revokeShareLink, updateShareLink } from "~/features/sharing/sharing.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/link";
import { copyText } from "~/components/copy-text";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Share link ${loaderData.link.name || loaderData.link.target.name}` : "Share link");

/** /share-links/{id}: one link for whoever manages it: its address (copy, QR code), who opened what for how long, its options, revoking it. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    const page = await getShareLinkPage(ctx, user.id, params.id);
    const gallery = page.link.presentation === "gallery" ? await getGalleryFigures(ctx, user.id, params.id) : null;
    // The QR code is drawn here, so the page ships no QR library.
    const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(page.link.url, { border: 2 }))}`;
    return { ...page, qr, gallery };
  });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const ctx = serviceContextFor(context);
  return runFormAction(
    async () => {
      if (intent === "update") {
        await updateShareLink(ctx, user.id, params.id, readShareLinkForm(form, "edit"));
        return redirectWithNotice(context, `/share-links/${params.id}`, { type: "success", message: "Link options saved. They apply from the visitors' next request." });
      }
      if (intent === "revoke") {
        await revokeShareLink(ctx, user.id, params.id);
        return redirectWithNotice(context, `/share-links/${params.id}`, { type: "success", message: "Link revoked. It shows “Preview Link Expired” from now on." });
      }
      throw new AppError("VALIDATION_ERROR", "Unknown action. Reload the page and try again.");
    },
    { intent },
  );
}

const at = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;

/** A duration in words: "45 s", "3 min 5 s", "1 h 2 min". */
function durationText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
const percent = (value: number | null) => (value === null ? "—" : `${Math.round(value * 100)} %`);

export default function ShareLinkPage({ loaderData, actionData }: Route.ComponentProps) {
  const { link, roomId, totals, visits, agreements, features, qr, gallery } = loaderData;
  const isGallery = link.presentation === "gallery";
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const busy = useNavigation().state === "submitting";
  const copy = () =>
    copyText(link.url, "Link");
  const facts = [
    link.hasPassword ? "password" : null,
    link.verifyEmail ? "verified e-mail" : link.requireEmail ? "e-mail" : null,
    link.allowList.length ? `${link.allowList.length} allowed` : null,
    link.agreement ? "agreement" : null,
    isGallery ? "public gallery" : null,
    !link.allowDownload ? "view only" : isGallery ? (link.downloadSize === "web" ? "web-size downloads" : "original downloads") : link.downloadMode === "watermarked" ? "watermarked downloads" : "downloads",
    isGallery && link.showExif ? "EXIF shown" : null,
    isGallery && link.allowPrints ? "prints" : null,
    link.watermark ? "watermark" : null,
    link.printProtection ? "no print" : null,
    link.expiresAt ? `expires ${at(link.expiresAt)}` : null,
    link.maxViews ? `${link.views} of ${link.maxViews} views` : null,
  ].filter(Boolean);
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <p className="text-sm text-slate-600">
          {roomId ? (
            <a href={`/dataroom/${roomId}/sharing`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
              Sharing of the room
            </a>
          ) : (
            "Share link"
          )}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="break-words text-2xl font-semibold text-slate-900">{link.name || link.target.name}</h1>
          <Badge variant={STATUS_VARIANTS[link.status]} data-testid="link-status">
            {SHARE_STATUS_LABELS[link.status]}
          </Badge>
        </div>
        <p className="text-sm text-slate-700">
          Shares the {link.target.type === "room" ? "data room" : link.target.type} <strong>{link.target.name}</strong>: {facts.join(", ")}.
        </p>
      </header>

      {failure ? <Alert variant="error">{failure.message}</Alert> : null}

      <section aria-labelledby="address-heading" className="flex flex-wrap items-start gap-6 rounded-lg border border-slate-200 bg-white p-4">
        <div className="min-w-0 flex-1 space-y-3">
          <h2 id="address-heading" className="text-lg font-semibold text-slate-900">
            Address
          </h2>
          <input readOnly value={link.url} aria-label="Link address" className="block w-full rounded-md border border-slate-500 bg-slate-50 px-3 py-2 font-mono text-sm" data-testid="link-url" />
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={copy}>
              Copy link
            </Button>
            <a href={link.url} target="_blank" rel="noreferrer" className={buttonClassName({ variant: "ghost" })}>
              Open as a visitor
            </a>
          </div>
        </div>
        <img src={qr} alt={`QR code of the link to ${link.target.name}`} className="h-40 w-40 rounded border border-slate-200 bg-white" data-testid="link-qr" />
      </section>

      <section aria-labelledby="analytics-heading" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="analytics-heading" className="text-lg font-semibold text-slate-900">
            Who opened it
          </h2>
          <a href={`/api/share-links/${link.id}/visits.csv`} className={buttonClassName({ variant: "secondary", size: "sm" })} download>
            Export CSV
          </a>
        </div>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" data-testid="link-totals">
          {[
            ["Views", String(totals.views)],
            ["Visitors", String(totals.visitors)],
            ["Downloads", String(totals.downloads)],
            ["Agreements", String(totals.agreements)],
            ["Time reading", durationText(totals.totalMs)],
            ["Completion", percent(totals.completion)],
          ].map(([label, value]) => (
            <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
              <dt className="text-xs text-slate-600">{label}</dt>
              <dd className="text-xl font-semibold text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
        {visits.length === 0 ? (
          <p className="text-sm text-slate-700">Nobody has opened this link yet.</p>
        ) : (
          <Table caption="Visits, newest first" isCaptionHidden>
            <TableHead>
              <TableRow>
                <TableHeaderCell>Visitor</TableHeaderCell>
                <TableHeaderCell>Opened</TableHeaderCell>
                <TableHeaderCell>What they read</TableHeaderCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {visits.map((visit) => (
                <TableRow key={visit.id} data-testid="link-visit">
                  <TableCell>
                    <span className="font-medium text-slate-900">{visit.email ?? "Anonymous visitor"}</span>
                    {visit.ip ? <span className="block text-xs text-slate-600">{visit.ip}</span> : null}
                  </TableCell>
                  <TableCell>
                    {at(visit.startedAt)}
                    <span className="block text-xs text-slate-600">last seen {at(visit.lastSeenAt)}</span>
                  </TableCell>
                  <TableCell>
                    {visit.files.length === 0 ? (
                      <span className="text-slate-600">Opened the page only</span>
                    ) : (
                      <ul className="space-y-2">
                        {visit.files.map((file) => (
                          <li key={file.id}>
                            <span className="font-medium text-slate-900">{file.name}</span>{" "}
                            <span className="text-slate-700">
                              {[`opened ${file.opens}×`, file.downloads ? `downloaded ${file.downloads}×` : null, file.totalMs ? durationText(file.totalMs) : null, file.completion !== null ? `${percent(file.completion)} of ${file.pageCount} pages` : null]
                                .filter(Boolean)
                                .join(", ")}
                            </span>
                            {file.pages.length ? (
                              <ol className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700" aria-label={`Time per page of ${file.name}`} data-testid="page-times">
                                {file.pages.map((page) => (
                                  <li key={page.page}>
                                    Page {page.page}: {durationText(page.ms)}
                                  </li>
                                ))}
                              </ol>
                            ) : null}
                          </li>
                        ))}
                      </ul>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {agreements.length ? (
          <div className="space-y-2">
            <h3 className="text-base font-semibold text-slate-900">Accepted agreements</h3>
            <ul className="space-y-1 text-sm text-slate-800" data-testid="link-agreements">
              {agreements.map((agreement) => (
                <li key={`${agreement.acceptedAt}-${agreement.name}`}>
                  {agreement.name}
                  {agreement.email ? ` (${agreement.email})` : ""} — {at(agreement.acceptedAt)}
                  {agreement.ip ? `, from ${agreement.ip}` : ""}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>

      {gallery ? <GalleryFiguresSection figures={gallery} /> : null}

      {link.status !== "revoked" ? (
        <>
          <section aria-labelledby="options-heading" className="max-w-2xl space-y-4">
            <h2 id="options-heading" className="text-lg font-semibold text-slate-900">
              Options
            </h2>
            <IntentForm intent="update" className="space-y-6">
              <ShareLinkOptions values={link} features={features} mode="edit" fieldErrors={failure?.intent === "update" ? failure.fieldErrors : undefined} />
              <Button type="submit" isLoading={busy}>
                Save options
              </Button>
            </IntentForm>
          </section>
          <section aria-labelledby="revoke-heading" className="max-w-2xl space-y-2 rounded-lg border border-red-200 bg-red-50 p-4">
            <h2 id="revoke-heading" className="text-lg font-semibold text-slate-900">
              Revoke
            </h2>
            <p className="text-sm text-slate-800">Stops the link at its next request: visitors see “Preview Link Expired”. It cannot be undone; the analytics stay.</p>
            <IntentForm intent="revoke">
              <Button type="submit" variant="danger">
                Revoke link
              </Button>
            </IntentForm>
          </section>
        </>
      ) : (
        <Alert variant="info">This link was revoked{link.revokedAt ? ` on ${at(link.revokedAt)}` : ""}. Create a new link to share again.</Alert>
      )}
    </div>
  );
}

/** A public gallery's proofing: each visitor's favourites, and per picture its views, downloads and favourites. */
function GalleryFiguresSection({ figures }: { figures: GalleryFigures }) {
  return (
    <section aria-labelledby="favourites-heading" className="space-y-4">
      <h2 id="favourites-heading" className="text-lg font-semibold text-slate-900">
        Favourites
      </h2>
      {figures.selections.length === 0 ? (
        <p className="text-sm text-slate-700">No visitor has marked a favourite yet.</p>
      ) : (
        <ul className="space-y-3" data-testid="gallery-selections">
          {figures.selections.map((selection) => (
            <li key={selection.visitId} className="rounded-lg border border-slate-200 bg-white p-3">
              <p className="text-sm">
                <span className="font-medium text-slate-900">{selection.email ?? "Anonymous visitor"}</span> <span className="text-slate-600">(visit of {at(selection.startedAt)})</span>: {selection.favourites.length} favourite
                {selection.favourites.length === 1 ? "" : "s"}
              </p>
              <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-slate-800" aria-label={`Favourites of ${selection.email ?? "an anonymous visitor"}`}>
                {selection.favourites.map((mark) => (
                  <li key={mark.id}>♥ {mark.name}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      {figures.photos.length ? (
        <Table caption="Views, downloads and favourites per picture" isCaptionHidden>
          <TableHead>
            <TableRow>
              <TableHeaderCell>Picture</TableHeaderCell>
              <TableHeaderCell>Views</TableHeaderCell>
              <TableHeaderCell>Downloads</TableHeaderCell>
              <TableHeaderCell>Favourites</TableHeaderCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {figures.photos.map((photo) => (
              <TableRow key={photo.id} data-testid="gallery-photo">
                <TableCell>{photo.name}</TableCell>
                <TableCell>{photo.views}</TableCell>
                <TableCell>{photo.downloads}</TableCell>
                <TableCell>{photo.favourites}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
