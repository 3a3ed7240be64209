import { lazy, Suspense, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { CHOICE_TYPES, clampField, DEFAULT_FIELD_SIZE, SIGN_FIELD_LABELS, SIGN_FIELD_TYPES, type SignField, type SignFieldType, type SignRole } from "../signature-fields";

const PdfPages = lazy(() => import("~/features/files/components/pdf-pages").then((module) => ({ default: module.PdfPages })));

/** One colour per role, in order (the designer and the envelope page agree). */
export const ROLE_COLORS = ["#2563eb", "#db2777", "#059669", "#d97706", "#7c3aed", "#0891b2", "#dc2626", "#4d7c0f", "#9333ea", "#475569"];
const colorOf = (roles: SignRole[], roleId: string) => ROLE_COLORS[Math.max(0, roles.findIndex((role) => role.id === roleId)) % ROLE_COLORS.length]!;

const STEP = 0.005;
const BIG_STEP = 0.05;
const pct = (value: number) => `${Math.round(value * 1000) / 10}%`;

let sequence = 0;
function newFieldId(taken: SignField[]): string {
  let id = "";
  do {
    sequence += 1;
    id = `f${Date.now().toString(36)}${sequence}`;
  } while (taken.some((field) => field.id === id));
  return id;
}

type Drag = { id: string; mode: "move" | "resize"; startX: number; startY: number; field: SignField; width: number; height: number };

/**
 * The template designer's canvas (issue 38): the document's pages with the fields placed on
 * them. Add a field for a recipient from the toolbar; move it by dragging or, once selected,
 * with the arrow keys (Shift for bigger steps; Alt with the arrows changes its size); Delete
 * removes it. Every change is announced, and the fields are also listed as buttons below.
 */
export function FieldDesigner({ documentUrl, pageCount, roles, fields, onChange }: { documentUrl: string; pageCount: number; roles: SignRole[]; fields: SignField[]; onChange: (fields: SignField[]) => void }) {
  const [selected, setSelected] = useState<string | null>(null);
  const [roleId, setRoleId] = useState<string>(roles[0]?.id ?? "");
  const [page, setPage] = useState(Math.max(0, pageCount - 1));
  const [announcement, setAnnouncement] = useState("");
  const drag = useRef<Drag | null>(null);
  const activeRole = roles.some((role) => role.id === roleId) ? roleId : (roles[0]?.id ?? "");
  const current = fields.find((field) => field.id === selected) ?? null;

  const update = (id: string, change: Partial<SignField>, say?: string) => {
    onChange(fields.map((field) => (field.id === id ? clampField({ ...field, ...change }) : field)));
    if (say) setAnnouncement(say);
  };
  const remove = (id: string) => {
    onChange(fields.filter((field) => field.id !== id));
    setSelected(null);
    setAnnouncement("Field removed.");
  };
  const add = (type: SignFieldType) => {
    if (!activeRole) return;
    const size = DEFAULT_FIELD_SIZE[type];
    const onPage = fields.filter((field) => field.page === page).length;
    const field = clampField({ id: newFieldId(fields), type, roleId: activeRole, page, x: 0.1 + (onPage % 3) * 0.05, y: 0.7 + ((onPage * 0.06) % 0.2), w: size.w, h: size.h, required: type !== "checkbox", label: "", options: CHOICE_TYPES.includes(type) ? ["Yes", "No"] : [] });
    onChange([...fields, field]);
    setSelected(field.id);
    setAnnouncement(`${SIGN_FIELD_LABELS[type]} added on page ${page + 1} for ${roles.find((role) => role.id === activeRole)?.name}. Move it with the arrow keys.`);
  };

  const onKey = (event: KeyboardEvent<HTMLButtonElement>, field: SignField) => {
    const step = event.shiftKey ? BIG_STEP : STEP;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      if (event.altKey) {
        const next = clampField({ ...field, w: field.w + move[0], h: field.h + move[1] });
        update(field.id, { w: next.w, h: next.h }, `Size ${pct(next.w)} by ${pct(next.h)} of the page.`);
      } else {
        const next = clampField({ ...field, x: field.x + move[0], y: field.y + move[1] });
        update(field.id, { x: next.x, y: next.y }, `Moved to ${pct(next.x)} from the left, ${pct(next.y)} from the top.`);
      }
    } else if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      remove(field.id);
    }
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>, field: SignField, mode: Drag["mode"]) => {
    const frame = (event.currentTarget.closest("[data-page-frame]") as HTMLElement | null) ?? event.currentTarget.parentElement!;
    const box = frame.getBoundingClientRect();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.stopPropagation();
    drag.current = { id: field.id, mode, startX: event.clientX, startY: event.clientY, field, width: box.width, height: box.height };
    setSelected(field.id);
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const active = drag.current;
    if (!active) return;
    const dx = (event.clientX - active.startX) / active.width;
    const dy = (event.clientY - active.startY) / active.height;
    update(active.id, active.mode === "move" ? { x: active.field.x + dx, y: active.field.y + dy } : { w: active.field.w + dx, h: active.field.h + dy });
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3 rounded-md border border-slate-200 bg-slate-50 p-3">
        <label className="text-sm font-medium text-slate-900">
          Add a field for
          <select value={activeRole} onChange={(event) => setRoleId(event.target.value)} className="mt-1 block rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm">
            <RoleOptions roles={roles} />
          </select>
        </label>
        <label className="text-sm font-medium text-slate-900">
          on page
          <select value={page} onChange={(event) => setPage(Number(event.target.value))} className="mt-1 block rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm">
            <PageOptions pageCount={pageCount} />
          </select>
        </label>
        <div className="flex flex-wrap gap-1.5" role="group" aria-label="Field types">
          {SIGN_FIELD_TYPES.map((type) => (
            <Button key={type} type="button" size="sm" variant="secondary" onClick={() => add(type)} disabled={!activeRole}>
              {SIGN_FIELD_LABELS[type]}
            </Button>
          ))}
        </div>
      </div>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <Suspense fallback={<Spinner />}>
          <PdfPages
            url={documentUrl}
            pageCount={pageCount}
            label="The document: fields are placed on its pages"
            overlay={(pageIndex) => (
              <div data-page-frame className="absolute inset-0" onPointerDown={() => setSelected(null)}>
                {fields
                  .filter((field) => field.page === pageIndex)
                  .map((field) => (
                    <button
                      key={field.id}
                      type="button"
                      data-field-id={field.id}
                      aria-label={`${SIGN_FIELD_LABELS[field.type]} for ${roles.find((role) => role.id === field.roleId)?.name ?? "nobody"}, page ${field.page + 1}${field.required ? ", required" : ""}. Arrow keys move it, Alt and arrows resize it, Delete removes it.`}
                      aria-pressed={selected === field.id}
                      className="absolute touch-none overflow-hidden rounded border-2 text-left text-[10px] leading-tight font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-slate-900 aria-pressed:ring-2 aria-pressed:ring-slate-900 sm:text-xs"
                      style={{ left: pct(field.x), top: pct(field.y), width: pct(field.w), height: pct(field.h), borderColor: colorOf(roles, field.roleId), backgroundColor: `${colorOf(roles, field.roleId)}22`, color: colorOf(roles, field.roleId) }}
                      onClick={() => setSelected(field.id)}
                      onKeyDown={(event) => onKey(event, field)}
                      onPointerDown={(event) => onPointerDown(event, field, "move")}
                      onPointerMove={onPointerMove}
                      onPointerUp={onPointerUp}
                    >
                      <span className="px-1">{field.label || SIGN_FIELD_LABELS[field.type]}</span>
                      <span
                        aria-hidden="true"
                        className="absolute right-0 bottom-0 h-3 w-3 cursor-se-resize"
                        style={{ backgroundColor: colorOf(roles, field.roleId) }}
                        onPointerDown={(event) => onPointerDown(event, field, "resize")}
                        onPointerMove={onPointerMove}
                        onPointerUp={onPointerUp}
                      />
                    </button>
                  ))}
              </div>
            )}
          />
        </Suspense>
        <aside className="space-y-3 lg:sticky lg:top-4 lg:self-start" aria-label="The selected field">
          {current ? (
            <FieldProperties field={current} roles={roles} pageCount={pageCount} onChange={(change) => update(current.id, change)} onRemove={() => remove(current.id)} />
          ) : (
            <p className="rounded-md border border-dashed border-slate-300 p-3 text-sm text-slate-700">Select a field to change who fills it in, whether it is required, its label and its size.</p>
          )}
          <div>
            <h3 className="text-sm font-semibold text-slate-900">All fields ({fields.length})</h3>
            <ul className="mt-1 max-h-64 space-y-1 overflow-auto text-sm">
              {fields.map((field) => (
                <li key={field.id}>
                  <button type="button" className="w-full rounded px-2 py-1 text-left hover:bg-slate-100 aria-pressed:bg-slate-200" aria-pressed={selected === field.id} onClick={() => setSelected(field.id)}>
                    <span className="mr-1 inline-block h-2.5 w-2.5 rounded-full" style={{ backgroundColor: colorOf(roles, field.roleId) }} aria-hidden="true" />
                    {field.label || SIGN_FIELD_LABELS[field.type]} · {roles.find((role) => role.id === field.roleId)?.name ?? "nobody"} · page {field.page + 1}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        </aside>
      </div>
    </div>
  );
}

/** The options of a "who fills it in" select, and of a page select (toolbar and properties panel). */
function RoleOptions({ roles }: { roles: SignRole[] }) {
  return roles.map((role) => (
    <option key={role.id} value={role.id}>
      {role.name}
    </option>
  ));
}

function PageOptions({ pageCount }: { pageCount: number }) {
  return Array.from({ length: pageCount }, (_, index) => (
    <option key={index} value={index}>
      {index + 1}
    </option>
  ));
}

function FieldProperties({ field, roles, pageCount, onChange, onRemove }: { field: SignField; roles: SignRole[]; pageCount: number; onChange: (change: Partial<SignField>) => void; onRemove: () => void }) {
  return (
    <div className="space-y-3 rounded-md border border-slate-200 p-3 text-sm">
      <h3 className="font-semibold text-slate-900">{SIGN_FIELD_LABELS[field.type]}</h3>
      <label className="block font-medium text-slate-900">
        Filled in by
        <select value={field.roleId} onChange={(event) => onChange({ roleId: event.target.value })} className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-2 py-1.5">
          <RoleOptions roles={roles} />
        </select>
      </label>
      <label className="flex items-center gap-2 text-slate-900">
        <input type="checkbox" checked={field.required} onChange={(event) => onChange({ required: event.target.checked })} className="h-4 w-4" />
        Required
      </label>
      <label className="block font-medium text-slate-900">
        Label
        <input value={field.label} maxLength={200} onChange={(event) => onChange({ label: event.target.value })} placeholder={SIGN_FIELD_LABELS[field.type]} className="mt-1 block w-full rounded-md border border-slate-400 px-2 py-1.5" />
      </label>
      {CHOICE_TYPES.includes(field.type) ? (
        <label className="block font-medium text-slate-900">
          Options, one per line
          <textarea
            value={field.options.join("\n")}
            rows={4}
            onChange={(event) =>
              onChange({
                options: event.target.value
                  .split("\n")
                  .map((line) => line.trim())
                  .filter(Boolean)
                  .slice(0, 20),
              })
            }
            className="mt-1 block w-full rounded-md border border-slate-400 px-2 py-1.5"
          />
        </label>
      ) : null}
      <label className="block font-medium text-slate-900">
        Page
        <select value={field.page} onChange={(event) => onChange({ page: Number(event.target.value) })} className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-2 py-1.5">
          <PageOptions pageCount={pageCount} />
        </select>
      </label>
      <p className="text-slate-600">
        {pct(field.x)} from the left, {pct(field.y)} from the top; {pct(field.w)} wide, {pct(field.h)} high.
      </p>
      <Button type="button" variant="danger" size="sm" onClick={onRemove}>
        Remove the field
      </Button>
    </div>
  );
}
