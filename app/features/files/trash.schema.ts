import { z } from "zod";
import { MAX_ITEMS_PER_CALL } from "./trash.constants";

/** One file or folder named by type and id (ids are UUIDs). */
export const itemRefSchema = z.object(
  {
    type: z.enum(["file", "folder"], { error: 'type must be "file" or "folder".' }),
    id: z.uuid({ error: "That is not a valid id." }),
  },
  { error: "Each item must be an object with a type and an id." },
);

export const itemsSchema = z
  .array(itemRefSchema, { error: "items must be a list of { type, id }." })
  .min(1, "Choose at least one item.")
  .max(MAX_ITEMS_PER_CALL, `At most ${MAX_ITEMS_PER_CALL} items can be changed at a time.`)
  // The same item twice is the same request: keep the first.
  .transform((items) => {
    const seen = new Set<string>();
    return items.filter((item) => {
      const key = `${item.type}:${item.id}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  });

/** POST /api/items/delete: to the trash, or for good with `permanent` (always for items already in the trash). */
export const deleteItemsSchema = z.object(
  {
    items: itemsSchema,
    permanent: z.boolean({ error: "permanent must be true or false." }).optional().default(false),
  },
  { error: "The request body must be an object with items." },
);
export type DeleteItemsInput = z.input<typeof deleteItemsSchema>;

/** POST /api/items/restore: items the member deleted, back from the trash. */
export const restoreItemsSchema = z.object({ items: itemsSchema }, { error: "The request body must be an object with items." });
export type RestoreItemsInput = z.input<typeof restoreItemsSchema>;

/** The trash page's query string. A malformed cursor starts from the first page. */
export const trashQuerySchema = z.object({
  cursor: z.string().max(600).optional().catch(undefined),
});
