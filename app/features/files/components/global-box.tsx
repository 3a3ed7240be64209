import { Link } from "react-router";
import { buttonClassName } from "~/components/ui/button";
import { Table, TableBody, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { formatBytes } from "../files.constants";
import type { GlobalBoxPage } from "../folders.server";
import { FileNameLink } from "./file-name-link";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** The global inbox or outbox: newest files of that folder kind across every space of the member. */
export function GlobalBox({ page, title }: { page: GlobalBoxPage; title: string }) {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <p className="text-sm text-slate-700">
        The newest files of every {page.kind} you can open:{" "}
        {page.sources.map((source, index) => (
          <span key={source.uid}>
            {index > 0 ? ", " : ""}
            <Link to={`/folders/${source.uid}`} className="underline">
              {source.spaceName} {source.label}
            </Link>
          </span>
        ))}
        .
      </p>
      {page.files.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-700">No files yet.</div>
      ) : (
        <Table caption={title} isCaptionHidden>
          <TableHead>
            <tr>
              <TableHeaderCell>Name</TableHeaderCell>
              <TableHeaderCell>Space</TableHeaderCell>
              <TableHeaderCell className="w-28">Size</TableHeaderCell>
              <TableHeaderCell className="w-48">Added</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {page.files.map((file) => (
              <TableRow key={file.id}>
                <td className="px-4 py-2">
                  <FileNameLink file={file} />
                </td>
                <td className="px-4 py-2 text-slate-600">{file.source}</td>
                <td className="px-4 py-2 text-slate-600">{formatBytes(file.size)}</td>
                <td className="px-4 py-2 text-slate-600">{dateFormat.format(file.createdAt)}</td>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {page.nextCursor ? (
        <div className="flex justify-center">
          <Link to={`?cursor=${page.nextCursor}`} className={buttonClassName({ variant: "secondary" })}>
            Next page
          </Link>
        </div>
      ) : null}
    </div>
  );
}
