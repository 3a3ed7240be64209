import type { SpaceRole } from "~/db/schema/files";

/**
 * What a member may do with the files of a space (typed strings, checked at every entry point).
 * A personal space has one member, its owner. Data rooms (issue 6) map their per-member
 * permissions onto the same strings.
 */
export const SPACE_RIGHTS = ["files.view", "files.download", "files.upload", "files.edit", "files.delete"] as const;
export type SpaceRight = (typeof SPACE_RIGHTS)[number];

/**
 * The role the file manager applies: the member's role, except that everyone only reads an
 * archived data room ("archived": view and download, until it is unarchived) and a space over its
 * owner's plan ("over_plan": the same and deleting, until it fits the plan again; issue 43).
 */
export type EffectiveSpaceRole = SpaceRole | "archived" | "over_plan";

/** A role that only reads, whatever the member's own role is. */
export function isReadOnlyRole(role: EffectiveSpaceRole): boolean {
  return role === "archived" || role === "over_plan";
}

export const ROLE_RIGHTS: Record<EffectiveSpaceRole, readonly SpaceRight[]> = {
  owner: SPACE_RIGHTS,
  editor: SPACE_RIGHTS,
  viewer: ["files.view", "files.download"],
  archived: ["files.view", "files.download"],
  // Deleting stays: it is how what is over comes to fit again.
  over_plan: ["files.view", "files.download", "files.delete"],
};

export function roleHasRight(role: EffectiveSpaceRole, right: SpaceRight): boolean {
  return ROLE_RIGHTS[role].includes(right);
}
