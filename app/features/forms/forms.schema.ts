import { z } from "zod";
import { FORM_DESCRIPTION_MAX, FORM_FIELDS_MAX, FORM_TITLE_MAX, formFieldSchema, logicRuleSchema, RULES_MAX } from "./form-definition";
import { THANK_YOU_MAX } from "./forms.constants";

/** What members send about their forms (issue 37); the definition's own checks are in form-definition.ts. */

const title = z.string({ error: "Give the form a title." }).trim().min(1, "Give the form a title.").max(FORM_TITLE_MAX, `A title is at most ${FORM_TITLE_MAX} characters.`);

export const createFormSchema = z.object(
  {
    /** A built-in template's id, or one of the member's own templates (a form id); none: a blank form. */
    templateId: z.string().max(80).optional(),
    title: title.optional(),
  },
  { error: "The request body must be an object (optionally with templateId and title)." },
);

/**
 * A draft save (the builder's autosave): the shape of every field and rule is checked, but a draft
 * may be unfinished (a choice with one option, a rule without its target): publishing checks that.
 */
export const saveDraftSchema = z.object(
  {
    revision: z.number({ error: "revision: the revision this change is based on." }).int().min(1),
    title,
    description: z.string().trim().max(FORM_DESCRIPTION_MAX, `A description is at most ${FORM_DESCRIPTION_MAX.toLocaleString("en-US")} characters.`).default(""),
    fields: z.array(formFieldSchema).max(FORM_FIELDS_MAX, `A form has at most ${FORM_FIELDS_MAX} fields.`),
    rules: z.array(logicRuleSchema).max(RULES_MAX, `A form has at most ${RULES_MAX} rules.`).default([]),
  },
  { error: "The request body must be an object with revision, title, fields and rules." },
);

export const formSettingsSchema = z
  .object(
    {
      isOpen: z.boolean({ error: "isOpen is true or false." }),
      closesAt: z.iso.datetime({ error: "closesAt is a date and time (ISO 8601)." }).nullable(),
      maxSubmissions: z.number({ error: "maxSubmissions is a whole number." }).int().min(1, "The maximum is at least 1 submission.").max(1_000_000).nullable(),
      thankYouMessage: z.string().trim().max(THANK_YOU_MAX, `The thank-you message is at most ${THANK_YOU_MAX.toLocaleString("en-US")} characters.`),
      /** Sites that may show this form's shared submissions in a frame: https origins only. */
      embedOrigins: z
        .array(
          z
            .string()
            .trim()
            .toLowerCase()
            .transform((value) => value.replace(/\/+$/, ""))
            .pipe(z.string().regex(/^https:\/\/[a-z0-9.-]+(:\d{1,5})?$/, "A site is its https origin, such as https://portal.example.com (no path).")),
        )
        .max(10, "At most 10 sites."),
      /** The folder the answers' files go to (the member's or a room's, where they may upload); null: none yet. */
      fileFolderId: z.uuid({ error: "fileFolderId: choose a folder from the list." }).nullable(),
      /** Each submission opens a case of one of the member's case types (Business); null: none. */
      caseTypeId: z.string().min(1).max(64).nullable(),
      /** One submission per e-mail address, proven by a code. */
      verifyEmail: z.boolean({ error: "verifyEmail is true or false." }),
      /** A subfolder per submission. */
      filesPerSubmission: z.boolean({ error: "filesPerSubmission is true or false." }),
      /** A password visitors must enter first; null removes it. */
      password: z.string().min(6, "A password has at least 6 characters.").max(200, "A password is at most 200 characters.").nullable(),
      redirectUrl: z
        .string()
        .trim()
        .max(2000)
        .refine((value) => {
          try {
            return new URL(value).protocol === "https:";
          } catch {
            return false;
          }
        }, "The redirect address must start with https://.")
        .nullable(),
    },
    { error: "The request body must be an object with the settings to change." },
  )
  .partial()
  .refine((changes) => Object.keys(changes).length > 0, "Change at least one setting.");
