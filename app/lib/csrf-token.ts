/** The page's CSRF token (its meta tag), for requests the page sends itself. Tiny on purpose: public pages import it without the HTTP client. */
export function readCsrfToken(): string {
  if (typeof document === "undefined") return "";
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? "";
}
