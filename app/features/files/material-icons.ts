import versions from "material-icons/_data/versions.json";

/**
 * The built-in list of Material icon names (spec §2 "Edit folder panel"), from the pinned
 * `material-icons` package: the same list the self-hosted icon font draws. The server validates a
 * folder's icon against it; the browser loads it lazily for the picker.
 */
export const MATERIAL_ICON_NAMES: readonly string[] = Object.keys(versions);

const names = new Set(MATERIAL_ICON_NAMES);

export function isMaterialIconName(value: string): boolean {
  return names.has(value);
}
