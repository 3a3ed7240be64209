import { data, type RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { describeRouteError } from "~/components/error-page";
import { requireActor } from "~/features/auth/auth-guard.server";
import { createLogger } from "~/lib/log.server";
import { createRouterContext } from "~/lib/request-context.server";

function contextWith(actor: { userId: string; sessionId: string } | null): RouterContextProvider {
  return createRouterContext({
    env: {} as Env,
    executionCtx: { waitUntil: () => undefined },
    requestId: "test",
    cspNonce: "",
    csrfToken: "",
    isSecure: false,
    logger: createLogger(),
    auth: null,
    actor,
    client: { ip: null, userAgent: null },
  });
}

async function thrown(run: () => unknown): Promise<unknown> {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("protected pages", () => {
  it("send an anonymous visitor to /login with the page to come back to", async () => {
    const response = (await thrown(() =>
      requireActor(contextWith(null), new Request("https://strongroom.test/forms/12/edit?tab=fields")),
    )) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fforms%2F12%2Fedit%3Ftab%3Dfields");
  });

  it("let a signed-in member through", () => {
    expect(requireActor(contextWith({ userId: "u1", sessionId: "s1" }), new Request("https://strongroom.test/forms"))).toEqual({ userId: "u1", sessionId: "s1" });
  });
});

describe("error pages", () => {
  function routeError(status: number, message?: string) {
    // What React Router hands the ErrorBoundary for a thrown data() response.
    const thrownData = data(message ? { message } : null, { status });
    return { status, statusText: "", internal: false, data: thrownData.data };
  }

  it("a 404 is 'Page not found' with help to find the way back", () => {
    expect(describeRouteError(routeError(404))).toMatchObject({ pageName: "Page not found", heading: "We couldn't find that page" });
  });

  it("a 403 says access is missing and uses the server's explanation when there is one", () => {
    const copy = describeRouteError(routeError(403, "Only the data room owner can change its settings."));
    expect(copy).toMatchObject({ pageName: "Access denied", body: "Only the data room owner can change its settings." });
  });

  it("an unexpected error is calm and reveals nothing of what went wrong", () => {
    const copy = describeRouteError(new Error("SQLITE_ERROR: no such table: users"));
    expect(copy.pageName).toBe("Something went wrong");
    expect(JSON.stringify(copy)).not.toContain("SQLITE");
  });
});
