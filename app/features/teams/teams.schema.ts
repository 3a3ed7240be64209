import { z } from "zod";
import { inviteSchema } from "~/features/datarooms/datarooms.schema";
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

export const teamRoleChangeSchema = z.object({ role: roleSchema });

export const transferSchema = z.object({ userId: z.string({ error: "Choose who takes the team over." }).min(1, "Choose who takes the team over.").max(64) });
