import { chooseOption, expect, gotoHydrated, test, waitForHydration } from "./fixtures";

/**
 * The tests that stay on the kit's page share it (`kitPage`, reset before each); what reloads the
 * page, leaves it or expires its token is one journey on a page of its own.
 */
test.describe("the HTTP client's global handling", () => {
  test("a request sends X-Requested-With and the page's CSRF token, and a refusal toasts the server's message", async ({ kitPage: page }) => {
    const token = await page.locator('meta[name="csrf-token"]').getAttribute("content");
    await chooseOption(page, "Method", "POST");
    await page.getByLabel("Request URL").fill("/api/client-errors");
    const requestPromise = page.waitForRequest((r) => r.url().endsWith("/api/client-errors") && r.method() === "POST");
    await page.getByRole("button", { name: "Send request" }).click();
    const sent = await requestPromise;
    expect(sent.headers()["x-requested-with"]).toBe("XMLHttpRequest");
    expect(sent.headers()["x-csrf-token"]).toBe(token);
    // The empty body is refused by the server's validation, and its message is toasted.
    await expect(page.getByRole("alert").filter({ hasText: "message: " })).toBeVisible();
  });

  test("any other error toasts the server's message", async ({ kitPage: page }) => {
    await page.getByLabel("Request URL").fill("/api/no-such-endpoint");
    await page.getByRole("button", { name: "Send request" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "There is no such API endpoint." })).toBeVisible();
  });

  test("an error without a message toasts 'An error occurred'", async ({ kitPage: page }) => {
    const broken = "**/api/broken";
    await page.route(broken, (route) => route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad gateway</h1>" }));
    try {
      await page.getByLabel("Request URL").fill("/api/broken");
      await page.getByRole("button", { name: "Send request" }).click();
      await expect(page.getByText("An error occurred", { exact: true })).toBeVisible();
    } finally {
      await page.unroute(broken);
    }
  });

  test("an uncaught error shows a calm toast and is reported to the server", async ({ kitPage: page }) => {
    const report = page.waitForRequest((r) => r.url().endsWith("/api/client-errors") && r.method() === "POST");
    await page.getByRole("button", { name: "Throw an uncaught error" }).click();
    await expect(page.getByText("An unexpected error occurred. Please try again.")).toBeVisible();
    const body = (await report).postDataJSON() as { message: string; url: string };
    expect(body.message).toContain("Kit demonstration of an uncaught error");
    expect(body.url).toContain("/ui");
  });

  test("on a page of its own: a 409 reloads the page, a 419 says the session expired and reloads after 2 s with a fresh token, an action that redirects flashes its toast through a cookie once, and a 401 sends the visitor to /login remembering where they were", async ({ page }) => {
    await page.route("**/api/stale-thing", (route) => route.fulfill({ status: 409, contentType: "application/json", body: '{"message":"Changed","code":"CONFLICT"}' }));
    await page.route("**/api/members-only", (route) =>
      route.fulfill({ status: 401, contentType: "application/json", body: '{"message":"Please sign in to continue.","code":"UNAUTHENTICATED"}' }),
    );
    await gotoHydrated(page, "/ui");

    // 409: the page reloads.
    await page.getByLabel("Request URL").fill("/api/stale-thing");
    await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
    await page.getByRole("button", { name: "Send request" }).click();
    await page.waitForEvent("load");
    expect(await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload)).toBeUndefined();
    await waitForHydration(page);

    // 419: the session expired; the page reloads after 2 s with a fresh, valid token.
    await page.getByRole("button", { name: "Expire the CSRF token" }).click();
    await chooseOption(page, "Method", "POST");
    await page.getByLabel("Request URL").fill("/api/client-errors");
    const started = Date.now();
    await page.getByRole("button", { name: "Send request" }).click();
    await expect(page.getByText("Your session has expired. Refreshing the page...")).toBeVisible();
    await page.waitForEvent("load");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    await expect(page.locator('meta[name="csrf-token"]')).not.toHaveAttribute("content", "expired-token");
    await waitForHydration(page);

    // An action that redirects: its toast comes through a cookie, shown once.
    await page.getByLabel("Thing to save").fill("Quarterly report");
    await page.getByRole("button", { name: "Save and redirect" }).click();
    await expect(page.getByText("Quarterly report Created Successfully.")).toBeVisible();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === "strongroom_toast")).toBeUndefined();
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByText("Quarterly report Created Successfully.")).toHaveCount(0);

    // 401: to the sign-in page, remembering where the visitor was.
    await page.getByLabel("Request URL").fill("/api/members-only");
    await page.getByRole("button", { name: "Send request" }).click();
    await page.waitForURL("**/login?redirectTo=%2Fui");
  });
});

test.describe("server actions", () => {
  test("a plain form post without its CSRF field is refused with 419 and nothing is saved", async ({ kitPage: page }) => {
    // From the page's own browser: its CSRF cookie goes with the post, only the form's field is missing.
    const response = await page.request.post("/ui", { form: { thing: "Sneaky" } });
    expect(response.status()).toBe(419);
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByText("Sneaky Created Successfully.")).toHaveCount(0);
  });
});
