import { DRAWN_PREFIX, type FormDefinition, TYPED_PREFIX } from "./form-fields";

/** An answer as one line of text (a list's cell, a CSV column): choices joined, a ticked box "Yes", a signature said, not drawn. */
export function answerText(value: string | string[] | undefined): string {
  if (value === undefined) return "";
  if (Array.isArray(value)) return value.join(", ");
  if (value === "true") return "Yes";
  if (value.startsWith(DRAWN_PREFIX)) return "Signed (drawn)";
  if (value.startsWith(TYPED_PREFIX)) return `Signed (typed): ${value.slice(TYPED_PREFIX.length)}`;
  return value;
}

/** One submission as its owner, a shared link and a webhook show it: answers in the order of the version's questions, with their labels. */
export type SubmissionView = {
  id: string;
  createdAt: string;
  version: number;
  isTest: boolean;
  /** The answers in the order of the version's fields, with their labels. */
  answers: { fieldId: string; label: string; type: string; value: string | string[] }[];
  /** The files sent with it: the file each became (null while on its way, or when it never arrived; outside views never get it). */
  files: { fieldId: string; name: string; size: number; fileId: string | null; arrived: boolean }[];
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
    files: (row.files ?? []).map((file) => ({ fieldId: file.fieldId, name: file.name, size: file.size, fileId: options.outside ? null : file.fileId, arrived: file.fileId !== null })),
    filesPending: (row.files ?? []).length > 0 && !row.settledAt,
  };
}

