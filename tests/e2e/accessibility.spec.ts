import type { Page } from "@playwright/test";
import { preloadAxe, seriousViolations } from "./axe-helpers";
import { csrfToken, defaultFolders, uploadViaTus } from "./files-helpers";
import { expect, gotoHydrated, navigateInApp, test, waitForHydration, watchPage } from "./fixtures";
import { MEMBER_PAGES, PUBLIC_PAGES } from "./pages";

/** The public pages' exact titles ('<Page> - Strongroom'). */
const PUBLIC_TITLES: Record<(typeof PUBLIC_PAGES)[number], string> = {
  "/": "Home - Strongroom",
  "/privacy-policy": "Privacy Policy - Strongroom",
  "/showcase": "Showcase - Strongroom",
  "/ui": "Interface kit - Strongroom",
  "/login": "Login - Strongroom",
  "/register": "Register - Strongroom",
  "/forgot-password": "Forgot Password - Strongroom",
  "/signatures/verify": "Verify a signed PDF - Strongroom",
  "/no-such-page": "Page not found - Strongroom",
};

test.describe("accessibility (axe, WCAG 2.1 A and AA)", () => {
  test("every public page loads with its title, a CSRF token, no console error or failed request, and no serious or critical accessibility violation", async ({ page }) => {
    test.setTimeout(30_000 + PUBLIC_PAGES.length * 8_000);
    await preloadAxe(page);
    const problems = watchPage(page, { strict: true });
    for (const path of PUBLIC_PAGES) {
      const response = await page.goto(path);
      expect(response?.status(), `${path} answers`).toBe(path === "/no-such-page" ? 404 : 200);
      await waitForHydration(page);
      await expect(page, `${path} has its title`).toHaveTitle(PUBLIC_TITLES[path]);
      await expect(page.locator('meta[name="csrf-token"]'), `${path} carries a CSRF token`).toHaveAttribute("content", /^[A-Za-z0-9_-]{40,}$/);
      for (const violation of await seriousViolations(page)) problems.push(`${path}: ${violation}`);
    }
    expect(problems).toEqual([]);
  });
});

/** A data room of the worker's shared member with a folder in it, made once per worker (found by name after that). */
async function roomOf(page: Page): Promise<string> {
  const found = (await (await page.request.get("/api/datarooms?q=Axe%20room")).json()) as { datarooms: { id: string }[] };
  if (found.datarooms[0]) return found.datarooms[0].id;
  const headers = { "X-CSRF-TOKEN": await csrfTokenOf(page), "X-Requested-With": "XMLHttpRequest" };
  const created = await page.request.post("/api/datarooms", { data: { name: "Axe room", description: "Checked by axe" }, headers });
  expect(created.status(), await created.text()).toBe(201);
  const { dataroom } = (await created.json()) as { dataroom: { id: string } };
  const { rootFolderId } = (await (await page.request.get(`/api/datarooms/${dataroom.id}`)).json()) as { rootFolderId: string };
  await page.request.post("/api/folders", { data: { parentId: rootFolderId, label: "Diligence" }, headers });
  return dataroom.id;
}

/** The CSRF token of a page that may not have been opened yet. */
async function csrfTokenOf(page: Page): Promise<string> {
  if (!page.url().startsWith("http")) await gotoHydrated(page, "/datarooms");
  return csrfToken(page);
}

/** What sticks out past the right edge (not counting what a scrolling or clipping box holds in), to say where a page scrolls sideways. */
function widestElement(page: Page, width: number): Promise<string> {
  return page.evaluate((edge) => {
    const isHeldIn = (element: Element) => {
      // Something absolutely placed escapes a scrolling box that is not itself placed (a visually hidden label did).
      if (["absolute", "fixed"].includes(getComputedStyle(element).position)) return false;
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX !== "visible" && parent.getBoundingClientRect().right <= edge) return true;
      }
      return false;
    };
    let found: { right: number; text: string } | null = null;
    for (const element of document.body.querySelectorAll("*")) {
      const right = element.getBoundingClientRect().right;
      if (right > edge && (!found || right > found.right) && !isHeldIn(element)) {
        found = { right, text: `${element.tagName.toLowerCase()}.${String(element.getAttribute("class") ?? "").split(" ").slice(0, 4).join(".")} “${(element.textContent ?? "").trim().slice(0, 40)}”` };
      }
    }
    // Text can run out of a box that itself fits (a long word): measure the text too.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const right = range.getBoundingClientRect().right;
      if (right > edge && (!found || right > found.right) && node.parentElement && !isHeldIn(node.parentElement)) found = { right, text: `text “${(node.textContent ?? "").trim().slice(0, 40)}”` };
    }
    return found ? `${found.text} reaches ${Math.round(found.right)} px` : "nothing found";
  }, width);
}

/** The widths a member's page must fit without scrolling sideways (issue 36): laptop, desktop, wide, phone. */
const WIDTHS = [1280, 1024, 1440, 390] as const;
/** The member pages are checked in a few passes, one browser context each, so both workers share them. */
const PASSES = 4;

test.describe("every member page in one pass (axe WCAG 2.1 A and AA, its title, no sideways scrolling)", () => {
  for (let pass = 0; pass < PASSES; pass++) {
    const paths = MEMBER_PAGES.filter((_, index) => index % PASSES === pass);
    test(`member pages, pass ${pass + 1} of ${PASSES} (${paths.length} pages): no serious or critical accessibility violation, a title, no horizontal scroll at ${WIDTHS.join(", ")} px`, async ({ sharedPage: page }) => {
      test.setTimeout(30_000 + paths.length * 8_000);
      await preloadAxe(page);
      const problems = watchPage(page, { strict: true });
      let file: string | null = null;
      let room: string | undefined;
      let inbox: string | undefined;
      for (const [index, path] of paths.entries()) {
        let url: string = path;
        if (url.includes("{room}")) url = url.replace("{room}", (room ??= await roomOf(page)));
        if (url.includes("{")) {
          inbox ??= (await defaultFolders(page)).inbox;
          url = url.replace("{inbox}", inbox);
          if (url.includes("{file}")) {
            if (!file) {
              await gotoHydrated(page, "/folders/inbox");
              file = await uploadViaTus(page.request, { folderId: inbox, name: `notes ${crypto.randomUUID()}.txt`, body: Buffer.from("Minutes of the board meeting.\n"), csrf: await csrfToken(page) });
            }
            url = url.replace("{file}", file);
          }
        }
        await page.setViewportSize({ width: WIDTHS[0], height: 720 });
        // The first page as a whole document, the others the way a member moves: by the client router.
        if (index === 0) {
          const response = await page.goto(url);
          if (response?.status() !== 200) {
            problems.push(`${path}: answered ${response?.status()}`);
            continue;
          }
          await waitForHydration(page);
        } else {
          const errors = await navigateInApp(page, url);
          if (errors.length > 0) {
            problems.push(`${path}: the page failed (${errors.join(", ")})`);
            continue;
          }
        }
        const title = await page.title();
        if (!/^\S.* - Strongroom$/.test(title)) problems.push(`${path}: title "${title}"`);
        // The workspace's frame is the same on every page: checked on the first page of the pass, then only the page.
        for (const violation of await seriousViolations(page, { exclude: index === 0 ? undefined : "[data-shell]" })) problems.push(`${path}: ${violation}`);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 720 });
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          if (scrollWidth > width) problems.push(`${path}: ${scrollWidth} px wide at ${width} px (${await widestElement(page, width)})`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
