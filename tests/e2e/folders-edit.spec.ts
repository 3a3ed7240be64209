import type { Locator, Page, Response } from "@playwright/test";
import { createMember, expect, gotoHydrated, test, waitForHydration } from "./fixtures";

/**
 * Spec §2 "Edit folder panel" and the new-folder page, in Chromium: a member creates a folder,
 * edits its label, sets its colour in every accepted format (spec §5), picks an icon with "Type to
 * filter", saves, and removes the icon; the new-folder page also works with JavaScript off.
 */

const COLOR_FORMAT_MESSAGE = "Color must be a hex value (#rgb, #rgba, #rrggbb or #rrggbbaa) or an rgb(), hsl() or hwb() value.";

/** Every format of spec §5, one after another, with the canonical hex the server stores. */
const COLOR_FORMATS: [input: string, hex: string][] = [
  ["#c0f", "#cc00ff"],
  ["#c0f8", "#cc00ff88"],
  ["#1e90ff", "#1e90ff"],
  ["#1e90ff80", "#1e90ff80"],
  ["rgb(30, 144, 255)", "#1e90ff"],
  ["rgba(30, 144, 255, 0.5)", "#1e90ff80"],
  ["hsl(120, 100%, 25%)", "#008000"],
  ["hsla(120, 100%, 25%, 0.5)", "#00800080"],
  ["hwb(240 20% 30%)", "#3333b3"],
  ["hwb(240 20% 30% / 0.5)", "#3333b380"],
];

type FolderJson = { folder: { uid: string; label: string; color: string | null; icon: string | null; kind: string } };

function toast(page: Page, text: string): Locator {
  return page.locator(".Toastify__toast").filter({ hasText: text });
}

function editPanel(page: Page): Locator {
  return page.getByRole("dialog", { name: "Edit folder" });
}

function folderRequest(method: "PATCH" | "DELETE") {
  return (response: Response) => response.request().method() === method && new URL(response.url()).pathname.startsWith("/folder/");
}

/** [r, g, b, alpha] of a hex colour. */
function rgbaOf(hex: string): number[] {
  const digits = hex.slice(1);
  const channel = (index: number) => parseInt(digits.slice(index * 2, index * 2 + 2), 16);
  return [channel(0), channel(1), channel(2), digits.length === 8 ? channel(3) / 255 : 1];
}

/** The colour the folder page draws its heading glyph in, as [r, g, b, alpha]. */
async function headingGlyphColor(page: Page): Promise<number[]> {
  const css = await page.getByRole("heading", { level: 1 }).locator(".material-icons").evaluate((glyph) => getComputedStyle(glyph).color);
  const [r = -1, g = -1, b = -1, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
  return [r, g, b, Math.round(a * 100) / 100];
}

async function expectHeadingColor(page: Page, hex: string): Promise<void> {
  const [r, g, b, a = 1] = rgbaOf(hex);
  await expect.poll(() => headingGlyphColor(page)).toEqual([r, g, b, Math.round(a * 100) / 100]);
}

async function openEditPanel(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Edit folder" }).click();
  const panel = editPanel(page);
  await expect(panel).toBeVisible();
  return panel;
}

/** Presses Update and returns the folder the server stored; the panel closes with the spec's toast. */
async function saveFolder(page: Page, panel: Locator): Promise<FolderJson["folder"]> {
  const saved = page.waitForResponse(folderRequest("PATCH"));
  await panel.getByRole("button", { name: "Update" }).click();
  const response = await saved;
  expect(response.status()).toBe(200);
  const body = (await response.json()) as FolderJson;
  await expect(panel).toBeHidden();
  await expect(toast(page, "Folder updated successfully").first()).toBeVisible();
  return body.folder;
}

test.describe("the edit folder panel", () => {
  test("a member creates a folder, renames it, colours it, picks an icon and removes it", async ({ page }) => {
    test.setTimeout(240_000);
    await createMember(page.request, { tier: "free" });

    // The new-folder page (no ?parent: the member's own files).
    await gotoHydrated(page, "/folders/new");
    await expect(page).toHaveTitle("New folder - Strongroom");
    await expect(page.getByRole("heading", { level: 1, name: "New folder" })).toBeVisible();
    await page.getByRole("textbox", { name: "Label" }).fill("Quarterly reports");
    await page.getByRole("combobox", { name: "Color" }).fill("#abc");
    await expect(page.getByTestId("color-swatch")).toHaveAttribute("data-color", "#aabbcc");
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.waitForURL(/\/folders\/[0-9a-f-]{36}$/);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "Quarterly reports" })).toBeVisible();
    await expectHeadingColor(page, "#aabbcc");

    // Label: required, marked with an asterisk; an empty one and a bad colour are not sent.
    let panel = await openEditPanel(page);
    const label = panel.getByRole("textbox", { name: "Label" });
    await expect(label).toHaveAttribute("required", "");
    await expect(panel.locator(`label[for="${await label.getAttribute("id")}"]`)).toHaveText("Label*");
    await expect(panel.getByRole("combobox", { name: "Color" })).toHaveValue("#aabbcc");
    await expect(panel.getByRole("button", { name: "Remove icon" })).toHaveCount(0);
    let patches = 0;
    page.on("request", (request) => {
      if (request.method() === "PATCH") patches += 1;
    });
    await label.fill("");
    await panel.getByRole("button", { name: "Update" }).click();
    await expect(panel.getByText("Label is required.")).toBeVisible();
    await label.fill("Board reports");
    await panel.getByRole("combobox", { name: "Color" }).fill("somewhat blue");
    await panel.getByRole("button", { name: "Update" }).click();
    await expect(panel.getByText(COLOR_FORMAT_MESSAGE)).toBeVisible();
    expect(patches).toBe(0);

    // The colour box opens the picker (with alpha), and Escape closes the picker before the panel.
    const color = panel.getByRole("combobox", { name: "Color" });
    await color.click();
    const picker = panel.getByRole("dialog", { name: "Color picker" });
    await expect(picker.getByRole("slider", { name: "Alpha" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(picker).toBeHidden();
    await expect(panel).toBeVisible();
    await color.fill("#abc");

    const saved = await saveFolder(page, panel);
    expect(saved).toMatchObject({ label: "Board reports", color: "#aabbcc", icon: null });
    await expect(page.getByRole("heading", { level: 1, name: "Board reports" })).toBeVisible();

    // The picker writes hex back into the box: pressing an arrow key on its hue slider changes it.
    panel = await openEditPanel(page);
    const pickedBox = panel.getByRole("combobox", { name: "Color" });
    await pickedBox.fill("#ff0000");
    await panel.getByRole("dialog", { name: "Color picker" }).getByRole("slider", { name: "Hue" }).press("ArrowRight");
    await expect(pickedBox).not.toHaveValue("#ff0000");
    await expect(pickedBox).toHaveValue(/^#[0-9a-f]{6}$/);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();

    // Icon: "Type to filter", then the arrow keys and Enter choose rocket_launch.
    panel = await openEditPanel(page);
    await panel.getByRole("button", { name: "Choose an icon" }).click();
    const icons = page.getByRole("dialog", { name: "Choose an icon" });
    const filter = icons.getByRole("searchbox", { name: "Type to filter" });
    await expect(filter).toHaveAttribute("placeholder", "Type to filter");
    await expect(icons.getByRole("group", { name: "Icons" }).getByRole("button")).toHaveCount(300);
    await filter.fill("rocket");
    await expect(icons.getByRole("button", { name: "rocket_launch", exact: true })).toBeVisible();
    await expect(icons.getByRole("button", { name: "folder", exact: true })).toHaveCount(0);
    await filter.press("ArrowDown");
    await expect(icons.getByRole("button", { name: "rocket", exact: true })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(icons.getByRole("button", { name: "rocket_launch", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(icons).toBeHidden();
    await expect(panel.getByRole("button", { name: "Icon: rocket_launch. Choose another icon" })).toBeVisible();
    await expect(panel.getByRole("button", { name: "Remove icon" })).toBeVisible();
    const withIcon = await saveFolder(page, panel);
    expect(withIcon).toMatchObject({ label: "Board reports", icon: "rocket_launch", color: "#aabbcc" });
    await expect(page.getByRole("heading", { level: 1 }).locator(".material-icons")).toHaveText("rocket_launch");

    // Remove icon: sent at once, with the spec's toast; the control disappears.
    panel = await openEditPanel(page);
    await expect(panel.getByRole("button", { name: "Icon: rocket_launch. Choose another icon" })).toBeVisible();
    const removed = page.waitForResponse(folderRequest("DELETE"));
    await panel.getByRole("button", { name: "Remove icon" }).click();
    const removal = await removed;
    expect(removal.status()).toBe(200);
    expect(((await removal.json()) as FolderJson).folder.icon).toBeNull();
    await expect(toast(page, "Icon removed successfully")).toBeVisible();
    await expect(panel.getByRole("button", { name: "Remove icon" })).toHaveCount(0);
    await expect(panel.getByRole("button", { name: "Choose an icon" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(page.getByRole("button", { name: "Edit folder" })).toBeFocused();
    await expect(page.getByRole("heading", { level: 1 }).locator(".material-icons")).not.toHaveText("rocket_launch");

    // The stored folder, as the API reports it.
    const uid = new URL(page.url()).pathname.split("/").at(-1)!;
    const stored = (await (await page.request.get(`/api/folders/${uid}`)).json()) as { folder: FolderJson["folder"] };
    expect(stored.folder).toMatchObject({ uid, label: "Board reports", color: "#aabbcc", icon: null });
  });

  // Every format is parsed in tests/unit/files/folder-color.test.ts and stored as hex in
  // tests/integration/folders-edit.test.ts; the browser round trip takes one short and one functional form.
  test("a colour in the spec's formats is accepted, stored as hex and drawn in that colour; the new-folder page creates a gallery inside a folder, works with JavaScript off, and refuses a parent the member cannot open", async ({ page, browser, baseURL }) => {
    test.setTimeout(120_000);
    await createMember(page.request, { tier: "free" });

    // With JavaScript: a parent folder first.
    await gotoHydrated(page, "/folders/new");
    await page.getByRole("textbox", { name: "Label" }).fill("Projects");
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.waitForURL(/\/folders\/[0-9a-f-]{36}$/);
    const parentUid = new URL(page.url()).pathname.split("/").at(-1)!;
    await waitForHydration(page);

    let panel: Locator;
    // Every colour format, one after another: the swatch follows the text, the server stores hex.
    for (const [input, hex] of COLOR_FORMATS.filter(([format]) => format === "#c0f8" || format === "hwb(240 20% 30% / 0.5)")) {
      panel = await openEditPanel(page);
      const box = panel.getByRole("combobox", { name: "Color" });
      await box.fill(input);
      await expect(panel.getByTestId("color-swatch")).toHaveAttribute("data-color", hex);
      await expect(panel.getByText(COLOR_FORMAT_MESSAGE)).toHaveCount(0);
      const stored = await saveFolder(page, panel);
      expect(stored.color, input).toBe(hex);
      // The folder page draws the folder in the saved colour.
      await expectHeadingColor(page, hex);
      // Opened again, the panel shows what was saved.
      panel = await openEditPanel(page);
      await expect(panel.getByRole("combobox", { name: "Color" })).toHaveValue(hex);
      await expect(panel.getByTestId("color-swatch")).toHaveAttribute("data-color", hex);
      await page.keyboard.press("Escape");
      await expect(panel).toBeHidden();
    }

    // Without JavaScript: a gallery inside it, with a colour and an icon typed by name.
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false, storageState: await page.context().storageState() });
    try {
      const plain = await context.newPage();
      await plain.goto(`/folders/new?parent=${parentUid}`);
      await expect(plain).toHaveTitle("New folder - Strongroom");
      await expect(plain.getByText("It will be created in Projects.")).toBeVisible();
      await plain.getByRole("textbox", { name: "Label" }).fill("Site photos");
      await plain.getByRole("combobox", { name: "Color" }).fill("not a colour");
      await plain.getByRole("radio", { name: /Gallery/ }).check();
      await plain.getByRole("button", { name: "Create folder" }).click();
      // Refused by the server: the message is shown and what was typed is kept.
      await expect(plain.getByText(COLOR_FORMAT_MESSAGE)).toBeVisible();
      await expect(plain.getByRole("textbox", { name: "Label" })).toHaveValue("Site photos");
      await expect(plain.getByRole("radio", { name: /Gallery/ })).toBeChecked();

      await plain.getByRole("combobox", { name: "Color" }).fill("hsl(200 50% 50%)");
      await plain.getByRole("textbox", { name: /Icon name/ }).fill("photo_camera");
      await plain.getByRole("button", { name: "Create folder" }).click();
      await plain.waitForURL(/\/folders\/[0-9a-f-]{36}$/);
      const uid = new URL(plain.url()).pathname.split("/").at(-1)!;
      expect(uid).not.toBe(parentUid);
      const created = (await (await plain.request.get(`/api/folders/${uid}`)).json()) as { folder: FolderJson["folder"] & { parentId: string } };
      expect(created.folder).toMatchObject({ label: "Site photos", color: "#4095bf", icon: "photo_camera", kind: "gallery", parentId: parentUid });
    } finally {
      await context.close();
    }

    // A parent folder the member cannot open (someone else's, or none) is not found.
    const refused = await page.goto(`/folders/new?parent=${crypto.randomUUID()}`);
    expect(refused?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "We couldn't find that page" })).toBeVisible();
  });
});
