import { ID36_PATTERN } from "~/lib/route-builder";

/**
 * A data room is identified by the 36-character hex-and-dash id in its path (spec §2, §3). No
 * zod here: the browser's user store uses it on every page.
 */
export const DATAROOM_ID_PATTERN = ID36_PATTERN;

/** Spec §5: empty, 'undefined', 'null', non-strings and malformed ids are rejected. */
export function isValidDataroomId(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const id = value.trim();
  return id !== "" && id !== "undefined" && id !== "null" && DATAROOM_ID_PATTERN.test(id);
}

/** Spec §4/§9 "Dataroom permission updates": debounced 300 ms; a breaker at more than 5 in 10 s. */
export const PERMISSION_DEBOUNCE_MS = 300;
export const BREAKER_LIMIT = 5;
export const BREAKER_WINDOW_MS = 10_000;

/** IP restrictions: at most this many addresses and ranges per room. */
export const IP_RANGES_MAX = 50;
