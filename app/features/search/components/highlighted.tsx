/** Text with the index's match markers (\u0001…\u0002) shown as <mark>: never parsed as HTML. */
export function Highlighted({ text }: { text: string }) {
  const parts = text.split(/(\u0001[^\u0002]*\u0002)/);
  return (
    <>
      {parts.map((part, index) =>
        part.startsWith("\u0001") ? (
          <mark key={index} className="rounded-sm bg-amber-100 px-0.5 text-slate-900">
            {part.slice(1, -1)}
          </mark>
        ) : (
          part.replaceAll("\u0001", "").replaceAll("\u0002", "")
        ),
      )}
    </>
  );
}
