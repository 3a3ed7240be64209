import { newConsentedContext, readLatestMail } from "./auth-helpers";
import { seriousViolations } from "./axe-helpers";
import { csrfToken } from "./files-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/** The room's security page in Chromium (issue 20): IP restrictions saved for the owner's own network, and a list that would shut them out refused. */

test("a Business owner limits the room to their own address, and a list without it is refused on the field; then requires two-factor sign-in, and a newcomer without it is sent to the room's two-factor page", async ({
  page,
  browser,
  baseURL,
}) => {
  // Signed in with an authenticator app (the test hook's session is past its code).
  await createMember(page.request, { tier: "business", twoFactor: "totp" });
  await gotoHydrated(page, "/datarooms");
  const created = await page.request.post("/api/datarooms", { data: { name: "Project Merlin" }, headers: { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" } });
  expect(created.status(), await created.text()).toBe(201);
  const roomId = ((await created.json()) as { dataroom: { id: string } }).dataroom.id;

  await gotoHydrated(page, `/dataroom/${roomId}`);
  // Security is one of the Settings tab's pages.
  await page.getByRole("navigation", { name: "Data room sections" }).getByRole("link", { name: "Settings" }).click();
  await page.getByRole("navigation", { name: "Settings pages" }).getByRole("link", { name: "Security" }).click();
  await expect(page).toHaveTitle("Security of Project Merlin - Strongroom");
  await expect(page.getByTestId("ip-status")).toHaveText("Now: any address.");
  const own = ((await (await page.request.get(`/api/datarooms/${roomId}/security`)).json()) as { currentIp: string | null }).currentIp;
  // The local server, like Cloudflare's edge, reports the visitor's address.
  expect(own).toBeTruthy();
  const field = page.getByRole("textbox", { name: "Allowed addresses and ranges" });

  // A list without the owner's own address would shut them out: refused, nothing saved.
  await field.fill("192.0.2.0/24");
  await page.getByRole("button", { name: "Save IP restrictions" }).click();
  await expect(page.getByText(`Your current address ${own} is not in this list`)).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("ip-status")).toHaveText("Now: any address.");

  await field.fill(`192.0.2.0/24\n${own}`);
  await page.getByRole("button", { name: "Save IP restrictions" }).click();
  await expect(page.locator(".Toastify__toast").filter({ hasText: "Only the 2 listed addresses or ranges can open the room now." })).toBeVisible();
  await expect(page.getByTestId("ip-status")).toHaveText(`Now: only 192.0.2.0/24, ${own}.`);
  // The owner is still in, from the listed address.
  await gotoHydrated(page, `/dataroom/${roomId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Project Merlin" })).toBeVisible();

  // Two-factor sign-in, required for everyone.
  await gotoHydrated(page, `/dataroom/${roomId}/security`);
  await expect(page.getByText("Your session passed a second factor.")).toBeVisible();
  await page.getByRole("checkbox", { name: "Require two-factor sign-in to open this room" }).click();
  await page.getByRole("button", { name: "Save two-factor requirement" }).click();
  await expect(page.locator(".Toastify__toast").filter({ hasText: "Only sessions that passed a second factor can open the room now." })).toBeVisible();

  const theirs = await newConsentedContext(browser, baseURL!);
  try {
    const other = await theirs.newPage();
    const newcomer = await createMember(other.request, { tier: "free", name: "Nils Newcomer" });
    const headers = { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" };
    const invited = await page.request.post(`/api/datarooms/${roomId}/invitations`, { data: { emails: [newcomer.email], role: "member" }, headers });
    expect(invited.status(), await invited.text()).toBe(201);
    const mail = await readLatestMail(page, newcomer.email, /Project Merlin/);
    await gotoHydrated(other, mail.link!);
    await other.getByRole("button", { name: "Join data room" }).click();
    await other.waitForURL(new RegExp(`/dataroom/${roomId}/two-factor$`));
    await expect(other).toHaveTitle("Two-factor verification - Strongroom");
    await expect(other.getByTestId("two-factor-state")).toContainText("Your account does not have two-factor sign-in yet.");
    await expect(other.getByRole("link", { name: "Set up two-factor sign-in" })).toHaveAttribute("href", "/settings/2fa");
    expect(await seriousViolations(other)).toEqual([]);
    // Its files stay closed to them.
    expect((await other.request.get(`/api/datarooms/${roomId}`)).status()).toBe(403);
  } finally {
    await theirs.close();
  }
});
