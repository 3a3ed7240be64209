import { showToast } from "~/components/ui/toast";
import { GALLERY_RECOVER_EVENT, GALLERY_RECOVERY_DELAY_MS } from "./gallery-recovery";
import { loginRedirectUrl } from "./safe-redirect";
import { readCsrfToken } from "./csrf-token";

/**
 * The one HTTP client for the browser (spec §7 first line, §8 "Global HTTP handling", §9).
 * Every request carries X-Requested-With and the page's CSRF token; it times out after 10 s
 * (30 s for background requests); failures are handled in one place unless the caller opts out.
 */
export const REQUEST_TIMEOUT_MS = 10_000;
export const BACKGROUND_REQUEST_TIMEOUT_MS = 30_000;
export const BACKGROUND_HEADER = "X-Background-Request";
export const MAX_RETRIES = 3;
export const RETRY_DELAY_MS = 1_000;
export const SESSION_EXPIRED_RELOAD_DELAY_MS = 2_000;

export const httpMessages = {
  sessionExpired: "Your session has expired. Refreshing the page...",
  generic: "An error occurred",
  unexpected: "An unexpected error occurred. Please try again.",
  galleryUnavailable: "Gallery temporarily unavailable. Refreshing...",
  timedOut: (url: string) => `Request timed out: ${url}`,
} as const;

export class HttpError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly url: string;
  readonly body: unknown;
  constructor(message: string, options: { status: number; code?: string | null; url: string; body?: unknown }) {
    super(message);
    this.name = "HttpError";
    this.status = options.status;
    this.code = options.code ?? null;
    this.url = options.url;
    this.body = options.body;
  }
}

export class TimeoutError extends Error {
  readonly url: string;
  constructor(url: string) {
    super(httpMessages.timedOut(url));
    this.name = "TimeoutError";
    this.url = url;
  }
}

/** What the client does to the page; replaceable in unit tests. */
export type HttpEffects = {
  reload: () => void;
  redirect: (url: string) => void;
  notify: (message: string, type: "error" | "warning") => void;
  currentPath: () => string;
  sleep: (ms: number) => Promise<void>;
  fetch: typeof fetch;
};

const browserEffects: HttpEffects = {
  reload: () => window.location.reload(),
  redirect: (url) => window.location.assign(url),
  notify: (message, type) => {
    showToast(message, { type });
  },
  currentPath: () => `${window.location.pathname}${window.location.search}`,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  fetch: (...args) => globalThis.fetch(...args),
};

let effects: HttpEffects = browserEffects;

export function setHttpEffects(overrides: Partial<HttpEffects> | null): void {
  effects = overrides ? { ...browserEffects, ...overrides } : browserEffects;
}

export { readCsrfToken };

export type RequestOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** A plain object is sent as JSON; FormData, Blob and strings are sent as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** Background refreshes get the longer timeout and the X-Background-Request header. */
  background?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Set false to handle errors yourself (no toast, no redirect, no reload). */
  handleErrors?: boolean;
};

function buildUrl(url: string, query: RequestOptions["query"]): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  if (!search) return url;
  return `${url}${url.includes("?") ? "&" : "?"}${search}`;
}

function encodeBody(body: unknown, headers: Headers): BodyInit | undefined {
  if (body === undefined || body === null) return undefined;
  if (
    typeof body === "string" ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer
  )
    return body;
  headers.set("Content-Type", "application/json");
  return JSON.stringify(body);
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("application/json")) return response.json().catch(() => null);
  return response.text().catch(() => null);
}

function errorFromResponse(response: Response, body: unknown, url: string): HttpError {
  const record = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const message = typeof record.message === "string" && record.message ? record.message : httpMessages.generic;
  const code = typeof record.code === "string" ? record.code : null;
  return new HttpError(message, { status: response.status, code, url, body });
}

/** Spec §8 "Global HTTP handling". */
export function handleHttpError(error: unknown): void {
  if (error instanceof HttpError) {
    if (error.status === 409) return effects.reload();
    if (error.status === 401) return effects.redirect(loginRedirectUrl(effects.currentPath()));
    if (error.status === 419) {
      effects.notify(httpMessages.sessionExpired, "warning");
      void effects.sleep(SESSION_EXPIRED_RELOAD_DELAY_MS).then(() => effects.reload());
      return;
    }
    return effects.notify(error.message || httpMessages.generic, "error");
  }
  if (error instanceof DOMException && error.name === "AbortError") return;
  if (error instanceof Error && error.message) return effects.notify(error.message, "error");
  effects.notify(httpMessages.generic, "error");
}

/** One request. Resolves with the parsed body; rejects with HttpError or TimeoutError. */
export async function request<T = unknown>(url: string, options: RequestOptions = {}): Promise<T> {
  const target = buildUrl(url, options.query);
  const headers = new Headers(options.headers);
  headers.set("X-Requested-With", "XMLHttpRequest");
  headers.set("Accept", "application/json");
  const csrf = readCsrfToken();
  if (csrf) headers.set("X-CSRF-TOKEN", csrf);
  const isBackground = options.background === true || headers.has(BACKGROUND_HEADER);
  if (isBackground) headers.set(BACKGROUND_HEADER, "1");
  const timeoutMs = options.timeoutMs ?? (isBackground ? BACKGROUND_REQUEST_TIMEOUT_MS : REQUEST_TIMEOUT_MS);
  const body = encodeBody(options.body, headers);

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  try {
    let response: Response;
    try {
      response = await effects.fetch(target, {
        method: options.method ?? "GET",
        headers,
        body,
        signal,
        credentials: "same-origin",
      });
    } catch (error) {
      if (timeout.signal.aborted && !options.signal?.aborted) throw new TimeoutError(target);
      throw error;
    }
    const parsed = await readBody(response);
    if (!response.ok) throw errorFromResponse(response, parsed, target);
    return parsed as T;
  } catch (error) {
    if (options.handleErrors !== false) handleHttpError(error);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

type ShortcutOptions = Omit<RequestOptions, "method" | "body">;

export const http = {
  get: <T = unknown>(url: string, options?: ShortcutOptions) => request<T>(url, { ...options, method: "GET" }),
  post: <T = unknown>(url: string, body?: unknown, options?: ShortcutOptions) =>
    request<T>(url, { ...options, method: "POST", body }),
  put: <T = unknown>(url: string, body?: unknown, options?: ShortcutOptions) =>
    request<T>(url, { ...options, method: "PUT", body }),
  patch: <T = unknown>(url: string, body?: unknown, options?: ShortcutOptions) =>
    request<T>(url, { ...options, method: "PATCH", body }),
  delete: <T = unknown>(url: string, body?: unknown, options?: ShortcutOptions) =>
    request<T>(url, { ...options, method: "DELETE", body }),
};

function isRetryable(error: unknown): boolean {
  if (error instanceof TimeoutError) return true;
  if (error instanceof HttpError) return error.status === 408 || error.status === 429 || error.status >= 500;
  if (error instanceof DOMException && error.name === "AbortError") return false;
  return error instanceof TypeError; // network failure
}

/**
 * Spec §7/§9: up to 3 retries, waiting 1 s × attempt number, for timeouts, network failures and
 * 5xx/408/429. Errors are handled globally once, after the last attempt.
 */
export async function fetchWithRetry<T = unknown>(url: string, options: RequestOptions = {}, retries = MAX_RETRIES): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request<T>(url, { ...options, handleErrors: false });
    } catch (error) {
      if (attempt >= retries || !isRetryable(error)) {
        if (options.handleErrors !== false) handleHttpError(error);
        throw error;
      }
      await effects.sleep(RETRY_DELAY_MS * (attempt + 1));
    }
  }
}

/** React wraps what a component threw (its recoverable error #520 says only "there was an error"): the report names the cause too. */
function withCause(message: string, error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  return cause ? `${message} (caused by: ${cause.message})` : message;
}

function stackWithCause(error: Error): string | undefined {
  return error.cause instanceof Error ? `${error.stack ?? ""}\nCaused by: ${error.cause.stack ?? error.cause.message}` : error.stack;
}

function reportClientError(message: string, stack?: string): void {
  request("/api/client-errors", {
    method: "POST",
    body: { message: message.slice(0, 1000), url: window.location.href, stack: stack?.slice(0, 8000) },
    handleErrors: false,
    background: true,
  }).catch(() => undefined);
}

export { GALLERY_RECOVER_EVENT, GALLERY_RECOVERY_DELAY_MS };
const GALLERY_ERROR = /gallery|video|lightgallery/i;

/**
 * Uncaught errors and unhandled rejections: one calm toast, and a report to the server logs.
 * HTTP failures were already handled by `request`, so they are not toasted twice. An error that
 * mentions the gallery, video or lightGallery (spec §8) says 'Gallery temporarily unavailable.
 * Refreshing...' instead, and the gallery recovers 1 s later (`GALLERY_RECOVER_EVENT`).
 */
export function installGlobalErrorHandlers(): () => void {
  const announce = (message: string) => {
    if (!GALLERY_ERROR.test(message)) {
      effects.notify(httpMessages.unexpected, "error");
      return;
    }
    effects.notify(httpMessages.galleryUnavailable, "error");
    window.setTimeout(() => window.dispatchEvent(new Event(GALLERY_RECOVER_EVENT)), GALLERY_RECOVERY_DELAY_MS);
  };
  const onError = (event: ErrorEvent) => {
    announce(event.message ?? "");
    reportClientError(withCause(event.message || "Uncaught error", event.error), event.error instanceof Error ? stackWithCause(event.error) : undefined);
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    if (event.reason instanceof HttpError || event.reason instanceof TimeoutError) return;
    const reason = event.reason instanceof Error ? event.reason : new Error(String(event.reason));
    announce(reason.message);
    reportClientError(reason.message || "Unhandled rejection", reason.stack);
  };
  window.addEventListener("error", onError);
  window.addEventListener("unhandledrejection", onRejection);
  return () => {
    window.removeEventListener("error", onError);
    window.removeEventListener("unhandledrejection", onRejection);
  };
}
