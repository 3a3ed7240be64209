/**
 * Help articles and release notes are Markdown files shipped with the app (app/content/), each
 * with a small front matter block (`key: value` lines between `---`). Bundled at build time by
 * Vite's glob import: nothing is read at run time. Browser-safe parsing; rendering is server-side.
 */
export type ContentFile = { id: string; meta: Record<string, string>; body: string };

export function parseContent(id: string, source: string): ContentFile {
  const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(source.replace(/\r\n/g, "\n"));
  if (!match) return { id, meta: {}, body: source };
  const meta: Record<string, string> = {};
  for (const line of match[1]!.split("\n")) {
    const index = line.indexOf(":");
    if (index > 0) meta[line.slice(0, index).trim()] = line.slice(index + 1).trim();
  }
  return { id, meta, body: match[2]!.trim() };
}

/** "app/content/help/data-rooms.md" → "data-rooms". */
export function fileId(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");
}
