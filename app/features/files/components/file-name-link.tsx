import { Link } from "react-router";
import { FileGlyph } from "./folder-glyph";

/** A file's name with its type icon, linking to its page: the first cell of every file list. */
export function FileNameLink({ file }: { file: { id: string; name: string; type: string } }) {
  return (
    <Link to={`/files/${file.id}`} className="flex items-center gap-2 font-medium text-slate-900 hover:underline">
      <FileGlyph type={file.type} />
      <span className="break-all">{file.name}</span>
    </Link>
  );
}
