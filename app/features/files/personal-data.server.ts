import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { listMemberFilesAndFolders, listOwnedSpaceKeys, type ExportFolderRow } from "./personal-data.queries.server";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** "Reports/2026" for a folder (its labels below the space root); "" for the root itself. */
function folderPaths(folders: ExportFolderRow[]): Map<string, string> {
  const byId = new Map(folders.map((folder) => [folder.id, folder]));
  const paths = new Map<string, string>();
  const pathOf = (id: string, depth = 0): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const folder = byId.get(id);
    if (!folder || folder.kind === "root" || depth > 64) return "";
    const parent = folder.parentId ? pathOf(folder.parentId, depth + 1) : "";
    const path = parent ? `${parent}/${folder.label}` : folder.label;
    paths.set(id, path);
    return path;
  };
  for (const folder of folders) pathOf(folder.id);
  return paths;
}

/**
 * Files and folders: the export lists the member's files (in the spaces they own and their
 * uploads elsewhere) and folders with their paths; erasure hands back the R2 keys of everything
 * stored in the spaces they own. The rows need no deleting here: spaces cascade from the users
 * row (then folders, files, versions, tags, metadata, uploads), which the accounts source deletes
 * last. Files the member uploaded into someone else's data room belong to that room and stay.
 */
export const filesPersonalData = definePersonalDataSource({
  name: "files-and-folders",
  async export(ctx, userId) {
    const { files, folders } = await listMemberFilesAndFolders(ctx.db, userId);
    if (files.length === 0 && folders.length === 0) return [];
    const paths = folderPaths(folders);
    return [
      {
        path: "files/files.json",
        description: "Your files: name, size, type, where they are, when they were added, and whether they are in the trash.",
        data: files.map((file) => ({
          name: file.name,
          size: file.size,
          type: file.contentType,
          space: file.spaceName,
          folder: paths.get(file.folderId) ?? "",
          version: file.version,
          uploadedByYou: Boolean(file.isOwnUpload),
          createdAt: iso(file.createdAt),
          updatedAt: iso(file.updatedAt),
          trashedAt: iso(file.trashedAt),
        })),
      },
      {
        path: "files/folders.json",
        description: "Your folders: path, kind, colour, icon, when they were created, and whether they are in the trash.",
        data: folders
          .filter((folder) => folder.kind !== "root")
          .map((folder) => ({
            path: paths.get(folder.id) ?? folder.label,
            kind: folder.kind,
            color: folder.color,
            icon: folder.icon,
            createdByYou: folder.createdBy === userId,
            createdAt: iso(folder.createdAt),
            trashedAt: iso(folder.trashedAt),
          }))
          .sort((a, b) => a.path.localeCompare(b.path)),
      },
    ];
  },
  async erase(ctx, userId) {
    return { r2Keys: await listOwnedSpaceKeys(ctx.db, userId) };
  },
});
