import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** One slider demo card of the kit, found by its title, scrolled into view (mouse tests need it on screen). */
async function sliderCard(page: Page, title: string) {
  const card = page.locator(`[data-slider-demo="${title}"]`);
  await card.evaluate((element) => element.scrollIntoView({ block: "center" }));
  return card;
}

async function box(locator: Locator) {
  const rect = await locator.boundingBox();
  if (!rect) throw new Error("element has no box");
  return rect;
}

test.describe("the modal", () => {
  test("traps Tab inside while open, closes on Escape and gives focus back to its trigger", async ({ kitPage: page }) => {
    const trigger = page.getByRole("button", { name: "Open form modal" });
    await trigger.click();
    const dialog = page.getByRole("dialog", { name: "Edit folder" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Folder name")).toBeFocused();

    // Folder name → Description → Cancel → Save → Close → back to Folder name.
    const expected = ["Description", "Cancel", "Save", "Close", "Folder name", "Description"];
    for (const name of expected) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      const focused = page.locator(":focus");
      const label = await focused.evaluate(
        (element) => element.getAttribute("aria-label") ?? element.closest("label")?.firstChild?.textContent?.trim() ?? element.textContent?.trim(),
      );
      expect(label).toBe(name);
    }
    await page.keyboard.press("Shift+Tab");
    await expect(dialog.getByLabel("Folder name")).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
  });

  test("submits its form with Save, closes and returns focus to the trigger", async ({ kitPage: page }) => {
    const trigger = page.getByRole("button", { name: "Open form modal" });
    await trigger.click();
    const dialog = page.getByRole("dialog", { name: "Edit folder" });
    await dialog.getByLabel("Folder name").fill("Board papers");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("modal-form-result")).toHaveText("Saved: Board papers");
    await expect(trigger).toBeFocused();
  });

  test("Cancel closes without saving", async ({ kitPage: page }) => {
    await page.getByRole("button", { name: "Open form modal" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit folder" });
    await dialog.getByLabel("Folder name").fill("Never saved");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("modal-form-result")).toHaveText("Not saved yet");
  });

  test("comes in every size, each wider than the last, and closes on a click outside", async ({ kitPage: page }) => {
    let previousWidth = 0;
    for (const size of ["sm", "md", "lg", "xl", "full"]) {
      const trigger = page.getByRole("button", { name: `Open ${size} modal` });
      await trigger.click();
      const dialog = page.getByRole("dialog", { name: `${size} modal` });
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAttribute("data-size", size);
      const { width } = await box(dialog);
      expect(width).toBeGreaterThan(previousWidth);
      previousWidth = width;
      // The overlay's corner is outside every size but "full" (which leaves a 1rem margin).
      await page.mouse.click(4, 4);
      await expect(dialog).toBeHidden();
      await expect(trigger).toBeFocused();
    }
  });

  test("comes in every variant, each named by its title and closed by its Close button", async ({ kitPage: page }) => {
    for (const variant of ["default", "danger", "info", "success", "warning"]) {
      await page.getByRole("button", { name: `Open ${variant} modal` }).click();
      const title = `${variant[0]!.toUpperCase()}${variant.slice(1)} modal`;
      const dialog = page.getByRole("dialog", { name: title });
      await expect(dialog).toHaveAttribute("data-variant", variant);
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(dialog).toBeHidden();
    }
  });

  test("cannot be dismissed while deleting, then closes by itself", async ({ kitPage: page }) => {
    await page.getByRole("button", { name: "Open delete modal" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete folder?" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(dialog.getByRole("button", { name: "Deleting..." })).toBeDisabled();
    await page.keyboard.press("Escape");
    await page.mouse.click(4, 4);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Close" })).toBeDisabled();
    await expect(dialog).toBeHidden({ timeout: 5000 });
  });
});

test.describe("the dropdown", () => {
  test("opens on hover only after about 200 ms, not at 100 ms", async ({ kitPage: page }) => {
    const trigger = page.getByRole("button", { name: "Folder actions" });
    await trigger.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    // Timed inside the page: Playwright's own round trips are too slow to sample "at 100 ms".
    await trigger.evaluate((element) => {
      const times: { enter?: number; open?: number; isOpenAt100?: boolean } = {};
      (window as unknown as { menuTimes: typeof times }).menuTimes = times;
      element.addEventListener("pointerenter", () => {
        if (times.enter !== undefined) return;
        times.enter = performance.now();
        setTimeout(() => (times.isOpenAt100 = document.querySelector("[role=menu]") !== null), 100);
      });
      new MutationObserver(() => {
        if (times.open === undefined && document.querySelector("[role=menu]")) times.open = performance.now();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await trigger.hover();
    await expect(page.getByRole("menu")).toBeVisible();
    const { enter, open, isOpenAt100 } = await page.evaluate(
      () => (window as unknown as { menuTimes: { enter: number; open: number; isOpenAt100: boolean } }).menuTimes,
    );
    expect(isOpenAt100).toBe(false);
    expect(open - enter).toBeGreaterThanOrEqual(195);
    expect(open - enter).toBeLessThan(1000);
  });

  test("shows its menu 4 px below the trigger", async ({ kitPage: page }) => {
    const trigger = page.getByRole("button", { name: "Folder actions" });
    // Room below the trigger, so that the menu does not flip above it.
    await trigger.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await trigger.click();
    const menu = page.getByRole("menu");
    await expect(menu).toBeVisible();
    const triggerBox = await box(trigger);
    const menuBox = await box(menu);
    expect(menuBox.y - (triggerBox.y + triggerBox.height)).toBeCloseTo(4, 0);
    expect(menuBox.x).toBeCloseTo(triggerBox.x, 0);
  });

  test("stays open while the pointer moves from trigger to menu and closes once it leaves both", async ({ kitPage: page }) => {
    const trigger = page.getByRole("button", { name: "Folder actions" });
    await trigger.hover();
    const menu = page.getByRole("menu");
    await expect(menu).toBeVisible();
    await menu.getByRole("menuitem", { name: "Move" }).hover();
    await page.waitForTimeout(400);
    await expect(menu).toBeVisible();
    await page.mouse.move(5, 5);
    await expect(menu).toBeHidden();
  });

  test("a click on a hover-opened menu keeps it open; choosing an item with the mouse reports it", async ({ kitPage: page }) => {
    const trigger = page.getByRole("button", { name: "Folder actions" });
    await trigger.hover();
    const menu = page.getByRole("menu");
    await expect(menu).toBeVisible();
    await trigger.click();
    await expect(menu).toBeVisible();
    await menu.getByRole("menuitem", { name: "Rename" }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByTestId("dropdown-last-action")).toHaveText("Last action: Rename");
  });

  test("is driven by the keyboard: arrows skip the disabled item, Enter chooses, Escape closes", async ({ kitPage: page }) => {
    const trigger = page.getByRole("button", { name: "Folder actions" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu");
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("menuitem", { name: "Rename" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitem", { name: "Move" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitem", { name: "Download" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    // Archive is disabled: the next stop is Delete.
    await expect(menu.getByRole("menuitem", { name: "Delete" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(menu).toBeHidden();
    await expect(page.getByTestId("dropdown-last-action")).toHaveText("Last action: Delete");
    await expect(trigger).toBeFocused();

    await page.keyboard.press("ArrowDown");
    await expect(menu).toBeVisible();
    await page.keyboard.press("ArrowUp");
    await expect(menu.getByRole("menuitem", { name: "Delete" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(trigger).toBeFocused();
    await expect(page.getByTestId("dropdown-last-action")).toHaveText("Last action: Delete");
  });

  test("a disabled item does nothing when clicked", async ({ kitPage: page }) => {
    await page.getByRole("button", { name: "Folder actions" }).click();
    const archive = page.getByRole("menuitem", { name: "Archive" });
    await expect(archive).toHaveAttribute("aria-disabled", "true");
    await archive.click({ force: true });
    await expect(page.getByRole("menu")).toBeVisible();
    await expect(page.getByTestId("dropdown-last-action")).toHaveText("Last action: none");
  });

  test("a disabled menu never opens", async ({ kitPage: page }) => {
    const trigger = page.getByRole("button", { name: "Disabled menu" });
    await expect(trigger).toBeDisabled();
    await trigger.hover({ force: true });
    await page.waitForTimeout(400);
    await expect(page.getByRole("menu")).toHaveCount(0);
  });
});

test.describe("the range slider", () => {
  test("moves by keyboard: arrows, PageUp/PageDown, Home and End", async ({ kitPage: page }) => {
    const thumb = (await sliderCard(page, "Single value")).getByRole("slider", { name: "Volume" });
    const value = page.getByTestId("slider-single-value");
    await thumb.focus();
    await page.keyboard.press("ArrowRight");
    await expect(value).toHaveText("31");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await expect(value).toHaveText("29");
    await page.keyboard.press("PageUp");
    await expect(value).toHaveText("39");
    await page.keyboard.press("PageDown");
    await expect(value).toHaveText("29");
    await page.keyboard.press("Home");
    await expect(value).toHaveText("0");
    await page.keyboard.press("End");
    await expect(value).toHaveText("100");
    await expect(thumb).toHaveAttribute("aria-valuenow", "100");
  });

  test("jumps to where the track is clicked and follows a drag", async ({ kitPage: page }) => {
    const card = await sliderCard(page, "Single value");
    const track = card.getByTestId("slider-track");
    const value = page.getByTestId("slider-single-value");
    const trackBox = await box(track);
    const y = trackBox.y + trackBox.height / 2;
    await page.mouse.click(trackBox.x + trackBox.width * 0.75, y);
    await expect.poll(async () => Number(await value.textContent())).toBeGreaterThanOrEqual(74);
    expect(Number(await value.textContent())).toBeLessThanOrEqual(76);

    const thumbBox = await box(card.getByRole("slider", { name: "Volume" }));
    await page.mouse.move(thumbBox.x + thumbBox.width / 2, thumbBox.y + thumbBox.height / 2);
    await page.mouse.down();
    await page.mouse.move(trackBox.x + trackBox.width * 0.2, y, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => Number(await value.textContent())).toBeLessThanOrEqual(21);
    expect(Number(await value.textContent())).toBeGreaterThanOrEqual(19);
  });

  test("shows its value in a tooltip on hover", async ({ kitPage: page }) => {
    const thumb = (await sliderCard(page, "Single value")).getByRole("slider", { name: "Volume" });
    const tooltip = thumb.locator("[data-slider-tooltip]");
    await expect(tooltip).toBeHidden();
    await thumb.hover();
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toHaveText("30");
  });

  test("keeps two handles from crossing, by mouse and by keyboard", async ({ kitPage: page }) => {
    const card = await sliderCard(page, "Range (two handles)");
    const value = page.getByTestId("slider-range-value");
    await expect(card.locator("[data-slider-tooltip]")).toHaveText(["€20", "€80"]);
    const minimum = card.getByRole("slider", { name: "Minimum" });
    const maximum = card.getByRole("slider", { name: "Maximum" });
    const trackBox = await box(card.getByTestId("slider-track"));
    const minimumBox = await box(minimum);

    // Drag the lower handle far past the upper one: it stops where the upper one is.
    await page.mouse.move(minimumBox.x + minimumBox.width / 2, minimumBox.y + minimumBox.height / 2);
    await page.mouse.down();
    await page.mouse.move(trackBox.x + trackBox.width * 0.95, trackBox.y + trackBox.height / 2, { steps: 12 });
    await page.mouse.up();
    await expect(value).toHaveText("80 – 80");
    await expect(minimum).toHaveAttribute("aria-valuenow", "80");
    await expect(maximum).toHaveAttribute("aria-valuenow", "80");

    // Pull the upper handle down with the keyboard: it cannot go below the lower one.
    await maximum.focus();
    await page.keyboard.press("ArrowLeft");
    await expect(value).toHaveText("80 – 80");
    await minimum.focus();
    await page.keyboard.press("PageDown");
    await expect(value).toHaveText("70 – 80");
    await maximum.focus();
    for (let press = 0; press < 3; press += 1) await page.keyboard.press("ArrowLeft");
    await expect(value).toHaveText("70 – 77");
    for (let press = 0; press < 12; press += 1) await page.keyboard.press("ArrowLeft");
    await expect(value).toHaveText("70 – 70");
  });

  test("ignores the keys when keyboard is off, but still follows the mouse", async ({ kitPage: page }) => {
    const card = await sliderCard(page, "Keyboard off");
    const thumb = card.getByRole("slider", { name: "Keyboard off" });
    const value = page.getByTestId("slider-nokeyboard-value");
    await thumb.focus();
    await expect(thumb).toBeFocused();
    for (const key of ["ArrowRight", "ArrowUp", "PageUp", "End", "Home", "ArrowLeft"]) await page.keyboard.press(key);
    await expect(value).toHaveText("50");
    // The keys were left to the browser (which may have scrolled the page): bring the slider back.
    await thumb.scrollIntoViewIfNeeded();
    const trackBox = await box(card.getByTestId("slider-track"));
    await page.mouse.click(trackBox.x + trackBox.width * 0.9, trackBox.y + trackBox.height / 2);
    await expect.poll(async () => Number(await value.textContent())).toBeGreaterThanOrEqual(88);
  });

  test("ignores the mouse and the keyboard when disabled", async ({ kitPage: page }) => {
    const card = await sliderCard(page, "Disabled");
    const thumb = card.getByRole("slider", { name: "Disabled" });
    const value = page.getByTestId("slider-disabled-value");
    await expect(thumb).not.toHaveAttribute("tabindex");
    const trackBox = await box(card.getByTestId("slider-track"));
    await page.mouse.click(trackBox.x + trackBox.width * 0.1, trackBox.y + trackBox.height / 2);
    await thumb.evaluate((element) => (element as HTMLElement).focus());
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Home");
    await page.waitForTimeout(200);
    await expect(value).toHaveText("50");
  });

  test("a vertical slider grows upwards, by keyboard and by click", async ({ kitPage: page }) => {
    const card = await sliderCard(page, "Vertical");
    const thumb = card.getByRole("slider", { name: "Vertical" });
    const value = page.getByTestId("slider-vertical-value");
    await expect(thumb).toHaveAttribute("aria-orientation", "vertical");
    await thumb.focus();
    await page.keyboard.press("ArrowUp");
    await expect(value).toHaveText("26");
    const trackBox = await box(card.getByTestId("slider-track"));
    expect(trackBox.height).toBeGreaterThan(trackBox.width * 10);
    await page.mouse.click(trackBox.x + trackBox.width / 2, trackBox.y + trackBox.height * 0.1);
    await expect.poll(async () => Number(await value.textContent())).toBeGreaterThanOrEqual(88);
  });

  test("a right-to-left slider has its minimum on the right", async ({ kitPage: page }) => {
    const card = await sliderCard(page, "Right to left");
    const thumb = card.getByRole("slider", { name: "Right to left" });
    const value = page.getByTestId("slider-rtl-value");
    await thumb.focus();
    await page.keyboard.press("ArrowLeft");
    await expect(value).toHaveText("61");
    const trackBox = await box(card.getByTestId("slider-track"));
    await page.mouse.click(trackBox.x + trackBox.width * 0.9, trackBox.y + trackBox.height / 2);
    await expect.poll(async () => Number(await value.textContent())).toBeLessThanOrEqual(12);
    const zeroMark = await box(card.locator('[data-slider-mark="0"]'));
    const hundredMark = await box(card.locator('[data-slider-mark="100"]'));
    expect(zeroMark.x).toBeGreaterThan(hundredMark.x);
  });

  test("a slider with dots and marks lines them up with the handle", async ({ kitPage: page }) => {
    const stepped = await sliderCard(page, "With dots (step 10)");
    await expect(stepped.locator("[data-slider-dot]")).toHaveCount(11);
    const thumbBox = await box(stepped.getByRole("slider", { name: "Stepped" }));
    const dotAtForty = await box(stepped.locator("[data-slider-dot]").nth(4));
    expect(Math.abs(dotAtForty.x + dotAtForty.width / 2 - (thumbBox.x + thumbBox.width / 2))).toBeLessThan(1);

    const marked = await sliderCard(page, "With marks");
    await expect(marked.locator("[data-slider-mark]")).toHaveText(["0 °C", "26 °C", "37 °C", "100 °C"]);
    const markBox = await box(marked.locator('[data-slider-mark="37"]'));
    const markedThumb = await box(marked.getByRole("slider", { name: "Temperature" }));
    expect(Math.abs(markBox.x + markBox.width / 2 - (markedThumb.x + markedThumb.width / 2))).toBeLessThan(1.5);
  });
});
