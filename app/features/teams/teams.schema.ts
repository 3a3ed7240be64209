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
  message: inviteSchema.shape.message,
});

/** A system role, and with "member" optionally one of the team's custom roles (null: none). */
export const teamRoleChangeSchema = z.object({
  role: roleSchema,
  customRoleId: z.uuid({ error: "That custom role does not exist in this team." }).nullish(),
});

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
