import { z } from "zod";
import { idSchema } from "./files.schema";
import { itemsSchema } from "./trash.schema";

/** POST /api/items/move: files and folders of one space into a folder of the same space. */
export const moveItemsSchema = z.object(
  {
    items: itemsSchema,
    targetFolderId: idSchema,
  },
  { error: "The request body must be an object with items and a targetFolderId." },
);
export type MoveItemsInput = z.input<typeof moveItemsSchema>;
