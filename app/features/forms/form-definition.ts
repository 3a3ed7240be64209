import { z } from "zod";
import {
  CONDITION_OPERATORS,
  definitionProblems,
  FIELD_HELP_MAX,
  FIELD_LABEL_MAX,
  FIELD_OPTIONS_MAX,
  FIELD_TYPES,
  FORM_FIELDS_MAX,
  type Condition,
  type FormDefinition,
  type FormField,
  type LogicRule,
  OPTION_MAX,
  PATTERN_MAX,
  RULE_ACTIONS,
  RULES_MAX,
  CONDITIONS_MAX,
  SHORT_TEXT_MAX,
  ACCEPT_TYPES_MAX,
} from "./form-fields";

export * from "./form-fields";

/**
 * A form's definition checked at the boundary (issue 37): the zod schemas for a field, a rule and a
 * whole definition. The server parses every saved draft and every published version with them.
 */

export const FIELD_ID_PATTERN = /^[a-z][a-z0-9_-]{0,39}$/;

const idSchema = z.string({ error: "Each field needs an id." }).regex(FIELD_ID_PATTERN, "A field's id starts with a letter, then lower-case letters, digits, _ and -, at most 40.");
const optionalText = (max: number, what: string) => z.string().trim().max(max, `${what} is at most ${max.toLocaleString("en-US")} characters.`).optional();

export const formFieldSchema = z.object({
  id: idSchema,
  type: z.enum(FIELD_TYPES, { error: "That is not a kind of field this form builder has." }),
  label: z.string({ error: "Each field needs a label." }).trim().max(FIELD_LABEL_MAX, `A label is at most ${FIELD_LABEL_MAX} characters.`),
  help: optionalText(FIELD_HELP_MAX, "Help text"),
  placeholder: optionalText(OPTION_MAX, "A placeholder"),
  defaultValue: z.union([z.string().max(SHORT_TEXT_MAX), z.array(z.string().max(OPTION_MAX)).max(FIELD_OPTIONS_MAX)]).optional(),
  required: z.boolean().default(false),
  options: z.array(z.string().trim().min(1, "A choice cannot be empty.").max(OPTION_MAX, `A choice is at most ${OPTION_MAX} characters.`)).max(FIELD_OPTIONS_MAX, `At most ${FIELD_OPTIONS_MAX} choices.`).optional(),
  /** Text: length; number, scale: value; multi-select: how many choices; rating: stars (max). */
  min: z.number().finite().optional(),
  max: z.number().finite().optional(),
  pattern: z.string().max(PATTERN_MAX, `A pattern is at most ${PATTERN_MAX} characters.`).optional(),
  patternMessage: optionalText(OPTION_MAX, "A pattern's message"),
  /** Hidden fields: the address's query parameter they are filled from (the field's id when unset). */
  param: z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, "A parameter name is letters, digits, _, . and -.").optional(),
  /** File fields: the extensions taken (none: any), and the largest file in MB. */
  accept: z
    .array(z.string().trim().toLowerCase().transform((value) => value.replace(/^\./, "")).pipe(z.string().regex(/^[a-z0-9]{1,10}$/, "A file type is its extension, such as pdf or jpg.")))
    .max(ACCEPT_TYPES_MAX, `At most ${ACCEPT_TYPES_MAX} file types.`)
    .optional(),
  maxFileMb: z.number().int("The largest file is a whole number of MB.").min(1, "The largest file is at least 1 MB.").max(5_000, "The largest file is at most 5,000 MB.").optional(),
});

export const conditionSchema = z.object({
  field: idSchema,
  operator: z.enum(CONDITION_OPERATORS, { error: "That is not a comparison the logic knows." }),
  value: z.string().max(OPTION_MAX).optional(),
});

export const logicRuleSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/, "A rule's id is lower-case letters, digits and dashes."),
  match: z.enum(["all", "any"]).default("all"),
  conditions: z.array(conditionSchema).min(1, "A rule needs at least one condition.").max(CONDITIONS_MAX, `At most ${CONDITIONS_MAX} conditions in a rule.`),
  action: z.enum(RULE_ACTIONS, { error: "A rule shows, hides, requires a field or skips to a page." }),
  /** show, hide, require: a field's id; skip: a page break's id (the page it starts) or "end". */
  target: z.string().min(1, "Say what the rule acts on.").max(40),
});

export const formDefinitionSchema = z
  .object(
    {
      fields: z.array(formFieldSchema).max(FORM_FIELDS_MAX, `A form has at most ${FORM_FIELDS_MAX} fields.`),
      rules: z.array(logicRuleSchema).max(RULES_MAX, `A form has at most ${RULES_MAX} rules.`).default([]),
    },
    { error: "A form's definition is an object with fields and rules." },
  )
  .superRefine((definition, context) => {
    for (const problem of definitionProblems(definition.fields, definition.rules)) {
      context.addIssue({ code: "custom", message: problem.message, path: problem.path.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part)) });
    }
  });


// The schemas and the hand-written types describe the same thing (a drift does not compile).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const SCHEMAS_MATCH_TYPES: [Same<z.infer<typeof formFieldSchema>, FormField>, Same<z.infer<typeof conditionSchema>, Condition>, Same<z.infer<typeof logicRuleSchema>, LogicRule>, Same<z.infer<typeof formDefinitionSchema>, FormDefinition>] = [true, true, true, true];
