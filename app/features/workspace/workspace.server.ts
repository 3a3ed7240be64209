import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { findWorkspacePreferences, updateSidebarCollapsed } from "./workspace.queries.server";
import { workspacePreferencesSchema, type WorkspacePreferences } from "./workspace.schema";

/** The member's own workspace preferences (the side navigation folded or open). */
export async function updateWorkspacePreferences(ctx: ServiceContext, userId: string, input: unknown): Promise<WorkspacePreferences> {
  const change = parseInput(workspacePreferencesSchema, input);
  if (change.sidebarCollapsed !== undefined) await updateSidebarCollapsed(ctx.db, userId, change.sidebarCollapsed, ctx.now());
  const row = await findWorkspacePreferences(ctx.db, userId);
  if (!row) throw new AppError("NOT_FOUND", "This account no longer exists.");
  return { sidebarCollapsed: row.sidebarCollapsed };
}
