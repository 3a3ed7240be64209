import { data, redirect } from "react-router";
import { AppError, type FieldErrors } from "./errors";

/** `intent` says which form of a page with several (a hidden "intent" field) was refused. */
export type ActionFailure = { ok: false; message: string; fieldErrors?: FieldErrors; intent?: string };

/**
 * Form actions turn a refusal (an AppError below 500) into data the page shows next to the form,
 * with the refusal's status code; anything else is rethrown to the error boundary.
 */
export async function runFormAction<T>(
  run: () => Promise<T>,
  options: { intent?: string } = {},
): Promise<T | ReturnType<typeof data<ActionFailure>>> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      const failure: ActionFailure = { ok: false, message: error.message, fieldErrors: error.fieldErrors };
      if (options.intent) failure.intent = options.intent;
      return data<ActionFailure>(failure, { status: error.status, headers: error.retryAfterHeaders() });
    }
    throw error;
  }
}

export function isActionFailure(value: unknown): value is ActionFailure {
  return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false;
}

/**
 * Loaders turn a refusal (an AppError below 500) into the route's error response with the same
 * status and message (a 404 page for an outsider, a 403 page naming the missing right); anything
 * else is rethrown as an unexpected error.
 */
export async function runLoader<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    // A refusal with its own explaining page (a room's 2FA requirement) sends the person there.
    if (error instanceof AppError && error.location) throw redirect(error.location);
    if (error instanceof AppError && error.status < 500) {
      throw data({ message: error.message, code: error.code }, { status: error.status, headers: error.retryAfterHeaders() });
    }
    throw error;
  }
}
