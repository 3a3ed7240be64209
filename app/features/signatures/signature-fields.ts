/**
 * What an e-signature document is made of (issue 38), shared by the designer, the signing page and
 * the server: recipient roles, the fields placed on pages, and the checks of a recipient's values.
 * No zod here (the signing page's first load stays small); the server's schemas wrap these.
 */
import { DRAWN_PREFIX, SIGNATURE_PATH_MAX, TYPED_PREFIX } from "~/features/forms/signature-format";

export const SIGN_FIELD_TYPES = ["signature", "initials", "name", "email", "date", "text", "number", "checkbox", "radio", "dropdown", "stamp"] as const;
export type SignFieldType = (typeof SIGN_FIELD_TYPES)[number];

export const SIGN_FIELD_LABELS: Record<SignFieldType, string> = {
  signature: "Signature",
  initials: "Initials",
  name: "Full name",
  email: "E-mail",
  date: "Date signed",
  text: "Text",
  number: "Number",
  checkbox: "Checkbox",
  radio: "Radio buttons",
  dropdown: "Dropdown",
  stamp: "Company stamp",
};

/** Fields drawn like a signature (a pad, or a typed name). */
export const DRAWN_TYPES: readonly SignFieldType[] = ["signature", "initials"];
/** Fields that pick one of `options`. */
export const CHOICE_TYPES: readonly SignFieldType[] = ["radio", "dropdown"];
/** Fields the signer never types: filled from the recipient and the moment of signing. */
export const AUTOMATIC_TYPES: readonly SignFieldType[] = ["email", "date"];

/** Default size of a new field, as a fraction of the page (x, y from the top left). */
export const DEFAULT_FIELD_SIZE: Record<SignFieldType, { w: number; h: number }> = {
  signature: { w: 0.3, h: 0.07 },
  initials: { w: 0.1, h: 0.05 },
  name: { w: 0.3, h: 0.035 },
  email: { w: 0.3, h: 0.035 },
  date: { w: 0.18, h: 0.035 },
  text: { w: 0.3, h: 0.035 },
  number: { w: 0.15, h: 0.035 },
  checkbox: { w: 0.03, h: 0.022 },
  radio: { w: 0.25, h: 0.08 },
  dropdown: { w: 0.25, h: 0.035 },
  stamp: { w: 0.25, h: 0.09 },
};

export const RECIPIENT_KINDS = ["signer", "approver", "viewer"] as const;
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];
export const RECIPIENT_KIND_LABELS: Record<RecipientKind, string> = {
  signer: "Signer",
  approver: "Approver",
  viewer: "Gets a copy",
};

export type SignRole = { id: string; name: string };

export type SignField = {
  id: string;
  type: SignFieldType;
  roleId: string;
  /** 0-based page index. */
  page: number;
  /** Position and size as fractions of the page, from its top left corner. */
  x: number;
  y: number;
  w: number;
  h: number;
  required: boolean;
  label: string;
  /** Radio and dropdown choices. */
  options: string[];
};

export const FIELDS_MAX = 300;
export const ROLES_MAX = 10;
export const FIELD_TEXT_MAX = 500;
export const OPTION_MAX = 100;
export const OPTIONS_MAX = 20;
export const DECLINE_REASON_MAX = 1000;

export const CHECKED = "true";

/** A field's place clamped onto its page (a field never hangs off an edge). */
export function clampField<T extends Pick<SignField, "x" | "y" | "w" | "h">>(field: T): T {
  const w = Math.min(1, Math.max(0.01, field.w));
  const h = Math.min(1, Math.max(0.01, field.h));
  return { ...field, w, h, x: Math.min(1 - w, Math.max(0, field.x)), y: Math.min(1 - h, Math.max(0, field.y)) };
}

/**
 * An uploaded picture of a signature: "image:" and the SHA-256 of the PNG or JPEG the signer sent
 * to `/api/sign/{token}/signature-image` (kept in R2 under their envelope until it is sealed).
 */
export const IMAGE_PREFIX = "image:";
const IMAGE_VALUE = /^[0-9a-f]{64}$/;

const DRAWN_PATH = /^(?:[ML]\d{1,3}(?:\.\d)? \d{1,3}(?:\.\d)?)+$/;

/** Why a drawn or typed signature cannot be used, or null. */
export function signatureValueProblem(value: string): string | null {
  if (value.startsWith(DRAWN_PREFIX)) {
    const path = value.slice(DRAWN_PREFIX.length);
    return path.length <= SIGNATURE_PATH_MAX && DRAWN_PATH.test(path) && path.includes("L") ? null : "Draw your signature again: this drawing could not be read.";
  }
  if (value.startsWith(IMAGE_PREFIX)) {
    return IMAGE_VALUE.test(value.slice(IMAGE_PREFIX.length)) ? null : "Upload the picture of your signature again: it could not be found.";
  }
  if (value.startsWith(TYPED_PREFIX)) {
    const name = value.slice(TYPED_PREFIX.length).trim();
    return name.length > 0 && name.length <= 120 ? null : "Type your name to sign (up to 120 characters).";
  }
  return "Sign here: draw your signature, type your name or upload a picture of it.";
}

/**
 * The values one recipient may submit, checked against their own fields only (issue 38): a value
 * for anyone else's field, or for a field that does not exist, is refused as a whole. Returns the
 * cleaned values or the first problem per field. Automatic fields (e-mail, date) are filled by the
 * server and may not be sent.
 */
export function checkRecipientValues(
  fields: SignField[],
  roleId: string,
  raw: Record<string, unknown>,
): { values: Record<string, string>; problems: Record<string, string>; foreign: string[] } {
  const own = new Map(fields.filter((field) => field.roleId === roleId).map((field) => [field.id, field]));
  const foreign = Object.keys(raw).filter((id) => !own.has(id) || AUTOMATIC_TYPES.includes(own.get(id)!.type));
  const values: Record<string, string> = {};
  const problems: Record<string, string> = {};
  for (const field of own.values()) {
    if (AUTOMATIC_TYPES.includes(field.type)) continue;
    const given = raw[field.id];
    const value = typeof given === "string" ? given.trim() : given === true ? CHECKED : "";
    if (value === "" || (field.type === "checkbox" && value !== CHECKED)) {
      if (field.required) problems[field.id] = field.type === "checkbox" ? "Tick this box to go on." : DRAWN_TYPES.includes(field.type) ? "Sign here: draw your signature, type your name or upload a picture of it." : `Fill in "${field.label || SIGN_FIELD_LABELS[field.type]}".`;
      continue;
    }
    let problem: string | null = null;
    if (DRAWN_TYPES.includes(field.type)) problem = signatureValueProblem(value);
    else if (CHOICE_TYPES.includes(field.type)) problem = field.options.includes(value) ? null : "Choose one of the options.";
    else if (field.type === "number") problem = /^-?\d{1,15}(?:[.,]\d{1,6})?$/.test(value) ? null : "Enter a number, like 1200 or 12.5.";
    else if (value.length > FIELD_TEXT_MAX) problem = `Keep it under ${FIELD_TEXT_MAX} characters.`;
    if (problem) problems[field.id] = problem;
    else values[field.id] = value;
  }
  return { values, problems, foreign };
}

/** Roles that have at least one field: what "every signer has a field" is checked against. */
export function rolesWithFields(fields: SignField[]): Set<string> {
  return new Set(fields.map((field) => field.roleId));
}
