import "material-icons/iconfont/filled.css";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Link } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { showToast } from "~/components/ui/toast";
import { Toggle } from "~/components/ui/toggle";
import { Restricted } from "~/features/access/components/restricted";
import { useFeature } from "~/features/access/user-store";
import { http } from "~/lib/http";
import { METADATA_KEY_MAX, METADATA_PER_FILE_MAX, METADATA_VALUE_MAX, TAG_MAX_LENGTH, TAGS_PER_FILE_MAX } from "../files.constants";
import type { FileExtras } from "../organize.server";
import { setMetadataSchema, tagSchema } from "../organize.schema";
import { FavoriteButton } from "./favorite-button";

export const detailsMessages = {
  tagsSaved: "Tags saved",
  metadataSaved: "Metadata saved",
  templateOn: "This file is now a document template",
  templateOff: "This file is no longer a document template",
  tooManyTags: `A file can have at most ${TAGS_PER_FILE_MAX} tags.`,
} as const;

/**
 * The side panel of a file page: the member's favorite star, the file's tags and metadata, and
 * the "Use as document template" switch. Tags and metadata need the Basic plan (locked controls
 * otherwise) and, like the template switch, the edit right in the file's space; viewers see them
 * read-only.
 */
export function FileDetailsPanel({ fileId, extras, canEdit, fileName = "this file" }: { fileId: string; extras: FileExtras; canEdit: boolean; fileName?: string }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-6 rounded-lg border border-slate-200 bg-white p-4" data-testid="file-details-panel">
      <div className="flex items-center justify-between gap-3">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          Details
        </h2>
        <FavoriteButton itemType="file" itemId={fileId} name={fileName} initial={extras.favorite} isLabelVisible />
      </div>
      {extras.duplicateCount ? (
        <p className="text-sm text-slate-700" data-testid="duplicate-note">
          {extras.duplicateCount === 1 ? "1 other file" : `${extras.duplicateCount} other files`} in this space{" "}
          {extras.duplicateCount === 1 ? "has" : "have"} the same content.{" "}
          <Link to="/files/duplicates" className="font-medium text-brand-700 underline">
            See duplicates
          </Link>
        </p>
      ) : null}
      <TagsSection fileId={fileId} initial={extras.tags} canEdit={canEdit} />
      <MetadataSection fileId={fileId} initial={extras.metadata} canEdit={canEdit} />
      <TemplateSection fileId={fileId} initial={extras.isTemplate} canEdit={canEdit} />
    </section>
  );
}

// ---- tags --------------------------------------------------------------------------------------

function TagChips({ tags, onRemove, isBusy }: { tags: readonly string[]; onRemove?: (tag: string) => void; isBusy?: boolean }) {
  if (tags.length === 0) return <p className="text-sm text-slate-600">No tags yet.</p>;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag} className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pl-3 pr-1 text-sm text-brand-700 ring-1 ring-brand-100">
          <Link to={`/files/tags?tag=${encodeURIComponent(tag)}`} className="hover:underline">
            {tag}
          </Link>
          {onRemove ? (
            <button
              type="button"
              aria-label={`Remove tag ${tag}`}
              disabled={isBusy}
              onClick={() => onRemove(tag)}
              className="inline-flex h-6 w-6 items-center justify-center rounded-full hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-60"
            >
              <span aria-hidden="true" className="material-icons text-[16px] leading-none">
                close
              </span>
            </button>
          ) : (
            <span className="pr-2" />
          )}
        </li>
      ))}
    </ul>
  );
}

function TagsSection({ fileId, initial, canEdit }: { fileId: string; initial: string[]; canEdit: boolean }) {
  const isAllowed = useFeature("basic_editing");
  const [tags, setTags] = useState(initial);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  useEffect(() => setTags(initial), [initial]);

  const save = async (next: string[]): Promise<boolean> => {
    setBusy(true);
    try {
      const body = await http.put<{ tags: string[] }>(`/api/organize/files/${fileId}/tags`, { tags: next });
      setTags(body.tags);
      showToast(detailsMessages.tagsSaved, { type: "success", id: `tags-saved:${fileId}` });
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async () => {
    const parsed = tagSchema.safeParse(draft);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "That is not a valid tag.");
      return;
    }
    if (tags.includes(parsed.data)) {
      setDraft("");
      setError(null);
      return;
    }
    if (tags.length >= TAGS_PER_FILE_MAX) {
      setError(detailsMessages.tooManyTags);
      return;
    }
    setError(null);
    if (await save([...tags, parsed.data])) setDraft("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (!isBusy) void add();
  };

  const isEditable = canEdit && isAllowed;
  return (
    <div className="space-y-2" data-testid="tags-section">
      <h3 className="text-sm font-semibold text-slate-900">Tags</h3>
      <TagChips tags={tags} onRemove={isEditable ? (tag) => void save(tags.filter((other) => other !== tag)) : undefined} isBusy={isBusy} />
      {isEditable ? (
        <Input
          label="Add a tag"
          description={`Press Enter to add. Letters, digits, spaces and - _ . up to ${TAG_MAX_LENGTH} characters.`}
          value={draft}
          maxLength={TAG_MAX_LENGTH * 2}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(null);
          }}
          onKeyDown={onKeyDown}
          error={error}
          aria-busy={isBusy || undefined}
          autoComplete="off"
        />
      ) : canEdit ? (
        <Restricted feature="basic_editing" label="Edit tags">
          <Button variant="secondary" size="sm">
            Edit tags
          </Button>
        </Restricted>
      ) : null}
    </div>
  );
}

// ---- metadata ----------------------------------------------------------------------------------

type MetadataRow = { rowId: number; key: string; value: string };

function MetadataSection({ fileId, initial, canEdit }: { fileId: string; initial: FileExtras["metadata"]; canEdit: boolean }) {
  const isAllowed = useFeature("basic_editing");
  const nextRowId = useRef(0);
  const toRows = (entries: FileExtras["metadata"]): MetadataRow[] => entries.map((entry) => ({ rowId: nextRowId.current++, ...entry }));
  const [saved, setSaved] = useState(initial);
  const [rows, setRows] = useState<MetadataRow[]>(() => toRows(initial));
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const newKeyRef = useRef<HTMLInputElement | null>(null);
  const [focusRow, setFocusRow] = useState<number | null>(null);

  useEffect(() => {
    setSaved(initial);
    setRows(toRows(initial));
    // Only a new loader value resets the rows (toRows is recreated every render on purpose).
  }, [initial]);
  useEffect(() => {
    if (focusRow !== null) newKeyRef.current?.focus();
  }, [focusRow]);

  const isEditable = canEdit && isAllowed;
  if (!isEditable) {
    return (
      <div className="space-y-2" data-testid="metadata-section">
        <h3 className="text-sm font-semibold text-slate-900">Metadata</h3>
        {saved.length === 0 ? (
          <p className="text-sm text-slate-600">No metadata yet.</p>
        ) : (
          <dl className="grid grid-cols-[minmax(0,1fr)_minmax(0,2fr)] gap-x-3 gap-y-1 text-sm">
            {saved.map((entry) => (
              <div key={entry.key} className="contents">
                <dt className="break-words font-medium text-slate-700">{entry.key}</dt>
                <dd className="whitespace-pre-wrap break-words text-slate-900">{entry.value}</dd>
              </div>
            ))}
          </dl>
        )}
        {canEdit ? (
          <Restricted feature="basic_editing" label="Edit metadata">
            <Button variant="secondary" size="sm">
              Edit metadata
            </Button>
          </Restricted>
        ) : null}
      </div>
    );
  }

  const isDirty =
    rows.length !== saved.length || rows.some((row, index) => row.key !== saved[index]?.key || row.value !== saved[index]?.value);
  const update = (rowId: number, change: Partial<MetadataRow>) => {
    setRows((current) => current.map((row) => (row.rowId === rowId ? { ...row, ...change } : row)));
    setError(null);
  };
  const addRow = () => {
    const rowId = nextRowId.current++;
    setRows((current) => [...current, { rowId, key: "", value: "" }]);
    setFocusRow(rowId);
  };
  const save = async () => {
    const entries = rows.map(({ key, value }) => ({ key, value }));
    const parsed = setMetadataSchema.safeParse({ entries });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const rowNumber = typeof issue?.path[1] === "number" ? `Field ${issue.path[1] + 1}: ` : "";
      setError(`${rowNumber}${issue?.message ?? "Check the fields."}`);
      return;
    }
    setBusy(true);
    try {
      const body = await http.put<{ metadata: FileExtras["metadata"] }>(`/api/organize/files/${fileId}/metadata`, { entries: parsed.data.entries });
      setSaved(body.metadata);
      setRows(toRows(body.metadata));
      showToast(detailsMessages.metadataSaved, { type: "success", id: `metadata-saved:${fileId}` });
    } catch {
      // The HTTP client has shown the refusal; the rows stay as typed.
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="space-y-3"
      data-testid="metadata-section"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h3 className="text-sm font-semibold text-slate-900">Metadata</h3>
      {rows.length === 0 ? <p className="text-sm text-slate-600">No metadata yet.</p> : null}
      <ul className="space-y-3">
        {rows.map((row, index) => (
          <li key={row.rowId} className="grid grid-cols-[minmax(0,1fr)_minmax(0,2fr)_auto] items-start gap-2" data-testid="metadata-row">
            <Input
              label={`Key ${index + 1}`}
              isLabelHidden
              placeholder="Key"
              value={row.key}
              maxLength={METADATA_KEY_MAX}
              ref={row.rowId === focusRow ? newKeyRef : undefined}
              onChange={(event) => update(row.rowId, { key: event.target.value })}
            />
            <Textarea
              label={`Value ${index + 1}`}
              isLabelHidden
              placeholder="Value"
              rows={1}
              value={row.value}
              maxLength={METADATA_VALUE_MAX}
              onChange={(event) => update(row.rowId, { value: event.target.value })}
            />
            <button
              type="button"
              aria-label={`Remove field ${row.key.trim() || index + 1}`}
              onClick={() => {
                setRows((current) => current.filter((other) => other.rowId !== row.rowId));
                setError(null);
              }}
              className="mt-1 inline-flex h-8 w-8 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <span aria-hidden="true" className="material-icons text-[20px] leading-none">
                delete
              </span>
            </button>
          </li>
        ))}
      </ul>
      {error ? <Alert variant="error">{error}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={addRow} disabled={rows.length >= METADATA_PER_FILE_MAX}>
          Add field
        </Button>
        <Button type="submit" size="sm" isLoading={isBusy} disabled={!isDirty}>
          Save metadata
        </Button>
      </div>
    </form>
  );
}

// ---- document template -------------------------------------------------------------------------

function TemplateSection({ fileId, initial, canEdit }: { fileId: string; initial: boolean; canEdit: boolean }) {
  const [isTemplate, setTemplate] = useState(initial);
  const [isBusy, setBusy] = useState(false);
  useEffect(() => setTemplate(initial), [initial]);

  if (!canEdit) {
    return isTemplate ? (
      <p className="text-sm text-slate-700">
        This file is a document template.{" "}
        <Link to="/templates" className="font-medium text-brand-700 underline">
          Use it
        </Link>
      </p>
    ) : null;
  }
  const change = async (next: boolean) => {
    if (isBusy) return;
    setTemplate(next);
    setBusy(true);
    try {
      await http.put(`/api/organize/files/${fileId}/template`, { isTemplate: next });
      showToast(next ? detailsMessages.templateOn : detailsMessages.templateOff, { type: "success", id: `template:${fileId}` });
    } catch {
      setTemplate(!next);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Toggle
      label="Use as document template"
      description={
        <>
          Templates are listed on{" "}
          <Link to="/templates" className="underline">
            Document templates
          </Link>
          , where a new document can be started from a copy.
        </>
      }
      checked={isTemplate}
      onCheckedChange={(next) => void change(next)}
    />
  );
}
