/**
 * Only same-site relative paths are followed after sign-in; anything else (absolute URLs,
 * protocol-relative `//host`, backslash tricks) falls back to the default.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\") || /[\u0000-\u001f]/.test(to)) return fallback;
  return to;
}

/** The login URL that brings the visitor back to `path` afterwards. */
export function loginRedirectUrl(path: string): string {
  const target = safeRedirect(path);
  return target === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(target)}`;
}
