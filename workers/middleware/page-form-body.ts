import { createMiddleware } from "hono/factory";
import { AppError } from "~/lib/errors";
import type { AppEnv } from "../types";

/** What a page's form may be sent as (an HTML form's two encodings). */
export const PAGE_FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"] as const;
/** Page forms carry text fields; files go through /api/uploads. */
export const MAX_PAGE_FORM_BYTES = 1024 * 1024;

export const NOT_A_FORM_MESSAGE =
  "This page accepts form submissions only: send the form as application/x-www-form-urlencoded or multipart/form-data.";
export const UNREADABLE_FORM_MESSAGE = "The form could not be read: its body does not match its content type. Send it again from the page.";
export const FORM_TOO_LARGE_MESSAGE = "This form is larger than 1 MiB. Upload files from a folder page instead.";

/**
 * The one gate in front of every page action (React Router): a POST, PUT, PATCH or DELETE whose
 * body is not a readable form is refused here with 415, 413 or 400 and a message, so no action
 * ever meets a body `request.formData()` cannot parse (which would be a 500).
 */
export const pageFormBodyMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!(PAGE_FORM_TYPES as readonly string[]).includes(type)) throw new AppError("UNSUPPORTED_MEDIA_TYPE", NOT_A_FORM_MESSAGE);
  const length = Number(c.req.header("content-length") ?? "0");
  if (length > MAX_PAGE_FORM_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", FORM_TOO_LARGE_MESSAGE);
  const body = await c.req.raw.clone().arrayBuffer();
  if (body.byteLength > MAX_PAGE_FORM_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", FORM_TOO_LARGE_MESSAGE);
  try {
    await new Response(body, { headers: { "content-type": c.req.header("content-type")! } }).formData();
  } catch {
    throw new AppError("VALIDATION_ERROR", UNREADABLE_FORM_MESSAGE);
  }
  await next();
});
