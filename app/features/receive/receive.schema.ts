import { z } from "zod";
import { folderColorSchema } from "~/features/files/files.schema";
import { customAddressSchema } from "~/features/sharing/sharing.schema";
import {
  RECEIVE_FIELD_LABEL_MAX,
  RECEIVE_FIELD_OPTIONS_MAX,
  RECEIVE_FIELDS_MAX,
  RECEIVE_FILES_PER_UPLOADER_MAX,
  RECEIVE_MESSAGE_MAX,
  RECEIVE_TITLE_MAX,
  RECEIVE_TYPES_MAX,
} from "./receive.constants";

export const fieldSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]{1,40}$/, "A field's id is lower-case letters, digits and dashes."),
    type: z.enum(["text", "select", "checkbox", "date"], { error: "A field is text, select, checkbox or date." }),
    label: z.string({ error: "Each field needs a label." }).trim().min(1, "Each field needs a label.").max(RECEIVE_FIELD_LABEL_MAX, `A field's label is at most ${RECEIVE_FIELD_LABEL_MAX} characters.`),
    required: z.boolean().default(false),
    options: z.array(z.string().trim().min(1).max(RECEIVE_FIELD_LABEL_MAX)).max(RECEIVE_FIELD_OPTIONS_MAX, `At most ${RECEIVE_FIELD_OPTIONS_MAX} choices.`).optional(),
  })
  .refine((field) => field.type !== "select" || (field.options?.length ?? 0) >= 2, "A choice field needs at least two choices.");

/** The options a member sets on a receive page (all but the destination may change later). */
const optionsShape = {
  kind: z.enum(["simple", "form"], { error: 'kind is "simple" (a drop zone) or "form" (fields, then files).' }),
  title: z.string({ error: "Give the page a title." }).trim().min(1, "Give the page a title.").max(RECEIVE_TITLE_MAX, `A title is at most ${RECEIVE_TITLE_MAX} characters.`),
  message: z.string().trim().max(RECEIVE_MESSAGE_MAX, `The message is at most ${RECEIVE_MESSAGE_MAX.toLocaleString("en-US")} characters.`),
  folderId: z.uuid({ error: "folderId: Choose the folder the files go to." }),
  deadlineAt: z.iso.datetime({ error: "deadlineAt is a date and time (ISO 8601)." }).nullable(),
  password: z.string().min(6, "A password has at least 6 characters.").max(200).nullable(),
  allowedTypes: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .transform((value) => value.replace(/^\./, ""))
        .pipe(z.string().regex(/^[a-z0-9]{1,10}$/, "A file type is an extension such as pdf or jpg.")),
    )
    .max(RECEIVE_TYPES_MAX, `At most ${RECEIVE_TYPES_MAX} file types.`),
  maxFileMb: z.number().int().min(1, "The largest file is at least 1 MB.").max(100 * 1024).nullable(),
  maxFilesPerUploader: z.number().int().min(1).max(RECEIVE_FILES_PER_UPLOADER_MAX, `At most ${RECEIVE_FILES_PER_UPLOADER_MAX} files per person.`).nullable(),
  perUploaderFolders: z.boolean(),
  requireName: z.boolean(),
  requireEmail: z.boolean(),
  fields: z.array(fieldSchema).max(RECEIVE_FIELDS_MAX, `At most ${RECEIVE_FIELDS_MAX} fields.`),
  /** A form page's questions from one of the member's published forms instead of its own fields. */
  formId: z.uuid({ error: "formId: choose one of your published forms." }).nullable(),
  /** Each submission opens a case of one of the member's case types (Business). */
  caseTypeId: z.string().min(1).max(64).nullable(),
  brandColor: folderColorSchema.nullable(),
  isOpen: z.boolean(),
  slug: customAddressSchema.nullable(),
};

export const createReceivePageSchema = z
  .object({
    ...optionsShape,
    message: optionsShape.message.default(""),
    deadlineAt: optionsShape.deadlineAt.default(null),
    password: optionsShape.password.default(null),
    allowedTypes: optionsShape.allowedTypes.default([]),
    maxFileMb: optionsShape.maxFileMb.default(null),
    maxFilesPerUploader: optionsShape.maxFilesPerUploader.default(null),
    perUploaderFolders: optionsShape.perUploaderFolders.default(false),
    requireName: optionsShape.requireName.default(false),
    requireEmail: optionsShape.requireEmail.default(false),
    fields: optionsShape.fields.default([]),
    formId: optionsShape.formId.default(null),
    caseTypeId: optionsShape.caseTypeId.default(null),
    brandColor: optionsShape.brandColor.default(null),
    isOpen: optionsShape.isOpen.default(true),
    slug: optionsShape.slug.default(null),
  })
  .refine((page) => page.kind === "form" || page.fields.length === 0, { message: "A simple page has no fields: make it a form page to ask for them.", path: ["fields"] })
  .refine((page) => page.kind === "form" || page.formId === null, { message: "A simple page asks no questions: make it a form page to use a form.", path: ["formId"] })
  .refine((page) => page.formId === null || page.fields.length === 0, { message: "The page asks the form's questions: remove its own fields, or choose no form.", path: ["fields"] })
  .refine((page) => !page.perUploaderFolders || page.requireName || page.requireEmail, { message: "Per-person folders are named from the uploader's name or e-mail: ask for one of them.", path: ["perUploaderFolders"] });

/** PATCH: any option but the destination; `password: null` removes it. */
export const updateReceivePageSchema = z
  .object(optionsShape)
  .omit({ folderId: true })
  .partial()
  .refine((changes) => Object.keys(changes).length > 0, "Change at least one option.");

/** A set of fields to reuse ("Settings: receive page forms"). */
export const fieldSetSchema = z.object(
  {
    name: z.string({ error: "Give the set a name." }).trim().min(1, "Give the set a name.").max(RECEIVE_TITLE_MAX, `A name is at most ${RECEIVE_TITLE_MAX} characters.`),
    fields: z.array(fieldSchema).min(1, "Add at least one field.").max(RECEIVE_FIELDS_MAX, `At most ${RECEIVE_FIELDS_MAX} fields.`),
  },
  { error: "The request body must be an object with a name and fields." },
);
