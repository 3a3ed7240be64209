import { csrfToken } from "./files-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/** The room's security page in Chromium (issue 20): IP restrictions saved for the owner's own network, and a list that would shut them out refused. */

test("a Business owner limits the room to their own address, and a list without it is refused on the field", async ({ page }) => {
  await createMember(page.request, { tier: "business" });
  await gotoHydrated(page, "/datarooms");
  const created = await page.request.post("/api/datarooms", { data: { name: "Project Merlin" }, headers: { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" } });
  expect(created.status(), await created.text()).toBe(201);
  const roomId = ((await created.json()) as { dataroom: { id: string } }).dataroom.id;

  await gotoHydrated(page, `/dataroom/${roomId}`);
  await page.getByRole("link", { name: "Security" }).click();
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
});
