import { test as base, expect, type APIRequestContext, type BrowserContext, type Locator, type Page } from "@playwright/test";

/**
 * Shared e2e fixtures (docs/testing.md says which to use).
 * - `page` starts with cookie consent already given (so the banner does not cover the page).
 * - `member`: a fresh member made in one call inside the server (the test-only route
 *   POST /__test/members), already signed in on `page`. Set its tier, add-ons and second factor
 *   with `test.use({ memberOptions: { tier: "free" } })`.
 * - `sharedPage` + `sharedMember`: one signed-in member per Playwright worker, for tests that look
 *   at a page without changing the member; each test still gets its own browser context.
 * - `freshPage`: a first-time visitor in a context of its own.
 * - `kitPage`: the interface kit (/ui), opened once per worker and put back as on load before each
 *   test ("Reset the kit": sections mounted afresh, toasts dismissed, focus and pointer cleared), for
 *   component tests that stay on the page. A test that reloads, navigates or stubs requests takes
 *   `page` instead.
 * Only the tests about sign-up, sign-in, reset and 2FA drive those forms (auth-helpers.ts).
 */
export type Tier = "free" | "basic" | "pro" | "business" | "custom";
export type Addon = "extra_datarooms" | "extra_storage" | "e_signatures" | "dataroom_team" | "dataroom_guests";
export type MemberOptions = {
  tier?: Tier;
  twoFactor?: "none" | "totp" | "email";
  addons?: Partial<Record<Addon, number>>;
  name?: string;
};
export type TestMember = { id: string; email: string; password: string; name: string; tier: Tier; totpKey: string | null };

export const CONSENT_COOKIE = "dataroom_cookie_consent";

async function csrfFor(request: APIRequestContext): Promise<string> {
  const response = await request.get("/__test/csrf");
  expect(response.status(), "the e2e server runs with TEST_HOOKS=on (scripts/e2e-server.mjs)").toBe(200);
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

/**
 * Makes a member in the server under test and signs in the browser that owns `request`
 * (`page.request` shares the page's cookies). One request; no form, no mail, no second process.
 */
export async function createMember(request: APIRequestContext, options: MemberOptions & { signIn?: boolean } = {}): Promise<TestMember> {
  let response = await request.post("/__test/members", { data: options, headers: { "X-CSRF-TOKEN": await csrfFor(request) } });
  // The local runtime's proxy sometimes drops its connection to workerd and fails the POSTs in
  // flight with its own "Network connection lost." (it retries GETs itself; docs/testing.md). A
  // fixture's member is made again then: a product request is never retried like this.
  if (response.status() >= 500 && (await response.text()).includes("Network connection lost")) {
    response = await request.post("/__test/members", { data: options, headers: { "X-CSRF-TOKEN": await csrfFor(request) } });
  }
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { member: TestMember }).member;
}

/** What an operator does with `npm run ops` (tier, add-ons), done inside the server under test. */
export async function changeMember(request: APIRequestContext, member: Pick<TestMember, "email">, change: { tier?: Tier; addons?: MemberOptions["addons"] }) {
  const response = await request.patch(`/__test/members/${encodeURIComponent(member.email)}`, {
    data: change,
    headers: { "X-CSRF-TOKEN": await csrfFor(request) },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function consentedContext(context: BrowserContext, baseURL: string) {
  await context.addCookies([{ name: CONSENT_COOKIE, value: "essential", url: baseURL }]);
}

type TestFixtures = { freshPage: Page; memberOptions: MemberOptions; member: TestMember; sharedPage: Page; kitPage: Page };
type WorkerFixtures = {
  sharedMember: { member: TestMember; storageState: Awaited<ReturnType<APIRequestContext["storageState"]>> };
  kitTab: Page;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  page: async ({ page, baseURL }, use) => {
    await consentedContext(page.context(), baseURL!);
    await use(page);
  },
  freshPage: async ({ browser }, use) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await use(page);
    await context.close();
  },
  memberOptions: [{ tier: "pro" }, { option: true }],
  member: async ({ page, memberOptions }, use) => {
    await use(await createMember(page.request, memberOptions));
  },
  sharedMember: [
    async ({ playwright }, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL;
      const request = await playwright.request.newContext({ baseURL });
      const member = await createMember(request, { tier: "pro", name: "Shared Member" });
      const storageState = await request.storageState();
      await request.dispose();
      await use({ member, storageState });
    },
    { scope: "worker" },
  ],
  sharedPage: async ({ browser, baseURL, sharedMember }, use) => {
    const context = await browser.newContext({ baseURL, storageState: sharedMember.storageState });
    await consentedContext(context, baseURL!);
    const page = await context.newPage();
    await use(page);
    await context.close();
  },
  kitTab: [
    async ({ browser }, use, workerInfo) => {
      const { baseURL, viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } = workerInfo.project.use;
      const context = await browser.newContext({ baseURL, viewport, userAgent, deviceScaleFactor, isMobile, hasTouch });
      await consentedContext(context, baseURL!);
      const page = await context.newPage();
      await use(page);
      await context.close();
    },
    { scope: "worker" },
  ],
  kitPage: async ({ kitTab }, use) => {
    await openKit(kitTab);
    await use(kitTab);
  },
});

/**
 * Shows the interface kit as it is on load: the first time (or after a test left /ui) by loading
 * it, otherwise with its "Reset the kit" button, which mounts every demonstration afresh and
 * dismisses every toast. The window gets its focus back (a test may have blurred it), nothing keeps
 * the keyboard focus, the pointer rests at the left edge and the page is scrolled to the top.
 */
export async function openKit(page: Page) {
  const onKit = page.url().startsWith("http") && new URL(page.url()).pathname === "/ui";
  if (!onKit || (await page.locator("html[data-hydrated]").count()) === 0) {
    await gotoHydrated(page, "/ui");
    return;
  }
  const reset = page.getByRole("button", { name: "Reset the kit" });
  const generation = (await reset.getAttribute("data-kit-generation")) ?? "";
  // A DOM click: an open modal makes the rest of the page inert to the pointer.
  await reset.evaluate((button: HTMLButtonElement) => button.click());
  await expect(reset).not.toHaveAttribute("data-kit-generation", generation);
  await page.evaluate(() => {
    window.dispatchEvent(new Event("focus"));
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    window.scrollTo(0, 0);
  });
  await page.mouse.move(1, 360);
  await expect(page.locator(".Toastify__toast")).toHaveCount(0);
}

/**
 * Opens `path` and waits until React has hydrated the page (the root sets data-hydrated on <html>).
 * A page already showing the app moves there by the client router, as a member following a link
 * does, with every loader run again (root's included: the member, their plan, their notices), so
 * the page shows what the server holds now; about half the browser's work of a new document
 * (docs/testing.md). A whole document instead: when the page shows nothing of the app yet, when
 * the client router cannot show `path` (an error boundary, a page that is not the app's), when the
 * move leaves the document, or with `{ document: true }` (a test about the document itself).
 * A readiness wait, not a speed assertion: page speed is measured by `npm run bench`.
 */
export async function gotoHydrated(page: Page, path: string, options: { document?: boolean } = {}) {
  if (!options.document && (await showsTheApp(page, path))) {
    const errors = await navigateInApp(page, path, { revalidate: true }).catch(() => null);
    if (errors?.length === 0) return;
  }
  await page.goto(path);
  await waitForHydration(page);
}

/** Whether the page shows the hydrated app on the origin `path` belongs to. */
async function showsTheApp(page: Page, path: string): Promise<boolean> {
  const current = page.url();
  if (!current.startsWith("http") || new URL(path, current).origin !== new URL(current).origin) return false;
  return page.evaluate(() => document.documentElement.hasAttribute("data-hydrated") && "__reactRouterDataRouter" in window).catch(() => false);
}

export async function waitForHydration(page: Page) {
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1, { timeout: 20_000 });
}

export { expect };

/**
 * What goes wrong on a page while a test looks at it, collected as lines: uncaught errors, console
 * errors (hydration mismatches and CSP violations are logged there), any document or request
 * answered 5xx. `strict` adds console warnings, failed requests and assets answered 4xx. The
 * not-found page answers 404 on purpose and Chromium logs that; leaving a room page before its live
 * connection opened closes the socket, and Chromium logs that too.
 */
export function watchPage(page: Page, options: { strict?: boolean } = {}): string[] {
  const problems: string[] = [];
  const where = () => new URL(page.url()).pathname;
  page.on("console", (message) => {
    const text = message.text();
    if (where() === "/no-such-page" && /status of 404/.test(text)) return;
    if (text.includes("WebSocket is closed before the connection is established")) return;
    if (message.type() === "error" || (options.strict && message.type() === "warning")) problems.push(`${where()}: ${text.slice(0, 300)}`);
  });
  page.on("pageerror", (error) => problems.push(`${where()}: ${error.message.slice(0, 300)}`));
  page.on("response", (response) => {
    const status = response.status();
    if (status >= 500 || (options.strict && status >= 400 && response.request().resourceType() !== "document")) problems.push(`${response.url()} answered ${status}`);
  });
  if (options.strict) {
    page.on("requestfailed", (request) => {
      // The next page.goto cancels what the previous page was still loading (lazy chunks).
      if (request.failure()?.errorText === "net::ERR_ABORTED") return;
      problems.push(`${request.url()} failed: ${request.failure()?.errorText}`);
    });
  }
  return problems;
}

/**
 * Runs an assertion about a page other than the test's own `page` (a second member, a visitor) and,
 * when it fails, adds what that page showed (its address and the accessibility tree of its main
 * part) to the error: Playwright's error context only shows the test's own page.
 */
export async function showingPageOnFailure(page: Page, assertion: () => Promise<void>): Promise<void> {
  try {
    await assertion();
  } catch (error) {
    const main = page.getByRole("main");
    const tree = await ((await main.count()) > 0 ? main.first() : page.locator("body")).ariaSnapshot({ timeout: 5_000 }).catch(() => "(no snapshot)");
    if (error instanceof Error) error.message += `\n\nThe page at ${page.url()} showed:\n${tree}`;
    throw error;
  }
}

type ClientRouter = {
  navigate(to: string, options?: { defaultShouldRevalidate?: boolean }): Promise<void>;
  state: { errors: Record<string, unknown> | null };
};

/**
 * Moves a hydrated page to `path` the way a member moves around, by React Router's client router
 * (`window.__reactRouterDataRouter`): the page's modules and loaders, no new document. Resolves
 * when the navigation has settled, with the ids of the routes that ended in an error boundary.
 * With `revalidate`, every loader runs again, as on a new document (root's included).
 * About half the browser's work of a whole page load (docs/testing.md).
 */
export async function navigateInApp(page: Page, path: string, options: { revalidate?: boolean } = {}): Promise<string[]> {
  return page.evaluate(
    async ({ to, revalidate }) => {
      const router = (window as unknown as { __reactRouterDataRouter: ClientRouter }).__reactRouterDataRouter;
      await router.navigate(to, revalidate ? { defaultShouldRevalidate: true } : undefined);
      return Object.keys(router.state.errors ?? {});
    },
    { to: path, revalidate: options.revalidate ?? false },
  );
}

/** Picks an option of a kit <Select> (a Radix listbox in a portal, not a native select). */
export async function chooseOption(scope: Page | Locator, label: string, option: string) {
  const page = "page" in scope ? scope.page() : scope;
  await scope.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
  await expect(scope.getByRole("combobox", { name: label })).toHaveText(option);
}
