import { clsx } from "clsx";
import { useMemo, useState } from "react";
import { Form, Link, useNavigate, useRevalidator, useSearchParams } from "react-router";
import { Button, buttonClassName } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Select } from "~/components/ui/select";
import { Table, TableBody, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { FILE_SORT_LABELS, FILE_SORTS, formatBytes, type FileSort } from "../files.constants";
import type { FolderPage, FolderSummary } from "../folders.server";
import { OperationsPanel } from "~/features/batch/components/operations-panel";
import { batchManager } from "~/features/batch/batch-transport";
import { ShareSelectionDialog } from "~/features/sharing/components/share-selection-dialog";
import { DeleteDialog, type DeletableItem } from "./delete-dialog";
import { EditFolderPanel } from "./edit-folder-panel";
import { FavoriteButton } from "./favorite-button";
import { FileGlyph, FolderGlyph } from "./folder-glyph";
import { UploadPanel } from "./upload-panel";
import { FileNameLink } from "./file-name-link";
import { MoveDialog } from "./move-dialog";
import { showToast } from "~/components/ui/toast";
import { ARCHIVE_FOLDER_LABEL, itemCount } from "../trash.constants";
import { RenameDialog } from "./rename-dialog";
import { RetryingThumb } from "~/features/galleries/components/gallery-tile";
import { Restricted } from "~/features/access/components/restricted";

export type ViewMode = "list" | "grid";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

type Row = { key: string; type: "file" | "folder"; id: string; name: string };

/**
 * The file manager of one folder (shared by every space: the personal space now, data rooms
 * next): breadcrumbs, toolbar, search, sorting, list and grid views, multi-select with move,
 * rename and delete, upload by button or drop, and the edit-folder panel.
 */
export function FolderBrowser({ page, canUploadFolders, view }: { page: FolderPage; canUploadFolders: boolean; view: ViewMode }) {
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [isEditOpen, setEditOpen] = useState(false);
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const [isMoveOpen, setMoveOpen] = useState(false);
  const [isCopyOpen, setCopyOpen] = useState(false);
  const [isRenameOpen, setRenameOpen] = useState(false);
  const [isShareOpen, setShareOpen] = useState(false);
  // What the caller may do here (in a data room, their room permissions narrow their role).
  const canEdit = page.rights.includes("files.edit");
  const canUpload = page.rights.includes("files.upload");
  const canDelete = page.rights.includes("files.delete");
  const canDownload = page.rights.includes("files.download");
  // A copy reads the items and writes new files: download and upload.
  const canCopy = canUpload && canDownload;
  const isRoot = page.folder.kind === "root";
  // Moving and renaming need edit; deleting needs delete: either makes rows selectable.
  const canSelect = canEdit || canDelete;

  const rows: Row[] = useMemo(
    () => [
      ...page.folders.map((folder) => ({ key: `folder:${folder.uid}`, type: "folder" as const, id: folder.uid, name: folder.label })),
      ...page.files.map((file) => ({ key: `file:${file.id}`, type: "file" as const, id: file.id, name: file.name })),
    ],
    [page.folders, page.files],
  );
  const selectedItems: DeletableItem[] = useMemo(() => rows.filter((row) => selected.has(row.key)).map(({ type, id, name }) => ({ type, id, name })), [rows, selected]);
  const selectableRows = rows.filter((row) => !(row.type === "folder" && isSpecialKind(page.folders.find((f) => f.uid === row.id)?.kind)));
  const allSelected = selectableRows.length > 0 && selectableRows.every((row) => selected.has(row.key));

  const toggle = (key: string, isOn: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (isOn) next.add(key);
      else next.delete(key);
      return next;
    });

  const withParams = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(searchParams);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) next.delete(name);
      else next.set(name, value);
    }
    next.delete("cursor");
    next.delete("fcursor");
    const text = next.toString();
    return text ? `?${text}` : "?";
  };

  const refresh = () => {
    setSelected(new Set());
    void revalidator.revalidate();
  };
  // Large selections run as batch operations in the background (issue 22), shown under Operations.
  const enqueue = (type: string, label: string, metadata: Record<string, unknown> = {}) => {
    batchManager().enqueue(
      type,
      selectedItems.map((item) => ({ id: item.id, displayName: item.name })),
      { metadata: { roomId: page.dataroomId, label, ...metadata } },
    );
    setSelected(new Set());
  };

  // A space's top folder carries the space's name ("My files", or a data room's name).
  const title = page.folder.label;
  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb">
        <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-600">
          {page.crumbs.map((crumb, index) => {
            const isLast = index === page.crumbs.length - 1;
            const label = crumb.label;
            return (
              <li key={crumb.uid} className="flex items-center gap-1">
                {index > 0 ? <span aria-hidden>/</span> : null}
                {isLast ? (
                  <span aria-current="page" className="font-medium text-slate-900">
                    {label}
                  </span>
                ) : (
                  <Link to={folderHref(page, crumb.uid)} reloadDocument={isRoomPath(page)} className="underline-offset-2 hover:underline">
                    {label}
                  </Link>
                )}
              </li>
            );
          })}
        </ol>
      </nav>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="flex items-center gap-2 text-2xl font-semibold text-slate-900">
          <FolderGlyph color={page.folder.color} icon={page.folder.icon} kind={page.folder.kind} className="text-3xl" />
          <span>{title}</span>
        </h1>
        <div className="flex flex-wrap items-center gap-2">
          {canEdit ? (
            <Link to={`/folders/new?parent=${page.folder.uid}`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
              New folder
            </Link>
          ) : null}
          {canEdit && !isRoot ? (
            <Button variant="secondary" size="sm" onClick={() => setEditOpen(true)}>
              Edit folder
            </Button>
          ) : null}
          {page.canShare ? (
            <a
              href={isRoot && page.dataroomId ? `/share-links/new?type=room&id=${page.dataroomId}` : `/share-links/new?type=folder&id=${page.folder.uid}`}
              className={buttonClassName({ variant: "secondary", size: "sm" })}
            >
              {isRoot && page.dataroomId ? "Share room" : "Share folder"}
            </a>
          ) : null}
          {page.folder.kind === "gallery" || page.files.some((file) => /^(image|video)\//.test(file.type)) ? (
            <Link to={`/folders/${page.folder.uid}/gallery`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
              Gallery
            </Link>
          ) : null}
          {canDownload ? (
            <a href={`/api/zip/folders/${page.folder.uid}`} className={buttonClassName({ variant: "secondary", size: "sm" })} download>
              Download folder
            </a>
          ) : null}
        </div>
      </div>

      {canUpload ? <UploadPanel folderId={page.folder.uid} canUploadFolders={canUploadFolders} onUploaded={refresh} /> : null}
      <OperationsPanel onFinished={() => void revalidator.revalidate()} />

      <div className="flex flex-wrap items-end gap-3">
        <Form method="get" role="search" className="flex items-end gap-2">
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
            Search by name
            <input
              type="search"
              name="q"
              defaultValue={page.query}
              maxLength={100}
              className="h-10 w-64 rounded-md border border-slate-400 px-3 text-sm"
            />
          </label>
          <input type="hidden" name="view" value={view} />
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </Form>
        {!page.query ? (
          <div className="w-44">
            <Select
              label="Sort by"
              value={page.sort}
              options={FILE_SORTS.map((sort) => ({ value: sort, label: FILE_SORT_LABELS[sort] }))}
              onValueChange={(value) => navigate(withParams({ sort: value as FileSort }))}
            />
          </div>
        ) : null}
        {!page.query ? (
          <Link
            to={withParams({ dir: page.dir === "asc" ? "desc" : "asc" })}
            className={buttonClassName({ variant: "secondary" })}
          >
            {/* The link says what it does; the list shows the order it is in (WCAG 2.5.3: no hidden name). */}
            {page.dir === "asc" ? "Sort descending" : "Sort ascending"}
          </Link>
        ) : (
          <Link to={withParams({ q: null })} className={buttonClassName({ variant: "ghost" })}>
            Clear search
          </Link>
        )}
        <div role="group" aria-label="View" className="ml-auto flex gap-1">
          <Link
            to={withParams({ view: "list" })}
            aria-current={view === "list" ? "true" : undefined}
            className={buttonClassName({ variant: view === "list" ? "primary" : "secondary", size: "sm" })}
          >
            List
          </Link>
          <Link
            to={withParams({ view: "grid" })}
            aria-current={view === "grid" ? "true" : undefined}
            className={buttonClassName({ variant: view === "grid" ? "primary" : "secondary", size: "sm" })}
          >
            Grid
          </Link>
        </div>
      </div>

      {page.query ? (
        <p className="text-sm text-slate-700" role="status">
          Results for “{page.query}” in this space: {page.folders.length + page.files.length}
          {page.nextCursor ? "+" : ""}
        </p>
      ) : null}

      {canSelect && rows.length > 0 ? (
        <div className="flex flex-wrap items-center gap-3 rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
          <Checkbox
            label="Select all"
            checked={allSelected ? true : selectedItems.length > 0 ? "indeterminate" : false}
            onCheckedChange={(checked) => setSelected(checked === true ? new Set(selectableRows.map((row) => row.key)) : new Set())}
          />
          <span className="text-sm text-slate-700" aria-live="polite">
            {selectedItems.length} selected
          </span>
          {canEdit ? (
            <>
              <Button variant="secondary" size="sm" disabled={selectedItems.length === 0} onClick={() => setMoveOpen(true)}>
                Move
              </Button>
              <Button variant="secondary" size="sm" disabled={selectedItems.length !== 1} onClick={() => setRenameOpen(true)}>
                Rename
              </Button>
            </>
          ) : null}
          {canCopy && canSelect ? (
            <Button variant="secondary" size="sm" disabled={selectedItems.length === 0} onClick={() => setCopyOpen(true)}>
              Copy
            </Button>
          ) : null}
          {canEdit ? (
            <Button
              variant="secondary"
              size="sm"
              disabled={selectedItems.length === 0}
              onClick={() => {
                showToast(`Archiving ${itemCount(selectedItems.length)} to “${ARCHIVE_FOLDER_LABEL}”: follow it under Operations.`, { type: "info" });
                enqueue("archive", `Archiving ${selectedItems.length} item${selectedItems.length === 1 ? "" : "s"} to “${ARCHIVE_FOLDER_LABEL}”`);
              }}
            >
              Archive
            </Button>
          ) : null}
          {page.canShare ? (
            <Button variant="secondary" size="sm" disabled={selectedItems.length === 0} onClick={() => setShareOpen(true)}>
              Share
            </Button>
          ) : null}
          {page.dataroomId ? null : (
            // Workflows (Business) on the chosen documents of the member's own files: one run each.
            <Restricted feature="workflows" label="Start a workflow">
              <Button
                variant="secondary"
                size="sm"
                disabled={!selectedItems.some((item) => item.type === "file")}
                onClick={() => navigate(`/workflows/start?files=${selectedItems.filter((item) => item.type === "file").map((item) => item.id).join(",")}`)}
              >
                Start a workflow
              </Button>
            </Restricted>
          )}
          {canDelete ? (
            <Button variant="danger" size="sm" disabled={selectedItems.length === 0} onClick={() => setDeleteOpen(true)}>
              Delete
            </Button>
          ) : null}
        </div>
      ) : null}

      {rows.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-700">
          {page.query ? "Nothing matches that name." : canUpload ? "This folder is empty. Drop files here or use Upload files." : "This folder is empty."}
        </div>
      ) : view === "grid" ? (
        <GridView page={page} selected={selected} onToggle={toggle} canSelect={canSelect} />
      ) : (
        <ListView page={page} selected={selected} onToggle={toggle} canSelect={canSelect} />
      )}

      {page.nextCursor || page.nextFolderCursor ? (
        <div className="flex justify-center">
          <Link
            to={(() => {
              const next = new URLSearchParams(searchParams);
              if (page.nextCursor) next.set("cursor", page.nextCursor);
              else next.delete("cursor");
              if (page.nextFolderCursor) next.set("fcursor", page.nextFolderCursor);
              else next.delete("fcursor");
              return `?${next.toString()}`;
            })()}
            className={buttonClassName({ variant: "secondary" })}
          >
            Next page
          </Link>
        </div>
      ) : null}

      {canEdit && !isRoot ? (
        <EditFolderPanel folder={toSummary(page)} open={isEditOpen} onOpenChange={setEditOpen} onSaved={() => void revalidator.revalidate()} />
      ) : null}
      {canEdit ? (
        <>
          <MoveDialog
            items={selectedItems}
            rootFolderId={page.crumbs[0]?.uid ?? page.folder.uid}
            currentFolderId={page.query ? null : page.folder.uid}
            open={isMoveOpen}
            onOpenChange={setMoveOpen}
            onMoved={refresh}
            onBatch={(targetFolderId, targetLabel) => enqueue("move", `Moving ${selectedItems.length} items to “${targetLabel}”`, { targetFolderId })}
          />
          <RenameDialog item={selectedItems.length === 1 ? (selectedItems[0] ?? null) : null} open={isRenameOpen} onOpenChange={setRenameOpen} onRenamed={refresh} />
        </>
      ) : null}
      {canCopy ? (
        <MoveDialog
          mode="copy"
          items={selectedItems}
          rootFolderId={page.crumbs[0]?.uid ?? page.folder.uid}
          currentFolderId={page.query ? null : page.folder.uid}
          open={isCopyOpen}
          onOpenChange={setCopyOpen}
          onMoved={refresh}
          onBatch={(targetFolderId, targetLabel) => enqueue("copy", `Copying ${selectedItems.length} item${selectedItems.length === 1 ? "" : "s"} to “${targetLabel}”`, { targetFolderId })}
        />
      ) : null}
      {page.canShare ? (
        <ShareSelectionDialog
          count={selectedItems.length}
          open={isShareOpen}
          onOpenChange={setShareOpen}
          onShare={(options) => enqueue("share", `Sharing ${selectedItems.length} item${selectedItems.length === 1 ? "" : "s"}`, { options, linksPage: page.dataroomId ? `/dataroom/${page.dataroomId}/sharing` : "/share-links" })}
        />
      ) : null}
      {canDelete ? (
        <DeleteDialog
          items={selectedItems}
          inTrash={false}
          open={isDeleteOpen}
          onOpenChange={setDeleteOpen}
          onDeleted={refresh}
          onBatch={(permanent) => enqueue(permanent ? "permanent-delete" : "delete", `${permanent ? "Deleting" : "Moving to the trash"} ${selectedItems.length} items`)}
        />
      ) : null}
    </div>
  );
}

function toSummary(page: FolderPage): FolderSummary {
  const { uid, label, color, icon, kind } = page.folder;
  return { uid, label, color, icon, kind };
}

function isSpecialKind(kind: string | undefined): boolean {
  return kind === "root" || kind === "inbox" || kind === "outbox";
}

type ViewProps = { page: FolderPage; selected: ReadonlySet<string>; onToggle: (key: string, isOn: boolean) => void; canSelect: boolean };

/**
 * Where a folder's page is: under /dataroom/{id} for a folder of a data room (its top is the room
 * page itself), /folders/{uid} otherwise. /dataroom/ pages load as whole documents (spec §2: the
 * client router skips them).
 */
export function folderHref(page: Pick<FolderPage, "dataroomId" | "crumbs">, uid: string): string {
  if (!page.dataroomId) return `/folders/${uid}`;
  return uid === page.crumbs[0]?.uid ? `/dataroom/${page.dataroomId}` : `/dataroom/${page.dataroomId}/folders/${uid}`;
}

function isRoomPath(page: Pick<FolderPage, "dataroomId">): boolean {
  return page.dataroomId !== null;
}

function ListView({ page, selected, onToggle, canSelect }: ViewProps) {
  const favorites = new Set(page.favorites);
  return (
    <Table caption={`Contents of ${page.folder.label}`} isCaptionHidden>
      <TableHead>
        <tr>
          {canSelect ? (
            <TableHeaderCell className="w-10">
              <span className="sr-only">Select</span>
            </TableHeaderCell>
          ) : null}
          <TableHeaderCell>Name</TableHeaderCell>
          <TableHeaderCell className="w-28">Size</TableHeaderCell>
          <TableHeaderCell className="w-36">Added</TableHeaderCell>
          <TableHeaderCell className="w-12">
            <span className="sr-only">Favorite</span>
          </TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {page.folders.map((folder) => {
          const key = `folder:${folder.uid}`;
          return (
            <TableRow key={key}>
              {canSelect ? (
                <td className="px-4 py-2">
                  {isSpecialKind(folder.kind) ? null : (
                    <SelectBox label={`Select ${folder.label}`} checked={selected.has(key)} onChange={(isOn) => onToggle(key, isOn)} />
                  )}
                </td>
              ) : null}
              <td className="px-4 py-2">
                <Link to={folderHref(page, folder.uid)} reloadDocument={isRoomPath(page)} className="flex items-center gap-2 font-medium text-slate-900 hover:underline">
                  <FolderGlyph color={folder.color} icon={folder.icon} kind={folder.kind} />
                  {folder.label}
                </Link>
              </td>
              <td className="px-4 py-2 text-slate-600">Folder</td>
              <td className="px-4 py-2 text-slate-600" />
              <td className="px-2 py-2">
                <FavoriteButton itemType="folder" itemId={folder.uid} name={folder.label} initial={favorites.has(folder.uid)} />
              </td>
            </TableRow>
          );
        })}
        {page.files.map((file) => {
          const key = `file:${file.id}`;
          return (
            <TableRow key={key}>
              {canSelect ? (
                <td className="px-4 py-2">
                  <SelectBox label={`Select ${file.name}`} checked={selected.has(key)} onChange={(isOn) => onToggle(key, isOn)} />
                </td>
              ) : null}
              <td className="px-4 py-2">
                <FileNameLink file={file} />
              </td>
              <td className="px-4 py-2 text-slate-600">{formatBytes(file.size)}</td>
              <td className="px-4 py-2 text-slate-600">{dateFormat.format(file.createdAt)}</td>
              <td className="px-2 py-2">
                <FavoriteButton itemType="file" itemId={file.id} name={file.name} initial={favorites.has(file.id)} />
              </td>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

function GridView({ page, selected, onToggle, canSelect }: ViewProps) {
  // Pictures whose thumbnail could not be had: shown by their glyph instead.
  const [thumbless, setThumbless] = useState<ReadonlySet<string>>(new Set());
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-6" aria-label="Folder contents">
      {page.folders.map((folder) => {
        const key = `folder:${folder.uid}`;
        return (
          <li key={key} className={clsx("relative rounded-lg border bg-white p-3", selected.has(key) ? "border-brand-600" : "border-slate-200")}>
            {canSelect && !isSpecialKind(folder.kind) ? (
              <div className="absolute left-2 top-2">
                <SelectBox label={`Select ${folder.label}`} checked={selected.has(key)} onChange={(isOn) => onToggle(key, isOn)} />
              </div>
            ) : null}
            <Link to={folderHref(page, folder.uid)} reloadDocument={isRoomPath(page)} className="flex flex-col items-center gap-2 text-center text-sm text-slate-900">
              <FolderGlyph color={folder.color} icon={folder.icon} kind={folder.kind} className="text-5xl" />
              <span className="line-clamp-2 break-all">{folder.label}</span>
            </Link>
          </li>
        );
      })}
      {page.files.map((file) => {
        const key = `file:${file.id}`;
        const isImage = /^image\/(png|jpeg|gif|webp|avif)$/.test(file.type);
        return (
          <li key={key} className={clsx("relative rounded-lg border bg-white p-3", selected.has(key) ? "border-brand-600" : "border-slate-200")}>
            {canSelect ? (
              <div className="absolute left-2 top-2 z-10">
                <SelectBox label={`Select ${file.name}`} checked={selected.has(key)} onChange={(isOn) => onToggle(key, isOn)} />
              </div>
            ) : null}
            <Link to={`/files/${file.id}`} className="flex flex-col items-center gap-2 text-center text-sm text-slate-900">
              {isImage && !thumbless.has(file.id) ? (
                // The picture's thumbnail (issue 40), never the original; tried again after 1 s while it is being made.
                <RetryingThumb src={`/api/files/${file.id}/image/thumb`} alt="" className="h-20 w-full rounded object-cover" onGiveUp={() => setThumbless((ids) => new Set(ids).add(file.id))} />
              ) : (
                <FileGlyph type={file.type} className="text-5xl" />
              )}
              <span className="line-clamp-2 break-all">{file.name}</span>
              <span className="text-xs text-slate-600">{formatBytes(file.size)}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** A native checkbox per row: light enough for 200 rows, labelled for screen readers. */
function SelectBox({ label, checked, onChange }: { label: string; checked: boolean; onChange: (isOn: boolean) => void }) {
  return (
    <input
      type="checkbox"
      aria-label={label}
      checked={checked}
      onChange={(event) => onChange(event.target.checked)}
      className="h-4 w-4 rounded border-slate-400 accent-brand-600"
    />
  );
}
