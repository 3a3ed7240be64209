/**
 * A document's text layer as the marking page searches it (issue 39): per page, the text and,
 * for each of its characters, a box as fractions ×10 000 of the page from its top left (four
 * numbers; -1s for the spaces and line breaks put between runs). Shared by the server that
 * reads it and the page that searches it.
 */
export type TextLayerPage = { text: string; boxes: number[] };

export const BOX_SCALE = 10_000;

export type MatchRect = { page: number; x: number; y: number; w: number; h: number };

/**
 * The marks that cover one match: one rectangle per line it spans, with a little margin so the
 * glyphs' edges are inside (fractions of the page, from the top left).
 */
export function matchRects(page: number, layer: TextLayerPage, start: number, end: number, margin = 0.002): MatchRect[] {
  const lines: { left: number; top: number; right: number; bottom: number }[] = [];
  let current: (typeof lines)[number] | null = null;
  for (let index = start; index < end; index += 1) {
    const [x, y, w, h] = layer.boxes.slice(index * 4, index * 4 + 4) as [number, number, number, number];
    if (layer.text[index] === "\n") current = null;
    if (x < 0) continue;
    const box = { left: x / BOX_SCALE, top: y / BOX_SCALE, right: (x + w) / BOX_SCALE, bottom: (y + h) / BOX_SCALE };
    if (current && Math.abs(box.top - current.top) < (current.bottom - current.top) * 0.6) {
      current.left = Math.min(current.left, box.left);
      current.right = Math.max(current.right, box.right);
      current.top = Math.min(current.top, box.top);
      current.bottom = Math.max(current.bottom, box.bottom);
    } else {
      current = { ...box };
      lines.push(current);
    }
  }
  return lines.map((line) => {
    const x = Math.max(0, line.left - margin);
    const y = Math.max(0, line.top - margin);
    return { page, x, y, w: Math.min(1 - x, line.right - line.left + 2 * margin), h: Math.min(1 - y, line.bottom - line.top + 2 * margin) };
  });
}

/** The search presets (issue 39): what each finds, as the page shows and applies it. */
export const REDACTION_PRESETS = {
  email: { label: "E-mail addresses", pattern: "[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}" },
  phone: { label: "Phone numbers", pattern: "(?<![\\w+])\\+?\\d[\\d ()./-]{6,}\\d(?!\\w)" },
  iban: { label: "IBANs", pattern: "\\b[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\\b" },
  card: { label: "Card numbers", pattern: "\\b(?:\\d[ -]?){12,18}\\d\\b" },
  date: { label: "Dates", pattern: "\\b(?:\\d{4}-\\d{2}-\\d{2}|\\d{1,2}[./]\\d{1,2}[./]\\d{2,4}|\\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \\d{4})\\b" },
} as const;
export type RedactionPreset = keyof typeof REDACTION_PRESETS;

export type TextMatch = { page: number; text: string; rects: MatchRect[] };

/** Every match of a pattern in the document's text layer (at most `limit`). */
export function findMatches(pages: readonly TextLayerPage[], pattern: RegExp, limit = 500): TextMatch[] {
  const global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  const found: TextMatch[] = [];
  pages.forEach((layer, page) => {
    global.lastIndex = 0;
    for (let match = global.exec(layer.text); match && found.length < limit; match = global.exec(layer.text)) {
      if (match[0].length === 0) {
        global.lastIndex += 1;
        continue;
      }
      found.push({ page, text: match[0], rects: matchRects(page, layer, match.index, match.index + match[0].length) });
    }
  });
  return found;
}
