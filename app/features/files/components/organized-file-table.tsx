import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClassName } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { formatBytes } from "../files.constants";
import type { OrganizedFile } from "../organize.server";
import { FileNameLink } from "./file-name-link";

export const dateTimeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** The folder a file lives in, as a link; the hidden top of a space is called by the space's name. */
export function FolderLink({ folder, spaceName }: { folder: OrganizedFile["folder"]; spaceName: string }) {
  return (
    <Link to={`/folders/${folder.uid}`} className="text-slate-700 underline decoration-slate-400 hover:text-slate-900">
      {folder.kind === "root" ? spaceName : folder.label}
    </Link>
  );
}

/**
 * Files from anywhere in the member's spaces (recent uploads, a tag, favorites, templates): the
 * name links to the file page, the folder to its folder. `action` adds a last column.
 */
export function OrganizedFileTable({
  caption,
  files,
  action,
  actionHeader,
  rowTestId = "file-row",
}: {
  caption: string;
  files: readonly OrganizedFile[];
  action?: (file: OrganizedFile) => ReactNode;
  actionHeader?: string;
  rowTestId?: string;
}) {
  return (
    <Table caption={caption} isCaptionHidden>
      <TableHead>
        <TableRow>
          <TableHeaderCell>Name</TableHeaderCell>
          <TableHeaderCell>Folder</TableHeaderCell>
          <TableHeaderCell className="w-28">Size</TableHeaderCell>
          <TableHeaderCell className="w-48">Added</TableHeaderCell>
          {action ? <TableHeaderCell className="w-40">{actionHeader ?? <span className="sr-only">Actions</span>}</TableHeaderCell> : null}
        </TableRow>
      </TableHead>
      <TableBody>
        {files.map((file) => (
          <TableRow key={file.id} data-testid={rowTestId}>
            <TableCell>
              <FileNameLink file={file} />
            </TableCell>
            <TableCell>
              <FolderLink folder={file.folder} spaceName={file.space.name} />
            </TableCell>
            <TableCell className="whitespace-nowrap text-slate-700">{formatBytes(file.size)}</TableCell>
            <TableCell className="whitespace-nowrap text-slate-700">{dateTimeFormat.format(file.createdAt)}</TableCell>
            {action ? <TableCell>{action(file)}</TableCell> : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** An empty list, said plainly. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-700" data-testid="empty-state">
      {children}
    </div>
  );
}

/** Keyset pagination: "First page" back to the start, "Next page" onward (there is no page count). */
export function KeysetPager({ nextHref, isFirstPage, firstHref }: { nextHref: string | null; isFirstPage: boolean; firstHref: string }) {
  if (!nextHref && isFirstPage) return null;
  return (
    <nav aria-label="Pages" className="flex justify-center gap-3">
      {!isFirstPage ? (
        <Link to={firstHref} className={buttonClassName({ variant: "secondary" })}>
          First page
        </Link>
      ) : null}
      {nextHref ? (
        <Link to={nextHref} className={buttonClassName({ variant: "secondary" })}>
          Next page
        </Link>
      ) : null}
    </nav>
  );
}

/** A page's heading and one-line purpose. */
export function PageHeader({ title, description, children }: { title: string; description?: ReactNode; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
        {description ? <p className="text-sm text-slate-700">{description}</p> : null}
      </div>
      {children}
    </div>
  );
}
