import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { AppError } from "~/lib/errors";
import { handTeamThingsToOwners, listTeamsOwnedBy, loadTeamDataOf } from "./teams.queries.server";

/**
 * Teams in a member's export: the teams they are in with their role, and what they did in them.
 * An account that owns a team is not deleted until the team is handed over (others work in it);
 * erasure hands the forms and receive pages they made in teams' workspaces to each team's owner,
 * takes the member out of every team (the users row's cascade) and keeps the teams' activity
 * readable with the address it had.
 */
export const teamsPersonalData = definePersonalDataSource({
  name: "teams",
  async export(ctx, userId) {
    const { memberships, events } = await loadTeamDataOf(ctx.db, userId);
    if (memberships.length + events.length === 0) return [];
    return [
      {
        path: "teams/teams.json",
        description: "The teams you are in with your role there, and what you did in them.",
        data: {
          teams: memberships.map((team) => ({ id: team.id, name: team.name, role: team.role, owner: team.ownerName })),
          activity: events.map((event) => ({ teamId: event.teamId, at: event.at.toISOString(), action: event.action, target: event.targetName, detail: event.detail })),
        },
      },
    ];
  },
  async assertErasable(ctx, userId) {
    const owned = await listTeamsOwnedBy(ctx.db, userId);
    if (owned.length === 0) return;
    const names = owned.map((team) => `"${team.name}"`).join(", ");
    throw new AppError("CONFLICT", `You own the team${owned.length === 1 ? "" : "s"} ${names}. Hand ${owned.length === 1 ? "it" : "each"} over to someone in it on its team page before you delete your account.`);
  },
  async erase(ctx, userId) {
    // What they made in teams' workspaces stays with the teams (their owners); it runs before the
    // other modules erase the member's own. Memberships go with the users row (cascade); the
    // activity keeps the address it was written with.
    const handed = await handTeamThingsToOwners(ctx.db, userId);
    if (handed > 0) ctx.logger.info("team things handed to their owners", { count: handed });
    return { r2Keys: [] };
  },
});
