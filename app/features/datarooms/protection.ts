import { z } from "zod";
import type { DataroomPermission } from "./datarooms.permissions";

/**
 * A data room's protection settings (issue 20, "Security settings"): watermarking burned in by the
 * server, download protection (view only) and print protection. Held by the room's authority with
 * the roster (its decisions carry them), copied to D1 `datarooms.protection`. Shared by the server,
 * the Durable Object and the security page, so no server imports here.
 *
 * Whom they apply to: everyone who cannot manage the room's settings. The owner and admins could
 * switch them off at any moment, so marking their own copies would prove nothing.
 */

export const WATERMARK_POSITIONS = ["tiled", "center", "top", "bottom"] as const;
export type WatermarkPosition = (typeof WATERMARK_POSITIONS)[number];
export const WATERMARK_POSITION_LABELS: Record<WatermarkPosition, string> = {
  tiled: "Tiled across the page (diagonal)",
  center: "Once, across the middle (diagonal)",
  top: "Along the top edge",
  bottom: "Along the bottom edge",
};

export const WATERMARK_VARIABLES = ["email", "date", "time", "ip", "room"] as const;
export type WatermarkVariable = (typeof WATERMARK_VARIABLES)[number];

export const WATERMARK_TEMPLATE_MAX = 200;
export const WATERMARK_FONT_SIZE = { min: 8, max: 64 } as const;
export const WATERMARK_OPACITY = { min: 0.05, max: 0.8 } as const;

export type WatermarkSettings = { template: string; opacity: number; fontSize: number; position: WatermarkPosition };

export type RoomProtection = {
  /** null: no watermark. */
  watermark: WatermarkSettings | null;
  /** View only: nobody but the room's managers downloads (previews only; zips refused). */
  downloadProtection: boolean;
  /** The viewer hides pages from print and offers no print (a deterrent, not a guarantee). */
  printProtection: boolean;
};

/** Said when download protection refuses a download or a zip. */
export const DOWNLOAD_PROTECTED_MESSAGE = "Downloading is turned off in this data room: you can view its files here, but not download them.";
/** Said when a folder zip is asked for by someone the watermark applies to. */
export const WATERMARK_ZIP_MESSAGE =
  "Folder downloads are off while this data room's watermarking is on, because a zip would hold unmarked copies. Download the files one at a time: each carries your watermark.";
/** Said when a file that cannot carry the mark is previewed while watermarking is on. */
export const WATERMARK_UNSUPPORTED_MESSAGE =
  "This data room's watermarking is on, and only PDFs, JPEG and PNG images can carry the watermark, so this file cannot be shown here. Download it if your permissions allow it.";

export const DEFAULT_WATERMARK: WatermarkSettings = {
  template: "{{email}} - {{date}} {{time}} UTC - {{ip}}",
  opacity: 0.2,
  fontSize: 18,
  position: "tiled",
};

export const NO_PROTECTION: RoomProtection = { watermark: null, downloadProtection: false, printProtection: false };

const VARIABLE = /\{\{\s*([a-z]+)\s*\}\}/g;

const templateSchema = z
  .string({ error: "Write the watermark's text." })
  .trim()
  .min(1, "Write the watermark's text.")
  .max(WATERMARK_TEMPLATE_MAX, `Keep the watermark's text to ${WATERMARK_TEMPLATE_MAX} characters.`)
  .superRefine((template, check) => {
    for (const match of template.matchAll(VARIABLE)) {
      if (!(WATERMARK_VARIABLES as readonly string[]).includes(match[1]!)) {
        check.addIssue({ code: "custom", message: `{{${match[1]}}} is not a watermark variable. Use ${WATERMARK_VARIABLES.map((name) => `{{${name}}}`).join(", ")}.` });
        return;
      }
    }
  });

export const watermarkSettingsSchema = z.object({
  template: templateSchema,
  opacity: z.coerce
    .number({ error: "Give the opacity as a number." })
    .min(WATERMARK_OPACITY.min, `The opacity must be at least ${WATERMARK_OPACITY.min * 100}%.`)
    .max(WATERMARK_OPACITY.max, `The opacity must be at most ${WATERMARK_OPACITY.max * 100}%.`),
  fontSize: z.coerce
    .number({ error: "Give the text size as a number." })
    .int("Give the text size in whole points.")
    .min(WATERMARK_FONT_SIZE.min, `The text size must be at least ${WATERMARK_FONT_SIZE.min} pt.`)
    .max(WATERMARK_FONT_SIZE.max, `The text size must be at most ${WATERMARK_FONT_SIZE.max} pt.`),
  position: z.enum(WATERMARK_POSITIONS, { error: `Choose where the watermark goes: ${WATERMARK_POSITIONS.join(", ")}.` }),
});

/** The body of PUT /api/datarooms/{id}/security/protection. */
export const roomProtectionSchema = z.object(
  {
    watermark: watermarkSettingsSchema.nullable(),
    downloadProtection: z.boolean({ error: "Say whether download protection is on (true or false)." }),
    printProtection: z.boolean({ error: "Say whether print protection is on (true or false)." }),
  },
  { error: "The request body must be an object with watermark, downloadProtection and printProtection." },
);

/** What storage holds (the D1 copy, the object's meta): anything unreadable is no protection. */
export function readProtection(value: unknown): RoomProtection {
  if (typeof value === "string") {
    try {
      return readProtection(JSON.parse(value));
    } catch {
      return NO_PROTECTION;
    }
  }
  const parsed = roomProtectionSchema.safeParse(value);
  return parsed.success ? parsed.data : NO_PROTECTION;
}

/** The room's managers (manage_settings) are not subject to its protection. */
export function protectionAppliesTo(permissions: Readonly<Record<DataroomPermission, boolean>>): boolean {
  return !permissions.manage_settings;
}

/** Download protection takes `download` from everyone it applies to, whatever their role or overrides say. */
export function protectedPermissions(
  permissions: Record<DataroomPermission, boolean>,
  protection: RoomProtection,
): Record<DataroomPermission, boolean> {
  if (!protection.downloadProtection || !protectionAppliesTo(permissions)) return permissions;
  return { ...permissions, download: false };
}

export type WatermarkValues = Record<WatermarkVariable, string>;

/**
 * The mark's text: the template with its variables filled in, reduced to printable ASCII (accents
 * dropped, anything else "?"), because both the PDF's standard font and the image's bitmap font
 * draw exactly those characters.
 */
export function renderWatermarkText(template: string, values: WatermarkValues): string {
  const filled = template.replace(VARIABLE, (whole, name: string) => ((WATERMARK_VARIABLES as readonly string[]).includes(name) ? values[name as WatermarkVariable] : whole));
  return filled
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\s+/g, " ")
    .replace(/[^\x20-\x7e]/g, "?")
    .trim();
}

/** Whether the text changes with the viewer's address (then a stamped copy is kept per address). */
export function templateUses(template: string, variable: WatermarkVariable): boolean {
  for (const match of template.matchAll(VARIABLE)) if (match[1] === variable) return true;
  return false;
}
