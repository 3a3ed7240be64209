import { DRAWN_PREFIX, SIGNATURE_HEIGHT, SIGNATURE_WIDTH, TYPED_PREFIX } from "../signature-format";

/** A signature as its readers see it (the owner, a shared or embedded view): the drawing, or the typed name. */
export function SignatureView({ value }: { value: string }) {
  if (value.startsWith(DRAWN_PREFIX)) {
    return (
      <svg viewBox={`0 0 ${SIGNATURE_WIDTH} ${SIGNATURE_HEIGHT}`} role="img" aria-label="Drawn signature" className="h-20 w-60 rounded border border-slate-200 bg-white" data-testid="signature-drawn">
        <path d={value.slice(DRAWN_PREFIX.length)} fill="none" stroke="#0f172a" strokeWidth={2.5} strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    );
  }
  return (
    <span>
      <span className="font-serif text-lg italic">{value.slice(value.startsWith(TYPED_PREFIX) ? TYPED_PREFIX.length : 0)}</span> <span className="text-xs text-slate-600">(typed signature)</span>
    </span>
  );
}
