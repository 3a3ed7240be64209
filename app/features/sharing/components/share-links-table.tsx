import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { SHARE_STATUS_LABELS, type ShareLinkStatus } from "../sharing.constants";
import type { ShareLinkView } from "../sharing.server";

export const STATUS_VARIANTS: Record<ShareLinkStatus, BadgeVariant> = { active: "success", expired: "warning", revoked: "danger", "used-up": "warning" };
const TARGET_LABELS = { file: "File", folder: "Folder", room: "Whole room" } as const;

/** A list of share links (a room's, or a member's own): each with its rules, status, views and visitors, linking to its page. */
export function ShareLinksTable({ links }: { links: (ShareLinkView & { visitors: number })[] }) {
  return (
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
              {link.presentation === "gallery" ? "Public gallery" : TARGET_LABELS[link.target.type]}: {link.target.name}
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
  );
}
