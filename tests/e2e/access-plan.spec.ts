import type { Page } from "@playwright/test";
import { changeMember, createMember, expect, gotoHydrated, test, waitForHydration } from "./fixtures";

function cachedTier(page: Page) {
  return page.evaluate(() => {
    const raw = localStorage.getItem("user-data-cache");
    return raw ? (JSON.parse(raw) as { tier?: string }).tier ?? null : null;
  });
}

test.describe("plan and locked features", () => {
  test("a visitor is sent to sign in before a permission-critical page; a free member is told on the server which plan has it, sees a locked Pro feature, is offered the plans, compares them, and has the feature unlocked after an operator upgrade", async ({ page }) => {
    await page.goto("/workflows");
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("redirectTo") === "/workflows");

    const member = await createMember(page.request, { tier: "free" });
    const response = await page.goto("/cases");
    expect(response?.status()).toBe(403);
    await expect(page.getByText("You don't have the required feature: workflows. It is part of the Business plan and above.")).toBeVisible();
    // Spec §4/§6 "Denied action": the warning toast and the upgrade modal for the plan that has it.
    await expect(page.getByText("You don't have the required permission: Workflows")).toBeVisible();
    const workflowsUpgrade = page.getByRole("dialog", { name: "Upgrade to use Workflows" });
    await expect(workflowsUpgrade).toBeVisible();
    await expect(workflowsUpgrade.getByTestId("plan-business")).toBeVisible();
    await page.keyboard.press("Escape");

    await gotoHydrated(page, "/settings/plan");
    await expect(page).toHaveTitle("Plan - Strongroom");
    await expect(page.getByRole("heading", { level: 1, name: "Your plan" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Plan" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("current-plan")).toContainText("Free");

    // A feature of the free plan is simply included; a Pro one is locked with the plan in its tooltip.
    await expect(page.getByTestId("feature-dataroom_create")).toHaveAttribute("data-state", "unlocked");
    await expect(page.getByTestId("feature-dataroom_create").getByText("Included")).toBeVisible();
    const tile = page.getByTestId("feature-audit_logs");
    await expect(tile).toHaveAttribute("data-state", "locked");
    const locked = tile.getByRole("button", { name: "Open Audit logs. Locked: available on the Pro plan" });
    await locked.hover();
    await expect(tile.getByTestId("restricted-tooltip")).toBeVisible();
    await expect(tile.getByTestId("restricted-tooltip")).toHaveText("Available on the Pro plan");

    // Pressing it shows the warning and the plans, with Pro marked as the one needed.
    await locked.click();
    await expect(page.locator(".Toastify__toast").filter({ hasText: "You don't have the required permission: Audit logs" })).toBeVisible();
    const dialog = page.getByRole("dialog", { name: "Upgrade to use Audit logs" });
    await expect(dialog).toBeVisible();
    for (const label of ["Free", "Basic", "Pro", "Business", "Enterprise"]) {
      await expect(dialog.getByRole("heading", { name: label, exact: true })).toBeVisible();
    }
    await expect(dialog.getByTestId("plan-pro")).toHaveAttribute("data-required", "true");
    await expect(dialog.getByTestId("plan-pro")).toContainText("Audit logs");
    await expect(dialog.getByTestId("plan-free")).toContainText("Your plan");
    await expect(dialog.getByTestId("plan-custom")).toContainText("Unlimited data rooms");
    await expect(dialog.getByTestId("plan-contact")).toContainText("For Enterprise or any question about plans, contact us");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    // The keyboard reaches the locked control too.
    await locked.focus();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");

    // Compare plans opens them without naming one as needed.
    await page.getByRole("button", { name: "Compare plans" }).click();
    const compare = page.getByRole("dialog", { name: "Compare plans" });
    await expect(compare.getByTestId("plan-business")).toBeVisible();
    await expect(compare.getByText("Needed for this")).toHaveCount(0);
    await expect(compare.getByTestId("plan-free")).toContainText("Your plan");
    await page.keyboard.press("Escape");
    await expect(compare).toBeHidden();

    // The store has cached the free plan's data by now.
    await expect.poll(() => cachedTier(page)).toBe("free");

    // The operator's upgrade (`npm run ops -- user:set-tier`), made inside the server under test.
    await changeMember(page.request, member, { tier: "pro" });

    const backgroundRefresh = page.waitForRequest(
      (request) => new URL(request.url()).pathname === "/api/user/data-batch" && request.headers()["x-background-request"] === "1",
    );
    await page.reload();
    await waitForHydration(page);
    await backgroundRefresh;
    await expect(tile).toHaveAttribute("data-state", "unlocked");
    await expect(tile.getByText("Included")).toBeVisible();
    await expect(tile.getByRole("button", { name: /Locked/ })).toHaveCount(0);
    await expect(page.getByTestId("current-plan")).toContainText("Pro");
    // The background refresh replaced the free plan's cache.
    await expect.poll(() => cachedTier(page)).toBe("pro");
  });
});
