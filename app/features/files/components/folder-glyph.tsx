import "material-icons/iconfont/filled.css";
import { clsx } from "clsx";
import type { FolderKind } from "~/db/schema/files";

const KIND_ICONS: Record<FolderKind, string> = {
  root: "folder",
  regular: "folder",
  inbox: "move_to_inbox",
  outbox: "outbox",
  gallery: "photo_library",
};

/**
 * A folder's visual: its Material icon (or the kind's default) drawn in its colour. The icon font
 * is self-hosted from the pinned `material-icons` package (no CDN) and only loads on file pages.
 */
export function FolderGlyph({ color, icon, kind, className }: { color: string | null; icon: string | null; kind: FolderKind; className?: string }) {
  return (
    <span
      aria-hidden
      className={clsx("material-icons select-none leading-none", className)}
      style={{ color: color ?? "#64748b" }}
    >
      {icon ?? KIND_ICONS[kind]}
    </span>
  );
}

/** The icon of a file type (Material names), for list rows and grid tiles. */
export function fileIconName(type: string): string {
  if (type === "application/pdf") return "picture_as_pdf";
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("video/")) return "movie";
  if (type.startsWith("audio/")) return "audio_file";
  if (type.startsWith("text/")) return "description";
  if (type.includes("zip") || type.includes("compressed")) return "folder_zip";
  return "insert_drive_file";
}

export function FileGlyph({ type, className }: { type: string; className?: string }) {
  return (
    <span aria-hidden className={clsx("material-icons select-none leading-none text-slate-500", className)}>
      {fileIconName(type)}
    </span>
  );
}
