import { LIMIT_LABELS, TIER_LABELS, UNLIMITED, type LimitName, type Tier } from "~/features/access/access.constants";
import { effectiveLimits, type AddonQuantities } from "~/features/access/access-check";
import { loadMemberAccess, tierLimits } from "~/features/access/access.server";
import { listTierRows } from "~/features/access/access.queries.server";
import { countOwnedDatarooms } from "~/features/datarooms/datarooms.queries.server";
import { countSeats } from "~/features/datarooms/members.queries.server";
import { listOwnedSpaces, readSpaceUsage } from "~/features/files/storage.queries.server";
import { countSeatsTaken, listTeamsOwnedBy } from "~/features/teams/teams.queries.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";

/**
 * What would be over the limits on another plan (issue 43): before a trial ends, a downgrade or an
 * add-on removal, the member sees each limit their things would pass — their data rooms, each
 * space's storage, files and folders, each room's members and guests, each team's seats — with
 * the numbers. Nothing is deleted on a smaller plan; the existing limit checks refuse adding more
 * until it fits.
 */

/** One limit passed; `spaceId` names the space (a room, a drive, one's files) when it is about one. */
export type OverLimit = { limit: LimitName; where: string | null; spaceId: string | null; current: number; allowed: number; text: string };

const MB = 1024 * 1024;

/** One limit passed, in words: "Falcon: 5 members; Free allows 3 members per data room". */
function over(tierLabel: string, limit: LimitName, where: string | null, current: number, allowed: number, spaceId: string | null = null): OverLimit[] {
  if (allowed === UNLIMITED || current <= allowed) return [];
  const label = LIMIT_LABELS[limit];
  const counted = limit === "max_dataroom_storage_mb" ? `${current.toLocaleString("en-US")} MB in use` : `${current.toLocaleString("en-US")} ${(current === 1 ? label.one : label.many).replace(" per data room", "")}`;
  return [{ limit, where, spaceId, current, allowed, text: `${where ? `${where}: ` : ""}${counted}; ${tierLabel} allows ${allowed.toLocaleString("en-US")} ${allowed === 1 ? label.one : label.many}` }];
}

/** The member's things over `tier`'s limits (with their add-ons, or `addons`), biggest spaces first. */
export async function previewPlanChange(ctx: ServiceContext, userId: string, tier: Tier, addons?: AddonQuantities): Promise<{ tierLabel: string; over: OverLimit[] }> {
  const [rows, access, rooms, spaces, teams] = await Promise.all([listTierRows(ctx.db), loadMemberAccess(ctx, userId), countOwnedDatarooms(ctx.db, userId), listOwnedSpaces(ctx.db, userId), listTeamsOwnedBy(ctx.db, userId)]);
  const row = rows.find((candidate) => candidate.name === tier);
  if (!row) throw new AppError("NOT_FOUND", "That plan does not exist.");
  const limits = effectiveLimits(tierLimits(row), addons ?? access.addons);
  const now = ctx.now();
  const label = TIER_LABELS[tier];
  const found: OverLimit[] = [...over(label, "max_datarooms", null, rooms, limits.max_datarooms)];
  // Each space's usage and each room's and team's seats, read side by side.
  const perSpace = await Promise.all(
    spaces.map(async (space) => {
      const name = space.kind === "personal" ? "My files" : space.name;
      const [usage, seats] = await Promise.all([readSpaceUsage(ctx.db, space.id), space.kind === "dataroom" ? countSeats(ctx.db, space.id, now) : null]);
      const usedMb = Math.ceil((usage.fileBytes + usage.versionBytes + usage.reservedBytes) / MB);
      return [
        ...over(label, "max_dataroom_storage_mb", name, usedMb, limits.max_dataroom_storage_mb, space.id),
        ...over(label, "max_dataroom_files", name, usage.fileCount, limits.max_dataroom_files, space.id),
        ...over(label, "max_dataroom_folders", name, usage.folderCount, limits.max_dataroom_folders, space.id),
        ...(seats ? [...over(label, "max_dataroom_members", name, seats.members, limits.max_dataroom_members, space.id), ...over(label, "max_dataroom_guests", name, seats.guests, limits.max_dataroom_guests, space.id)] : []),
      ];
    }),
  );
  const perTeam = await Promise.all(teams.map(async (team) => over(label, "max_team_seats", team.name, await countSeatsTaken(ctx.db, team.id, now), limits.max_team_seats)));
  found.push(...perSpace.flat(), ...perTeam.flat());
  return { tierLabel: label, over: found };
}
