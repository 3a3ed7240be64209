import { readFileSync } from "node:fs";
import { PDFDocument } from "pdf-lib";
import { newConsentedContext, readLatestMail } from "./auth-helpers";
import { seriousViolations } from "./axe-helpers";
import { csrfToken, defaultFolders, pdfBytes, uploadViaTus } from "./files-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/**
 * Forms (issue 37): a member makes a two-page form with a file question from a template, adds a
 * question and a logic rule in the builder, tries it in test mode, publishes; a visitor in another
 * browser fills it in (the rule shows the question) and sends a file; the owner is told live,
 * reads the submission, shares it with someone outside and revokes the link.
 */

test.describe("forms", () => {
  test("a member builds a form with logic and a file question from a template, tests it, publishes it, and reads a visitor's submission with its file", async ({ page, browser, baseURL }) => {
    test.setTimeout(90_000);
    await createMember(page.request, { tier: "pro" });

    await gotoHydrated(page, "/forms/create");
    await expect(page).toHaveTitle("New form - Strongroom");
    await page.getByRole("button", { name: "Use template Job application" }).click();
    await expect(page).toHaveTitle("Form builder: Job application - Strongroom");
    await expect(page.getByTestId("builder-field")).toHaveCount(9);

    // A new question after "Role", renamed, then shown only to engineers.
    await page.getByRole("button", { name: "Edit Role" }).click();
    await page.getByRole("button", { name: "Short text", exact: true }).click();
    await page.getByRole("textbox", { name: "Question", exact: true }).fill("GitHub profile");
    await expect(page.getByTestId("builder-field").nth(4)).toContainText("GitHub profile");
    await page.getByRole("tab", { name: /Logic/ }).click();
    await page.getByRole("button", { name: "Add a rule" }).click();
    await page.getByRole("combobox", { name: "Question", exact: true }).selectOption({ label: "Role" });
    await page.getByLabel("Value").selectOption("Engineering");
    await page.getByLabel("Target").selectOption({ label: "GitHub profile" });
    await expect(page.getByTestId("save-state")).toHaveText("All changes saved");
    expect(await seriousViolations(page)).toEqual([]);

    // Test mode: the rule is live; the submission is kept apart.
    await page.getByRole("link", { name: "Preview" }).click();
    await expect(page.getByTestId("test-mode")).toBeVisible();
    await page.getByLabel("Full name").fill("Tess Tester");
    await page.getByLabel("E-mail").fill("tess@example.com");
    await page.getByLabel("Role").selectOption("Design");
    await expect(page.getByLabel("GitHub profile")).toHaveCount(0);
    await page.getByLabel("Role").selectOption("Engineering");
    await expect(page.getByLabel("GitHub profile")).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
    await page.getByRole("button", { name: "Send test" }).click();
    await expect(page.getByText("Why do you want to join us?")).toBeVisible();
    await expect(page.locator("#field-why-error")).toHaveText("This question needs an answer.");
    await page.getByLabel("Why do you want to join us?").fill("I like secure things.");
    // A file the question does not take is refused before anything is sent; in test mode the file is checked, not uploaded.
    await page.getByLabel("Your CV").setInputFiles({ name: "cv.png", mimeType: "image/png", buffer: Buffer.from("png") });
    await page.getByRole("button", { name: "Send test" }).click();
    await expect(page.locator("#field-cv-error")).toHaveText("“cv.png” is not a type this question takes. It takes PDF, DOCX, DOC, ODT files.");
    await page.getByLabel("Your CV").setInputFiles({ name: "cv.pdf", mimeType: "application/pdf", buffer: pdfBytes(2048) });
    await page.getByRole("button", { name: "Send test" }).click();
    await expect(page.getByTestId("form-thanks")).toContainText("test submission");

    // Publish.
    await page.getByRole("link", { name: "Back to the builder" }).click();
    await page.getByTestId("publish").click();
    await expect(page.getByTestId("publish-state")).toContainText("Version 1 is live");
    const publicPath = await page.getByRole("link", { name: "Open the public form" }).getAttribute("href");
    expect(publicPath).toMatch(/^\/forms\/[0-9a-f-]{36}\/view$/);

    // A visitor in another browser.
    const visitor = await newConsentedContext(browser, baseURL!);
    const other = await visitor.newPage();
    await gotoHydrated(other, publicPath!);
    await expect(other).toHaveTitle("Job application - Strongroom");
    expect(await seriousViolations(other)).toEqual([]);
    await other.getByRole("button", { name: "Next" }).click();
    await expect(other.locator("#field-name-error")).toHaveText("This question needs an answer.");
    await other.getByLabel("Full name").fill("Vera Visitor");
    await other.getByLabel("E-mail").fill("vera@example.com");
    await other.getByLabel("Role").selectOption("Engineering");
    await other.getByLabel("GitHub profile").fill("github.com/vera");
    await other.getByRole("button", { name: "Next" }).click();
    await other.getByLabel("Why do you want to join us?").fill("Your data rooms are the best.");
    await other.getByLabel("Your CV").setInputFiles({ name: "vera-cv.pdf", mimeType: "application/pdf", buffer: pdfBytes(300_000) });
    await other.getByRole("button", { name: "Send" }).click();
    await expect(other.getByTestId("form-thanks")).toBeVisible();
    await visitor.close();

    // Told live, in the page the owner has open, once the file is in.
    await expect(page.locator(".Toastify__toast").filter({ hasText: "New submission to “Job application”" })).toBeVisible();

    // The owner reads it (the test submission is not among the real ones).
    await gotoHydrated(page, "/forms");
    await expect(page.getByTestId("form-row")).toContainText("Published");
    await page.getByRole("link", { name: "1 submissions of Job application" }).click();
    await expect(page.getByTestId("submission-row")).toHaveCount(1);
    // Filters narrow the list (and say so when nothing matches).
    await page.getByLabel("Answers containing").fill("nobody-by-that-name");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByText("No submissions match these filters.")).toBeVisible();
    await page.getByLabel("Answers containing").fill("vera");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByTestId("submission-row")).toHaveCount(1);
    await page.getByTestId("submission-row").getByRole("link").click();
    await expect(page.getByTestId("submission-answers")).toContainText("Vera Visitor");
    await expect(page.getByTestId("submission-answers")).toContainText("github.com/vera");
    await expect(page.getByTestId("submission-answers").getByRole("link", { name: "vera-cv.pdf" })).toHaveAttribute("href", /^\/files\/[0-9a-f-]{36}$/);

    // Shared with someone outside by a link; revoked, the outsider's reload says it has expired.
    await page.getByLabel("For whom (only you see it)").fill("Our recruiter");
    await page.getByRole("button", { name: "Make a link" }).click();
    const shareUrl = await page.getByTestId("share-url").inputValue();
    expect(shareUrl).toMatch(/\/submissions\/shared\/[A-Za-z0-9_-]{43}$/);
    expect(await seriousViolations(page)).toEqual([]);
    const outsiderContext = await newConsentedContext(browser, baseURL!);
    const outsider = await outsiderContext.newPage();
    await gotoHydrated(outsider, shareUrl);
    await expect(outsider).toHaveTitle("Submission to Job application - Strongroom");
    await expect(outsider.getByTestId("submission-answers")).toContainText("Vera Visitor");
    // Outside, the file is named, not linked (it stays in the owner's files).
    await expect(outsider.getByTestId("submission-answers")).toContainText("vera-cv.pdf");
    await expect(outsider.getByTestId("submission-answers").getByRole("link")).toHaveCount(0);
    expect(await seriousViolations(outsider)).toEqual([]);
    // The embedded view may be framed by the sites the form lists, by nobody else.
    const formId = /\/forms\/([0-9a-f-]{36})\//.exec(page.url())![1];
    const settings = await page.request.patch(`/api/forms/${formId}/settings`, { data: { embedOrigins: ["https://portal.example.com"] }, headers: { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" } });
    expect(settings.status()).toBe(200);
    const embedded = await outsider.request.get(shareUrl.replace("/submissions/shared/", "/submissions/embed/"));
    expect(embedded.status()).toBe(200);
    expect(embedded.headers()["content-security-policy"]).toContain("frame-ancestors https://portal.example.com");
    expect(embedded.headers()["x-frame-options"]).toBeUndefined();
    await page.reload();
    await expect(page.getByTestId("share-list")).toContainText("Our recruiter · Works");
    await expect(page.getByTestId("share-list")).toContainText("opened 2 times");
    await page.getByRole("button", { name: "Revoke the link Our recruiter" }).click();
    await expect(page.getByTestId("share-list")).toContainText("Our recruiter · Revoked");
    await outsider.reload();
    await expect(outsider).toHaveTitle("Link expired - Strongroom");
    await expect(outsider.getByTestId("shared-submission-ended")).toContainText("This link has expired");
    await outsiderContext.close();

    // The builder dashboard: one view, one start, sent (the test visit is not counted).
    await gotoHydrated(page, "/forms");
    await page.getByRole("link", { name: "Dashboard of Job application" }).click();
    await expect(page).toHaveTitle("Form dashboard: Job application - Strongroom");
    const figures = page.getByTestId("form-figures");
    await expect(figures).toContainText("Starts1");
    await expect(figures).toContainText("Submissions1");
    await expect(figures).toContainText("Completion rate100 %");
    await expect(page.getByTestId("drop-off").getByRole("row", { name: /Page 2/ })).toContainText("1");

    // A webhook: its address and its signing secret.
    await page.goto(page.url().replace("/dashboard", "/webhooks"));
    await expect(page).toHaveTitle("Webhooks: Job application - Strongroom");
    await page.getByLabel("Address (https://)").fill("https://hooks.example.com/strongroom");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect(page.getByTestId("webhook-list")).toContainText("https://hooks.example.com/strongroom");
    await page.getByText("Signing secret").click();
    await expect(page.getByTestId("webhook-list").locator("code")).toHaveText(/^whsec_[0-9a-f]{48}$/);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test("a visitor without JavaScript passes the password, confirms their e-mail with a code and fills in a form without logic: refusals come back next to their fields, then the thanks, once per address", async ({ page, browser, baseURL }) => {
  await createMember(page.request, { tier: "basic" });
  await page.goto("/forms");
  const headers = { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" };
  const created = await page.request.post("/api/forms", { data: { templateId: "template-contact" }, headers });
  const { form } = (await created.json()) as { form: { id: string } };
  expect((await page.request.post(`/api/forms/${form.id}/publish`, { headers })).status()).toBe(200);
  expect((await page.request.patch(`/api/forms/${form.id}/settings`, { data: { thankYouMessage: "We answer within a day.", verifyEmail: true, password: "open sesame" }, headers })).status()).toBe(200);

  const context = await browser.newContext({ baseURL: baseURL!, javaScriptEnabled: false });
  const visitor = await context.newPage();
  await visitor.goto(`/forms/${form.id}/view`);
  await expect(visitor).toHaveTitle("Contact - Strongroom");
  await visitor.getByLabel("Password").fill("open sesame");
  await visitor.getByRole("button", { name: "Open the form" }).click();
  // One answer per verified address: the code comes by e-mail.
  await visitor.getByLabel("Your e-mail address").fill("nora@example.com");
  await visitor.getByRole("button", { name: "Send me a code" }).click();
  await expect(visitor.getByTestId("form-email-gate")).toContainText("We sent a 6-digit code to nora@example.com");
  const mail = await readLatestMail(visitor, "nora@example.com", /is your code for the form "Contact"/);
  await visitor.getByLabel("Code from the e-mail").fill(mail.code === "000000" ? "111111" : "000000");
  await visitor.getByRole("button", { name: "Confirm" }).click();
  await expect(visitor.getByRole("alert")).toHaveText("That code is not right. Check the newest e-mail we sent and try again.");
  await visitor.getByLabel("Code from the e-mail").fill(mail.code!);
  await visitor.getByRole("button", { name: "Confirm" }).click();
  await expect(visitor.getByTestId("form-verified-email")).toContainText("Answering as nora@example.com (confirmed).");
  await visitor.getByLabel("Name").fill("Nora No-Script");
  await visitor.getByLabel("E-mail").fill("nora@example");
  await visitor.getByRole("button", { name: "Send" }).click();
  await expect(visitor.locator("#field-email-error")).toHaveText("Enter an e-mail address such as name@example.com.");
  await expect(visitor.locator("#field-message-error")).toHaveText("This question needs an answer.");
  await expect(visitor.getByLabel("Name")).toHaveValue("Nora No-Script");
  await visitor.getByLabel("E-mail").fill("nora@example.com");
  await visitor.getByLabel("Message").fill("Hello from a browser without scripts.");
  await visitor.getByRole("button", { name: "Send" }).click();
  await expect(visitor.getByTestId("form-thanks")).toContainText("We answer within a day.");
  await visitor.goto(`/forms/${form.id}/view`);
  await expect(visitor.getByTestId("form-email-gate")).toContainText("nora@example.com has already answered this form.");
  await context.close();
});

test("a receive page asks a form's questions with its logic, then takes the visitor's files", async ({ page, browser, baseURL }) => {
  await createMember(page.request, { tier: "pro" });
  await page.goto("/forms");
  const headers = { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" };
  const created = await page.request.post("/api/forms", { data: { title: "Seller questions" }, headers });
  const { form } = (await created.json()) as { form: { id: string; revision: number } };
  const fields = [
    { id: "company", type: "short_text", label: "Company", required: true },
    { id: "audited", type: "radio", label: "Are the accounts audited?", required: true, options: ["Yes", "No"] },
    { id: "auditor", type: "short_text", label: "Auditor", required: true },
  ];
  const rules = [{ id: "r1", match: "all", conditions: [{ field: "audited", operator: "equals", value: "Yes" }], action: "show", target: "auditor" }];
  expect((await page.request.put(`/api/forms/${form.id}/draft`, { data: { revision: form.revision, title: "Seller questions", fields, rules }, headers })).status()).toBe(200);
  expect((await page.request.post(`/api/forms/${form.id}/publish`, { headers })).status()).toBe(200);

  // The receive page's editor offers the form for its questions.
  await gotoHydrated(page, "/receive-pages/new");
  await page.getByLabel("Title").fill("Seller documents");
  await page.getByLabel("Form: fields first, then files").check();
  await page.getByLabel("Questions (form pages)").selectOption({ label: "The form “Seller questions” (version 1)" });
  await page.getByLabel("Ask for their name").uncheck();
  await page.getByLabel("Ask for their e-mail").uncheck();
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page).toHaveTitle("Receive page Seller documents - Strongroom");
  const address = await page.getByTestId("receive-page-url").inputValue();

  const visitorContext = await newConsentedContext(browser, baseURL!);
  const visitor = await visitorContext.newPage();
  await gotoHydrated(visitor, new URL(address).pathname);
  await expect(visitor.locator('[data-testid="form-questions"][data-ready]')).toBeVisible();
  await expect(visitor.getByLabel("Auditor")).toHaveCount(0);
  await visitor.getByLabel("Company").fill("Falcon Logistics");
  await visitor.getByLabel("Yes").check();
  await expect(visitor.getByLabel("Auditor")).toBeVisible();
  await visitor.getByTestId("receive-files-input").setInputFiles({ name: "accounts.pdf", mimeType: "application/pdf", buffer: pdfBytes(4000) });
  await visitor.getByRole("button", { name: "Send", exact: true }).click();
  await expect(visitor.locator("#field-auditor-error")).toHaveText("This question needs an answer.");
  await visitor.getByLabel("Auditor").fill("Price & Partners");
  await visitor.getByRole("button", { name: "Send", exact: true }).click();
  await expect(visitor.getByRole("status").filter({ hasText: "1 file was sent" })).toBeVisible();
  expect(await seriousViolations(visitor)).toEqual([]);
  await visitorContext.close();
});

test("a member maps a form onto a PDF made as a form, reviews the pairs, and fills a copy of the PDF with a submission", async ({ page }) => {
  await createMember(page.request, { tier: "pro" });
  await page.goto("/forms");
  const csrf = await csrfToken(page);
  const headers = { "X-CSRF-TOKEN": csrf, "X-Requested-With": "XMLHttpRequest" };
  const { form } = (await (await page.request.post("/api/forms", { data: { templateId: "template-contact" }, headers })).json()) as { form: { id: string } };
  const document = await PDFDocument.create();
  const pdfPage = document.addPage([595, 842]);
  for (const [name, y] of [["FullName", 760], ["EmailAddress", 720], ["Phone", 680]] as const) document.getForm().createTextField(name).addToPage(pdfPage, { x: 50, y, width: 300, height: 20 });
  const { inbox } = await defaultFolders(page);
  await uploadViaTus(page.request, { folderId: inbox, name: "Contact sheet.pdf", body: Buffer.from(await document.save()), csrf });

  await gotoHydrated(page, `/forms/${form.id}/map-fields`);
  await expect(page).toHaveTitle("Map fields: Contact - Strongroom");
  const choice = page.getByLabel("PDF with form fields");
  await choice.selectOption((await choice.locator("option", { hasText: "Contact sheet.pdf" }).getAttribute("value"))!);
  await page.getByRole("button", { name: "Propose pairs" }).click();
  await expect(page.getByTestId("mapped-by")).toContainText("Proposed offline from how alike the labels are");
  await expect(page.getByLabel("FullName")).toHaveValue("name");
  await expect(page.getByLabel("EmailAddress")).toHaveValue("email");
  await expect(page.getByLabel("Phone")).toHaveValue("");
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Keep these pairs" }).click();
  await expect(page.locator(".Toastify__toast").filter({ hasText: "Pairs kept" })).toBeVisible();

  expect((await page.request.post(`/api/forms/${form.id}/publish`, { headers })).status()).toBe(200);
  const sent = await page.request.post(`/api/forms/${form.id}/submissions`, { data: { answers: { name: "Pat Pdf", email: "pat@example.com", message: "Fill me in." } }, headers });
  const { submissionId } = (await sent.json()) as { submissionId: string };
  await gotoHydrated(page, `/forms/${form.id}/submissions/${submissionId}`);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Fill the PDF with these answers" }).click();
  const filled = await PDFDocument.load(readFileSync((await (await download).path())!));
  expect(filled.getForm().getTextField("FullName").getText()).toBe("Pat Pdf");
  expect(filled.getForm().getTextField("EmailAddress").getText()).toBe("pat@example.com");

  // Or saved as a file next to the PDF it fills, linked from the page.
  await page.getByRole("button", { name: "Save the filled PDF next to the original" }).click();
  await expect(page.getByTestId("filled-saved")).toContainText(/^Saved as .+ - \d{4}-\d{2}-\d{2}\.pdf\.$/);
  await page.getByTestId("filled-saved").getByRole("link").click();
  await expect(page.getByRole("row").filter({ hasText: /- \d{4}-\d{2}-\d{2}\.pdf/ })).toHaveCount(1);
});
