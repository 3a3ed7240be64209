import type { ServiceContext } from "~/lib/service-context.server";
import { personalRootFolderId, type Crumb } from "./folders.server";
import { findBreadcrumbs } from "./folders.queries.server";
import { folderNotFound, requireFolderAccess } from "./spaces.server";

export type NewFolderTarget = { parent: Crumb; crumbs: Crumb[] };

/**
 * Where the new-folder page creates its folder: the folder named by ?parent= (the caller must be
 * allowed to edit there), or the member's personal root when none is named.
 */
export async function getNewFolderTarget(ctx: ServiceContext, userId: string, parentParam: string | null): Promise<NewFolderTarget> {
  const parentId = parentParam ? parentParam.trim() : await personalRootFolderId(ctx, userId);
  if (parentId === "" || parentId.length > 64) throw folderNotFound();
  await requireFolderAccess(ctx, userId, parentId, "files.edit");
  const crumbs = (await findBreadcrumbs(ctx.db, parentId)).map((row) => ({ uid: row.id, label: row.label, kind: row.kind }));
  const parent = crumbs.at(-1);
  if (!parent) throw folderNotFound();
  return { parent, crumbs };
}
