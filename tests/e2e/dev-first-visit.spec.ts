import type { Page } from "@playwright/test";
import { expect, navigateInApp, test, waitForHydration, watchPage } from "./fixtures";
import { DEV_FIRST_VISIT_PAGES, PUBLIC_PAGES } from "./pages";

/**
 * A newcomer's first look: `npm start` on an empty local state and an empty Vite dependency cache
 * (scripts/e2e-dev-server.mjs, started in the background by global-setup.ts). The public pages and
 * a page or two of every module (DEV_FIRST_VISIT_PAGES), visited once, are right on that first
 * visit: each answers, hydrates, carries its title, and the console has no error (a mid-visit
 * dependency re-optimization would show as "Invalid hook call" or a 504).
 * The demo member signs in with the credentials the README gives and finds the sample content.
 */
const DEV_URL = `http://localhost:${Number(process.env.E2E_DEV_PORT ?? 5190)}`;
const DEMO = { email: "demo@strongroom.local", password: "strongroom-demo-2026" };

test.use({ baseURL: DEV_URL });

async function visit(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), `${path} answers`).toBe(path === "/no-such-page" ? 404 : 200);
  await waitForHydration(page);
  await expect(page, `${path} has its title`).toHaveTitle(/^\S.* - Strongroom$/);
}

/**
 * A member page reached the way a member moves around, by the client router from the page before:
 * its modules are fetched and transformed on this first visit, its loaders run on the server, and
 * a dependency found late would show as a 504 or a second React. A whole document per page fetched
 * hundreds of unbundled modules again each time (the check was 208 CPU seconds, the browser
 * layer's largest). Not an error page either.
 */
async function moveTo(page: Page, path: string) {
  // Where it ends may differ (the inbox redirects to its folder); an error boundary may not show.
  expect(await navigateInApp(page, path), `${path} opens without an error`).toEqual([]);
  await expect(page, `${path} has its title`).toHaveTitle(/^\S.* - Strongroom$/);
}

type Listing = { folders: { uid: string; label: string }[]; files: { id: string; name: string }[] };

test("a fresh npm start shows the public pages and every module's pages right on their first visit, with the demo's sample content", async ({ page }) => {
  test.setTimeout(300_000);
  // global-setup.ts started it in the background; it takes ~20 s to come up.
  await expect
    .poll(async () => (await page.request.get("/api/health", { failOnStatusCode: false }).catch(() => null))?.status() ?? 0, { timeout: 180_000, intervals: [1000] })
    .toBe(200);
  const problems = watchPage(page);
  for (const path of PUBLIC_PAGES) await visit(page, path);

  // The demo account from the README, signed in through the spec's JSON endpoint.
  const loginPage = await (await page.request.get("/login")).text();
  const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(loginPage)?.[1] ?? "";
  const signedIn = await page.request.post("/login", { data: DEMO, headers: { "x-csrf-token": csrf } });
  expect(signedIn.status(), await signedIn.text()).toBe(200);

  // npm start adds the sample content right after the server is up: wait for it, then find it.
  const { folders: defaults } = (await (await page.request.get("/api/user/default-folders")).json()) as { folders: { uid: string; label: string }[] };
  const inbox = defaults.find((folder) => folder.label === "Inbox")!.uid;
  const listing = async (uid: string) => (await (await page.request.get(`/api/folders/${uid}`)).json()) as Listing;
  await expect.poll(async () => (await listing(inbox)).folders.map((folder) => folder.label).sort(), { timeout: 120_000 }).toEqual([
    "Board papers",
    "Contracts",
    "Site photos",
  ]);
  const folders = (await listing(inbox)).folders;
  const board = folders.find((folder) => folder.label === "Board papers")!.uid;
  const photos = folders.find((folder) => folder.label === "Site photos")!.uid;
  await expect.poll(async () => (await listing(board)).files.map((file) => file.name).sort(), { timeout: 60_000 }).toEqual([
    "Board pack Q3.pdf",
    "Minutes 2026-09-14.txt",
  ]);
  const pdf = (await listing(board)).files.find((file) => file.name === "Board pack Q3.pdf")!.id;

  const rooms = async () => ((await (await page.request.get("/api/datarooms?workspace=personal")).json()) as { datarooms: { id: string; name: string }[] }).datarooms;
  await expect.poll(async () => (await rooms()).map((room) => room.name), { timeout: 60_000 }).toEqual(["Project Falcon"]);
  const room = (await rooms())[0]!.id;

  // The first as a whole document, the others by the client router from there.
  const memberPages = DEV_FIRST_VISIT_PAGES.map((path) => path.replace("{inbox}", photos).replace("{file}", pdf).replace("{room}", room));
  await visit(page, memberPages[0]!);
  for (const path of memberPages.slice(1)) await moveTo(page, path);

  // What the newcomer sees: the sample folders, the PDF's first page, something in the trash.
  await visit(page, `/folders/${inbox}`);
  await expect(page.getByRole("link", { name: "Board papers" }).first()).toBeVisible();
  await visit(page, `/files/${pdf}`);
  await expect(page.getByText("Page 1 of 6")).toBeVisible({ timeout: 30_000 });
  await visit(page, "/trash");
  await expect(page.getByText("Old draft.txt")).toBeVisible();
  await visit(page, `/dataroom/${room}`);
  await expect(page.getByRole("heading", { level: 1, name: "Project Falcon" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Financials" }).first()).toBeVisible();
  // The second demo account joined the room as a guest through its invitation.
  const people = async () => ((await (await page.request.get(`/api/datarooms/${room}/members`)).json()) as { members: { name: string; role: string }[] }).members;
  await expect.poll(async () => (await people()).map((member) => `${member.name} (${member.role})`), { timeout: 60_000 }).toEqual(["Demo Member (owner)", "Demo Guest (guest)"]);
  await visit(page, `/dataroom/${room}/users`);
  await expect(page.getByTestId("room-member").filter({ hasText: "Demo Guest" })).toBeVisible();
  // The teaser's share link: its page for the owner, and its address for a visitor (the e-mail gate).
  const links = async () => ((await (await page.request.get(`/api/datarooms/${room}/share-links`)).json()) as { links: { id: string; slug: string | null }[] }).links;
  await expect.poll(async () => (await links()).map((link) => link.slug), { timeout: 60_000 }).toEqual(["falcon-teaser"]);
  await visit(page, `/share-links/${(await links())[0]!.id}`);
  await expect(page.getByRole("img", { name: "QR code of the link to Falcon teaser.pdf" })).toBeVisible();
  await visit(page, "/s/falcon-teaser");
  await expect(page.getByLabel("E-mail address")).toBeVisible();
  // The room's receive page, as a visitor finds it (its owner is the demo member).
  const pages = async () => ((await (await page.request.get("/api/user/receive-pages")).json()) as { pages: { path: string }[] }).pages;
  await expect.poll(async () => (await pages()).map((item) => item.path), { timeout: 60_000 }).toEqual(["/r/falcon-documents"]);
  await visit(page, "/r/falcon-documents");
  await expect(page.getByRole("heading", { level: 1, name: "Falcon: documents from the seller" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Company", exact: true })).toBeVisible();
  // Workflows and cases (the demo member is on Business): the workflow whose run waits for the guest, and the case opened by hand.
  await visit(page, "/workflows");
  await expect(page.getByRole("link", { name: "Contract approval" })).toBeVisible();
  await visit(page, "/cases");
  await expect(page.getByRole("link", { name: "CASE-0001 Fabrikam renewal" })).toBeVisible();
  // The demo member's team, which the demo guest joined from their mailed invitation, and where they hold the custom role Reviewer.
  const teams = async () => ((await (await page.request.get("/api/teams")).json()) as { teams: { id: string; name: string; memberCount: number }[] }).teams;
  await expect.poll(async () => (await teams()).map((team) => `${team.name} (${team.memberCount})`), { timeout: 60_000 }).toEqual(["Falcon deal team (2)"]);
  const [falcon] = await teams();
  const roles = async () => ((await (await page.request.get(`/api/teams/${falcon!.id}`)).json()) as { members: { roleLabel: string }[] }).members.map((member) => member.roleLabel);
  await expect.poll(roles, { timeout: 60_000 }).toEqual(["Owner", "Reviewer"]);
  const teamRooms = async () => ((await (await page.request.get(`/api/datarooms?workspace=${falcon!.id}`)).json()) as { datarooms: { name: string }[] }).datarooms.map((item) => item.name);
  await expect.poll(teamRooms, { timeout: 60_000 }).toEqual(["Falcon team room"]);
  // The team's drive: its own folders and gallery, outside its rooms.
  const driveRoot = async () => ((await (await page.request.get(`/api/teams/${falcon!.id}`)).json()) as { drive: { rootId: string } | null }).drive?.rootId ?? null;
  await expect.poll(driveRoot, { timeout: 60_000 }).not.toBeNull();
  const driveFolders = async () => ((await (await page.request.get(`/api/folders/${await driveRoot()}`)).json()) as { folders: { label: string }[] }).folders.map((folder) => folder.label);
  await expect.poll(driveFolders, { timeout: 60_000 }).toEqual(["Deal memos", "Warehouse visit"]);
  await visit(page, "/team");
  await expect(page.getByRole("link", { name: "Falcon deal team" })).toBeVisible();
  // The team's Reviewer is offered as a template on the personal room's permissions page.
  await visit(page, `/dataroom/${room}/permissions`);
  await expect(page.getByRole("region", { name: "Use a team role as a template" }).getByRole("option", { name: "Reviewer (Falcon deal team)" })).toBeAttached();

  expect(problems).toEqual([]);
});
