/**
 * One CSV field (RFC 4180): quoted, quotes doubled, and a leading = + - @ tab or CR defused with
 * a quote so a spreadsheet shows the text instead of running it as a formula (CSV injection).
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** One CSV line with its CRLF. */
export function csvLine(values: (string | number | null)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** A download's file name from a display name: letters, digits, spaces as dashes ("Project Falcon" → "Project-Falcon-audit-log.csv"). */
export function csvFileName(displayName: string, suffix: string, fallback = "data-room"): string {
  const stem = displayName.replace(/[^A-Za-z0-9 _-]+/g, "").trim().replace(/\s+/g, "-") || fallback;
  return `${stem}-${suffix}.csv`;
}
