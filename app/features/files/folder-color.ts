import { colord, extend } from "colord";
import hwbPlugin from "colord/plugins/hwb";

extend([hwbPlugin]);

/**
 * Spec §5: the colour box accepts hex with 3, 4, 6 or 8 digits and rgb(), hsl() or hwb() values;
 * the folder stores canonical hex text (spec §3 "color (hex text)"): #rrggbb, or #rrggbbaa when the
 * colour is not opaque. Shared by the picker in the browser and the validation on the server.
 */
export const COLOR_FORMAT_MESSAGE =
  "Color must be a hex value (#rgb, #rgba, #rrggbb or #rrggbbaa) or an rgb(), hsl() or hwb() value.";

const HEX_DIGITS = /^[0-9a-f]{3}$|^[0-9a-f]{4}$|^[0-9a-f]{6}$|^[0-9a-f]{8}$/i;
const FUNCTIONAL = /^(rgba?|hsla?|hwb)\(/i;

/** The canonical hex of an accepted colour, or null when the text is not one of the formats. */
export function parseFolderColor(input: string): string | null {
  const text = input.trim();
  if (text === "" || text.length > 64) return null;
  const candidate = HEX_DIGITS.test(text) ? `#${text}` : text;
  const isHex = candidate.startsWith("#") && HEX_DIGITS.test(candidate.slice(1));
  if (!isHex && !FUNCTIONAL.test(candidate)) return null;
  const color = colord(candidate);
  if (!color.isValid()) return null;
  return color.toHex().toLowerCase();
}

/** A readable text colour (black or white) on a folder of this colour. */
export function contrastingText(hex: string): "#000000" | "#ffffff" {
  return colord(hex).isLight() ? "#000000" : "#ffffff";
}
