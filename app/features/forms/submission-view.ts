import type { FormDefinition } from "./form-fields";

/** One submission as its owner, a shared link and a webhook show it: answers in the order of the version's questions, with their labels. */
export type SubmissionView = {
  id: string;
  createdAt: string;
  version: number;
  isTest: boolean;
  /** The answers in the order of the version's fields, with their labels. */
  answers: { fieldId: string; label: string; type: string; value: string | string[] }[];
};

export function submissionView(row: { id: string; createdAt: Date; version: number; isTest: boolean; answers: Record<string, string | string[]> }, definition: FormDefinition | undefined): SubmissionView {
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
  };
}

