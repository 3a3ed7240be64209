import { useEffect, useMemo, useState } from "react";
import { Link, useRevalidator } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClassName } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Table, TableBody, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { showToast } from "~/components/ui/toast";
import { DeleteDialog, type DeletableItem } from "~/features/files/components/delete-dialog";
import { FileGlyph, FolderGlyph } from "~/features/files/components/folder-glyph";
import { formatBytes } from "~/features/files/files.constants";
import { BATCH_FROM, itemCount, MAX_ITEMS_PER_CALL, trashMessages } from "~/features/files/trash.constants";
import { OperationsPanel } from "~/features/batch/components/operations-panel";
import { batchManager } from "~/features/batch/batch-transport";
import { listTrash, type TrashEntry } from "~/features/files/trash.server";
import { runLoader } from "~/lib/action-result.server";
import { requireActor } from "~/features/auth/auth-guard.server";
import { http } from "~/lib/http";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/trash";

export const meta: Route.MetaFunction = () => titleMeta("Trash");

/** Dates are formatted on the server, so the server and the browser render the same text. */
const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export async function loader({ context, request }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  const url = new URL(request.url);
  const query = Object.fromEntries(url.searchParams);
  return runLoader(async () => {
    const page = await listTrash(serviceContextFor(context), actor.userId, query);
    return {
      ...page,
      isFirstPage: !url.searchParams.get("cursor"),
      items: page.items.map((item) => ({ ...item, deletedOn: `${dateFormat.format(item.trashedAt)} UTC` })),
    };
  });
}

type Row = TrashEntry & { deletedOn: string };
const keyOf = (item: { type: string; id: string }) => `${item.type}:${item.id}`;

function daysLeftText(days: number): string {
  if (days <= 0) return "Deleted tonight";
  return `${days} day${days === 1 ? "" : "s"} left`;
}

/**
 * The trash (spec §9): what the member deleted in every space where they may delete, newest first,
 * each with where it was, when it was deleted and how long until the nightly purge removes it.
 * Restore puts items back (recreating their folder if it is gone); Delete removes them for good.
 */
export default function TrashPage({ loaderData }: Route.ComponentProps) {
  const { items, nextCursor, isFirstPage, retentionDays } = loaderData;
  const revalidator = useRevalidator();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const [isRestoring, setRestoring] = useState(false);

  // A new page of items (after a change, or another page) starts with nothing selected.
  useEffect(() => setSelected(new Set()), [items]);

  const selectedItems: Row[] = useMemo(() => items.filter((item) => selected.has(keyOf(item))), [items, selected]);
  const deletable: DeletableItem[] = selectedItems.map((item) => ({ type: item.type, id: item.id, name: item.name }));
  const isAllSelected = items.length > 0 && selectedItems.length === items.length;

  const toggle = (key: string, isOn: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (isOn) next.add(key);
      else next.delete(key);
      return next;
    });

  const refresh = () => {
    setSelected(new Set());
    void revalidator.revalidate();
  };

  // Large selections run as batch operations (issue 22), one per space (a data room's items go to
  // its endpoint, the member's own to theirs), followed under Operations.
  const enqueuePerSpace = (type: "restore" | "permanent-delete", verb: string) => {
    const bySpace = new Map<string | null, Row[]>();
    for (const item of selectedItems) bySpace.set(item.roomId, [...(bySpace.get(item.roomId) ?? []), item]);
    for (const [roomId, group] of bySpace) {
      const place = group[0]!.location[0] ?? "";
      batchManager().enqueue(
        type,
        group.map((item) => ({ id: item.id, displayName: item.name })),
        { metadata: { roomId, label: `${verb} ${group.length} item${group.length === 1 ? "" : "s"} in “${place}”` } },
      );
    }
    setSelected(new Set());
  };

  const onRestore = async () => {
    if (selectedItems.length === 0) return;
    if (selectedItems.length > BATCH_FROM) {
      showToast(`Restoring ${itemCount(selectedItems.length)}: follow it under Operations.`, { type: "info" });
      enqueuePerSpace("restore", "Restoring");
      return;
    }
    setRestoring(true);
    try {
      for (let start = 0; start < selectedItems.length; start += MAX_ITEMS_PER_CALL) {
        const part = selectedItems.slice(start, start + MAX_ITEMS_PER_CALL);
        await http.post("/api/items/restore", { items: part.map((item) => ({ type: item.type, id: item.id })) });
      }
      showToast(trashMessages.restored(selectedItems.length), { type: "success" });
      refresh();
    } catch {
      // The HTTP client has shown the reason; the selection stays for another try.
      void revalidator.revalidate();
    } finally {
      setRestoring(false);
    }
  };

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Trash</h1>
        <p className="text-sm text-slate-700">
          Deleted items stay here for {retentionDays} days and can be restored until then; after that they are deleted for good.
        </p>
      </div>

      <OperationsPanel onFinished={() => void revalidator.revalidate()} />

      {items.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center" data-testid="trash-empty">
          <p className="font-medium text-slate-900">{isFirstPage ? "The trash is empty." : "No more items in the trash."}</p>
          <p className="mt-1 text-sm text-slate-700">
            {isFirstPage ? "Files and folders you delete appear here." : null}{" "}
            <Link to={isFirstPage ? "/folders" : "/trash"} className="text-brand-700 underline underline-offset-2">
              {isFirstPage ? "Go to your files" : "Back to the newest items"}
            </Link>
          </p>
        </div>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3 rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
            <Checkbox
              label="Select all"
              checked={isAllSelected ? true : selectedItems.length > 0 ? "indeterminate" : false}
              onCheckedChange={(checked) => setSelected(checked === true ? new Set(items.map(keyOf)) : new Set())}
            />
            <span className="text-sm text-slate-700" aria-live="polite">
              {selectedItems.length} selected
            </span>
            <Button variant="secondary" size="sm" disabled={selectedItems.length === 0} isLoading={isRestoring} onClick={() => void onRestore()}>
              Restore
            </Button>
            <Button variant="danger" size="sm" disabled={selectedItems.length === 0 || isRestoring} onClick={() => setDeleteOpen(true)}>
              Delete
            </Button>
          </div>

          <Table caption="Items in the trash" isCaptionHidden>
            <TableHead>
              <tr>
                <TableHeaderCell className="w-10">
                  <span className="sr-only">Select</span>
                </TableHeaderCell>
                <TableHeaderCell>Name</TableHeaderCell>
                <TableHeaderCell>Original location</TableHeaderCell>
                <TableHeaderCell className="w-48">Deleted</TableHeaderCell>
                <TableHeaderCell className="w-36">Days left</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {items.map((item) => {
                const key = keyOf(item);
                return (
                  <TableRow key={key} data-testid="trash-row" data-item-type={item.type}>
                    <td className="px-4 py-2">
                      <input
                        type="checkbox"
                        aria-label={`Select ${item.name}`}
                        checked={selected.has(key)}
                        onChange={(event) => toggle(key, event.target.checked)}
                        className="h-4 w-4 rounded border-slate-400 accent-brand-600"
                      />
                    </td>
                    <td className="px-4 py-2">
                      <span className="flex items-center gap-2 text-slate-900">
                        {item.type === "folder" ? <FolderGlyph color={null} icon={null} kind="regular" /> : <FileGlyph type={item.contentType ?? ""} />}
                        <span className="break-all font-medium">{item.name}</span>
                        {item.type === "folder" ? <Badge>Folder</Badge> : null}
                        {item.size !== null ? <span className="text-xs text-slate-600">{formatBytes(item.size)}</span> : null}
                      </span>
                    </td>
                    <td className="px-4 py-2 text-slate-700" data-testid="trash-location">
                      {item.location.join(" / ")}
                    </td>
                    <td className="px-4 py-2 text-slate-700">{item.deletedOn}</td>
                    <td className="px-4 py-2 text-slate-700">{daysLeftText(item.daysLeft)}</td>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>

          <nav aria-label="Trash pages" className="flex justify-center gap-2">
            {isFirstPage ? null : (
              <Link to="/trash" className={buttonClassName({ variant: "secondary" })}>
                Newest items
              </Link>
            )}
            {nextCursor ? (
              <Link to={`/trash?cursor=${encodeURIComponent(nextCursor)}`} className={buttonClassName({ variant: "secondary" })}>
                Next page
              </Link>
            ) : null}
          </nav>
        </>
      )}

      <DeleteDialog items={deletable} inTrash open={isDeleteOpen} onOpenChange={setDeleteOpen} onDeleted={refresh} onBatch={() => enqueuePerSpace("permanent-delete", "Deleting")} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
