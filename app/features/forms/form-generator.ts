import { type FieldType, type FormDefinition, type FormField, freshId, newField } from "./form-fields";
import { BUILT_IN_TEMPLATES } from "./form-templates";

/**
 * "Generate a form" without a model (issue 37, ADR 030): the offline generator used wherever
 * Workers AI is not bound (npm start, the tests, a deployment without it). It picks the template
 * whose words the sentence uses most, then adds the questions the sentence asks for that the
 * template lacks. Deterministic and browser-safe; the member always reviews the result in the
 * builder before publishing.
 */

export const GENERATE_PROMPT_MAX = 500;

type Extra = { words: RegExp; type: FieldType; label: string; extra?: Partial<FormField> };

/** Questions a sentence may ask for, by the words it uses. */
const EXTRAS: readonly Extra[] = [
  { words: /\b(phone|telephone|mobile|call)\b/i, type: "phone", label: "Phone" },
  { words: /\b(date of birth|birthday|born)\b/i, type: "date", label: "Date of birth" },
  { words: /\b(company|organi[sz]ation|employer|business name)\b/i, type: "short_text", label: "Company" },
  { words: /\b(address|where you live|postal)\b/i, type: "long_text", label: "Address" },
  { words: /\b(website|portfolio|linkedin|url|link)\b/i, type: "url", label: "Website" },
  { words: /\b(rating|rate|stars?|score)\b/i, type: "rating", label: "Your rating", extra: { max: 5 } },
  { words: /\b(budget|amount|price|how much|quantity|number of)\b/i, type: "number", label: "Amount" },
  { words: /\b(when|date|day|deadline)\b/i, type: "date", label: "Date" },
  { words: /\b(time slot|what time|time)\b/i, type: "time", label: "Time" },
  { words: /\b(comments?|message|notes?|anything else|questions?)\b/i, type: "long_text", label: "Anything else?" },
  { words: /\b(consent|gdpr|privacy|agree|terms)\b/i, type: "consent", label: "I agree that my answers are kept to handle my request.", extra: { required: true } },
  { words: /\b(e-?mail)\b/i, type: "email", label: "E-mail", extra: { required: true } },
  { words: /\b(name|who you are)\b/i, type: "short_text", label: "Full name", extra: { required: true } },
];

const normalise = (text: string) => text.toLocaleLowerCase("en-US").replace(/\s+/g, " ").trim();

function scoreOf(sentence: string, keywords: readonly string[]): number {
  return keywords.reduce((score, keyword) => (new RegExp(`\\b${keyword.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "i").test(sentence) ? score + keyword.split(" ").length : score), 0);
}

/** Whether the form already asks this (same kind, or a label with the same first word). */
function alreadyAsks(fields: readonly FormField[], extra: Extra): boolean {
  const first = normalise(extra.label).split(" ")[0]!;
  return fields.some((field) => (field.type === extra.type && !["short_text", "long_text", "date"].includes(field.type)) || normalise(field.label).includes(first));
}

export type GeneratedForm = { title: string; description: string; definition: FormDefinition; templateId: string | null; added: string[] };

export function generateFormOffline(prompt: string): GeneratedForm {
  const sentence = normalise(prompt).slice(0, GENERATE_PROMPT_MAX);
  const ranked = BUILT_IN_TEMPLATES.map((template) => ({ template, score: scoreOf(sentence, template.keywords) })).sort((a, b) => b.score - a.score);
  const best = ranked[0] && ranked[0].score > 0 ? ranked[0].template : null;
  const fields: FormField[] = best ? structuredClone(best.definition.fields) : [];
  const rules = best ? structuredClone(best.definition.rules) : [];
  const added: string[] = [];
  // Without a template the form still asks who is writing.
  const wanted = EXTRAS.filter((extra) => extra.words.test(sentence) || (!best && (extra.type === "email" || extra.label === "Full name")));
  // Who first, then the rest in the order above; consent always last.
  const ordered = [...wanted.filter((extra) => extra.label === "Full name"), ...wanted.filter((extra) => extra.type === "email"), ...wanted.filter((extra) => extra.label !== "Full name" && extra.type !== "email" && extra.type !== "consent"), ...wanted.filter((extra) => extra.type === "consent")];
  for (const extra of ordered) {
    if (alreadyAsks(fields, extra)) continue;
    const field = { ...newField(extra.type, freshId("q-", fields.map((item) => item.id))), label: extra.label, ...extra.extra };
    const consentAt = fields.findIndex((item) => item.type === "consent");
    if (extra.type !== "consent" && consentAt >= 0) fields.splice(consentAt, 0, field);
    else fields.push(field);
    added.push(extra.label);
  }
  const words = prompt.trim().replace(/\s+/g, " ").replace(/[.!?]+$/, "");
  // The sentence itself, cut at a word within 60 characters.
  const cut = words.length <= 60 ? words : words.slice(0, words.lastIndexOf(" ", 60) > 20 ? words.lastIndexOf(" ", 60) : 60).replace(/[\s,:;-]+$/, "");
  const title = best ? best.title : cut ? `${cut.charAt(0).toUpperCase()}${cut.slice(1)}` : "Untitled form";
  return { title, description: best?.description ?? "", definition: { fields, rules }, templateId: best?.id ?? null, added };
}
