import { z } from "zod";

/** PATCH /api/workspace/preferences: what the member changes about their workspace (each field optional). */
export const workspacePreferencesSchema = z
  .object({
    sidebarCollapsed: z.boolean({ message: "sidebarCollapsed must be true or false." }).optional(),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: "Say what to change, for example { \"sidebarCollapsed\": true }." });

export type WorkspacePreferences = { sidebarCollapsed: boolean };
