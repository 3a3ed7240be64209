import { z } from "zod";
import { FIELD_TEXT_MAX, FIELDS_MAX, OPTION_MAX, OPTIONS_MAX, RECIPIENT_KINDS, ROLES_MAX, SIGN_FIELD_TYPES } from "./signature-fields";
import { EXPIRY_DAYS_MAX, MESSAGE_MAX, RECIPIENTS_MAX, REMINDER_DAYS_MAX, TITLE_MAX } from "./signatures.constants";

/** The server's checks of what the designer and the sending form send (issue 38). */

const fraction = z.number().min(0, "A field must sit on its page.").max(1, "A field must sit on its page.");

export const signFieldSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "A field id is 1–40 letters, digits, - or _."),
    type: z.enum(SIGN_FIELD_TYPES, { error: `A field is one of: ${SIGN_FIELD_TYPES.join(", ")}.` }),
    roleId: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "Every field belongs to a recipient."),
    page: z.number().int().min(0),
    x: fraction,
    y: fraction,
    w: z.number().min(0.005).max(1),
    h: z.number().min(0.005).max(1),
    required: z.boolean().default(true),
    label: z.string().trim().max(FIELD_TEXT_MAX).default(""),
    options: z.array(z.string().trim().min(1, "An option cannot be empty.").max(OPTION_MAX)).max(OPTIONS_MAX).default([]),
  })
  .refine((field) => !["radio", "dropdown"].includes(field.type) || field.options.length >= 2, { message: "Radio buttons and dropdowns need at least two options.", path: ["options"] })
  .refine((field) => field.x + field.w <= 1.0001 && field.y + field.h <= 1.0001, { message: "A field must sit on its page.", path: ["x"] });

export const signRoleSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
  name: z.string().trim().min(1, "Name each recipient role, like “Buyer”.").max(60),
});

export const fieldsSchema = z.array(signFieldSchema).max(FIELDS_MAX, `A document holds up to ${FIELDS_MAX} fields.`);

export const templateInputSchema = z.object({
  name: z.string().trim().min(1, "Give the template a name.").max(TITLE_MAX),
  roles: z.array(signRoleSchema).min(1, "Add at least one recipient role.").max(ROLES_MAX, `A template has up to ${ROLES_MAX} roles.`),
  fields: fieldsSchema,
});

export const recipientSchema = z.object({
  roleId: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
  name: z.string().trim().min(1, "Enter each recipient's name.").max(120),
  email: z.email("Enter each recipient's e-mail address, like name@example.com.").max(254).transform((email) => email.toLowerCase()),
  kind: z.enum(RECIPIENT_KINDS).default("signer"),
  requireCode: z.boolean().default(false),
});

export const envelopeInputSchema = z.object({
  title: z.string().trim().min(1, "Give the document a title.").max(TITLE_MAX),
  message: z.string().trim().max(MESSAGE_MAX).default(""),
  signingOrder: z.enum(["parallel", "sequential"]).default("parallel"),
  recipients: z.array(recipientSchema).min(1, "Add at least one recipient.").max(RECIPIENTS_MAX, `Send to up to ${RECIPIENTS_MAX} people at once.`),
  fields: fieldsSchema,
  expiresInDays: z.number().int().min(1, "An expiry is 1 to 365 days away.").max(EXPIRY_DAYS_MAX, "An expiry is 1 to 365 days away.").nullable().default(null),
  reminderFirstDays: z.number().int().min(1).max(REMINDER_DAYS_MAX, `Reminders start within ${REMINDER_DAYS_MAX} days.`).nullable().default(null),
  reminderEveryDays: z.number().int().min(1).max(REMINDER_DAYS_MAX, `Reminders repeat at most every ${REMINDER_DAYS_MAX} days.`).nullable().default(null),
});
export type EnvelopeInput = z.output<typeof envelopeInputSchema>;

export const createEnvelopeSchema = envelopeInputSchema.extend({
  /** A PDF of the member's files or the room's, or a template. */
  fileId: z.string().max(64).optional(),
  templateId: z.string().max(64).optional(),
  dataroomId: z.string().max(64).optional(),
  send: z.boolean().default(false),
});

export const declineSchema = z.object({ reason: z.string().trim().min(1, "Say why you decline, so the sender can fix it.").max(1_000) });
export const voidSchema = z.object({ reason: z.string().trim().max(1_000).default("") });
export const signSchema = z.object({
  values: z.record(z.string(), z.union([z.string().max(50_000), z.boolean()])),
  consent: z.literal(true, { error: "Agree to sign electronically first." }),
});
