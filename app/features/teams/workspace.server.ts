import { z } from "zod";
import type { TeamRole } from "~/db/schema";
import { readCookie } from "~/lib/cookies";
import type { ServiceContext } from "~/lib/service-context.server";
import { requireTeam, teamPermissionsFor } from "./team-access.server";
import { modulePermissionsFor, type TeamFilesPermission } from "./team-roles.catalog";
import type { TeamPermission } from "./teams.permissions";
import { findTeamMembership, listTeamsOf } from "./teams.queries.server";

/**
 * The member's workspace (issue 42, ADR 040): their own, or one of their teams'. The choice is a
 * cookie holding the team's id, so it is per browser and costs nothing while it is personal; it is
 * never trusted: the team is read with the member's place in it on every request that uses it, and
 * a team they are no longer in is the personal workspace.
 */

export const WORKSPACE_COOKIE = "strongroom_workspace";
const ONE_YEAR_S = 365 * 24 * 3600;

/** `filesRights`: what the member's place gives in the team's drive (read with the place, for the file pages). */
export type Workspace = { id: string; name: string; role: TeamRole; customRoleName: string | null; permissions: TeamPermission[]; filesRights: TeamFilesPermission[] };

function chosenTeamId(request: Request): string | null {
  const parsed = z.uuid().safeParse(readCookie(request.headers.get("Cookie"), WORKSPACE_COOKIE));
  return parsed.success ? parsed.data : null;
}

const perRequest = new WeakMap<ServiceContext, Map<string, Promise<Workspace | null>>>();

/**
 * The team workspace the member is in now, or null for their own (no query unless a team was
 * chosen). Read once per request: the frame's loader and the page's ask for it side by side.
 */
export function currentWorkspace(ctx: ServiceContext, userId: string, request: Request): Promise<Workspace | null> {
  const teamId = chosenTeamId(request);
  if (!teamId) return Promise.resolve(null);
  let reads = perRequest.get(ctx);
  if (!reads) perRequest.set(ctx, (reads = new Map()));
  const key = `${userId}:${teamId}`;
  let pending = reads.get(key);
  if (!pending) {
    pending = readWorkspace(ctx, userId, teamId);
    reads.set(key, pending);
  }
  return pending;
}

async function readWorkspace(ctx: ServiceContext, userId: string, teamId: string): Promise<Workspace | null> {
  const found = await findTeamMembership(ctx.db, teamId, userId);
  if (!found) return null;
  return {
    id: found.team.id,
    name: found.team.name,
    role: found.role,
    customRoleName: found.customRole?.name ?? null,
    permissions: teamPermissionsFor(found.role, found.customRole),
    filesRights: modulePermissionsFor("files", found.role, found.customRole),
  };
}

/** An API's `?workspace=`: "personal" (things of no team), a team's id, or left out (everything). */
export function workspaceQuery(value: string | undefined): string | null | undefined {
  return value === undefined ? undefined : value === "personal" ? null : value;
}

/** Switches to a team's workspace (404 unless the member is in it) or to their own (null); the Set-Cookie that says so. */
export async function chooseWorkspace(ctx: ServiceContext, userId: string, rawTeamId: unknown, isSecure: boolean): Promise<{ name: string | null; setCookie: string }> {
  const attributes = ["Path=/", "HttpOnly", "SameSite=Lax", ...(isSecure ? ["Secure"] : [])];
  if (rawTeamId === null || rawTeamId === undefined || rawTeamId === "") {
    return { name: null, setCookie: [`${WORKSPACE_COOKIE}=`, "Max-Age=0", ...attributes].join("; ") };
  }
  const { team } = await requireTeam(ctx, userId, rawTeamId, "team.view");
  return { name: team.name, setCookie: [`${WORKSPACE_COOKIE}=${team.id}`, `Max-Age=${ONE_YEAR_S}`, ...attributes].join("; ") };
}

/**
 * Whether a thing of a team (its team's id, null for none) is in a workspace, for lists read in
 * code: a team's holds that team's things; the member's own holds things of no team and of teams
 * they are not in (the same rule as `inPersonalWorkspace` in SQL).
 */
export async function workspaceFilter(ctx: ServiceContext, userId: string, workspace: string | null): Promise<(teamId: string | null) => boolean> {
  if (workspace) return (teamId) => teamId === workspace;
  const mine = new Set((await listTeamsOf(ctx.db, userId)).map((team) => team.id));
  return (teamId) => teamId === null || !mine.has(teamId);
}
