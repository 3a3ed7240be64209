import { useCsrfToken } from "~/lib/root-data";

/**
 * Every <Form method="post"> includes this: React Router's form submissions can't add headers,
 * so the CSRF token travels as the `_csrf` field (ADR 007).
 */
export function CsrfInput() {
  return <input type="hidden" name="_csrf" value={useCsrfToken()} />;
}
