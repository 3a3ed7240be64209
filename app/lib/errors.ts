/**
 * The one error type services throw. Its code decides the HTTP status in exactly one table
 * (`appErrorStatus`); the Hono error handler and the route helper both read it.
 * Browser-safe: no bindings, no secrets.
 */
export const appErrorStatus = {
  VALIDATION_ERROR: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  CSRF_TOKEN_MISMATCH: 419,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type AppErrorCode = keyof typeof appErrorStatus;

const defaultMessages: Record<AppErrorCode, string> = {
  VALIDATION_ERROR: "The request is not valid. Check the fields and try again.",
  UNAUTHENTICATED: "Please sign in to continue.",
  FORBIDDEN: "You don't have permission to do that.",
  NOT_FOUND: "We couldn't find what you were looking for.",
  METHOD_NOT_ALLOWED: "That action is not allowed here.",
  CONFLICT: "Something changed in the meantime. Reload the page and try again.",
  GONE: "This is no longer available.",
  PAYLOAD_TOO_LARGE: "That is too large to accept.",
  UNSUPPORTED_MEDIA_TYPE: "That kind of content is not accepted here.",
  UNPROCESSABLE: "That content could not be processed.",
  CSRF_TOKEN_MISMATCH: "Your session has expired. Refresh the page and try again.",
  RATE_LIMITED: "Too many attempts. Wait a moment and try again.",
  INTERNAL_ERROR: "Something went wrong on our side. Please try again.",
  SERVICE_UNAVAILABLE: "The service is briefly unavailable. Please try again shortly.",
};

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly status: number;
  /** Per-field messages for forms (zod issues flattened); safe to show to the user. */
  readonly fieldErrors?: FieldErrors;
  /** For refusals that know when to come back (rate limits): sent as Retry-After. */
  readonly retryAfterSeconds?: number;
  /** For refusals with a page that explains what to do (a room's 2FA requirement): pages redirect there. */
  readonly location?: string;

  constructor(
    code: AppErrorCode,
    message?: string,
    options?: { fieldErrors?: FieldErrors; retryAfterSeconds?: number; location?: string; cause?: unknown },
  ) {
    super(message ?? defaultMessages[code], { cause: options?.cause });
    this.name = "AppError";
    this.code = code;
    this.status = appErrorStatus[code];
    this.fieldErrors = options?.fieldErrors;
    this.retryAfterSeconds = options?.retryAfterSeconds;
    this.location = options?.location;
  }

  /** The Retry-After header (RFC 9110 §10.2.3) for this refusal, if it has one. */
  retryAfterHeaders(): Record<string, string> {
    const seconds = this.retryAfterSeconds;
    return typeof seconds === "number" && Number.isFinite(seconds) ? { "Retry-After": String(Math.max(1, Math.ceil(seconds))) } : {};
  }

  /** The JSON body every error response carries: never a stack trace, SQL or internal id. */
  toBody(): AppErrorBody {
    return this.fieldErrors
      ? { message: this.message, code: this.code, fieldErrors: this.fieldErrors }
      : { message: this.message, code: this.code };
  }
}

export type AppErrorBody = { message: string; code: AppErrorCode; fieldErrors?: FieldErrors };
