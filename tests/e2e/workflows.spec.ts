import { createMember, expect, gotoHydrated, test } from "./fixtures";
import { csrfToken, defaultFolders, pdfBytes, uploadViaTus } from "./files-helpers";

/**
 * Workflows (issue 41, step 1), the approver's journey: a Business member's "Contract approval"
 * (an approval, then filing into a folder) runs on a contract; the approver finds the task on
 * their dashboard and in My tasks, approves it with a comment on the run's page, and the run
 * completes with the contract filed.
 */
test.describe("workflows", () => {
  test.use({ memberOptions: { tier: "business" } });

  test("an approver finds a workflow's task on the dashboard, approves it with a comment, and the contract is filed", async ({ page, member, browser, baseURL }) => {
    test.setTimeout(90_000);
    void member;
    await gotoHydrated(page, "/folders/inbox");
    const csrf = await csrfToken(page);
    const headers = { "X-CSRF-TOKEN": csrf, "X-Requested-With": "XMLHttpRequest" };
    const { inbox } = await defaultFolders(page);
    const contract = await uploadViaTus(page.request, { folderId: inbox, name: "Supply contract.pdf", body: pdfBytes(2_000), csrf });
    const made = await page.request.post("/api/folders", { data: { parentId: inbox, label: "Signed contracts" }, headers });
    const signed = ((await made.json()) as { folder: { uid: string } }).folder.uid;

    const approverContext = await browser.newContext({ baseURL });
    await approverContext.addCookies([{ name: "dataroom_cookie_consent", value: "essential", url: baseURL! }]);
    const approverPage = await approverContext.newPage();
    const approver = await createMember(approverPage.request, { tier: "free", name: "Ada Approver" });

    const created = await page.request.post("/api/workflows", {
      data: { name: "Contract approval", steps: [{ type: "approve", name: "Legal review", assignees: [approver.id], mode: "one" }, { type: "move", name: "File it", folderId: signed }] },
      headers,
    });
    expect(created.status(), await created.text()).toBe(201);
    const workflowId = ((await created.json()) as { workflow: { id: string } }).workflow.id;
    const started = await page.request.post(`/api/workflows/${workflowId}/runs`, { data: { fileId: contract }, headers });
    expect(started.status(), await started.text()).toBe(201);
    const runId = ((await started.json()) as { run: { id: string } }).run.id;

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
    await approverPage.getByLabel("Comment (optional)").fill("Clause 7 is fine now.");
    await approverPage.getByRole("button", { name: "Approve" }).click();
    await expect(approverPage.getByText("Approved. The workflow goes on.")).toBeVisible();

    // The engine files the contract and completes the run.
    await expect
      .poll(async () => {
        await gotoHydrated(page, `/workflow-runs/${runId}`);
        return page.getByTestId("run-status").textContent();
      }, { timeout: 20_000 })
      .toBe("Completed");
    const timeline = page.getByTestId("run-timeline");
    await expect(timeline).toContainText("Approved by Ada Approver: Clause 7 is fine now.");
    await expect(timeline).toContainText("Document moved: File it");
    await gotoHydrated(approverPage, "/tasks");
    await expect(approverPage.getByText("Nothing waits for you.")).toBeVisible();
    await approverContext.close();
  });
});
