import { z } from "zod";
import { inviteSchema } from "~/features/datarooms/datarooms.schema";
import { isRolePermission, ROLE_PERMISSION_KEYS, type RolePermission } from "./team-roles.catalog";
import { ASSIGNABLE_TEAM_ROLES } from "./teams.permissions";

export const TEAM_NAME_MAX = 80;

export const teamNameSchema = z.object({
  name: z
    .string({ error: "Give the team a name." })
    .trim()
    .min(1, "Give the team a name.")
    .max(TEAM_NAME_MAX, `A team name is at most ${TEAM_NAME_MAX} characters.`),
});

const roleSchema = z.enum(ASSIGNABLE_TEAM_ROLES, { error: "Choose a role: admin, member or billing." });

/** The same addresses and message rules as a data room's invitations. */
export const teamInviteSchema = z.object({
  emails: inviteSchema.shape.emails,
  role: roleSchema.optional().default("member"),
  /** Straight into one of the team's custom roles (with role "member"). */
  customRoleId: z.uuid({ error: "That custom role does not exist in this team." }).nullish(),
  message: inviteSchema.shape.message,
});

/** A system role, and with "member" optionally one of the team's custom roles (null: none). */
export const teamRoleChangeSchema = z.object({
  role: roleSchema,
  customRoleId: z.uuid({ error: "That custom role does not exist in this team." }).nullish(),
});

/** Moving something of no team (a room, a form, a page) into a team's workspace. */
export function moveIntoTeamSchema(what: "room" | "form" | "page") {
  const message = `Choose the team to move the ${what} into.`;
  return z.object({ teamId: z.string({ error: message }).min(1, message) });
}

export const transferSchema = z.object({ userId: z.string({ error: "Choose who takes the team over." }).min(1, "Choose who takes the team over.").max(64) });

export const CUSTOM_ROLE_NAME_MAX = 40;
export const CUSTOM_ROLE_DESCRIPTION_MAX = 300;
/** How many custom roles one team may have. */
export const CUSTOM_ROLES_PER_TEAM = 50;

/** A custom role as the editor sends it; the permissions' needs are checked by the service (team-roles.server.ts). */
export const customRoleSchema = z.object({
  name: z
    .string({ error: "Give the role a name." })
    .trim()
    .min(1, "Give the role a name.")
    .max(CUSTOM_ROLE_NAME_MAX, `A role's name is at most ${CUSTOM_ROLE_NAME_MAX} characters.`),
  description: z.string().trim().max(CUSTOM_ROLE_DESCRIPTION_MAX, `A role's description is at most ${CUSTOM_ROLE_DESCRIPTION_MAX} characters.`).optional().default(""),
  permissions: z
    .array(z.string().refine(isRolePermission, { error: (issue) => `“${String(issue.input)}” is not a permission a role can have.` }), { error: "Choose the role's permissions." })
    .max(ROLE_PERMISSION_KEYS.length, "That is more permissions than there are.")
    .transform((list) => [...new Set(list)] as RolePermission[]),
});

/** A retention period in words ("forever", "90 days"). */
export const retentionLabel = (days: number) => (days === 0 ? "forever" : days === 1 ? "1 day" : `${days} days`);

/** Logs kept at least this long when a period is set (0 keeps them forever). */
export const MIN_RETENTION_DAYS = 7;
export const MAX_RETENTION_DAYS = 3650;

export const retentionSchema = z.object({
  days: z.coerce
    .number({ error: `Say how many days to keep logs: 0 (forever) or ${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}.` })
    .int(`Say how many days to keep logs: 0 (forever) or ${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}.`)
    .refine((days) => days === 0 || (days >= MIN_RETENTION_DAYS && days <= MAX_RETENTION_DAYS), {
      error: `Keep logs 0 days (forever) or between ${MIN_RETENTION_DAYS} and ${MAX_RETENTION_DAYS} days.`,
    }),
});

export const legalHoldSchema = z.object({
  reason: z
    .string({ error: "Say why the hold is placed (a matter, a request): it is shown with the hold." })
    .trim()
    .min(1, "Say why the hold is placed (a matter, a request): it is shown with the hold.")
    .max(300, "A hold's reason is at most 300 characters."),
});
