import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import {
  AUTH_STORAGE_KEY,
  authMessages,
  checkAuth,
  getAuthState,
  initializeAuthFromPage,
  login,
  logout,
  resetAuthStoreForTests,
  restorePersistedAuth,
  verifyTwoFactor,
} from "~/features/auth/auth-store";
import { setHttpEffects, type HttpEffects } from "~/lib/http";

const ann = { id: "u1", name: "Ann", email: "ann@example.com", emailVerified: true, tier: "free" };

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

let fetchMock: Mock;
let redirect: Mock;

beforeEach(() => {
  document.head.innerHTML = '<meta name="csrf-token" content="before-login">';
  localStorage.clear();
  resetAuthStoreForTests();
  fetchMock = vi.fn();
  redirect = vi.fn();
  setHttpEffects({ fetch: fetchMock, redirect, notify: vi.fn(), reload: vi.fn() } as Partial<HttpEffects>);
});

afterEach(() => setHttpEffects(null));

function persisted() {
  const raw = localStorage.getItem(AUTH_STORAGE_KEY);
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
}

describe("signing in", () => {
  it("without a second factor the member is authenticated and verified, and that is remembered", async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { user: ann, requires_email_2fa: false, requires_google_2fa: false, csrf_token: "after-login" }));
    await login({ email: "ann@example.com", password: "secret phrase" });
    expect(getAuthState()).toMatchObject({ user: ann, authenticated: true, isVerified: true, email2faRequired: false, google2faRequired: false, error: null });
    expect(persisted()).toEqual({ user: ann, authenticated: true, isVerified: true });
    expect(document.querySelector('meta[name="csrf-token"]')?.getAttribute("content")).toBe("after-login");
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/login");
    expect(init.method).toBe("POST");
    expect(JSON.parse(init.body as string)).toEqual({ email: "ann@example.com", password: "secret phrase" });
  });

  it("with an authenticator app the session stays unverified until the code is accepted", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { user: ann, requires_email_2fa: false, requires_google_2fa: true }));
    await login({ email: "ann@example.com", password: "secret phrase" });
    expect(getAuthState()).toMatchObject({ authenticated: true, isVerified: false, google2faRequired: true });
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { success: true, user: ann }));
    await verifyTwoFactor("123456");
    expect(getAuthState()).toMatchObject({ authenticated: true, isVerified: true, google2faRequired: false });
  });

  it("an e-mail code requirement is reported the same way", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { user: ann, requires_email_2fa: true, requires_google_2fa: false }));
    await login({ email: "ann@example.com", password: "secret phrase" });
    expect(getAuthState()).toMatchObject({ isVerified: false, email2faRequired: true });
  });

  it("a refusal shows the server's message and never redirects (the login page handles it)", async () => {
    fetchMock.mockResolvedValue(jsonResponse(401, { message: "The e-mail address or password is not correct.", code: "UNAUTHENTICATED" }));
    await expect(login({ email: "ann@example.com", password: "nope nope" })).rejects.toThrow("The e-mail address or password is not correct.");
    expect(getAuthState()).toMatchObject({ authenticated: false, error: "The e-mail address or password is not correct." });
    expect(redirect).not.toHaveBeenCalled();
  });

  it("falls back to 'Login failed' when the server sends no message", async () => {
    fetchMock.mockResolvedValue(new Response("upstream down", { status: 502 }));
    await expect(login({ email: "a@b.c", password: "whatever1" })).rejects.toThrow();
    expect(getAuthState().error).toBe(authMessages.loginFailed);
  });

  it("falls back to '2FA verification failed' when the code check fails without a message", async () => {
    fetchMock.mockResolvedValue(new Response("", { status: 500 }));
    await expect(verifyTwoFactor("000000")).rejects.toThrow();
    expect(getAuthState().error).toBe(authMessages.twoFactorFailed);
  });
});

describe("signing out", () => {
  it("clears the state and local storage", async () => {
    initializeAuthFromPage(ann, false);
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true }));
    await logout();
    expect(getAuthState()).toMatchObject({ user: null, authenticated: false, isVerified: false, error: null });
    expect(persisted()).toBeNull();
  });

  it("still clears everything when the server fails, and reports 'Logout failed'", async () => {
    initializeAuthFromPage(ann, false);
    fetchMock.mockResolvedValue(new Response("", { status: 500 }));
    await expect(logout()).rejects.toThrow();
    expect(getAuthState()).toMatchObject({ authenticated: false, error: authMessages.logoutFailed });
    expect(persisted()).toBeNull();
  });
});

describe("start-up", () => {
  it("a member on the first page load counts as authenticated and verified", () => {
    initializeAuthFromPage(ann, false);
    expect(getAuthState()).toMatchObject({ user: ann, authenticated: true, isVerified: true });
  });

  it("the auth check restores a remembered session, verified unless the server says otherwise", async () => {
    localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ user: ann, authenticated: true, isVerified: true }));
    restorePersistedAuth();
    fetchMock.mockResolvedValue(jsonResponse(200, { authenticated: true, user: ann, requires_verification: true }));
    await checkAuth();
    expect(getAuthState()).toMatchObject({ authenticated: true, isVerified: false });
    expect(fetchMock.mock.calls[0]![0]).toBe("/auth-check");
  });

  it("the auth check clears a remembered session the server no longer knows", async () => {
    localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ user: ann, authenticated: true, isVerified: true }));
    restorePersistedAuth();
    fetchMock.mockResolvedValue(jsonResponse(200, { authenticated: false, user: null, requires_verification: false }));
    await checkAuth();
    expect(getAuthState()).toMatchObject({ authenticated: false, user: null });
    expect(persisted()).toBeNull();
  });

  it("a 401 from the auth check marks the member unauthenticated", async () => {
    initializeAuthFromPage(ann, false);
    fetchMock.mockResolvedValue(jsonResponse(401, { message: "Please sign in to continue." }));
    await checkAuth();
    expect(getAuthState().authenticated).toBe(false);
  });
});
