import { ErrorPage } from "~/components/error-page";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { buttonClassName } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { RoomBreadcrumbs } from "~/features/datarooms/components/room-breadcrumbs";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { SHARE_STATUS_LABELS, type ShareLinkStatus } from "~/features/sharing/sharing.constants";
import { getRoomSharing } from "~/features/sharing/sharing.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/sharing";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Sharing of ${loaderData.room.name}` : "Sharing") }];

/** /dataroom/{id}/sharing: every share link of the room with its rules, views and visitors (`share`; others 403, outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => getRoomSharing(serviceContextFor(context), user.id, params.id));
}

const STATUS_VARIANTS: Record<ShareLinkStatus, BadgeVariant> = { active: "success", expired: "warning", revoked: "danger", "used-up": "warning" };
const TARGET_LABELS = { file: "File", folder: "Folder", room: "Whole room" } as const;

export default function DataroomSharingPage({ loaderData }: Route.ComponentProps) {
  const { room, links } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <RoomBreadcrumbs room={room} />
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
        <Table caption="Share links, newest first" isCaptionHidden>
          <TableHead>
            <TableRow>
              <TableHeaderCell>Link</TableHeaderCell>
              <TableHeaderCell>Shares</TableHeaderCell>
              <TableHeaderCell>Status</TableHeaderCell>
              <TableHeaderCell>Views</TableHeaderCell>
              <TableHeaderCell>Visitors</TableHeaderCell>
              <TableHeaderCell>Last viewed</TableHeaderCell>
              <TableHeaderCell>Made by</TableHeaderCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {links.map((link) => (
              <TableRow key={link.id} data-testid="share-link-row">
                <TableCell>
                  <a href={`/share-links/${link.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    {link.name || `Link of ${dateTimeFormat.format(new Date(link.createdAt))}`}
                  </a>
                  <span className="block text-xs text-slate-600">
                    {[link.hasPassword ? "password" : null, link.verifyEmail ? "verified e-mail" : link.requireEmail ? "e-mail" : null, link.agreement ? "agreement" : null, link.allowDownload ? null : "view only", link.watermark ? "watermark" : null]
                      .filter(Boolean)
                      .join(", ") || "open to anyone with the link"}
                  </span>
                </TableCell>
                <TableCell>
                  {TARGET_LABELS[link.target.type]}: {link.target.name}
                </TableCell>
                <TableCell>
                  <Badge variant={STATUS_VARIANTS[link.status]}>{SHARE_STATUS_LABELS[link.status]}</Badge>
                </TableCell>
                <TableCell>{link.maxViews ? `${link.views} of ${link.maxViews}` : link.views}</TableCell>
                <TableCell>{link.visitors}</TableCell>
                <TableCell>{link.lastViewedAt ? `${dateTimeFormat.format(new Date(link.lastViewedAt))} UTC` : "Never"}</TableCell>
                <TableCell>{link.createdBy ?? "—"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
