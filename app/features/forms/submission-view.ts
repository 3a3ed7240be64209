import type { FormDefinition } from "./form-fields";

/** One submission as its owner, a shared link and a webhook show it: answers in the order of the version's questions, with their labels. */
export type SubmissionView = {
  id: string;
  createdAt: string;
  version: number;
  isTest: boolean;
  /** The answers in the order of the version's fields, with their labels. */
  answers: { fieldId: string; label: string; type: string; value: string | string[] }[];
  /** The files sent with it: the file each became (null while on its way, or when it never arrived; outside views never get it). */
  files: { fieldId: string; name: string; size: number; fileId: string | null }[];
  /** Files still on their way. */
  filesPending: boolean;
};

type Row = { id: string; createdAt: Date; version: number; isTest: boolean; answers: Record<string, string | string[]>; files?: { fieldId: string; name: string; size: number; fileId: string | null }[]; settledAt?: Date | null };

export function submissionView(row: Row, definition: FormDefinition | undefined, options: { outside?: boolean } = {}): SubmissionView {
  const fields = definition?.fields ?? [];
  const known = new Set(fields.map((field) => field.id));
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    version: row.version,
    isTest: row.isTest,
    answers: [
      ...fields.filter((field) => row.answers[field.id] !== undefined).map((field) => ({ fieldId: field.id, label: field.label || field.id, type: field.type, value: row.answers[field.id]! })),
      ...Object.entries(row.answers)
        .filter(([id]) => !known.has(id))
        .map(([id, value]) => ({ fieldId: id, label: id, type: "short_text", value })),
    ],
    files: (row.files ?? []).map((file) => ({ fieldId: file.fieldId, name: file.name, size: file.size, fileId: options.outside ? null : file.fileId })),
    filesPending: (row.files ?? []).length > 0 && !row.settledAt,
  };
}

