import { FILE_NAME_MAX, FOLDER_LABEL_MAX } from "./files.constants";
import type { ItemType } from "./trash.constants";

/**
 * A name with a suffix before a file's extension, kept within the length limit of its type:
 * ("report.pdf", " (2)") → "report (2).pdf", ("Reports", " (restored)") → "Reports (restored)".
 * Used wherever an item lands next to another of the same name (restore, move).
 */
export function nameWithSuffix(name: string, type: ItemType, suffix: string): string {
  const dot = type === "file" ? name.lastIndexOf(".") : -1;
  const hasExtension = dot > 0 && name.length - dot <= 16;
  const stem = hasExtension ? name.slice(0, dot) : name;
  const extension = hasExtension ? name.slice(dot) : "";
  const max = type === "file" ? FILE_NAME_MAX : FOLDER_LABEL_MAX;
  return `${stem.slice(0, Math.max(1, max - suffix.length - extension.length))}${suffix}${extension}`;
}
