import { CHOICE_TYPES, type FormField, takesAnswer } from "./form-fields";

/**
 * "Map fields" without a model (issue 37, ADR 030): which question of a form fills which field of
 * a PDF's own form, by how alike their labels are. Pure and deterministic; the member reviews
 * every pair. Workers AI, where bound, proposes instead and is checked against the same lists.
 */

/** A fillable field of a document: its name, what it shows people (a tooltip, else the name), its kind and choices. */
export type MappingTarget = { name: string; label: string; type: "text" | "checkbox" | "choice"; options?: string[] };
export type MappingPair = { target: string; fieldId: string | null; score: number };

/** Below this, a pair is not proposed (the member can still choose it). */
export const MAPPING_THRESHOLD = 0.55;

const STOP_WORDS = new Set(["the", "a", "an", "of", "your", "you", "and", "or", "to", "for", "in", "on", "please", "enter", "field", "is", "are", "what", "which"]);

/** Words of a label or a field name: camelCase and separators split, lower-case, without filler words. */
export function labelWords(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0 && !STOP_WORDS.has(word));
}

function bigrams(text: string): string[] {
  const grams: string[] = [];
  for (let index = 0; index < text.length - 1; index += 1) grams.push(text.slice(index, index + 2));
  return grams;
}

function dice<T>(a: readonly T[], b: readonly T[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const pool = [...b];
  let shared = 0;
  for (const item of a) {
    const at = pool.indexOf(item);
    if (at >= 0) {
      shared += 1;
      pool.splice(at, 1);
    }
  }
  return (2 * shared) / (a.length + b.length);
}

/** How alike two labels are, 0 to 1: the better of shared words and shared letter pairs. */
export function labelSimilarity(a: string, b: string): number {
  const wordsA = labelWords(a);
  const wordsB = labelWords(b);
  return Math.max(dice(wordsA, wordsB), dice(bigrams(wordsA.join("")), bigrams(wordsB.join(""))));
}

/** Whether a question's answer can go into a target of that kind. */
export function fits(field: Pick<FormField, "type">, target: Pick<MappingTarget, "type">): boolean {
  if (!takesAnswer(field.type) || field.type === "file" || field.type === "signature") return false;
  if (target.type === "checkbox") return field.type === "checkbox" || field.type === "consent";
  if (target.type === "choice") return CHOICE_TYPES.includes(field.type) || field.type === "short_text";
  return field.type !== "checkbox" && field.type !== "consent";
}

/** For each target, the question whose label (or id) is most alike, when alike enough. */
export function suggestMapping(fields: readonly FormField[], targets: readonly MappingTarget[]): MappingPair[] {
  return targets.map((target) => {
    let best: MappingPair = { target: target.name, fieldId: null, score: 0 };
    for (const field of fields) {
      if (!fits(field, target)) continue;
      const score = Math.max(labelSimilarity(field.label, target.label), labelSimilarity(field.id, target.name), labelSimilarity(field.label, target.name));
      if (score > best.score) best = { target: target.name, fieldId: field.id, score: Math.round(score * 100) / 100 };
    }
    return best.score >= MAPPING_THRESHOLD ? best : { target: target.name, fieldId: null, score: best.score };
  });
}
