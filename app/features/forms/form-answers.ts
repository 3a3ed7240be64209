import { cleanReceivedName, fileRefusal } from "~/features/receive/receive-rules";
import { ANSWER_TEXT_MAX, CHOICE_TYPES, DRAWN_PREFIX, FILES_PER_FIELD_MAX, TYPED_PREFIX, type FormDefinition, type FormField, SHORT_TEXT_MAX, SIGNATURE_PATH_MAX, takesAnswer } from "./form-fields";
import { type AnswerValue, type Answers, evaluateLogic, isEmptyAnswer, type LogicState } from "./form-logic";

/**
 * A visitor's answers read and checked against a form (issue 37): shared by the public form in the
 * browser (messages before sending) and the server (which decides). The logic evaluator says which
 * fields are shown and required; answers to anything not shown are dropped, never stored.
 */

export type AnswerErrors = Record<string, string>;
export type CheckedAnswers = { values: Record<string, AnswerValue>; errors: AnswerErrors; state: LogicState };

/** The key under which a problem with the submission as a whole is reported. */
export const FORM_ERROR_KEY = "_form";
/** Turnstile's answer, posted with the form (not a question). */
export const TURNSTILE_FIELD = "cf-turnstile-response";
const isPageKey = (key: string) => key.startsWith("_") || key === TURNSTILE_FIELD;

const EMAIL = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:"]{2,}$/u;
const PHONE = /^\+?[0-9 ().\/-]{6,30}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A drawn signature's strokes ("M x y" starts one, "L x y" goes on), or a typed one: the person's name. */
const SIGNATURE_PATH = /^(?:[ML]\d{1,3}(?:\.\d)? \d{1,3}(?:\.\d)?)+$/;

/** A file as the visitor's browser describes it before sending: its name and size in bytes. */
export type ChosenFile = { name: string; size: number };

/** The files of a file field's raw answer ([{ name, size }]), cleaned and checked against the field, or why not. */
export function readChosenFiles(field: FormField, raw: unknown): { files?: ChosenFile[]; error?: string } {
  if (typeof raw === "string" || (Array.isArray(raw) && raw.some((item) => typeof item === "string"))) {
    // A form posted without JavaScript sends the file's name only: the file itself cannot come that way.
    return raw === "" || (Array.isArray(raw) && raw.every((item) => item === "")) ? { files: [] } : { error: "Sending files needs JavaScript: turn it on, reload the page and choose the file again." };
  }
  if (!Array.isArray(raw) || raw.some((item) => typeof item !== "object" || item === null)) return { error: "Choose the files to send." };
  const most = field.max ?? 1;
  if (raw.length > Math.min(most, FILES_PER_FIELD_MAX)) return { error: `Choose at most ${plural(most, "file")}.` };
  const files: ChosenFile[] = [];
  for (const item of raw as { name?: unknown; size?: unknown }[]) {
    if (typeof item.name !== "string" || item.name.length === 0 || item.name.length > 1_000 || typeof item.size !== "number" || !Number.isSafeInteger(item.size) || item.size < 0) return { error: "Each file needs its name and its size in bytes." };
    const name = cleanReceivedName(item.name);
    const refusal = fileRefusal({ allowedTypes: field.accept ?? [], maxFileMb: field.maxFileMb ?? null }, { name, size: item.size });
    if (refusal) return { error: refusal.replace("this page takes", "this question takes") };
    files.push({ name, size: item.size });
  }
  return { files };
}

function textMax(field: FormField): number {
  const ceiling = field.type === "long_text" ? ANSWER_TEXT_MAX : SHORT_TEXT_MAX;
  return field.max !== undefined ? Math.min(field.max, ceiling) : ceiling;
}

/**
 * One raw answer (a string or strings from a form post, anything from JSON) made into a value, or
 * the reason it cannot be: the shape is checked here, the field's own rules in `fieldError`.
 */
function normalise(field: FormField, raw: unknown): { value?: AnswerValue; error?: string } {
  if (raw === undefined || raw === null) return {};
  if (field.type === "checkbox" || field.type === "consent") {
    const one = Array.isArray(raw) && raw.length === 1 ? raw[0] : raw;
    if (one === true || one === "true" || one === "on" || one === "yes") return { value: "true" };
    if (one === false || one === "false" || one === "") return { value: "" };
    return { error: "Tick the box or leave it." };
  }
  if (field.type === "file") {
    const { files, error } = readChosenFiles(field, raw);
    return error ? { error } : { value: files!.map((file) => file.name) };
  }
  if (field.type === "multi_select") {
    const list = Array.isArray(raw) ? raw : [raw];
    if (list.length > (field.options?.length ?? 0) || list.some((item) => typeof item !== "string")) return { error: "Choose among the listed answers." };
    return { value: (list as string[]).filter((item) => item !== "") };
  }
  const one = Array.isArray(raw) ? (raw.length === 1 ? raw[0] : undefined) : raw;
  if (typeof one === "number" && (field.type === "number" || field.type === "rating" || field.type === "scale") && Number.isFinite(one)) return { value: String(one) };
  if (typeof one !== "string") return { error: "This question takes one answer." };
  if (field.type === "signature") return one.length > SIGNATURE_PATH_MAX + DRAWN_PREFIX.length ? { error: "Draw your signature again: this drawing is too detailed." } : { value: one };
  if (one.length > ANSWER_TEXT_MAX) return { error: `An answer is at most ${ANSWER_TEXT_MAX.toLocaleString("en-US")} characters.` };
  const text = field.type === "long_text" ? one.replace(/\r\n?/g, "\n").trim() : one.trim();
  return { value: text };
}

function validDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.getUTCFullYear() === Number(match[1]) && date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]);
}

const plural = (n: number, one: string) => `${n.toLocaleString("en-US")} ${one}${n === 1 ? "" : "s"}`;

/** Why an answer given to a shown question is not acceptable, or null. */
export function fieldError(field: FormField, value: AnswerValue | undefined, required: boolean): string | null {
  if (isEmptyAnswer(value) || (Array.isArray(value) && value.length === 0)) {
    if (!required) return null;
    if (field.type === "consent") return "Tick this box to go on.";
    if (field.type === "checkbox") return "Tick this box to go on.";
    if (CHOICE_TYPES.includes(field.type)) return "Choose an answer.";
    if (field.type === "file") return "Choose a file to send.";
    if (field.type === "signature") return "Sign here: draw your signature or type your name.";
    return "This question needs an answer.";
  }
  if (field.type === "file") return Array.isArray(value) && value.length <= (field.max ?? 1) ? null : `Choose at most ${plural(field.max ?? 1, "file")}.`;
  if (Array.isArray(value)) {
    const options = field.options ?? [];
    if (value.some((item) => !options.includes(item))) return "Choose among the listed answers.";
    if (new Set(value).size !== value.length) return "Each answer counts once.";
    if (field.min !== undefined && value.length < field.min) return `Choose at least ${plural(field.min, "answer")}.`;
    if (field.max !== undefined && value.length > field.max) return `Choose at most ${plural(field.max, "answer")}.`;
    return null;
  }
  const text = value as string;
  switch (field.type) {
    case "short_text":
    case "long_text":
    case "email":
    case "phone":
    case "url":
    case "hidden": {
      const length = [...text].length;
      if (length > textMax(field)) return `At most ${plural(textMax(field), "character")}.`;
      if (field.type === "hidden") return null;
      if (field.min !== undefined && length < field.min) return `At least ${plural(field.min, "character")}.`;
      if (field.type === "email" && !EMAIL.test(text)) return "Enter an e-mail address such as name@example.com.";
      if (field.type === "phone" && (!PHONE.test(text) || text.replace(/\D/g, "").length < 6)) return "Enter a phone number: digits, spaces and + ( ) - only.";
      if (field.type === "url") {
        let url: URL | null = null;
        try {
          url = new URL(text);
        } catch {
          url = null;
        }
        if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) return "Enter a web address starting with https://.";
      }
      if (field.pattern) {
        let matches = true;
        try {
          matches = new RegExp(`^(?:${field.pattern})$`, "u").test(text);
        } catch {
          matches = true;
        }
        if (!matches) return field.patternMessage || "This answer is not in the form asked for.";
      }
      return null;
    }
    case "number": {
      const number = Number(text);
      if (!/^-?\d+(\.\d+)?$/.test(text) || !Number.isFinite(number)) return "Enter a number, such as 42 or 3.5.";
      if (field.min !== undefined && number < field.min) return `Enter ${field.min.toLocaleString("en-US")} or more.`;
      if (field.max !== undefined && number > field.max) return `Enter ${field.max.toLocaleString("en-US")} or less.`;
      return null;
    }
    case "rating":
    case "scale": {
      const low = field.type === "rating" ? 1 : (field.min ?? 0);
      const high = field.type === "rating" ? (field.max ?? 5) : (field.max ?? 10);
      if (!/^\d{1,2}$/.test(text) || Number(text) < low || Number(text) > high) return `Choose a number from ${low} to ${high}.`;
      return null;
    }
    case "date":
      return validDate(text) ? null : "Enter a date as YYYY-MM-DD.";
    case "time":
      return TIME.test(text) ? null : "Enter a time as HH:MM (24 hours).";
    case "select":
    case "radio":
      return (field.options ?? []).includes(text) ? null : "Choose one of the listed answers.";
    case "checkbox":
    case "consent":
      return text === "true" ? null : "Tick the box or leave it.";
    case "signature":
      if (text.startsWith(DRAWN_PREFIX)) {
        const path = text.slice(DRAWN_PREFIX.length);
        return path.length <= SIGNATURE_PATH_MAX && SIGNATURE_PATH.test(path) && path.includes("L") ? null : "Draw your signature again: this drawing could not be read.";
      }
      if (text.startsWith(TYPED_PREFIX)) {
        const name = text.slice(TYPED_PREFIX.length).trim();
        return name.length >= 2 && [...name].length <= 100 ? null : "Type your full name to sign (2 to 100 characters).";
      }
      return "Sign here: draw your signature or type your name.";
    default:
      return "This field takes no answer.";
  }
}

/**
 * Raw answers (keyed by field id; keys starting with "_" are the page's own and ignored) checked
 * against the form: unknown keys and answers to layout fields are refused, answers to fields not
 * shown are dropped, every shown question is checked. `values` holds what may be stored.
 */
export function checkAnswers(definition: Pick<FormDefinition, "fields" | "rules">, raw: Readonly<Record<string, unknown>>): CheckedAnswers {
  const errors: AnswerErrors = {};
  const byId = new Map(definition.fields.map((field) => [field.id, field]));
  const normalised: Record<string, AnswerValue | undefined> = {};
  for (const [key, rawValue] of Object.entries(raw)) {
    if (isPageKey(key)) continue;
    const field = byId.get(key);
    if (!field || !takesAnswer(field.type)) {
      errors[FORM_ERROR_KEY] ??= `This form has no question “${key.slice(0, 40)}”. Reload the form and try again.`;
      continue;
    }
    const { value, error } = normalise(field, rawValue);
    if (error) errors[key] = error;
    else normalised[key] = value;
  }
  const state = evaluateLogic(definition, normalised as Answers);
  const values: Record<string, AnswerValue> = {};
  for (const field of definition.fields) {
    if (!takesAnswer(field.type) || !state.visible.has(field.id) || errors[field.id]) continue;
    const value = normalised[field.id];
    const error = fieldError(field, value, state.required.has(field.id));
    if (error) errors[field.id] = error;
    else if (!isEmptyAnswer(value)) values[field.id] = value!;
  }
  // An answer to a field that was not shown is dropped even when it was malformed.
  for (const id of Object.keys(errors)) if (id !== FORM_ERROR_KEY && !state.visible.has(id)) delete errors[id];
  return { values, errors, state };
}

/** Raw answers from a form post: one string per field, several for multiple choice. */
export function answersFromFormData(form: FormData, definition: Pick<FormDefinition, "fields">): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  const multi = new Set(definition.fields.filter((field) => field.type === "multi_select").map((field) => field.id));
  const fileFields = new Set(definition.fields.filter((field) => field.type === "file").map((field) => field.id));
  for (const key of new Set(form.keys())) {
    if (isPageKey(key)) continue;
    const entries = form.getAll(key);
    if (fileFields.has(key)) {
      // The browser's chosen files as names and sizes (an empty input posts one nameless file).
      const files = entries.filter((item): item is File => typeof item !== "string" && item.name !== "").map((item) => ({ name: item.name, size: item.size }));
      raw[key] = entries.every((item) => typeof item !== "string") ? files : entries.length === 1 ? entries[0] : entries;
      continue;
    }
    const all = entries.map((item) => (typeof item === "string" ? item : null));
    if (all.some((item) => item === null)) raw[key] = { file: true };
    else raw[key] = multi.has(key) ? all : all.length === 1 ? all[0] : all;
  }
  // An unticked box is not posted at all; the multiple-choice marker keeps "none chosen" visible.
  for (const id of multi) if (form.has(`_multi_${id}`) && !(id in raw)) raw[id] = [];
  // A signature typed instead of drawn (the way to sign without a pointer, or without JavaScript).
  for (const field of definition.fields) {
    if (field.type !== "signature" || (typeof raw[field.id] === "string" && raw[field.id] !== "")) continue;
    const typed = form.get(`_typed_${field.id}`);
    if (typeof typed === "string" && typed.trim() !== "") raw[field.id] = `${TYPED_PREFIX}${typed.trim()}`;
  }
  return raw;
}

/** The value a field starts with: its default, or for a hidden field the address's parameter. */
export function initialValue(field: FormField, params?: URLSearchParams): AnswerValue | undefined {
  if (field.type === "hidden") return params?.get(field.param ?? field.id)?.slice(0, SHORT_TEXT_MAX) ?? (typeof field.defaultValue === "string" ? field.defaultValue : undefined);
  return field.defaultValue;
}
