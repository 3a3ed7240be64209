import { z } from "zod";
import { FILE_NAME_MAX, FILE_SORTS, FOLDER_LABEL_MAX, SORT_DIRECTIONS } from "./files.constants";
import { COLOR_FORMAT_MESSAGE, parseFolderColor } from "./folder-color";
import { isMaterialIconName } from "./material-icons";

/** Folder uids and file ids are UUIDs. */
export const idSchema = z.uuid({ error: "That is not a valid id." });

export const folderLabelSchema = z
  .string({ error: "Label is required." })
  .trim()
  .min(1, "Label is required.")
  .max(FOLDER_LABEL_MAX, `Label is at most ${FOLDER_LABEL_MAX} characters.`)
  .refine((label) => !/[\\/]/.test(label) && !/[\u0000-\u001f]/.test(label), "Label cannot contain / or \\.");

/** A file name as members see it: 1..255 characters, no slash, backslash or control characters. */
export const fileNameSchema = z
  .string({ error: "The file needs a name." })
  .trim()
  .min(1, "The file needs a name.")
  .refine((name) => [...name].length <= FILE_NAME_MAX, `A file name is at most ${FILE_NAME_MAX} characters.`)
  .refine((name) => !/[\\/]/.test(name) && !/[\u0000-\u001f\u007f]/.test(name), "A file name cannot contain / or \\ or control characters.")
  .refine((name) => name !== "." && name !== "..", "That is not a valid file name.");

/** PATCH /api/files/{id}: a new name for the file. */
export const renameFileSchema = z.object({ name: fileNameSchema }, { error: "The request body must be an object with a name." });

/** Empty or absent means no colour; otherwise any accepted format, stored as canonical hex. */
export const folderColorSchema = z
  .union([z.string(), z.null()], { error: COLOR_FORMAT_MESSAGE })
  .optional()
  .transform((value, context) => {
    if (value === undefined || value === null || value.trim() === "") return null;
    const hex = parseFolderColor(value);
    if (hex === null) {
      context.addIssue({ code: "custom", message: COLOR_FORMAT_MESSAGE });
      return z.NEVER;
    }
    return hex;
  });

export const folderIconSchema = z
  .union([z.string(), z.null()], { error: "Choose an icon from the list." })
  .optional()
  .transform((value, context) => {
    if (value === undefined || value === null || value.trim() === "") return null;
    if (!isMaterialIconName(value.trim())) {
      context.addIssue({ code: "custom", message: "Choose an icon from the list." });
      return z.NEVER;
    }
    return value.trim();
  });

/** PATCH /folder/{uid} (spec §7). */
export const updateFolderSchema = z.object({
  label: folderLabelSchema,
  color: folderColorSchema,
  icon: folderIconSchema,
});
export type UpdateFolderInput = z.input<typeof updateFolderSchema>;

export const createFolderSchema = z.object({
  parentId: idSchema,
  label: folderLabelSchema,
  color: folderColorSchema,
  icon: folderIconSchema,
  kind: z.enum(["regular", "gallery"], { error: "Kind must be regular or gallery." }).optional().default("regular"),
});
export type CreateFolderInput = z.input<typeof createFolderSchema>;

export const listQuerySchema = z.object({
  sort: z.enum(FILE_SORTS).catch("name"),
  dir: z.enum(SORT_DIRECTIONS).catch("asc"),
  cursor: z.string().max(600).optional().catch(undefined),
  fcursor: z.string().max(600).optional().catch(undefined),
  q: z.string().trim().max(100).optional().catch(undefined),
});
export type ListQuery = z.output<typeof listQuerySchema>;
