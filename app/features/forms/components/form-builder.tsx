import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from "@dnd-kit/core";
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { clsx } from "clsx";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { buttonClassName } from "~/components/ui/button";
import { HttpError, http } from "~/lib/http";
import { definitionProblems, FIELD_TYPE_LABELS, FIELD_TYPES, type FieldType, type FormDefinition, type FormField, freshId, newField, type LogicRule } from "../form-fields";
import { FieldProperties } from "./field-properties";
import { type FileTarget, FormSettingsPanel, type FormSettings } from "./form-settings-panel";
import { LogicEditor } from "./logic-editor";

/**
 * The form builder (issue 37; /forms/create leads here, /forms/{id}/edit opens it): fields added
 * from a palette, reordered by drag and drop or the keyboard (the handle, or the Up and Down
 * buttons), edited in the side panel; logic rules; settings. Every change is one undo step
 * (Ctrl/⌘-Z, or the Undo button) and the draft saves itself a moment after the last change.
 * A template opens here unsaved: the first change makes the member's own copy (no form is made
 * by merely opening the page).
 */

export type BuilderStart = {
  formId: string | null;
  templateId: string | null;
  revision: number;
  title: string;
  description: string;
  definition: FormDefinition;
  status: "draft" | "published" | "closed";
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  publicPath: string | null;
  settings: FormSettings;
};

type Doc = { title: string; description: string; fields: FormField[]; rules: LogicRule[] };
type SaveState = { kind: "saved" | "saving" | "unsaved" | "error"; message?: string };

const SAVE_DELAY_MS = 800;
const UNDO_LIMIT = 100;
const PALETTE: FieldType[] = FIELD_TYPES.filter((type) => type !== "page_break");

export function FormBuilder({ start, fileTargets, caseTypeChoices = [] }: { start: BuilderStart; fileTargets: FileTarget[]; caseTypeChoices?: readonly { id: string; name: string }[] }) {
  const navigate = useNavigate();
  const [doc, setDoc] = useState<Doc>({ title: start.title, description: start.description, fields: start.definition.fields, rules: start.definition.rules });
  const [history, setHistory] = useState<Doc[]>([]);
  const [selected, setSelected] = useState<string | null>(start.definition.fields[0]?.id ?? null);
  const [tab, setTab] = useState<"questions" | "logic" | "settings">("questions");
  const [save, setSave] = useState<SaveState>({ kind: "saved" });
  const [published, setPublished] = useState({ status: start.status, version: start.publishedVersion, pending: start.hasUnpublishedChanges, publicPath: start.publicPath });
  const [publishProblem, setPublishProblem] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const formId = useRef(start.formId);
  const revision = useRef(start.revision);
  const lastStep = useRef<{ key: string; at: number } | null>(null);
  const dirty = useRef(false);

  /** A change: one undo step (typing into the same box within a second is one step). */
  const change = useCallback((update: (current: Doc) => Doc, key = String(Math.random())) => {
    setDoc((current) => {
      const next = update(current);
      const now = Date.now();
      const merge = lastStep.current && lastStep.current.key === key && now - lastStep.current.at < 1_000;
      lastStep.current = { key, at: now };
      if (!merge) setHistory((past) => [...past.slice(-UNDO_LIMIT + 1), current]);
      return next;
    });
    dirty.current = true;
    setSave({ kind: "unsaved" });
  }, []);

  const undo = useCallback(() => {
    setHistory((past) => {
      const previous = past.at(-1);
      if (!previous) return past;
      setDoc(previous);
      dirty.current = true;
      setSave({ kind: "unsaved" });
      setAnnouncement("Undone.");
      lastStep.current = null;
      return past.slice(0, -1);
    });
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === "z") {
        event.preventDefault();
        undo();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [undo]);

  const persist = useCallback(async (current: Doc): Promise<boolean> => {
    setSave({ kind: "saving" });
    try {
      if (!formId.current) {
        const { form } = await http.post<{ form: { id: string; revision: number } }>("/api/forms", { templateId: start.templateId ?? undefined }, { handleErrors: false });
        formId.current = form.id;
        revision.current = form.revision;
        void navigate(`/forms/${form.id}/edit`, { replace: true, preventScrollReset: true, state: { keep: true } });
      }
      const saved = await http.put<{ revision: number }>(`/api/forms/${formId.current}/draft`, { revision: revision.current, title: current.title.trim() || "Untitled form", description: current.description, fields: current.fields, rules: current.rules }, { handleErrors: false });
      revision.current = saved.revision;
      setSave({ kind: "saved" });
      setPublished((state) => ({ ...state, pending: state.version !== null }));
      return true;
    } catch (error) {
      setSave({ kind: "error", message: error instanceof HttpError || error instanceof Error ? error.message : "The draft could not be saved." });
      return false;
    }
  }, [navigate, start.templateId]);

  // The draft saves itself a moment after the last change.
  useEffect(() => {
    if (!dirty.current) return;
    const timer = setTimeout(() => {
      dirty.current = false;
      void persist(doc);
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [doc, persist]);

  // Leaving with unsaved changes asks first.
  useEffect(() => {
    const onLeave = (event: BeforeUnloadEvent) => {
      if (save.kind === "unsaved" || save.kind === "saving") event.preventDefault();
    };
    window.addEventListener("beforeunload", onLeave);
    return () => window.removeEventListener("beforeunload", onLeave);
  }, [save.kind]);

  const problems = useMemo(() => definitionProblems(doc.fields, doc.rules), [doc.fields, doc.rules]);
  const ruleProblems = useMemo(() => {
    const map = new Map<number, string[]>();
    for (const problem of problems) {
      const match = /^rules\.(\d+)/.exec(problem.path);
      if (match) map.set(Number(match[1]), [...(map.get(Number(match[1])) ?? []), problem.message]);
    }
    return map;
  }, [problems]);

  const addField = (type: FieldType) => {
    const id = freshId(type === "page_break" ? "page-" : "q-", doc.fields.map((field) => field.id));
    const at = selected ? doc.fields.findIndex((field) => field.id === selected) + 1 : doc.fields.length;
    change((current) => ({ ...current, fields: [...current.fields.slice(0, at), newField(type, id), ...current.fields.slice(at)] }));
    setSelected(id);
    setAnnouncement(`${FIELD_TYPE_LABELS[type]} added at position ${at + 1}.`);
  };

  const move = (id: string, by: -1 | 1) => {
    const from = doc.fields.findIndex((field) => field.id === id);
    const to = from + by;
    if (from < 0 || to < 0 || to >= doc.fields.length) return;
    change((current) => ({ ...current, fields: arrayMove(current.fields, from, to) }));
    setAnnouncement(`Moved to position ${to + 1} of ${doc.fields.length}.`);
  };

  const remove = (id: string) => {
    const index = doc.fields.findIndex((field) => field.id === id);
    change((current) => ({ ...current, fields: current.fields.filter((field) => field.id !== id), rules: current.rules.filter((rule) => rule.target !== id && !rule.conditions.some((condition) => condition.field === id)) }));
    setSelected(doc.fields[index + 1]?.id ?? doc.fields[index - 1]?.id ?? null);
    setAnnouncement("Field deleted. Press Undo to bring it back.");
  };

  const duplicate = (id: string) => {
    const index = doc.fields.findIndex((field) => field.id === id);
    const copy = { ...doc.fields[index]!, id: freshId("q-", doc.fields.map((field) => field.id)) };
    change((current) => ({ ...current, fields: [...current.fields.slice(0, index + 1), copy, ...current.fields.slice(index + 1)] }));
    setSelected(copy.id);
  };

  const publish = async () => {
    setPublishProblem(null);
    const firstProblem = problems[0]?.message ?? (doc.fields.some((field) => !["heading", "paragraph", "page_break"].includes(field.type)) ? null : "add at least one question.");
    if (firstProblem) {
      setPublishProblem(`The form cannot be published yet: ${firstProblem}`);
      return;
    }
    if (dirty.current || save.kind !== "saved") {
      dirty.current = false;
      if (!(await persist(doc))) return;
    }
    try {
      const { form } = await http.post<{ form: { status: BuilderStart["status"]; publishedVersion: number; publicPath: string } }>(`/api/forms/${formId.current}/publish`, undefined, { handleErrors: false });
      setPublished({ status: form.status, version: form.publishedVersion, pending: false, publicPath: form.publicPath });
      setAnnouncement(`Published as version ${form.publishedVersion}.`);
    } catch (error) {
      setPublishProblem(error instanceof Error ? error.message : "The form could not be published.");
    }
  };

  const selectedField = doc.fields.find((field) => field.id === selected) ?? null;
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const nameOf = (id: unknown) => doc.fields.find((field) => field.id === id)?.label || "Field";
  const positionOf = (id: unknown) => doc.fields.findIndex((field) => field.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, position ${positionOf(active.id)} of ${doc.fields.length}.`,
    onDragOver: ({ active, over }) => (over ? `${nameOf(active.id)} moved to position ${positionOf(over.id)}.` : `${nameOf(active.id)} is no longer over the list.`),
    onDragEnd: ({ active, over }) => (over ? `${nameOf(active.id)} dropped at position ${positionOf(over.id)}.` : `${nameOf(active.id)} dropped.`),
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    change((current) => ({ ...current, fields: arrayMove(current.fields, current.fields.findIndex((field) => field.id === active.id), current.fields.findIndex((field) => field.id === over.id)) }));
  };

  const saveLabel = save.kind === "saved" ? (formId.current ? "All changes saved" : "Not saved yet: your first change makes your copy") : save.kind === "saving" ? "Saving…" : save.kind === "unsaved" ? "Unsaved changes" : `Not saved: ${save.message}`;
  let page = 1;

  return (
    <div className="space-y-6" data-testid="form-builder">
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 flex-1 space-y-2">
          <label htmlFor="form-title" className="sr-only">
            Form title
          </label>
          <input id="form-title" value={doc.title} onChange={(event) => change((current) => ({ ...current, title: event.target.value }), "title")} className="w-full rounded-md border border-transparent px-1 text-2xl font-semibold text-slate-900 hover:border-slate-300 focus-visible:border-slate-400 focus-visible:outline-2 focus-visible:outline-brand-600" maxLength={120} />
          <label htmlFor="form-description" className="sr-only">
            Description
          </label>
          <textarea id="form-description" value={doc.description} placeholder="A few words for the people filling it in (optional)" rows={2} onChange={(event) => change((current) => ({ ...current, description: event.target.value }), "description")} className="w-full rounded-md border border-slate-300 px-2 py-1 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600" />
          <p className={clsx("text-sm", save.kind === "error" ? "font-medium text-red-700" : "text-slate-600")} data-testid="save-state" role={save.kind === "error" ? "alert" : undefined}>
            {saveLabel}
            {save.kind === "error" ? (
              <button type="button" className="ml-2 underline" onClick={() => window.location.reload()}>
                Reload
              </button>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className={buttonClassName({ variant: "secondary" })} onClick={undo} disabled={history.length === 0} aria-keyshortcuts="Control+Z Meta+Z">
            Undo
          </button>
          {formId.current ? (
            <Link to={`/forms/${formId.current}/preview`} className={buttonClassName({ variant: "secondary" })} onClick={async (event) => {
              if (save.kind !== "saved") {
                event.preventDefault();
                dirty.current = false;
                if (await persist(doc)) void navigate(`/forms/${formId.current}/preview`);
              }
            }}>
              Preview
            </Link>
          ) : null}
          <button type="button" className={buttonClassName()} onClick={() => void publish()} data-testid="publish">
            {published.version === null ? "Publish" : "Publish changes"}
          </button>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700" data-testid="publish-state">
        {published.version === null ? (
          <span>Draft: not published yet.</span>
        ) : (
          <>
            <span>
              Version {published.version} is {published.status === "closed" ? "published but closed" : "live"}
              {published.pending ? "; your later changes are not published yet" : ""}.
            </span>
            {published.publicPath ? (
              <a href={published.publicPath} target="_blank" rel="noreferrer" className="font-medium text-brand-700 underline">
                Open the public form
              </a>
            ) : null}
            <Link to={`/forms/${formId.current}/submissions`} className="font-medium text-brand-700 underline">
              Submissions
            </Link>
            <Link to={`/forms/${formId.current}/dashboard`} className="font-medium text-brand-700 underline">
              Dashboard
            </Link>
            <Link to={`/forms/${formId.current}/webhooks`} className="font-medium text-brand-700 underline">
              Webhooks
            </Link>
            <Link to={`/forms/${formId.current}/map-fields`} className="font-medium text-brand-700 underline">
              Map fields
            </Link>
          </>
        )}
      </div>
      {publishProblem ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800" data-testid="publish-problem">
          {publishProblem}
        </p>
      ) : null}
      <div role="tablist" aria-label="Builder" className="flex gap-1 border-b border-slate-200">
        {(["questions", "logic", "settings"] as const).map((name) => (
          <button key={name} type="button" role="tab" id={`tab-${name}`} aria-selected={tab === name} aria-controls={`panel-${name}`} onClick={() => setTab(name)} className={clsx("-mb-px border-b-2 px-3 py-2 text-sm font-medium", tab === name ? "border-brand-600 text-brand-700" : "border-transparent text-slate-700 hover:text-slate-900")}>
            {name === "questions" ? `Questions (${doc.fields.length})` : name === "logic" ? `Logic (${doc.rules.length})` : "Settings"}
          </button>
        ))}
      </div>
      {tab === "questions" ? (
        <div role="tabpanel" id="panel-questions" aria-labelledby="tab-questions" className="grid gap-6 lg:grid-cols-[12rem_minmax(0,1fr)_20rem]">
          <section aria-labelledby="palette-heading" className="space-y-2">
            <h2 id="palette-heading" className="text-sm font-semibold text-slate-900">
              Add a field
            </h2>
            <ul className="grid grid-cols-2 gap-1 lg:grid-cols-1">
              {[...PALETTE, "page_break" as const].map((type) => (
                <li key={type}>
                  <button type="button" className="w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-left text-sm text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600" onClick={() => addField(type)}>
                    {FIELD_TYPE_LABELS[type]}
                  </button>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="fields-heading" className="min-w-0 space-y-2">
            <h2 id="fields-heading" className="text-sm font-semibold text-slate-900">
              Fields, in order
            </h2>
            {doc.fields.length === 0 ? <p className="rounded-md border border-dashed border-slate-300 p-6 text-sm text-slate-700">No fields yet: add one from the list.</p> : null}
            <DndContext
              id="form-builder-fields"
              sensors={sensors}
              collisionDetection={closestCenter}
              onDragEnd={onDragEnd}
              accessibility={{ announcements, screenReaderInstructions: { draggable: "To move a field, press Space or Enter, then the up and down arrow keys, then Space or Enter to drop it, or Escape to cancel." } }}
            >
              <SortableContext items={doc.fields.map((field) => field.id)} strategy={verticalListSortingStrategy}>
                <ol className="space-y-2" aria-label="Fields of the form">
                  {doc.fields.map((field, index) => {
                    if (field.type === "page_break") page += 1;
                    return (
                      <SortableField key={field.id} id={field.id} label={field.label || FIELD_TYPE_LABELS[field.type]}>
                        {(handle) => (
                          <div className={clsx("flex items-center gap-2 rounded-md border bg-white p-2", selected === field.id ? "border-brand-600 ring-1 ring-brand-600" : "border-slate-300", field.type === "page_break" && "border-dashed bg-slate-50")} data-testid="builder-field" data-field-type={field.type}>
                            {handle}
                            <button type="button" className="min-w-0 flex-1 text-left" onClick={() => setSelected(field.id)} aria-pressed={selected === field.id}>
                              <span className="sr-only">Edit </span>
                              <span className="block truncate text-sm font-medium text-slate-900">
                                {field.type === "page_break" ? `Page ${page} starts here` : field.label || <em className="text-slate-500">No label</em>}
                                {field.required ? <span className="ml-1 text-red-700">*</span> : null}
                              </span>
                              <span className="block text-xs text-slate-600">
                                {FIELD_TYPE_LABELS[field.type]}
                                {doc.rules.some((rule) => rule.target === field.id) ? " · has logic" : ""}
                              </span>
                            </button>
                            <div className="flex shrink-0 gap-1">
                              <button type="button" className={buttonClassName({ variant: "ghost", size: "sm" })} onClick={() => move(field.id, -1)} disabled={index === 0} aria-label={`Move ${field.label || FIELD_TYPE_LABELS[field.type]} up`}>
                                ↑
                              </button>
                              <button type="button" className={buttonClassName({ variant: "ghost", size: "sm" })} onClick={() => move(field.id, 1)} disabled={index === doc.fields.length - 1} aria-label={`Move ${field.label || FIELD_TYPE_LABELS[field.type]} down`}>
                                ↓
                              </button>
                              <button type="button" className={buttonClassName({ variant: "ghost", size: "sm" })} onClick={() => duplicate(field.id)} aria-label={`Copy ${field.label || FIELD_TYPE_LABELS[field.type]}`}>
                                Copy
                              </button>
                              <button type="button" className={buttonClassName({ variant: "ghost", size: "sm" })} onClick={() => remove(field.id)} aria-label={`Delete ${field.label || FIELD_TYPE_LABELS[field.type]}`}>
                                Delete
                              </button>
                            </div>
                          </div>
                        )}
                      </SortableField>
                    );
                  })}
                </ol>
              </SortableContext>
            </DndContext>
            {problems.filter((problem) => problem.path.startsWith("fields")).length > 0 ? (
              <ul className="space-y-1 text-sm text-amber-800" aria-label="To finish before publishing">
                {problems
                  .filter((problem) => problem.path.startsWith("fields"))
                  .map((problem) => (
                    <li key={problem.path + problem.message}>{problem.message}</li>
                  ))}
              </ul>
            ) : null}
          </section>
          <section aria-labelledby="properties-heading" className="space-y-2">
            <h2 id="properties-heading" className="text-sm font-semibold text-slate-900">
              {selectedField ? "This field" : "Field settings"}
            </h2>
            {selectedField ? (
              <FieldProperties key={selectedField.id} field={selectedField} onChange={(changes) => change((current) => ({ ...current, fields: current.fields.map((field) => (field.id === selectedField.id ? { ...field, ...changes } : field)) }), `${selectedField.id}:${Object.keys(changes).join()}`)} />
            ) : (
              <p className="text-sm text-slate-700">Choose a field to change its question, help text, checks and whether it is required.</p>
            )}
          </section>
        </div>
      ) : tab === "logic" ? (
        <div role="tabpanel" id="panel-logic" aria-labelledby="tab-logic" className="max-w-3xl">
          <LogicEditor fields={doc.fields} rules={doc.rules} problems={ruleProblems} onChange={(rules) => change((current) => ({ ...current, rules }), "rules")} />
        </div>
      ) : (
        <div role="tabpanel" id="panel-settings" aria-labelledby="tab-settings" className="max-w-2xl">
          {formId.current ? <FormSettingsPanel formId={formId.current} settings={start.settings} fileTargets={fileTargets} asksForFiles={doc.fields.some((field) => field.type === "file")} caseTypeChoices={caseTypeChoices} /> : <p className="text-sm text-slate-700">Make a change to the template first: the settings belong to your own copy.</p>}
        </div>
      )}
    </div>
  );
}

function SortableField({ id, label, children }: { id: string; label: string; children: (handle: ReactNode) => ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  const handle = (
    <button type="button" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Drag ${label}`} className="cursor-grab touch-none rounded-md border border-slate-300 bg-white px-1.5 py-1.5 text-slate-600 hover:bg-slate-50 active:cursor-grabbing">
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-4 w-4">
        <path d="M7 4a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0zm0 6a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0zm-1.5 7.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM16 4a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0zm-1.5 7.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM16 16a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0z" />
      </svg>
    </button>
  );
  return (
    <li ref={setNodeRef} style={{ transform: CSS.Transform.toString(transform), transition }} className={isDragging ? "relative z-10 shadow-md" : undefined}>
      {children(handle)}
    </li>
  );
}
