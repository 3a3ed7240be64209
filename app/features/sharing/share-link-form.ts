/**
 * The share-link form (create and edit pages) as the API's input: text fields trimmed, empty ones
 * as "none", check boxes as booleans, lists split on commas, spaces and new lines, the expiry
 * (a local date-time field) read as UTC. The API's schema then checks everything.
 */
export type ShareLinkFormMode = "create" | "edit";

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();
const list = (form: FormData, name: string) =>
  text(form, name)
    .split(/[\s,;]+/)
    .filter(Boolean);

export function readShareLinkForm(form: FormData, mode: ShareLinkFormMode): Record<string, unknown> {
  const download = text(form, "download");
  const maxViews = text(form, "maxViews");
  const expiresAt = text(form, "expiresAt");
  const values: Record<string, unknown> = {
    name: text(form, "name"),
    expiresAt: expiresAt ? (/Z$|[+-]\d\d:\d\d$/.test(expiresAt) ? expiresAt : `${expiresAt.length === 16 ? `${expiresAt}:00` : expiresAt}Z`) : null,
    maxViews: maxViews === "" ? null : Number(maxViews),
    requireEmail: form.get("requireEmail") === "on",
    verifyEmail: form.get("verifyEmail") === "on",
    allowList: list(form, "allowList"),
    denyList: list(form, "denyList"),
    agreement: text(form, "agreement") || null,
    allowDownload: download !== "none",
    downloadMode: download === "watermarked" ? "watermarked" : "original",
    // A gallery's downloads: the originals or the web size (its watermark is its own check box).
    downloadSize: download === "web" ? "web" : "original",
    showExif: form.get("showExif") === "on",
    allowPrints: form.get("allowPrints") === "on",
    printProtection: form.get("printProtection") === "on",
    watermark: form.get("watermark") === "on",
    slug: text(form, "slug") || null,
  };
  // A verified address is a given one.
  if (values.verifyEmail) values.requireEmail = true;
  const password = String(form.get("password") ?? "");
  if (mode === "create") {
    values.password = password === "" ? null : password;
    if (form.get("presentation") === "gallery") values.presentation = "gallery";
  }
  else if (form.get("removePassword") === "on") values.password = null;
  else if (password !== "") values.password = password;
  return values;
}
