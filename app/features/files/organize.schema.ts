import { z } from "zod";
import { FILE_NAME_MAX, METADATA_KEY_MAX, METADATA_PER_FILE_MAX, METADATA_VALUE_MAX, TAG_MAX_LENGTH, TAGS_PER_FILE_MAX } from "./files.constants";
import { idSchema } from "./files.schema";

/**
 * Favorites, tags, metadata and document templates: the schemas shared by the details panel,
 * the API and the services (browser-safe, no bindings).
 */

export const FAVORITE_ITEM_TYPES = ["file", "folder"] as const;
export type FavoriteItemType = (typeof FAVORITE_ITEM_TYPES)[number];

export const favoriteTargetSchema = z.object({
  type: z.enum(FAVORITE_ITEM_TYPES, { error: "A favorite is a file or a folder." }),
  id: idSchema,
});

// ---- tags --------------------------------------------------------------------------------------

/** Letters and digits of any script, spaces and - _ . (after normalisation). */
const TAG_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}\p{M} ._-]*$/u;
export const TAG_CHARACTERS_MESSAGE = "Tags can only contain letters, digits, spaces and - _ . (starting with a letter or digit).";

/** "  Q3   Report " → "q3 report": trimmed, lower-cased, inner whitespace collapsed to one space. */
export function normalizeTag(raw: string): string {
  return raw.normalize("NFC").trim().replace(/\s+/gu, " ").toLowerCase();
}

export const tagSchema = z
  .string({ error: "A tag must be text." })
  .transform(normalizeTag)
  .pipe(
    z
      .string()
      .min(1, "A tag cannot be empty.")
      .max(TAG_MAX_LENGTH, `A tag is at most ${TAG_MAX_LENGTH} characters.`)
      .regex(TAG_PATTERN, TAG_CHARACTERS_MESSAGE),
  );

/** PUT /api/organize/files/:id/tags: the file's whole set of tags (duplicates after normalising merge). */
export const setTagsSchema = z.object({
  tags: z
    .array(tagSchema, { error: "tags must be a list of tags." })
    .max(TAGS_PER_FILE_MAX * 4, `A file can have at most ${TAGS_PER_FILE_MAX} tags.`)
    .transform((tags) => [...new Set(tags)])
    .refine((tags) => tags.length <= TAGS_PER_FILE_MAX, `A file can have at most ${TAGS_PER_FILE_MAX} tags.`),
});
export type SetTagsInput = z.input<typeof setTagsSchema>;

/** The tag filter of the tags page: a tag that does not normalise to a valid one matches nothing. */
export function parseTagFilter(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const result = tagSchema.safeParse(raw);
  return result.success ? result.data : null;
}

// ---- metadata ----------------------------------------------------------------------------------

// Control characters are exactly what is refused.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
// Values may span lines and hold tabs, but nothing else invisible.
const VALUE_CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const metadataEntrySchema = z.object({
  key: z
    .string({ error: "A metadata key must be text." })
    .trim()
    .min(1, "A metadata key cannot be empty.")
    .max(METADATA_KEY_MAX, `A metadata key is at most ${METADATA_KEY_MAX} characters.`)
    .refine((key) => !CONTROL_CHARACTERS.test(key), "A metadata key cannot contain control characters."),
  value: z
    .string({ error: "A metadata value must be text." })
    .trim()
    .max(METADATA_VALUE_MAX, `A metadata value is at most ${METADATA_VALUE_MAX} characters.`)
    .refine((value) => !VALUE_CONTROL_CHARACTERS.test(value), "A metadata value cannot contain control characters."),
});
export type MetadataEntry = z.output<typeof metadataEntrySchema>;

/** PUT /api/organize/files/:id/metadata: the file's whole set of key/value pairs (replaces it). */
export const setMetadataSchema = z.object({
  entries: z
    .array(metadataEntrySchema, { error: "entries must be a list of { key, value } pairs." })
    .max(METADATA_PER_FILE_MAX, `A file can have at most ${METADATA_PER_FILE_MAX} metadata fields.`)
    .superRefine((entries, context) => {
      const seen = new Set<string>();
      for (const [index, entry] of entries.entries()) {
        const folded = entry.key.toLowerCase();
        if (seen.has(folded)) context.addIssue({ code: "custom", path: [index, "key"], message: `The key "${entry.key}" is used twice.` });
        seen.add(folded);
      }
    }),
});
export type SetMetadataInput = z.input<typeof setMetadataSchema>;

// ---- templates ---------------------------------------------------------------------------------

export const setTemplateSchema = z.object({
  isTemplate: z.boolean({ error: "isTemplate must be true or false." }),
});

export const documentNameSchema = z
  .string({ error: "Name is required." })
  .trim()
  .min(1, "Name is required.")
  .max(FILE_NAME_MAX, `Name is at most ${FILE_NAME_MAX} characters.`)
  .refine((name) => !/[\\/]/.test(name) && !CONTROL_CHARACTERS.test(name), "Name cannot contain / or \\.")
  .refine((name) => name !== "." && name !== "..", "Choose another name.");

/** POST /api/organize/templates/:id/copy. */
export const copyTemplateSchema = z.object({
  folderId: idSchema,
  name: documentNameSchema,
});
export type CopyTemplateInput = z.input<typeof copyTemplateSchema>;

/** The extension of a file name (".docx"), or "" when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(dot) : "";
}

/** A new document named "Q3 report" from "letter.docx" becomes "Q3 report.docx". */
export function documentNameFor(name: string, templateName: string): string {
  if (extensionOf(name)) return name;
  const extension = extensionOf(templateName);
  return extension && name.length + extension.length <= FILE_NAME_MAX ? `${name}${extension}` : name;
}
