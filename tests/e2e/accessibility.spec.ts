import type { Page } from "@playwright/test";
import { seriousViolations } from "./axe-helpers";
import { csrfToken, defaultFolders, uploadViaTus } from "./files-helpers";
import { expect, gotoHydrated, test } from "./fixtures";
import { MEMBER_PAGES } from "./pages";

test.describe("accessibility (axe, WCAG 2.1 A and AA)", () => {
  for (const [path, title] of [
    ["/", "Home - Strongroom"],
    ["/privacy-policy", "Privacy Policy - Strongroom"],
    ["/ui", "Interface kit - Strongroom"],
    ["/no-such-page", "Page not found - Strongroom"],
    ["/login", "Login - Strongroom"],
    ["/register", "Register - Strongroom"],
  ] as const) {
    test(`${path} has no serious or critical accessibility violation`, async ({ page }) => {
      await gotoHydrated(page, path);
      await expect(page).toHaveTitle(title);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  test("the cookie consent banner a first-time visitor sees has no serious or critical violation", async ({ freshPage }) => {
    await gotoHydrated(freshPage, "/");
    await expect(freshPage.getByRole("button", { name: "I Accept" })).toBeVisible();
    expect(await seriousViolations(freshPage)).toEqual([]);
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

test.describe("accessibility of member pages (axe, WCAG 2.1 A and AA)", () => {
  for (const path of MEMBER_PAGES) {
    test(`${path} has no serious or critical accessibility violation for a signed-in member`, async ({ sharedPage: page }) => {
      let url: string = path;
      if (url.includes("{room}")) url = url.replace("{room}", await roomOf(page));
      if (url.includes("{")) {
        const { inbox } = await defaultFolders(page);
        url = url.replace("{inbox}", inbox);
        if (url.includes("{file}")) {
          await gotoHydrated(page, "/folders/inbox");
          const file = await uploadViaTus(page.request, { folderId: inbox, name: `notes ${crypto.randomUUID()}.txt`, body: Buffer.from("Minutes of the board meeting.\n"), csrf: await csrfToken(page) });
          url = url.replace("{file}", file);
        }
      }
      const response = await page.goto(url);
      expect(response?.status(), `${url} opens for the member`).toBe(200);
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1, { timeout: 20_000 });
      await expect(page).toHaveTitle(/^\S.* - Strongroom$/);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
