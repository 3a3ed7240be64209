import type { Dialog, Page } from "@playwright/test";
import { chooseOption, expect, test } from "./fixtures";

/*
 * react-toastify times a toast with a CSS animation on its progress bar (it closes on
 * `animationend`); page.clock does not drive CSS animations (and, once installed, stalls the
 * library's requestAnimationFrame-based removal). So the timeout tests move the animation's own
 * clock (Web Animations' currentTime) to just before each timeout, instead of waiting 5 to 8 s.
 */

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const toasts = (page: Page) => page.locator(".Toastify__toast");
const toastWithText = (page: Page, text: string) => toasts(page).filter({ hasText: text });

function toastsSection(page: Page) {
  return page.getByRole("region", { name: "Toasts" });
}

async function choose(page: Page, options: { type?: string; position?: string }) {
  const section = toastsSection(page);
  if (options.type) await section.getByRole("radio", { name: options.type, exact: true }).check();
  if (options.position) await chooseOption(section, "Position", options.position);
}

async function showToast(page: Page, options: { type?: string; position?: string } = {}) {
  await choose(page, options);
  await toastsSection(page).getByRole("button", { name: "Show toast", exact: true }).click();
  // Keep the pointer off the toasts: hovering one pauses it.
  await page.mouse.move(1, 360);
}

/**
 * Waits until the toast has finished its entrance (react-toastify starts its timer, the progress
 * bar's animation, only then) and returns its box.
 */
async function settledBox(page: Page, text: string) {
  const locator = toastWithText(page, text);
  await expect(locator.locator(".Toastify__progress-bar")).toHaveCSS("animation-play-state", "running");
  const rect = await locator.boundingBox();
  if (!rect) throw new Error("toast has no box");
  return rect;
}

/** How far the toast's timer (its progress bar's animation) has run, in ms. */
async function timerElapsed(page: Page, text: string) {
  return toastWithText(page, text)
    .locator(".Toastify__progress-bar")
    .evaluate((bar) => Number(bar.getAnimations()[0]?.currentTime ?? Number.NaN));
}

test.beforeEach(async ({ kitPage: page }) => {
  await toastsSection(page).scrollIntoViewIfNeeded();
});

test("a toast appears top-right when no other position is chosen", async ({ kitPage: page }) => {
  await expect(toastsSection(page).getByRole("combobox", { name: "Position" })).toHaveText("top-right");
  await showToast(page, { type: "info" });
  const viewport = page.viewportSize()!;
  const rect = await settledBox(page, "Info toast, top-right.");
  expect(rect.y).toBeLessThan(40);
  expect(viewport.width - (rect.x + rect.width)).toBeLessThan(40);
});

test("a toast appears in the chosen corner or edge of the viewport", async ({ kitPage: page }) => {
  const viewport = page.viewportSize()!;
  for (const position of ["top-left", "top-center", "top-right", "bottom-left", "bottom-center", "bottom-right"]) {
    await showToast(page, { type: "success", position });
    const rect = await settledBox(page, `Success toast, ${position}.`);
    const [vertical, horizontal] = position.split("-");
    if (vertical === "top") expect(rect.y, position).toBeLessThan(40);
    else expect(viewport.height - (rect.y + rect.height), position).toBeLessThan(40);
    if (horizontal === "left") expect(rect.x, position).toBeLessThan(40);
    if (horizontal === "right") expect(viewport.width - (rect.x + rect.width), position).toBeLessThan(40);
    if (horizontal === "center") expect(Math.abs(rect.x + rect.width / 2 - viewport.width / 2), position).toBeLessThan(20);
    await toastsSection(page).getByRole("button", { name: "Dismiss all toasts" }).click();
    await expect(toasts(page)).toHaveCount(0);
  }
});

/**
 * Moves a toast's timer (its progress bar's CSS animation, which closes the toast on
 * `animationend`) to `ms`: the tests jump to just before a timeout ends instead of waiting for it.
 */
async function jumpTimer(page: Page, text: string, ms: number) {
  await toastWithText(page, text)
    .locator(".Toastify__progress-bar")
    .evaluate((bar, to) => {
      const animation = bar.getAnimations()[0];
      if (!animation) throw new Error("the toast's timer is not running");
      animation.currentTime = to;
    }, ms);
}

test("a success toast is gone after 5 s while an error toast is still there at 6 s and gone after 8 s", async ({ kitPage: page }) => {
  await showToast(page, { type: "error" });
  await showToast(page, { type: "success" });
  const successText = "Success toast, top-right.";
  const errorText = "Error toast, top-right.";
  const success = toastWithText(page, successText);
  const error = toastWithText(page, errorText);
  await settledBox(page, successText);
  await settledBox(page, errorText);

  // Both timers half a second before 5 s: both still open; the success toast then closes by itself.
  await jumpTimer(page, successText, 4500);
  await jumpTimer(page, errorText, 4500);
  await expect(success).toHaveAttribute("data-in", "true");
  await expect(success, "success closes at 5 s").toHaveCount(0, { timeout: 5_000 });
  // The error toast outlives 6 s, and closes half a second after its timer passes 7.5 s.
  await jumpTimer(page, errorText, 6000);
  await page.waitForTimeout(300);
  await expect(error, "error is still there at 6 s").toHaveAttribute("data-in", "true");
  await jumpTimer(page, errorText, 7500);
  await expect(error, "error closes at 8 s").toHaveCount(0, { timeout: 5_000 });
});

test("each type runs its progress bar for its own timeout", async ({ kitPage: page }) => {
  const expected = { success: "5s", info: "5s", warning: "6s", error: "8s", default: "5s" };
  for (const [type, duration] of Object.entries(expected)) {
    await showToast(page, { type });
    const bar = toastWithText(page, `${capitalize(type)} toast`).locator(".Toastify__progress-bar");
    await expect(bar).toHaveCSS("animation-duration", duration);
  }
});

test("the progress bar is grey whatever the type", async ({ kitPage: page }) => {
  for (const type of ["success", "error", "warning", "info", "default"]) {
    await showToast(page, { type });
    const bar = toastWithText(page, `${capitalize(type)} toast`).locator(".Toastify__progress-bar");
    await expect(bar).toHaveCSS("background-color", "rgb(156, 163, 175)");
    await expect(bar).toHaveCSS("background-image", "none");
  }
});

test("no more than 20 toasts are visible at once; the rest wait their turn", async ({ kitPage: page }) => {
  await choose(page, { type: "info", position: "top-right" });
  await toastsSection(page).getByRole("button", { name: "Show 25 toasts" }).click();
  await page.mouse.move(1, 360);
  await expect(toasts(page)).toHaveCount(20);
  // The window losing focus pauses every toast's timer (the test below shows it), so none of the
  // twenty expires on its own while a busy machine checks the queue; only the click closes one.
  await page.evaluate(() => window.dispatchEvent(new Event("blur")));
  await page.waitForTimeout(500);
  await expect(toasts(page)).toHaveCount(20);
  await expect(toastWithText(page, "Toast 21 of 25")).toHaveCount(0);

  // Closing one lets the next in.
  await toastWithText(page, "Toast 1 of 25").click();
  await expect(toastWithText(page, "Toast 21 of 25")).toHaveCount(1);
  await expect(toasts(page)).toHaveCount(20);

  // Dismissing all also empties the queue.
  await toastsSection(page).getByRole("button", { name: "Dismiss all toasts" }).click();
  await expect(toasts(page)).toHaveCount(0);
  await page.waitForTimeout(800);
  await expect(toasts(page)).toHaveCount(0);
});

test("a click closes a toast", async ({ kitPage: page }) => {
  await showToast(page, { type: "warning" });
  const toast = toastWithText(page, "Warning toast");
  await settledBox(page, "Warning toast");
  await toast.click();
  await expect(toast).toHaveCount(0);
});

test("a sideways drag beyond 60 % of the width dismisses a toast; a short one does not", async ({ kitPage: page }) => {
  await showToast(page, { type: "info", position: "top-center" });
  const text = "Info toast, top-center.";
  const toast = toastWithText(page, text);
  const start = await settledBox(page, text);
  const y = start.y + start.height / 2;
  const x = start.x + start.width / 2;

  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + start.width * 0.3, y, { steps: 6 });
  await page.mouse.up();
  await page.mouse.move(1, 360);
  await page.waitForTimeout(400);
  await expect(toast).toBeVisible();
  const back = await toast.boundingBox();
  expect(Math.abs(back!.x - start.x)).toBeLessThan(2);

  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + start.width * 0.7, y, { steps: 10 });
  await page.mouse.up();
  await page.mouse.move(1, 360);
  await expect(toast).toHaveCount(0);
});

test("hovering a toast pauses its timer; leaving resumes it", async ({ kitPage: page }) => {
  // An error toast (8 s) leaves room for the hover to land on a busy machine before it closes.
  await showToast(page, { type: "error", position: "bottom-right" });
  const text = "Error toast, bottom-right.";
  const toast = toastWithText(page, text);
  await settledBox(page, text);
  await toast.hover();
  const bar = toast.locator(".Toastify__progress-bar");
  await expect(bar).toHaveCSS("animation-play-state", "paused");
  const elapsedAtHover = await timerElapsed(page, text);
  // A second on, the toast is still there and its timer has not moved.
  await page.waitForTimeout(1000);
  await expect(toast).toHaveAttribute("data-in", "true");
  expect(await timerElapsed(page, text)).toBeCloseTo(elapsedAtHover, -2);

  await page.mouse.move(1, 360);
  await expect(bar).toHaveCSS("animation-play-state", "running");
  await expect.poll(() => timerElapsed(page, text)).toBeGreaterThan(elapsedAtHover + 200);
  // Running again, it closes when its timer ends (jumped to half a second before).
  await jumpTimer(page, text, 7500);
  await expect(toast).toHaveCount(0, { timeout: 5_000 });
});

test("a toast pauses while the window has lost focus", async ({ kitPage: page }) => {
  await showToast(page, { type: "success" });
  const bar = toastWithText(page, "Success toast").locator(".Toastify__progress-bar");
  await expect(bar).toHaveCSS("animation-play-state", "running");
  await page.evaluate(() => window.dispatchEvent(new Event("blur")));
  await expect(bar).toHaveCSS("animation-play-state", "paused");
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await expect(bar).toHaveCSS("animation-play-state", "running");
});

test("markup in a message is shown as text and never run", async ({ kitPage: page }) => {
  let dialogs = 0;
  const onDialog = async (dialog: Dialog) => {
    dialogs += 1;
    await dialog.dismiss();
  };
  page.on("dialog", onDialog);
  const markup = "<b>bold</b><img src=x onerror=alert(1)>";
  await toastsSection(page).getByRole("button", { name: "Show toast with HTML" }).click();
  const toast = toastWithText(page, markup);
  await expect(toast).toBeVisible();
  await expect(toast.locator("b, img")).toHaveCount(0);
  await expect(page.locator(".Toastify img, .Toastify b")).toHaveCount(0);
  await page.waitForTimeout(500);
  // The kit page is shared by the tests of this worker: the listener belongs to this test only.
  page.off("dialog", onDialog);
  expect(dialogs).toBe(0);
});

test("the helper messages show as success toasts", async ({ kitPage: page }) => {
  for (const message of ["Folder Created Successfully.", "Folder Updated Successfully.", "Folder Deleted Successfully."]) {
    await toastsSection(page).getByRole("button", { name: message }).click();
    await expect(toastWithText(page, message)).toHaveClass(/Toastify__toast--success/);
  }
});
