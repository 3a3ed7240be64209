import { createMember, expect, gotoHydrated, test } from "./fixtures";
import { preloadAxe, seriousViolations } from "./axe-helpers";
import { csrfToken, defaultFolders, pdfBytes, uploadViaTus } from "./files-helpers";

/**
 * Workflows (issue 41): the builder's and the approver's journey. A Business member builds
 * "Contract approval" on /workflows/create (a contract uploaded into a folder starts it; a reviewer
 * approves; it is filed), uploads a contract there; the approver (named by e-mail, on the Free
 * plan) finds the task on their dashboard and in My tasks, approves it with a comment on the run's
 * page, and the run completes with the contract filed.
 */
test.describe("workflows", () => {
  test.use({ memberOptions: { tier: "business" } });

  test("a member builds a workflow started by uploads, an approver approves the uploaded contract from My tasks, and it is filed", async ({ page, member, browser, baseURL }) => {
    test.setTimeout(90_000);
    void member;
    await gotoHydrated(page, "/folders/inbox");
    const csrf = await csrfToken(page);
    const headers = { "X-CSRF-TOKEN": csrf, "X-Requested-With": "XMLHttpRequest" };
    const { inbox } = await defaultFolders(page);
    const folder = async (label: string) => ((await (await page.request.post("/api/folders", { data: { parentId: inbox, label }, headers })).json()) as { folder: { uid: string } }).folder.uid;
    const incoming = await folder("Incoming contracts");
    await folder("Signed contracts");

    const approverContext = await browser.newContext({ baseURL });
    await approverContext.addCookies([{ name: "dataroom_cookie_consent", value: "essential", url: baseURL! }]);
    const approverPage = await approverContext.newPage();
    const approver = await createMember(approverPage.request, { tier: "free", name: "Ada Approver" });

    // The builder: Workflows in the sidebar, a new workflow.
    await gotoHydrated(page, "/workflows");
    await expect(page).toHaveTitle("Workflows - Strongroom");
    await page.getByRole("link", { name: "New workflow" }).click();
    await expect(page).toHaveTitle("New workflow - Strongroom");
    await preloadAxe(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("Workflow name").fill("Contract approval");
    await page.getByLabel("Folder whose new files start a run").selectOption({ label: "My files / Inbox / Incoming contracts" });
    await page.getByLabel("Step 1 name").fill("Legal review");
    await page.getByLabel("Step 1 approvers").fill(approver.email);
    await page.getByLabel("Step 2: move into").selectOption({ label: "My files / Inbox / Signed contracts" });
    await page.getByRole("button", { name: "Save workflow" }).click();
    await expect(page.getByText("“Contract approval” is ready.")).toBeVisible();
    await expect(page).toHaveTitle("Contract approval - Strongroom");
    await expect(page.getByTestId("workflow-trigger")).toHaveText("Starts: A file uploaded into My files / Inbox / Incoming contracts.");
    await expect(page.getByTestId("workflow-steps")).toContainText(`Any one of Ada Approver (${approver.email}) approve`);
    expect(await seriousViolations(page)).toEqual([]);

    // A contract arrives in the folder: the run starts by itself.
    await uploadViaTus(page.request, { folderId: incoming, name: "Supply contract.pdf", body: pdfBytes(2_000), csrf });

    // The task reaches the approver's dashboard (the engine opens it a moment after the start).
    await expect
      .poll(async () => {
        await gotoHydrated(approverPage, "/dashboard");
        return approverPage.getByText("Legal review: Contract approval").count();
      }, { timeout: 20_000 })
      .toBeGreaterThan(0);
    await gotoHydrated(approverPage, "/tasks");
    await expect(approverPage).toHaveTitle("My tasks - Strongroom");
    await approverPage.getByRole("link", { name: "Legal review: Contract approval" }).click();
    await expect(approverPage).toHaveTitle("Contract approval run - Strongroom");
    await expect(approverPage.getByTestId("run-status")).toHaveText("Running");
    await expect(approverPage.getByTestId("run-document")).toHaveText(/The document is not shared with you/);
    await approverPage.getByLabel("Comment (optional)").fill("Clause 7 is fine now.");
    await approverPage.getByRole("button", { name: "Approve" }).click();
    await expect(approverPage.getByText("Approved. The workflow goes on.")).toBeVisible();

    // The engine files the contract and completes the run; the builder follows it from the workflow's page.
    const workflowUrl = new URL(page.url()).pathname;
    await expect
      .poll(async () => {
        await gotoHydrated(page, workflowUrl);
        return page.getByTestId("workflow-run-row").first().textContent();
      }, { timeout: 20_000 })
      .toContain("Completed");
    await page.getByRole("link", { name: "Supply contract.pdf" }).click();
    await expect(page.getByTestId("run-status")).toHaveText("Completed");
    await expect(page.getByTestId("run-document")).toContainText("Supply contract.pdf");
    const timeline = page.getByTestId("run-timeline");
    await expect(timeline).toContainText("Approved by Ada Approver: Clause 7 is fine now.");
    await expect(timeline).toContainText("Document moved: File it");
    await gotoHydrated(approverPage, "/tasks");
    await expect(approverPage.getByText("Nothing waits for you.")).toBeVisible();
    await approverContext.close();
  });
});
