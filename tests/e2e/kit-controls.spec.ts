import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const demos = [
  "button",
  "input",
  "textarea",
  "select",
  "checkbox",
  "radio-group",
  "toggle",
  "badge",
  "avatar",
  "card",
  "table",
  "alert",
  "spinner",
  "progress-bar",
  "pagination",
] as const;
type DemoName = (typeof demos)[number];

const demo = (page: Page, name: DemoName) => page.getByTestId(`kit-${name}`);

/** The numbered page buttons inside a pagination landmark. */
const numberedPages = (nav: Locator) => nav.getByRole("button", { name: /^Page \d+$/ });

test.describe("interface kit: controls", () => {
  test("the Controls section is a labelled region with a demo of every component", async ({ kitPage: page }) => {
    const section = page.getByRole("region", { name: "Controls" });
    await expect(section.getByRole("heading", { level: 2, name: "Controls" })).toBeVisible();
    for (const name of demos) await expect(section.getByTestId(`kit-${name}`)).toBeVisible();
  });

  test("pagination moves by mouse, shows at most five numbered pages and disables Previous on page 1", async ({ kitPage: page }) => {
    const kit = demo(page, "pagination");
    const nav = kit.getByRole("navigation", { name: "Pagination", exact: true });
    const status = kit.getByText(/^Page \d+ of 20$/);

    await expect(status).toHaveText("Page 1 of 20");
    await expect(nav.getByRole("button", { name: "Previous" })).toBeDisabled();
    await expect(nav.getByRole("button", { name: "Page 1" })).toHaveAttribute("aria-current", "page");

    for (let expected = 2; expected <= 20; expected++) {
      await nav.getByRole("button", { name: "Next" }).click();
      await expect(status).toHaveText(`Page ${expected} of 20`);
      await expect(nav.getByRole("button", { name: `Page ${expected}`, exact: true })).toHaveAttribute("aria-current", "page");
      expect(await numberedPages(nav).count()).toBeLessThanOrEqual(5);
      await expect(nav.getByRole("button", { name: "Page 1", exact: true })).toBeVisible();
      await expect(nav.getByRole("button", { name: "Page 20", exact: true })).toBeVisible();
    }
    await expect(nav.getByRole("button", { name: "Next" })).toBeDisabled();
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);

    await nav.getByRole("button", { name: "Page 1", exact: true }).click();
    await expect(status).toHaveText("Page 1 of 20");
    await expect(nav.getByRole("button", { name: "Previous" })).toBeDisabled();
    await expect(numberedPages(nav)).toHaveText(["1", "2", "3", "4", "20"]);

    await nav.getByRole("button", { name: "Page 4", exact: true }).click();
    await expect(status).toHaveText("Page 4 of 20");
    await expect(numberedPages(nav)).toHaveText(["1", "3", "4", "5", "20"]);
  });

  test("pagination works from the keyboard with Tab and Enter, with a visible focus ring", async ({ kitPage: page }) => {
    const kit = demo(page, "pagination");
    const nav = kit.getByRole("navigation", { name: "Pagination", exact: true });
    const status = kit.getByText(/^Page \d+ of 20$/);

    // Previous is disabled on page 1, so Tab from the heading lands on page 1 first.
    await kit.getByRole("heading", { name: "20 pages" }).click();
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("button", { name: "Page 1", exact: true })).toBeFocused();
    await page.keyboard.press("Tab");
    const pageTwo = nav.getByRole("button", { name: "Page 2", exact: true });
    await expect(pageTwo).toBeFocused();
    const outline = await pageTwo.evaluate((element) => {
      const style = getComputedStyle(element);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(outline.style).not.toBe("none");
    expect(outline.width).toBeGreaterThanOrEqual(2);

    await page.keyboard.press("Enter");
    await expect(status).toHaveText("Page 2 of 20");
    await expect(pageTwo).toHaveAttribute("aria-current", "page");

    // Tab on to Next and press it until the end; focus then lands on the last page, not the body.
    const next = nav.getByRole("button", { name: "Next" });
    for (let i = 0; i < 10 && !(await next.evaluate((element) => element === document.activeElement)); i++) {
      await page.keyboard.press("Tab");
    }
    await expect(next).toBeFocused();
    for (let expected = 3; expected <= 20; expected++) {
      await page.keyboard.press("Enter");
      await expect(status).toHaveText(`Page ${expected} of 20`);
    }
    await expect(next).toBeDisabled();
    await expect(nav.getByRole("button", { name: "Page 20", exact: true })).toBeFocused();

    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Enter");
    await expect(status).toHaveText("Page 19 of 20");
    expect(await numberedPages(nav).count()).toBeLessThanOrEqual(5);
  });

  test("the textarea is four rows tall and its counter follows typing and stops at the maximum of 200", async ({ kitPage: page }) => {
    const kit = demo(page, "textarea");
    const description = kit.getByLabel("Description");
    await expect(description).toHaveAttribute("rows", "4");
    const counter = kit.getByText(/^\d+ \/ 200$/);
    await expect(counter).toHaveText("0 / 200");
    await expect(counter).toHaveAttribute("aria-live", "polite");

    await description.pressSequentially("Hello");
    await expect(counter).toHaveText("5 / 200");
    await page.keyboard.press("Backspace");
    await expect(counter).toHaveText("4 / 200");

    await description.fill("x".repeat(195));
    await expect(counter).toHaveText("195 / 200");
    await description.pressSequentially("abcdefghij");
    await expect(description).toHaveValue(`${"x".repeat(195)}abcde`);
    await expect(counter).toHaveText("200 / 200");

    await kit.getByLabel("Notes").pressSequentially("Hi");
    await expect(kit.getByText("2 characters")).toBeVisible();
  });

  test("the progress bar reports a value clamped to 0..100 whatever is requested", async ({ kitPage: page }) => {
    const kit = demo(page, "progress-bar");
    const bar = kit.getByRole("progressbar", { name: "Upload progress" });
    const requested = kit.getByTestId("progress-requested");
    await expect(bar).toHaveAttribute("aria-valuemin", "0");
    await expect(bar).toHaveAttribute("aria-valuemax", "100");
    await expect(bar).toHaveAttribute("aria-valuenow", "40");

    await kit.getByRole("button", { name: "Set to 150" }).click();
    await expect(requested).toHaveText("Requested 150, shown 100");
    await expect(bar).toHaveAttribute("aria-valuenow", "100");

    await kit.getByRole("button", { name: "Set to −20" }).click();
    await expect(requested).toHaveText("Requested -20, shown 0");
    await expect(bar).toHaveAttribute("aria-valuenow", "0");

    await kit.getByRole("button", { name: "Increase by 25" }).click();
    await expect(bar).toHaveAttribute("aria-valuenow", "5");

    const slider = kit.getByLabel("Requested value");
    await slider.focus();
    await page.keyboard.press("End");
    await expect(requested).toHaveText("Requested 150, shown 100");
    await expect(bar).toHaveAttribute("aria-valuenow", "100");
    await page.keyboard.press("Home");
    await expect(requested).toHaveText("Requested -50, shown 0");
    await expect(bar).toHaveAttribute("aria-valuenow", "0");
  });

  test("the select opens and chooses from the keyboard, skipping disabled options", async ({ kitPage: page }) => {
    const kit = demo(page, "select");
    const trigger = kit.getByLabel("Document type");
    await expect(trigger).toHaveRole("combobox");
    await expect(trigger).toHaveText("Choose a type");

    await trigger.focus();
    await page.keyboard.press("Enter");
    const listbox = page.getByRole("listbox");
    await expect(listbox).toBeVisible();
    await expect(listbox.getByRole("option", { name: "Legal hold (restricted)" })).toHaveAttribute("aria-disabled", "true");
    await expect(listbox.getByRole("option", { name: "Contract" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(listbox.getByRole("option", { name: "Invoice" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(listbox).toBeHidden();
    await expect(trigger).toHaveText("Invoice");
    await expect(kit.getByText("Chosen type: Invoice")).toBeVisible();
    await expect(trigger).toBeFocused();

    await page.keyboard.press("ArrowDown");
    await expect(listbox).toBeVisible();
    await expect(listbox.getByRole("option", { name: "Invoice" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(listbox.getByRole("option", { name: "Report" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(listbox.getByRole("option", { name: "Board minutes" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(kit.getByText("Chosen type: Board minutes")).toBeVisible();
    // The list gives the focus back to its trigger as it closes; a key pressed before that is lost.
    await expect(listbox).toBeHidden();
    await expect(trigger).toBeFocused();

    await page.keyboard.press("Enter");
    await expect(listbox).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(listbox).toBeHidden();
    await expect(trigger).toHaveText("Board minutes");

    await expect(kit.getByLabel("Region")).toBeDisabled();
  });

  test("checkboxes and toggles flip with Space, and select-all shows a mixed state", async ({ kitPage: page }) => {
    const checkboxes = demo(page, "checkbox");
    const weekly = checkboxes.getByLabel("Email me a weekly summary");
    await expect(weekly).toHaveRole("checkbox");
    await weekly.focus();
    await page.keyboard.press("Space");
    await expect(weekly).toHaveAttribute("aria-checked", "true");
    await page.keyboard.press("Space");
    await expect(weekly).toHaveAttribute("aria-checked", "false");

    const selectAll = checkboxes.getByLabel("Select all files");
    await expect(selectAll).toHaveAttribute("aria-checked", "mixed");
    await selectAll.focus();
    await page.keyboard.press("Space");
    await expect(selectAll).toHaveAttribute("aria-checked", "true");
    await expect(checkboxes.getByText("3 of 3 files selected")).toBeVisible();
    await page.keyboard.press("Space");
    await expect(selectAll).toHaveAttribute("aria-checked", "false");
    await expect(checkboxes.getByText("0 of 3 files selected")).toBeVisible();
    await checkboxes.getByLabel("Report.pdf").click();
    await expect(selectAll).toHaveAttribute("aria-checked", "mixed");

    await expect(checkboxes.getByLabel("Share with external guests (disabled)")).toBeDisabled();

    const toggles = demo(page, "toggle");
    const twoFactor = toggles.getByLabel("Two-factor authentication");
    await expect(twoFactor).toHaveRole("switch");
    await expect(twoFactor).toHaveAttribute("aria-checked", "false");
    await twoFactor.focus();
    await page.keyboard.press("Space");
    await expect(twoFactor).toHaveAttribute("aria-checked", "true");
    await expect(toggles.getByText("Two-factor authentication is on.")).toBeVisible();
    await page.keyboard.press("Space");
    await expect(twoFactor).toHaveAttribute("aria-checked", "false");
    await expect(toggles.getByLabel("Audit log export (disabled)")).toBeDisabled();
  });

  test("radio buttons move with the arrow keys and skip the disabled option", async ({ kitPage: page }) => {
    const kit = demo(page, "radio-group");
    const sharing = kit.getByRole("radiogroup", { name: "Sharing" });
    const team = sharing.getByRole("radio", { name: "My team" });
    await expect(team).toBeChecked();
    await team.focus();
    // Radix moves focus a tick after keydown and checks the radio only while the arrow key is
    // still down (as it is when a person presses it), so hold the key until the choice lands.
    const pressArrowDownUntilChecked = async (name: string) => {
      await page.keyboard.down("ArrowDown");
      await expect(sharing.getByRole("radio", { name })).toBeFocused();
      await expect(sharing.getByRole("radio", { name })).toBeChecked();
      await page.keyboard.up("ArrowDown");
    };
    await pressArrowDownUntilChecked("Anyone with the link");
    await pressArrowDownUntilChecked("Only me");
    await expect(kit.getByText("Shared with: Only me")).toBeVisible();
    await expect(sharing.getByRole("radio", { name: /Public/ })).toBeDisabled();
  });

  test("every control is reachable by its label, and errors describe their control", async ({ kitPage: page }) => {
    const labelled: Array<[DemoName, string, "textbox" | "combobox" | "checkbox" | "radio" | "switch" | "slider"]> = [
      ["input", "Full name", "textbox"],
      ["input", "Email address", "textbox"],
      ["input", "Workspace name", "textbox"],
      ["input", "Document ID", "textbox"],
      ["textarea", "Description", "textbox"],
      ["textarea", "Notes", "textbox"],
      ["textarea", "Summary", "textbox"],
      ["select", "Document type", "combobox"],
      ["select", "Retention period", "combobox"],
      ["checkbox", "Keep me signed in", "checkbox"],
      ["checkbox", "I accept the terms of use", "checkbox"],
      ["radio-group", "Only me", "radio"],
      ["radio-group", "PDF", "radio"],
      ["toggle", "Email notifications", "switch"],
      ["progress-bar", "Requested value", "slider"],
    ];
    for (const [name, label, role] of labelled) {
      const control = demo(page, name).getByLabel(label);
      await expect(control).toHaveCount(1);
      await expect(control).toHaveRole(role);
    }

    const workspace = demo(page, "input").getByLabel("Workspace name");
    await expect(workspace).toHaveAttribute("aria-invalid", "true");
    await expect(workspace).toHaveAccessibleDescription("That workspace name is taken");
    await workspace.fill("legal");
    await expect(workspace).not.toHaveAttribute("aria-invalid", "true");

    const email = demo(page, "input").getByLabel("Email address");
    await expect(email).toHaveAttribute("required", "");
    await expect(email).toHaveAccessibleDescription("We send sign-in links to this address.");

    await expect(demo(page, "select").getByLabel("Retention period")).toHaveAccessibleDescription(
      "Choose how long to keep documents",
    );
    await expect(demo(page, "radio-group").getByRole("radiogroup", { name: "Export format" })).toHaveAccessibleDescription(
      "Choose an export format",
    );
  });

  test("buttons show a busy state while loading, alerts dismiss, tables sort and avatars fall back to initials", async ({ kitPage: page }) => {
    const buttons = demo(page, "button");
    for (const label of ["Primary sm", "Secondary md", "Danger lg", "Ghost md"]) {
      await expect(buttons.getByRole("button", { name: label })).toBeEnabled();
    }
    await expect(buttons.getByRole("button", { name: "Danger disabled" })).toBeDisabled();
    await expect(buttons.getByRole("button", { name: "Primary loading" })).toHaveAttribute("aria-busy", "true");
    await buttons.getByRole("button", { name: "Save changes" }).click();
    const saving = buttons.getByRole("button", { name: "Saving…" });
    await expect(saving).toBeDisabled();
    await expect(saving).toHaveAttribute("aria-busy", "true");
    await expect(buttons.getByText("Saved 1 time")).toBeVisible();
    await expect(buttons.getByRole("button", { name: "Save changes" })).toBeEnabled();

    const alerts = demo(page, "alert");
    await expect(alerts.getByRole("alert")).toHaveCount(2);
    await expect(alerts.getByRole("status")).toHaveCount(3);
    await alerts.getByRole("button", { name: "Dismiss" }).click();
    await expect(alerts.getByText("Dismissible", { exact: true })).toHaveCount(0);
    await alerts.getByRole("button", { name: "Show the dismissible alert again" }).click();
    await expect(alerts.getByRole("button", { name: "Dismiss" })).toBeVisible();

    await expect(demo(page, "spinner").getByRole("status").first()).toHaveText("Loading");

    const table = demo(page, "table").getByRole("table", { name: "Recent documents" });
    const firstRowHeader = table.getByRole("rowheader").first();
    await expect(table.getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "ascending");
    await expect(firstRowHeader).toHaveText("Audit findings.xlsx");
    await table.getByRole("button", { name: "Size" }).click();
    await expect(table.getByRole("columnheader", { name: "Size" })).toHaveAttribute("aria-sort", "ascending");
    await expect(table.getByRole("columnheader", { name: "Name" })).not.toHaveAttribute("aria-sort");
    await expect(firstRowHeader).toHaveText("Cap table.xlsx");
    await table.getByRole("button", { name: "Size" }).click();
    await expect(table.getByRole("columnheader", { name: "Size" })).toHaveAttribute("aria-sort", "descending");
    await expect(firstRowHeader).toHaveText("Share purchase agreement.pdf");

    const avatars = demo(page, "avatar");
    await expect(avatars.getByRole("img", { name: "Alan Turing" })).toHaveText("AT");
    await expect(avatars.getByRole("img", { name: "Grace Hopper" }).first()).toHaveText("GH");
    await expect(avatars.getByRole("img", { name: "Ada Lovelace" }).first().locator("img")).toBeVisible();
  });
});
