import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import {
  fetchWithRetry,
  GALLERY_RECOVER_EVENT,
  installGlobalErrorHandlers,
  http,
  HttpError,
  httpMessages,
  request,
  setHttpEffects,
  TimeoutError,
  type HttpEffects,
} from "~/lib/http";

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

let effects: { [K in keyof HttpEffects]: Mock };

beforeEach(() => {
  document.head.innerHTML = '<meta name="csrf-token" content="token-from-meta">';
  effects = {
    reload: vi.fn(),
    redirect: vi.fn(),
    notify: vi.fn(),
    currentPath: vi.fn(() => "/forms/12/edit?tab=fields"),
    sleep: vi.fn(() => Promise.resolve()),
    fetch: vi.fn(),
  };
  setHttpEffects(effects as unknown as HttpEffects);
});

afterEach(() => {
  setHttpEffects(null);
  vi.useRealTimers();
});

describe("every request", () => {
  it("carries X-Requested-With and the CSRF token from the page's meta tag", async () => {
    effects.fetch.mockResolvedValue(jsonResponse(200, { ok: true }));
    await http.post("/api/things", { name: "A" });
    const [, init] = effects.fetch.mock.calls[0]! as [string, RequestInit];
    const headers = new Headers(init.headers);
    expect(headers.get("X-Requested-With")).toBe("XMLHttpRequest");
    expect(headers.get("X-CSRF-TOKEN")).toBe("token-from-meta");
    expect(headers.get("Content-Type")).toBe("application/json");
    expect(init.body).toBe('{"name":"A"}');
  });

  it("resolves with the parsed JSON body", async () => {
    effects.fetch.mockResolvedValue(jsonResponse(200, { tier: "pro" }));
    await expect(http.get("/api/user/tier")).resolves.toEqual({ tier: "pro" });
  });

  it("adds query parameters and marks background requests", async () => {
    effects.fetch.mockResolvedValue(jsonResponse(200, {}));
    await http.get("/api/user/data-batch", { query: { include: "tier,folders" }, background: true });
    const [url, init] = effects.fetch.mock.calls[0]! as [string, RequestInit];
    expect(url).toBe("/api/user/data-batch?include=tier%2Cfolders");
    expect(new Headers(init.headers).get("X-Background-Request")).toBe("1");
  });
});

describe("timeouts", () => {
  function hangingFetch() {
    effects.fetch.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        }),
    );
  }

  it("fails after 10 s with 'Request timed out: {url}'", async () => {
    vi.useFakeTimers();
    hangingFetch();
    const pending = request("/api/slow", { handleErrors: false });
    const assertion = expect(pending).rejects.toThrow("Request timed out: /api/slow");
    await vi.advanceTimersByTimeAsync(10_000);
    await assertion;
  });

  it("waits 30 s for a background request", async () => {
    vi.useFakeTimers();
    hangingFetch();
    let settled = false;
    const pending = request("/api/slow", { handleErrors: false, headers: { "X-Background-Request": "1" } }).catch(
      (error: unknown) => {
        settled = true;
        return error;
      },
    );
    await vi.advanceTimersByTimeAsync(10_001);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await pending).toBeInstanceOf(TimeoutError);
  });
});

describe("global error handling", () => {
  it("reloads the page on 409", async () => {
    effects.fetch.mockResolvedValue(jsonResponse(409, { message: "Changed", code: "CONFLICT" }));
    await expect(http.post("/api/x")).rejects.toBeInstanceOf(HttpError);
    expect(effects.reload).toHaveBeenCalledTimes(1);
    expect(effects.notify).not.toHaveBeenCalled();
  });

  it("sends the visitor to /login on 401, remembering where they were", async () => {
    effects.fetch.mockResolvedValue(jsonResponse(401, { message: "Please sign in", code: "UNAUTHENTICATED" }));
    await expect(http.get("/api/x")).rejects.toMatchObject({ status: 401 });
    expect(effects.redirect).toHaveBeenCalledWith("/login?redirectTo=%2Fforms%2F12%2Fedit%3Ftab%3Dfields");
  });

  it("on 419 says the session expired and reloads after 2 s", async () => {
    let wake: () => void = () => {};
    effects.sleep.mockImplementation((ms: number) => {
      expect(ms).toBe(2000);
      return new Promise<void>((resolve) => (wake = resolve));
    });
    effects.fetch.mockResolvedValue(jsonResponse(419, { message: "x", code: "CSRF_TOKEN_MISMATCH" }));
    await expect(http.post("/api/x")).rejects.toMatchObject({ status: 419 });
    expect(effects.notify).toHaveBeenCalledWith(httpMessages.sessionExpired, "warning");
    expect(effects.reload).not.toHaveBeenCalled();
    wake();
    await vi.waitFor(() => expect(effects.reload).toHaveBeenCalledTimes(1));
  });

  it("toasts the server's message for any other error", async () => {
    effects.fetch.mockResolvedValue(jsonResponse(422, { message: "Label is required.", code: "VALIDATION_ERROR" }));
    await expect(http.patch("/folder/1", {})).rejects.toMatchObject({ message: "Label is required.", code: "VALIDATION_ERROR" });
    expect(effects.notify).toHaveBeenCalledWith("Label is required.", "error");
  });

  it("toasts 'An error occurred' when the server gives no message", async () => {
    effects.fetch.mockResolvedValue(new Response("<html>Bad gateway</html>", { status: 502 }));
    await expect(http.get("/api/x")).rejects.toBeInstanceOf(HttpError);
    expect(effects.notify).toHaveBeenCalledWith("An error occurred", "error");
  });

  it("stays silent when the caller handles errors itself", async () => {
    effects.fetch.mockResolvedValue(jsonResponse(500, { message: "boom" }));
    await expect(request("/api/x", { handleErrors: false })).rejects.toBeInstanceOf(HttpError);
    expect(effects.notify).not.toHaveBeenCalled();
  });
});

describe("fetch with retry", () => {
  it("retries up to 3 times, waiting 1 s × attempt, then succeeds", async () => {
    effects.fetch
      .mockRejectedValueOnce(new TypeError("Failed to fetch"))
      .mockResolvedValueOnce(jsonResponse(503, { message: "busy" }))
      .mockResolvedValueOnce(jsonResponse(200, { ok: true }));
    await expect(fetchWithRetry("/api/permissions")).resolves.toEqual({ ok: true });
    expect(effects.sleep.mock.calls.map(([ms]) => ms)).toEqual([1000, 2000]);
    expect(effects.notify).not.toHaveBeenCalled();
  });

  it("gives up after the third retry and reports the error once", async () => {
    effects.fetch.mockImplementation(() => Promise.resolve(jsonResponse(503, { message: "Still busy" })));
    await expect(fetchWithRetry("/api/permissions")).rejects.toMatchObject({ status: 503 });
    expect(effects.fetch).toHaveBeenCalledTimes(4);
    expect(effects.sleep.mock.calls.map(([ms]) => ms)).toEqual([1000, 2000, 3000]);
    expect(effects.notify).toHaveBeenCalledTimes(1);
  });

  it("does not retry a client error such as 403", async () => {
    effects.fetch.mockResolvedValue(jsonResponse(403, { message: "No" }));
    await expect(fetchWithRetry("/api/x")).rejects.toMatchObject({ status: 403 });
    expect(effects.fetch).toHaveBeenCalledTimes(1);
  });
});

describe("gallery recovery", () => {
  it("says 'Gallery temporarily unavailable. Refreshing...' for an error mentioning the gallery, video or lightGallery, and asks the gallery to recover after 1 s", () => {
    vi.useFakeTimers();
    const uninstall = installGlobalErrorHandlers();
    const recovered = vi.fn();
    window.addEventListener(GALLERY_RECOVER_EVENT, recovered);
    effects.fetch.mockResolvedValue(new Response(null, { status: 204 }));
    try {
      for (const message of ["Gallery grid failed to render", "video element error", "lightGallery is not defined"]) {
        window.dispatchEvent(new ErrorEvent("error", { message }));
        expect(effects.notify).toHaveBeenLastCalledWith("Gallery temporarily unavailable. Refreshing...", "error");
      }
      vi.advanceTimersByTime(999);
      expect(recovered).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(recovered).toHaveBeenCalledTimes(3);
      // Any other error keeps the usual message and recovers nothing.
      window.dispatchEvent(new ErrorEvent("error", { message: "x is undefined" }));
      expect(effects.notify).toHaveBeenLastCalledWith(httpMessages.unexpected, "error");
      vi.advanceTimersByTime(2000);
      expect(recovered).toHaveBeenCalledTimes(3);
    } finally {
      window.removeEventListener(GALLERY_RECOVER_EVENT, recovered);
      uninstall();
    }
  });
});
