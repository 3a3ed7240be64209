import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";

/**
 * Every <Form method="post"> includes this: React Router's form submissions can't add headers,
 * so the CSRF token travels as the `_csrf` field (ADR 007).
 */
export function CsrfInput() {
  const rootData = useRouteLoaderData<typeof rootLoader>("root");
  return <input type="hidden" name="_csrf" value={rootData?.csrfToken ?? ""} />;
}
