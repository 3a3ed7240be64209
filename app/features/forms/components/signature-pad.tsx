import { useEffect, useRef, useState, type PointerEvent } from "react";
import { DRAWN_PREFIX, SIGNATURE_HEIGHT, SIGNATURE_PATH_MAX, SIGNATURE_WIDTH } from "../form-fields";

/**
 * A drawn signature (issue 37): strokes with a mouse, a finger or a pen on a 600 × 200 pad, kept
 * as an SVG path ("M x y" starts a stroke, "L x y" goes on) in the hidden input the form posts.
 * People who cannot or would rather not draw type their full name in the field below it (that
 * also works without JavaScript); a drawing, when there is one, is what is sent.
 */

const round = (value: number) => Math.round(Math.min(999, Math.max(0, value)) * 10) / 10;

export function SignaturePad({ id, name, describedBy, invalid, initial, onChange }: { id: string; name: string; describedBy?: string; invalid: boolean; initial?: string; onChange: () => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [path, setPath] = useState(initial?.startsWith(DRAWN_PREFIX) ? initial.slice(DRAWN_PREFIX.length) : "");
  const typed = initial && !initial.startsWith(DRAWN_PREFIX) ? initial.replace(/^typed:/, "") : "";

  // The canvas shows the path (also after a failed submission brings it back).
  useEffect(() => {
    const context = canvas.current?.getContext("2d");
    if (!context) return;
    context.clearRect(0, 0, SIGNATURE_WIDTH, SIGNATURE_HEIGHT);
    context.lineWidth = 2.5;
    context.lineCap = "round";
    context.lineJoin = "round";
    context.strokeStyle = "#0f172a";
    context.stroke(new Path2D(path));
  }, [path]);

  useEffect(() => onChange(), [path, onChange]);

  const point = (event: PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return `${round(((event.clientX - box.left) / box.width) * SIGNATURE_WIDTH)} ${round(((event.clientY - box.top) / box.height) * SIGNATURE_HEIGHT)}`;
  };
  const extend = (segment: string) => setPath((current) => (current.length + segment.length > SIGNATURE_PATH_MAX ? current : current + segment));

  return (
    <div className="space-y-2">
      <canvas
        ref={canvas}
        id={id}
        width={SIGNATURE_WIDTH}
        height={SIGNATURE_HEIGHT}
        role="img"
        aria-label={path ? "Your drawn signature" : "Signature pad: draw your signature here"}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        className="block aspect-[3/1] w-full max-w-xl touch-none rounded-md border border-dashed border-slate-500 bg-white aria-[invalid=true]:border-red-700"
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          drawing.current = true;
          extend(`M${point(event)}`);
        }}
        onPointerMove={(event) => {
          if (drawing.current) extend(`L${point(event)}`);
        }}
        onPointerUp={() => {
          drawing.current = false;
        }}
        onPointerCancel={() => {
          drawing.current = false;
        }}
      />
      <input type="hidden" name={name} value={path.includes("L") ? `${DRAWN_PREFIX}${path}` : ""} />
      <div className="flex flex-wrap items-end gap-3">
        <button type="button" className="text-sm font-medium text-brand-700 underline" onClick={() => setPath("")}>
          Clear the drawing
        </button>
        <label className="block text-sm text-slate-900">
          Or type your full name to sign
          <input name={`_typed_${name}`} defaultValue={typed} autoComplete="name" maxLength={100} onChange={onChange} className="mt-1 block w-64 max-w-full rounded-md border border-slate-400 bg-white px-3 py-2 font-serif text-base italic text-slate-900" />
        </label>
      </div>
    </div>
  );
}
