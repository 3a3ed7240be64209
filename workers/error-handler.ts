import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { AppError, type AppErrorBody } from "~/lib/errors";
import { createLogger, describeError } from "~/lib/log.server";
import type { AppEnv } from "./types";

function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 404) return new AppError("NOT_FOUND");
    if (error.status === 413) return new AppError("PAYLOAD_TOO_LARGE");
    if (error.status === 401) return new AppError("UNAUTHENTICATED");
    if (error.status === 403) return new AppError("FORBIDDEN");
    if (error.status >= 400 && error.status < 500) return new AppError("VALIDATION_ERROR");
  }
  return new AppError("INTERNAL_ERROR");
}

/**
 * The one place an error becomes an HTTP response: `{ message, code }` with the status from
 * `appErrorStatus`. Unexpected errors are logged with the request id and answered with a calm,
 * generic 500 (S29): no stack, no SQL, no internal ids.
 */
export function handleError(error: unknown, c: Context<AppEnv>): Response {
  const appError = toAppError(error);
  const logger = c.get("logger") ?? createLogger({ requestId: c.get("requestId") });
  if (appError.status >= 500) logger.error("unhandled error", describeError(error));
  else logger.info("request refused", { code: appError.code, status: appError.status });
  const body: AppErrorBody & { requestId?: string } = appError.toBody();
  if (appError.status >= 500) body.requestId = c.get("requestId");
  return c.json(body, appError.status as 400, appError.retryAfterHeaders());
}
