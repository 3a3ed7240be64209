import { useId } from "react";
import { formatBytes } from "~/features/files/files.constants";
import { fileLimitLabel, SECRET_FILES_MAX } from "../secrets.constants";

/** "Files (optional)": the files a secret or an answer carries, sealed in the browser as they are sent. */
export function SealedFilesInput({ files, onChange, maxFileMb }: { files: readonly File[]; onChange: (files: File[]) => void; maxFileMb: number }) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        Files (optional)
      </label>
      <p id={`${id}-description`} className="text-sm text-slate-600">
        Up to {SECRET_FILES_MAX} files of {fileLimitLabel(maxFileMb)} each, encrypted in this browser as they are sent.
      </p>
      <input id={id} type="file" multiple aria-describedby={`${id}-description`} onChange={(event) => onChange([...(event.target.files ?? [])])} className="block text-sm text-slate-900" />
      {files.length > 0 ? (
        <ul className="text-sm text-slate-700" data-testid="secret-files">
          {files.map((file) => (
            <li key={`${file.name}-${file.size}`}>
              {file.name} ({formatBytes(file.size)})
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
