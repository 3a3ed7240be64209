import { useSyncExternalStore } from "react";
import { clearUserDataCaches } from "~/features/access/user-page-props";
import type { HttpError, request as httpRequest } from "~/lib/http";

// The HTTP client is loaded when first needed, not with every page: anonymous visitors' pages
// (share viewer, secrets, receive pages) never call it and stay within their JavaScript budget (G5).
const request: typeof httpRequest = async (...args) => (await import("~/lib/http")).request(...args);
const isHttpError = (error: unknown): error is HttpError => error instanceof Error && error.name === "HttpError";
import type { PublicUser } from "./auth.types";

/**
 * The client's auth state (spec §3 "Auth session", §4 "Authentication"). `user`,
 * `authenticated` and `isVerified` persist in local storage; logout clears everything. Errors
 * fall back to the spec's messages when the server sends none.
 */
export type AuthState = {
  user: PublicUser | null;
  authenticated: boolean;
  isVerified: boolean;
  email2faRequired: boolean;
  google2faRequired: boolean;
  error: string | null;
};

export const AUTH_STORAGE_KEY = "strongroom-auth";
export const authMessages = {
  loginFailed: "Login failed",
  logoutFailed: "Logout failed",
  twoFactorFailed: "2FA verification failed",
} as const;

const initialState: AuthState = {
  user: null,
  authenticated: false,
  isVerified: false,
  email2faRequired: false,
  google2faRequired: false,
  error: null,
};

let state: AuthState = initialState;
const listeners = new Set<() => void>();

function persist(next: AuthState): void {
  if (typeof localStorage === "undefined") return;
  try {
    if (!next.authenticated) localStorage.removeItem(AUTH_STORAGE_KEY);
    else localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ user: next.user, authenticated: true, isVerified: next.isVerified }));
  } catch {
    // Private mode or a full quota: the server session still works.
  }
}

function setState(patch: Partial<AuthState>): void {
  state = { ...state, ...patch };
  persist(state);
  for (const listener of listeners) listener();
}

export function getAuthState(): AuthState {
  return state;
}

export function subscribeAuth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAuth(): AuthState {
  return useSyncExternalStore(subscribeAuth, getAuthState, () => initialState);
}

/** Reads what a previous page persisted (user, authenticated, isVerified). */
export function restorePersistedAuth(): void {
  if (typeof localStorage === "undefined") return;
  try {
    const raw = localStorage.getItem(AUTH_STORAGE_KEY);
    if (!raw) return;
    const saved = JSON.parse(raw) as Partial<AuthState>;
    if (saved.authenticated && saved.user) {
      state = { ...state, user: saved.user, authenticated: true, isVerified: saved.isVerified === true };
    }
  } catch {
    localStorage.removeItem(AUTH_STORAGE_KEY);
  }
}

/** Spec §4 "Application start": a first-page-load user counts as authenticated and verified. */
export function initializeAuthFromPage(user: PublicUser | null, requiresVerification: boolean): void {
  if (user) setState({ user, authenticated: true, isVerified: !requiresVerification, error: null });
}

function updateCsrfMeta(token: unknown): void {
  if (typeof token !== "string" || typeof document === "undefined") return;
  document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.setAttribute("content", token);
}

function messageOf(error: unknown, fallback: string): string {
  return isHttpError(error) && error.message && error.body && typeof error.body === "object" && "message" in error.body
    ? error.message
    : fallback;
}

type LoginResponse = { user: PublicUser; requires_email_2fa: boolean; requires_google_2fa: boolean; csrf_token?: string };

/** POST /login. With a 2FA flag the session stays unverified until verifyTwoFactor succeeds. */
export async function login(credentials: { email: string; password: string }): Promise<LoginResponse> {
  try {
    const response = await request<LoginResponse>("/login", { method: "POST", body: credentials, handleErrors: false });
    updateCsrfMeta(response.csrf_token);
    const needsCode = response.requires_email_2fa || response.requires_google_2fa;
    setState({
      user: response.user,
      authenticated: true,
      isVerified: !needsCode,
      email2faRequired: response.requires_email_2fa,
      google2faRequired: response.requires_google_2fa,
      error: null,
    });
    return response;
  } catch (error) {
    setState({ error: messageOf(error, authMessages.loginFailed) });
    throw error;
  }
}

/** POST /2fa/verify with { code }. */
export async function verifyTwoFactor(code: string): Promise<void> {
  try {
    const response = await request<{ user: PublicUser; csrf_token?: string }>("/2fa/verify", {
      method: "POST",
      body: { code },
      handleErrors: false,
    });
    updateCsrfMeta(response.csrf_token);
    setState({ user: response.user, authenticated: true, isVerified: true, email2faRequired: false, google2faRequired: false, error: null });
  } catch (error) {
    setState({ error: messageOf(error, authMessages.twoFactorFailed) });
    throw error;
  }
}

/** POST /logout; clears everything locally whatever the server said. */
export async function logout(): Promise<void> {
  try {
    const response = await request<{ csrf_token?: string }>("/logout", { method: "POST", body: {}, handleErrors: false });
    updateCsrfMeta(response.csrf_token);
    state = initialState;
    clearUserDataCaches();
    setState({});
  } catch (error) {
    state = initialState;
    clearUserDataCaches();
    setState({ error: messageOf(error, authMessages.logoutFailed) });
    throw error;
  }
}

/** GET /auth-check: restores (or clears) the session on start-up. */
export async function checkAuth(): Promise<AuthState> {
  try {
    const response = await request<{ authenticated: boolean; user: PublicUser | null; requires_verification: boolean }>("/auth-check", {
      handleErrors: false,
      background: true,
    });
    if (response.authenticated && response.user) {
      setState({ user: response.user, authenticated: true, isVerified: !response.requires_verification, error: null });
    } else {
      state = initialState;
      setState({});
    }
  } catch (error) {
    if (isHttpError(error) && (error.status === 401 || error.status === 403)) {
      state = initialState;
      setState({});
    }
  }
  return state;
}

/** For tests: back to the signed-out state without touching storage. */
export function resetAuthStoreForTests(): void {
  state = initialState;
}
