import { PDFDocument, StandardFonts } from "pdf-lib";
import { preloadAxe, seriousViolations } from "./axe-helpers";
import { newConsentedContext, readLatestMail } from "./auth-helpers";
import { createMember, expect, gotoHydrated, showingPageOnFailure, test } from "./fixtures";
import { csrfToken, defaultFolders, uploadViaTus } from "./files-helpers";

async function contractPdf(): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([612, 792]);
  page.drawText("Supply contract", { x: 72, y: 720, size: 14, font });
  return Buffer.from(await document.save());
}

/**
 * Workflows and cases (issue 41), the whole journey: a Business member makes a "Contract" case
 * type and builds "Contract approval" on /workflows/create (a contract uploaded into a folder
 * starts it; a reviewer approves; it is sent for signature; it is filed into a new case). They
 * upload a contract; the reviewer (a second member, on the Free plan, named by e-mail) approves it
 * from My tasks; the signer (no account) signs from the e-mail; the case's timeline shows the
 * upload, the approval, the signature and the filing.
 */
test.describe("workflows and cases", () => {
  test.use({ memberOptions: { tier: "business" } });

  test("Contract approval: on upload a reviewer approves from My tasks, the signer signs, and the signed contract is filed into a case whose timeline shows it all", async ({ page, member, browser, baseURL }) => {
    test.setTimeout(120_000);
    void member;
    await gotoHydrated(page, "/folders/inbox");
    const csrf = await csrfToken(page);
    const headers = { "X-CSRF-TOKEN": csrf, "X-Requested-With": "XMLHttpRequest" };
    const { inbox } = await defaultFolders(page);
    const made = await page.request.post("/api/folders", { data: { parentId: inbox, label: "Incoming contracts" }, headers });
    const incoming = ((await made.json()) as { folder: { uid: string } }).folder.uid;

    const reviewerContext = await newConsentedContext(browser, baseURL!);
    const reviewerPage = await reviewerContext.newPage();
    const reviewer = await createMember(reviewerPage.request, { tier: "free", name: "Ada Approver" });
    const signer = `sam.${Date.now().toString(36)}@example.com`;

    // The case type.
    await gotoHydrated(page, "/cases");
    await expect(page).toHaveTitle("Cases - Strongroom");
    await page.getByRole("link", { name: "Case types" }).click();
    await expect(page).toHaveTitle("Case types - Strongroom");
    await page.getByLabel("Case type name").fill("Contract");
    await page.getByLabel("Fields", { exact: true }).fill("Counterparty\nValue: number");
    await page.getByLabel("Case file folders").fill("Signed\nCorrespondence");
    await page.getByRole("button", { name: "Create case type" }).click();
    await expect(page.getByText("The case type “Contract” is ready.")).toBeVisible();

    // The workflow, from the sidebar.
    await page.getByRole("link", { name: "Workflows", exact: true }).click();
    await expect(page).toHaveTitle("Workflows - Strongroom");
    await page.getByRole("link", { name: "New workflow" }).click();
    await expect(page).toHaveTitle("New workflow - Strongroom");
    await page.getByLabel("Workflow name").fill("Contract approval");
    await page.getByLabel("Folder whose new files start a run").selectOption({ label: "My files / Inbox / Incoming contracts" });
    await page.getByLabel("Step 1 name").fill("Legal review");
    await page.getByLabel("Step 1 approvers").fill(reviewer.email);
    await page.getByRole("button", { name: "Remove step 2" }).click();
    await page.getByRole("button", { name: "Add a signature" }).click();
    await page.getByLabel("Step 2 signers").fill(`Sam Signer <${signer}>`);
    await page.getByRole("button", { name: "Add filing into a case" }).click();
    await page.getByLabel("Step 3: case type").selectOption({ label: "Contract" });
    // A rejected contract would go back to the review once (a loop; this run is approved).
    await page.getByRole("button", { name: "Add a send-back" }).click();
    await page.getByLabel("Step 4: send back to").selectOption({ label: "Step 1: Legal review" });
    await page.getByLabel("Step 4: at most (times)").fill("1");
    await preloadAxe(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Save workflow" }).click();
    await expect(page.getByText("“Contract approval” is ready.")).toBeVisible();
    await expect(page).toHaveTitle("Contract approval - Strongroom");
    await expect(page.getByTestId("workflow-trigger")).toHaveText("Starts: A file uploaded into My files / Inbox / Incoming contracts.");
    await expect(page.getByTestId("workflow-steps")).toContainText(`Any one of Ada Approver (${reviewer.email}) approve`);
    await expect(page.getByTestId("workflow-steps")).toContainText(`Send for signature to Sam Signer (${signer})`);
    await expect(page.getByTestId("workflow-steps")).toContainText("File the document into a new case: Contract");
    await expect(page.getByTestId("workflow-steps")).toContainText("If rejected: Send it back to step 1, at most 1 time; then the run goes on");
    expect(await seriousViolations(page)).toEqual([]);
    const workflowUrl = new URL(page.url()).pathname;

    // A contract arrives in the folder: the run starts by itself.
    await uploadViaTus(page.request, { folderId: incoming, name: "Supply contract.pdf", body: await contractPdf(), csrf });

    // The reviewer: the dashboard, then My tasks; the document is not theirs to open.
    await expect
      .poll(async () => {
        await gotoHydrated(reviewerPage, "/dashboard");
        return reviewerPage.getByText("Legal review: Contract approval").count();
      }, { timeout: 20_000 })
      .toBeGreaterThan(0);
    await gotoHydrated(reviewerPage, "/tasks");
    await expect(reviewerPage).toHaveTitle("My tasks - Strongroom");
    await reviewerPage.getByRole("link", { name: "Legal review: Contract approval" }).click();
    await expect(reviewerPage).toHaveTitle("Contract approval run - Strongroom");
    await expect(reviewerPage.getByTestId("run-status")).toHaveText("Running");
    await expect(reviewerPage.getByTestId("run-document")).toHaveText(/The document is not shared with you/);
    await reviewerPage.getByLabel("Comment (optional)").fill("Clause 7 is fine now.");
    await reviewerPage.getByRole("button", { name: "Approve" }).click();
    // The page comes back with the notice, or with the reason it could not (shown, so a failure says why).
    const outcome = reviewerPage.getByText("Approved. The workflow goes on.").or(reviewerPage.getByRole("alert").filter({ hasText: /\S/ }));
    await showingPageOnFailure(reviewerPage, () => expect(outcome.first()).toBeVisible({ timeout: 20_000 }));
    await expect(reviewerPage.getByText("Approved. The workflow goes on.")).toBeVisible();
    await gotoHydrated(reviewerPage, "/tasks");
    await expect(reviewerPage.getByText("Nothing waits for you.")).toBeVisible();
    await reviewerContext.close();

    // The signer, without an account, from the e-mail.
    const signerContext = await newConsentedContext(browser, baseURL!);
    const signerPage = await signerContext.newPage();
    let link: string | null = null;
    await expect.poll(async () => (link = (await readLatestMail(signerPage, signer, /asks you to sign/).catch(() => null))?.link ?? null), { timeout: 30_000 }).not.toBeNull();
    expect(link).toMatch(/^\/sign\/[A-Za-z0-9_-]{43}$/);
    // The signing page loads the PDF viewer; on a busy machine its first load takes longer than most pages.
    await signerPage.goto(link!);
    await expect(signerPage.locator("html[data-hydrated]")).toHaveCount(1, { timeout: 45_000 });
    await signerPage.getByLabel("Or type your full name to sign").fill("Sam Signer");
    await signerPage.getByLabel(/I agree to sign this document electronically/).check();
    await signerPage.getByRole("button", { name: "Sign and finish" }).click();
    await expect(signerPage.getByText(/You have already signed this document|This document is complete/)).toBeVisible();
    await signerContext.close();

    // The run completes (sealing is a queue job); the case holds the signed contract.
    await expect
      .poll(async () => {
        await gotoHydrated(page, workflowUrl);
        return page.getByTestId("workflow-run-row").first().textContent();
      }, { timeout: 30_000 })
      .toContain("Completed");
    await gotoHydrated(page, "/cases");
    await page.getByRole("link", { name: /CASE-0001 Supply contract \(signed\)/ }).click();
    await expect(page).toHaveTitle("CASE-0001 Supply contract (signed) - Strongroom");
    await expect(page.getByTestId("case-files")).toContainText("Supply contract (signed).pdf");
    const timeline = page.getByTestId("case-timeline");
    await expect(timeline).toContainText(/Workflow started by .+: Contract approval on “Supply contract\.pdf” \(uploaded into its folder\)/);
    await expect(timeline).toContainText("Approved by Ada Approver: Clause 7 is fine now.");
    await expect(timeline).toContainText("Signed: Signature: signed by everyone");
    await expect(timeline).toContainText("Filed into a case: “Supply contract (signed).pdf” filed by the workflow “Contract approval”");
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("a room's owner builds a workflow on a room folder that asks the room's admins; an upload there brings them the task, the room's activities show the run from start to end, a case opened into the room keeps its case file there, and the next case gets a data room of its own", async ({ page, member }) => {
    test.setTimeout(90_000);
    void member;
    await gotoHydrated(page, "/folders/inbox");
    const csrf = await csrfToken(page);
    const headers = { "X-CSRF-TOKEN": csrf, "X-Requested-With": "XMLHttpRequest" };
    const created = await page.request.post("/api/datarooms", { data: { name: "Kestrel" }, headers });
    const room = ((await created.json()) as { dataroom: { id: string } }).dataroom.id;
    const { rootFolderId } = (await (await page.request.get(`/api/datarooms/${room}`)).json()) as { rootFolderId: string };
    const legal = ((await (await page.request.post("/api/folders", { data: { parentId: rootFolderId, label: "Legal" }, headers })).json()) as { folder: { uid: string } }).folder.uid;
    await page.request.post("/api/folders", { data: { parentId: rootFolderId, label: "Signed off" }, headers });

    await gotoHydrated(page, "/workflows/create");
    await page.getByLabel("Workflow name").fill("Kestrel sign-off");
    await expect(page.getByText("also everyone in the room who is")).toHaveCount(0);
    await page.getByLabel("Folder whose new files start a run").selectOption({ label: "Kestrel / Legal (data room)" });
    await page.getByRole("checkbox", { name: "Owner and admins" }).check();
    // The document stays in the room: its folders only, and no filing into a case (a case file is in one's own files).
    await expect(page.getByRole("button", { name: "Add filing into a case" })).toHaveCount(0);
    expect(await page.getByLabel("Step 2: move into").locator("option").allTextContents()).toEqual(["Kestrel", "Kestrel / Legal", "Kestrel / Signed off"]);
    await page.getByLabel("Step 2: move into").selectOption({ label: "Kestrel / Signed off" });
    await page.getByRole("button", { name: "Save workflow" }).click();
    await expect(page.getByText("“Kestrel sign-off” is ready.")).toBeVisible();
    await expect(page.getByTestId("workflow-trigger")).toHaveText("Starts: A file uploaded into Kestrel / Legal.");
    await expect(page.getByTestId("workflow-steps")).toContainText("Any one of the room's owner and admins approve");

    await uploadViaTus(page.request, { folderId: legal, name: "Kestrel SPA.pdf", body: await contractPdf(), csrf });
    await expect
      .poll(async () => {
        await gotoHydrated(page, "/tasks");
        return page.getByRole("link", { name: "Review: Kestrel sign-off" }).count();
      }, { timeout: 20_000 })
      .toBe(1);
    await page.getByRole("link", { name: "Review: Kestrel sign-off" }).click();
    await expect(page.getByTestId("run-document")).toContainText("Kestrel SPA.pdf");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect.poll(async () => {
      await page.reload();
      return page.getByTestId("run-status").textContent();
    }, { timeout: 30_000 }).toBe("Completed");

    await gotoHydrated(page, `/dataroom/${room}/activities`);
    const rows = page.getByTestId("audit-row");
    await expect(rows.filter({ hasText: "Started a workflow" })).toContainText("Kestrel sign-off (uploaded into its folder)");
    await expect(rows.filter({ hasText: "Decided a workflow task" })).toContainText("Kestrel sign-off: Review approved");
    await expect(rows.filter({ hasText: "A workflow run ended" })).toContainText("Kestrel sign-off: completed");

    // The matter as a case that lives in the room: its case file at the top of the room, its history in the room's log.
    expect((await page.request.post("/api/case-types", { data: { name: "Acquisition", fields: [], folders: ["Due diligence"] }, headers })).status()).toBe(201);
    await gotoHydrated(page, "/cases/new");
    await page.getByLabel("Title").fill("Kestrel purchase");
    await page.getByLabel("Case file").selectOption({ label: "In the data room “Kestrel”" });
    await page.getByRole("button", { name: "Open case" }).click();
    await expect(page).toHaveTitle(/Kestrel purchase - Strongroom/);
    await expect(page.getByTestId("case-file-place")).toContainText("in the data room “Kestrel”");
    await page.getByRole("link", { name: "Open the case file" }).click();
    await expect(page.getByRole("link", { name: "Due diligence" }).first()).toBeVisible();
    await gotoHydrated(page, `/dataroom/${room}/activities`);
    await expect(page.getByTestId("audit-row").filter({ hasText: "Opened a case" })).toContainText("Acquisition: CASE-0001 Kestrel purchase");

    // The next matter gets a data room of its own: the room is named after the case and is its case file.
    await gotoHydrated(page, "/cases/new");
    await page.getByLabel("Title").fill("Osprey bid");
    const ownRoom = await page.getByLabel("Case file").locator("option", { hasText: "A data room of its own" }).textContent();
    expect(ownRoom).toMatch(/^A data room of its own( \(\d+ rooms? left on your plan\))?$/);
    await page.getByLabel("Case file").selectOption({ label: ownRoom! });
    await page.getByRole("button", { name: "Open case" }).click();
    await expect(page).toHaveTitle(/Osprey bid - Strongroom/);
    await expect(page.getByTestId("case-file-place")).toContainText("the case's own data room “CASE-0002 Osprey bid”");
    await page.getByRole("link", { name: "Open the case file" }).click();
    await expect(page.getByRole("heading", { name: "CASE-0002 Osprey bid" }).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Due diligence" }).first()).toBeVisible();
  });

  test("a case's owner sends a form and then a receive page for the case to someone without an account; their answer and files land in the case, and the case's details are edited with the timeline keeping what they were", async ({ page, member, browser, baseURL }) => {
    test.setTimeout(90_000);
    void member;
    await gotoHydrated(page, "/folders/inbox");
    const csrf = await csrfToken(page);
    const headers = { "X-CSRF-TOKEN": csrf, "X-Requested-With": "XMLHttpRequest" };
    const { inbox } = await defaultFolders(page);
    const type = ((await (await page.request.post("/api/case-types", { data: { name: "Claim", fields: [], folders: [] }, headers })).json()) as { caseType: { id: string } }).caseType;
    const opened = ((await (await page.request.post("/api/cases", { data: { typeId: type.id, title: "Pier collapse" }, headers })).json()) as { case: { id: string } }).case;
    const { form } = (await (await page.request.post("/api/forms", { data: { title: "Damage report" }, headers })).json()) as { form: { id: string; revision: number } };
    const fields = [
      { id: "name", type: "short_text", label: "Your name", required: true },
      { id: "photos", type: "file", label: "Photos", required: true, max: 1, accept: ["pdf"], maxFileMb: 5 },
    ];
    expect((await page.request.put(`/api/forms/${form.id}/draft`, { data: { revision: form.revision, title: "Damage report", fields, rules: [] }, headers })).status()).toBe(200);
    expect((await page.request.patch(`/api/forms/${form.id}/settings`, { data: { fileFolderId: inbox }, headers })).status()).toBe(200);
    expect((await page.request.post(`/api/forms/${form.id}/publish`, { headers })).status()).toBe(200);
    const surveyor = `sue.${Date.now().toString(36)}@example.com`;

    await gotoHydrated(page, `/cases/${opened.id}`);
    await page.getByLabel("Form or receive page to send").selectOption({ label: "Damage report" });
    await page.getByLabel("E-mail of the person asked").fill(surveyor);
    await page.getByLabel("Name of the person asked (optional)").fill("Sue Surveyor");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByText("Sent. Their answer and files come into this case.")).toBeVisible();
    await expect(page.getByTestId("case-requests")).toContainText(`“Damage report” to Sue Surveyor <${surveyor}>`);
    await expect(page.getByTestId("case-requests")).toContainText("waiting");

    const visitorContext = await newConsentedContext(browser, baseURL!);
    const visitor = await visitorContext.newPage();
    const mail = await readLatestMail(visitor, surveyor, /asks you to fill in/);
    await gotoHydrated(visitor, mail.link!);
    // The form's code loads after the page (a chunk of its own): answer once it is ready.
    await expect(visitor.locator('[data-testid="public-form"][data-ready]')).toBeVisible();
    await visitor.getByLabel("Your name").fill("Sue Surveyor");
    await visitor.getByLabel("Photos").setInputFiles({ name: "pier.pdf", mimeType: "application/pdf", buffer: await contractPdf() });
    await visitor.getByRole("button", { name: "Send" }).click();
    await expect(visitor.getByTestId("form-thanks")).toBeVisible();

    await expect
      .poll(async () => {
        await gotoHydrated(page, `/cases/${opened.id}`);
        return page.getByTestId("case-timeline").textContent();
      }, { timeout: 30_000 })
      .toContain(`Sue Surveyor <${surveyor}> answered “Damage report” with 1 file: pier.pdf`);
    await expect(page.getByTestId("case-files")).toContainText("pier.pdf");
    await expect(page.getByTestId("case-requests")).toContainText("answered");

    // More photos later, through one of the owner's receive pages sent for the case: they land in the case file too.
    expect((await page.request.post("/api/receive-pages", { data: { kind: "simple", title: "Claim documents", folderId: inbox }, headers })).status()).toBe(201);
    await gotoHydrated(page, `/cases/${opened.id}`);
    await page.getByLabel("Form or receive page to send").selectOption({ label: "Claim documents" });
    await page.getByLabel("E-mail of the person asked").fill(surveyor);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByText("Sent. The files they send come into this case.")).toBeVisible();
    const pageMail = await readLatestMail(visitor, surveyor, /asks you to send files through "Claim documents"/);
    await gotoHydrated(visitor, pageMail.link!);
    await expect(visitor.locator("form[data-ready]")).toHaveCount(1);
    await visitor.getByTestId("receive-files-input").setInputFiles({ name: "north-end.pdf", mimeType: "application/pdf", buffer: await contractPdf() });
    await visitor.getByRole("button", { name: "Send", exact: true }).click();
    await expect(visitor.getByRole("status").filter({ hasText: "1 file was sent" })).toBeVisible();
    await visitorContext.close();
    await expect
      .poll(async () => {
        await gotoHydrated(page, `/cases/${opened.id}`);
        return page.getByTestId("case-files").textContent();
      }, { timeout: 30_000 })
      .toContain("north-end.pdf");
    await expect(page.getByTestId("case-timeline")).toContainText(`Sue Surveyor <${surveyor}> sent 1 file: north-end.pdf through “Claim documents”`);
    await expect(page.getByTestId("case-requests")).toContainText("Receive page “Claim documents”");

    // The surveyor's report changes the matter: its details are edited, and the timeline keeps what they were.
    await page.getByText("Edit the case's details").click();
    await page.getByLabel("Title").fill("Pier collapse, north end");
    await page.getByLabel("Due date").fill("2027-03-31");
    await page.getByRole("button", { name: "Save the details" }).click();
    await expect(page.getByText("Saved. The timeline shows what changed.")).toBeVisible();
    await expect(page).toHaveTitle("CASE-0001 Pier collapse, north end - Strongroom");
    await expect(page.getByTestId("case-timeline")).toContainText("Title: Pier collapse → Pier collapse, north end; Due date: — → 2027-03-31");
  });
});
