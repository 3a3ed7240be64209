/**
 * Entry names of a folder zip (S16). Labels and file names are member input, so every path
 * segment is cleaned before it reaches the archive: no "..", ".", empty segment, separator,
 * leading slash or control character survives (no zip-slip when the archive is extracted), and
 * two items that would land on the same path are told apart with " (2)", " (3)" …
 */

export type ZipFolderInput = { id: string; parentId: string | null; label: string };
export type ZipFileInput = { id: string; folderId: string; name: string };

export type ZipPaths = {
  /** Folder id → its directory path in the archive ("" for the downloaded folder itself). */
  folders: Map<string, string>;
  /** File id → its entry name. */
  files: Map<string, string>;
};

const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;

/** One path segment: never a separator, never a traversal, never empty. */
export function sanitizeSegment(value: string): string {
  const cleaned = value
    .normalize("NFC")
    .replace(CONTROL_CHARS, "")
    .replace(/[/\\]/g, "_")
    .trim();
  if (cleaned === "" || /^\.+$/.test(cleaned)) return "_";
  return cleaned;
}

function withSuffix(segment: string, n: number, isFile: boolean): string {
  if (!isFile) return `${segment} (${n})`;
  const dot = segment.lastIndexOf(".");
  if (dot <= 0) return `${segment} (${n})`;
  return `${segment.slice(0, dot)} (${n})${segment.slice(dot)}`;
}

function join(directory: string, segment: string): string {
  return directory === "" ? segment : `${directory}/${segment}`;
}

/**
 * Paths for every folder below `rootId` and every file in them. Folders come first (parents
 * before children, as listed by depth), so a file never takes the name of a folder; names are
 * compared without case, as Windows and macOS extract them.
 */
export function zipPaths(rootId: string, folders: ZipFolderInput[], files: ZipFileInput[]): ZipPaths {
  const used = new Set<string>();
  const claim = (directory: string, name: string, isFile: boolean): string => {
    const segment = sanitizeSegment(name);
    let candidate = join(directory, segment);
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = join(directory, withSuffix(segment, n, isFile));
    used.add(candidate.toLowerCase());
    return candidate;
  };

  const folderPaths = new Map<string, string>([[rootId, ""]]);
  const pending = folders.filter((folder) => folder.id !== rootId);
  // Parents first, whatever order the rows came in (a folder whose parent is unknown is skipped).
  let progressed = true;
  while (pending.length > 0 && progressed) {
    progressed = false;
    for (let index = 0; index < pending.length; index++) {
      const folder = pending[index]!;
      const parentPath = folder.parentId === null ? undefined : folderPaths.get(folder.parentId);
      if (parentPath === undefined) continue;
      folderPaths.set(folder.id, claim(parentPath, folder.label, false));
      pending.splice(index, 1);
      index--;
      progressed = true;
    }
  }

  const filePaths = new Map<string, string>();
  for (const file of files) {
    const directory = folderPaths.get(file.folderId);
    if (directory === undefined) continue;
    filePaths.set(file.id, claim(directory, file.name, true));
  }
  return { folders: folderPaths, files: filePaths };
}
