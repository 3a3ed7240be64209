import { seriousViolations } from "./axe-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/** Receive pages, the member's side (issue 24, step 2): make a form page with fields, see it listed, change it, delete it. */

test.describe("receive pages (managing)", () => {
  test("a member makes a form page with two fields into their Inbox, sees its address, closes it and deletes it, then puts a set of fields saved under Settings on a new form page in one step", async ({ page }) => {
    await createMember(page.request, { tier: "pro" });
    await gotoHydrated(page, "/receive-pages");
    await expect(page).toHaveTitle("Receive pages - Strongroom");
    await page.getByRole("link", { name: "New receive page" }).click();
    await expect(page).toHaveTitle("New receive page - Strongroom");
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await page.getByLabel("Form: fields first, then files").check();
    await page.getByLabel("Title").fill("Applications 2026");
    await page.getByLabel("Message to uploaders").fill("Send your CV and a cover letter.");
    await expect(page.getByLabel("Files go to")).toHaveValue(/.+/);
    await page.getByLabel("Allowed file types").fill("pdf, docx");
    await page.getByLabel("A folder per person (named from their name and e-mail)").check();
    await page.getByRole("button", { name: "Add a field" }).click();
    await page.getByLabel("Field 1 label").fill("Role");
    await page.getByRole("button", { name: "Add a field" }).click();
    await page.getByLabel("Field 2 label").fill("Earliest start");
    await page.getByTestId("field-row").nth(1).getByLabel("Type").selectOption("date");
    await page.getByLabel("Custom address (optional)").fill(`jobs-${Date.now()}`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Create page" }).click();

    await expect(page).toHaveTitle("Receive page Applications 2026 - Strongroom");
    await expect(page.getByTestId("receive-page-url")).toHaveValue(/\/r\/jobs-\d+$/);
    await expect(page.getByText("Files go to My files: Inbox.")).toBeVisible();
    await expect(page.getByTestId("field-row")).toHaveCount(2);
    await expect(page.getByLabel("Field 2 label")).toHaveValue("Earliest start");

    // A refusal keeps the page and says why: fields on a simple page.
    await page.getByLabel("Simple: a drop zone for files").check();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("region", { name: "Options" }).getByRole("alert")).toContainText("A simple page has no fields");

    await gotoHydrated(page, page.url());
    await page.getByLabel("Open: the page takes files").uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Closed", { exact: true })).toBeVisible();

    await gotoHydrated(page, "/receive-pages");
    await expect(page.getByTestId("receive-page-row")).toContainText("Applications 2026");
    await expect(page.getByTestId("receive-page-row")).toContainText("Closed");
    await page.getByRole("link", { name: "Applications 2026" }).click();
    await page.getByRole("button", { name: "Delete page" }).click();
    await expect(page).toHaveTitle("Receive pages - Strongroom");
    await expect(page.getByTestId("receive-page-row")).toHaveCount(0);

    // A set of fields saved under Settings is put on a new form page in one step.
    await gotoHydrated(page, "/settings/receive-page-forms");
    await expect(page).toHaveTitle("Receive page forms - Strongroom");
    const create = page.getByRole("region", { name: "New set of fields" });
    await create.getByLabel("Name").fill("Tax client");
    await create.getByRole("button", { name: "Add a field" }).click();
    await create.getByLabel("Field 1 label").fill("Client number");
    await create.getByRole("button", { name: "Add a field" }).click();
    await create.getByLabel("Field 2 label").fill("Tax year");
    await create.getByRole("button", { name: "Save set" }).click();
    await expect(page.getByTestId("field-set")).toHaveCount(1);
    expect(await seriousViolations(page)).toEqual([]);

    await gotoHydrated(page, "/receive-pages/new");
    await page.getByLabel("Use a saved set of fields").selectOption({ label: "Tax client (2 fields)" });
    await expect(page.getByLabel("Field 2 label")).toHaveValue("Tax year");
    await page.getByLabel("Form: fields first, then files").check();
    await page.getByLabel("Title").fill("Tax papers 2026");
    await page.getByRole("button", { name: "Create page" }).click();
    await expect(page).toHaveTitle("Receive page Tax papers 2026 - Strongroom");
    await expect(page.getByLabel("Field 1 label")).toHaveValue("Client number");
  });
});
