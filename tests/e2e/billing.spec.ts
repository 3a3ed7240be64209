import { seriousViolations } from "./axe-helpers";
import { createMember, expect, test, waitForHydration } from "./fixtures";

/**
 * Billing (issue 43), the member's journey so far: a Free member denied a Business page is offered
 * a free trial in the upgrade modal, reads in the trial modal what they get and for how long,
 * starts it, sees the countdown in the top bar and opens the page. Every refusal and the trial's
 * end are workerd tests (trials.test.ts).
 */
test("a free member offered Business on a locked page starts a 14-day trial from the trial modal, sees the countdown and opens the page", async ({ page }) => {
  await createMember(page.request, { tier: "free" });
  const denied = await page.goto("/workflows");
  expect(denied?.status()).toBe(403);
  await waitForHydration(page);
  const upgrade = page.getByRole("dialog", { name: "Upgrade to use Workflows" });
  await upgrade.getByRole("link", { name: "Try Business free for 14 days" }).click();

  await expect(page).toHaveTitle("Trial - Strongroom");
  const modal = page.getByRole("dialog", { name: "Try Business free for 14 days" });
  await expect(modal).toContainText("No card needed.");
  await expect(modal.getByRole("list", { name: "What Business adds" })).toContainText("Workflows");
  expect(await seriousViolations(page)).toEqual([]);
  await modal.getByRole("button", { name: "Start my free trial" }).click();

  await expect(page.locator(".Toastify__toast").filter({ hasText: "Your Business trial has started: 14 days left." })).toBeVisible();
  await expect(page.getByTestId("trial-running")).toContainText("Your Business trial: 14 days left");
  await expect(page.getByTestId("trial-over-limits")).toHaveText("Everything you have fits Free's limits.");
  await expect(page.getByTestId("trial-countdown")).toHaveText("Business trial · 14 days left");
  const opened = await page.goto("/workflows");
  expect(opened?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Workflows" })).toBeVisible();
});
