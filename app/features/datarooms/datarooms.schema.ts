import { z } from "zod";
import { isAuditAction } from "./audit.constants";
import { DATAROOM_ID_PATTERN } from "./datarooms.constants";

const DAY_MS = 24 * 60 * 60 * 1000;

export { DATAROOM_ID_PATTERN };

export const dataroomIdSchema = z
  .string({ error: "A data room id is required." })
  .trim()
  .refine((value) => value !== "" && value !== "undefined" && value !== "null", "A data room id is required.")
  .refine((value) => DATAROOM_ID_PATTERN.test(value), "A data room id is 36 hexadecimal characters and dashes.");

export function isDataroomId(value: unknown): value is string {
  return dataroomIdSchema.safeParse(value).success;
}

export const DATAROOM_NAME_MAX = 120;
export const DATAROOM_DESCRIPTION_MAX = 2000;

export const dataroomNameSchema = z
  .string({ error: "Name is required." })
  .trim()
  .min(1, "Name is required.")
  .max(DATAROOM_NAME_MAX, `Name is at most ${DATAROOM_NAME_MAX} characters.`)
  .refine((name) => !/[\u0000-\u001f]/.test(name), "Name cannot contain control characters.");

export const dataroomDescriptionSchema = z
  .string({ error: "Description must be text." })
  .trim()
  .max(DATAROOM_DESCRIPTION_MAX, `Description is at most ${DATAROOM_DESCRIPTION_MAX} characters.`);

export const createDataroomSchema = z.object({
  name: dataroomNameSchema,
  description: dataroomDescriptionSchema.optional().default(""),
});

export const updateDataroomSchema = z
  .object({ name: dataroomNameSchema.optional(), description: dataroomDescriptionSchema.optional() })
  .refine((value) => value.name !== undefined || value.description !== undefined, "Send a name or a description to change.");

export const DATAROOM_SORTS = ["updated", "name", "created"] as const;
export const DATAROOM_FILTERS = ["all", "mine", "shared", "archived", "trash"] as const;

/** The index's query: search text, which rooms, sort and direction; anything unknown falls back. */
export const listDataroomsQuerySchema = z.object({
  q: z.string().trim().max(120).optional().catch(undefined),
  filter: z.enum(DATAROOM_FILTERS).optional().catch(undefined).transform((value) => value ?? "all"),
  sort: z.enum(DATAROOM_SORTS).optional().catch(undefined).transform((value) => value ?? "updated"),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
});
export type ListDataroomsQuery = z.output<typeof listDataroomsQuerySchema>;

/** At most this many addresses in one invitation round. */
export const INVITE_BATCH_MAX = 20;
export const INVITE_MESSAGE_MAX = 1000;
export const INVITABLE_ROLES = ["admin", "member", "guest"] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

const addressSchema = z.email({ error: "is not a valid e-mail address" }).max(254);

/**
 * Invite several people at once: `emails` as a list or as one text separated by commas, semicolons,
 * spaces or new lines (what people paste); each address must be valid, duplicates count once.
 */
export const inviteSchema = z.object({
  emails: z
    .union([z.string(), z.array(z.string())], { error: "Enter at least one e-mail address." })
    .transform((value) => (Array.isArray(value) ? value : value.split(/[\s,;]+/)))
    .transform((list) => [...new Set(list.map((email) => email.trim().toLowerCase()).filter((email) => email !== ""))])
    .superRefine((list, check) => {
      if (list.length === 0) check.addIssue({ code: "custom", message: "Enter at least one e-mail address." });
      if (list.length > INVITE_BATCH_MAX) check.addIssue({ code: "custom", message: `Invite at most ${INVITE_BATCH_MAX} people at a time.` });
      const invalid = list.filter((email) => !addressSchema.safeParse(email).success);
      if (invalid.length > 0) check.addIssue({ code: "custom", message: `Not a valid e-mail address: ${invalid.slice(0, 3).join(", ")}.` });
    }),
  // Left out: the room's default role (its settings page).
  role: z.enum(INVITABLE_ROLES, { error: "Choose a role: admin, member or guest." }).optional(),
  message: z
    .string({ error: "The message must be text." })
    .trim()
    .max(INVITE_MESSAGE_MAX, `The message is at most ${INVITE_MESSAGE_MAX} characters.`)
    .optional()
    .default(""),
});

const ACCESS_UNTIL_MAX_DAYS = 5 * 366;

/**
 * Time-limited access (issue 20): the last day someone may use the room, "YYYY-MM-DD" (UTC, the
 * whole day counts), from today up to five years ahead; blank or null means no end. The result is
 * the moment access ends (the day's last millisecond), or null.
 */
export function accessUntilSchema(now: () => Date) {
  return z.preprocess(
    (value) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value),
    z
      .string({ error: "Write the last day as YYYY-MM-DD." })
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "Write the last day as YYYY-MM-DD.")
      .transform((text, context) => {
        const start = Date.parse(`${text}T00:00:00Z`);
        const today = Math.floor(now().getTime() / DAY_MS) * DAY_MS;
        if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== text) {
          context.addIssue({ code: "custom", message: "That date does not exist." });
          return z.NEVER;
        }
        if (start < today) {
          context.addIssue({ code: "custom", message: "Choose today or a later day: access cannot end in the past." });
          return z.NEVER;
        }
        if (start > today + ACCESS_UNTIL_MAX_DAYS * DAY_MS) {
          context.addIssue({ code: "custom", message: "Choose a day within five years." });
          return z.NEVER;
        }
        return new Date(start + DAY_MS - 1);
      })
      .optional()
      .transform((value) => value ?? null),
  );
}

/** The settings page: `{ default_role }`. */
export const defaultRoleSchema = z.object(
  { default_role: z.enum(INVITABLE_ROLES, { error: "Choose a role: admin, member or guest." }) },
  { error: "The request body must be an object with default_role." },
);

export const changeRoleSchema = z.object({ role: z.enum(INVITABLE_ROLES, { error: "Choose a role: admin, member or guest." }) });

export const transferOwnershipSchema = z.object({ user_id: z.string({ error: "Choose the member who becomes the owner." }).min(1, "Choose the member who becomes the owner.") });

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
/** A day "YYYY-MM-DD" (UTC) as the millisecond it starts, or ends (`end`). */
const daySchema = (end: boolean) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: "Dates are written YYYY-MM-DD." })
      .regex(/^\d{4}-\d{2}-\d{2}$/, "Dates are written YYYY-MM-DD.")
      .transform((text, context) => {
        const start = Date.parse(`${text}T00:00:00Z`);
        if (Number.isNaN(start)) {
          context.addIssue({ code: "custom", message: "That date does not exist." });
          return z.NEVER;
        }
        return end ? start + DAY_MS - 1 : start;
      })
      .optional(),
  );

/** The audit log's filters (activities page and GET /api/datarooms/{id}/audit): blank means "any". */
export const auditQuerySchema = z
  .object({
    person: z.preprocess(blankToUndefined, z.uuid({ error: "Choose a person from the list." }).optional()),
    action: z.preprocess(
      blankToUndefined,
      z
        .string()
        .refine((value) => isAuditAction(value), "Choose an action from the list.")
        .optional(),
    ),
    target: z.preprocess(blankToUndefined, z.uuid({ error: "That is not a file or folder id." }).optional()),
    from: daySchema(false),
    to: daySchema(true),
    // A malformed cursor starts from the newest entry.
    cursor: z.coerce.number().int().positive().optional().catch(undefined),
  })
  .refine((value) => value.from === undefined || value.to === undefined || value.from <= value.to, { message: "The start date is after the end date.", path: ["to"] });
