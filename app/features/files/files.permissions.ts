import type { SpaceRole } from "~/db/schema/files";

/**
 * What a member may do with the files of a space (typed strings, checked at every entry point).
 * A personal space has one member, its owner. Data rooms (issue 6) map their per-member
 * permissions onto the same strings.
 */
export const SPACE_RIGHTS = ["files.view", "files.download", "files.upload", "files.edit", "files.delete"] as const;
export type SpaceRight = (typeof SPACE_RIGHTS)[number];

/**
 * The role the file manager applies: the member's role, except that everyone reads an archived
 * data room ("archived": view and download only, until it is unarchived).
 */
export type EffectiveSpaceRole = SpaceRole | "archived";

export const ROLE_RIGHTS: Record<EffectiveSpaceRole, readonly SpaceRight[]> = {
  owner: SPACE_RIGHTS,
  editor: SPACE_RIGHTS,
  viewer: ["files.view", "files.download"],
  archived: ["files.view", "files.download"],
};

export function roleHasRight(role: EffectiveSpaceRole, right: SpaceRight): boolean {
  return ROLE_RIGHTS[role].includes(right);
}
