import { newConsentedContext, readLatestMail } from "./auth-helpers";
import { seriousViolations } from "./axe-helpers";
import { csrfToken, uploadViaTus } from "./files-helpers";
import { createMember, expect, gotoHydrated, test, waitForHydration } from "./fixtures";

/**
 * Teams (issue 42) in two browsers: a Business member creates a team and invites someone by e-mail;
 * the invitee joins from the mailed link and sees the team; the owner builds the custom role
 * "Reviewer" (view and comment) and gives it to them; they switch to the team's workspace, whose
 * rooms list holds the team's room, where they comment but find no upload, share or delete, and
 * whose folders hold the team's own files, which they read without upload; removed from the team, their open room page says so at once and the
 * team is gone for them. The owner then keeps logs 90 days, places a legal hold and moves a form of
 * their own into the team's workspace. Every refusal is
 * a workerd test (teams.test.ts, team-log-retention.test.ts).
 */
test("an owner creates a team and invites someone, who joins from the mailed link; given the custom role Reviewer, they comment in the team's data room but find no upload, share or delete; removed from the team, their open room page closes and the team is not found for them", async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  await createMember(page.request, { tier: "business", name: "Olivia Owner" });
  await gotoHydrated(page, "/team");
  await expect(page).toHaveTitle("Team - Strongroom");
  await expect(page.getByText("You are not in a team yet. Create one below.")).toBeVisible();
  await page.getByRole("textbox", { name: "Team name" }).fill("Osprey deal team");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveTitle("Team Osprey deal team - Strongroom");
  await expect(page.getByTestId("team-seats")).toContainText("1 of 10 seats in use");
  expect(await seriousViolations(page)).toEqual([]);
  const teamPage = new URL(page.url()).pathname;

  const theirs = await newConsentedContext(browser, baseURL!);
  try {
    const them = await theirs.newPage();
    const invitee = await createMember(them.request, { tier: "free", name: "Ada Analyst" });
    await page.getByRole("textbox", { name: "E-mail addresses" }).fill(invitee.email);
    await page.getByRole("button", { name: "Send invitations" }).click();
    await expect(page.getByTestId("team-invitation")).toContainText(invitee.email);
    await expect(page.getByTestId("team-seats")).toContainText("2 of 10 seats in use");

    // The invitee opens the mailed link and joins with one click.
    const mail = await readLatestMail(page, invitee.email, /invited you to the team "Osprey deal team"/);
    await gotoHydrated(them, mail.link!);
    await expect(them).toHaveTitle("Invitation - Strongroom");
    await expect(them.getByText('Join "Osprey deal team"')).toBeVisible();
    await them.getByRole("button", { name: "Join team" }).click();
    await expect(them).toHaveTitle("Team Osprey deal team - Strongroom");
    await expect(them.getByTestId("team-member")).toHaveCount(2);
    // A member sees who is in the team, not the invitation form.
    await expect(them.getByRole("button", { name: "Send invitations" })).toHaveCount(0);

    // The owner builds the custom role "Reviewer" (ticking Comment ticks View, which it needs) and gives it to the member.
    await gotoHydrated(page, teamPage);
    await page.getByRole("link", { name: "Custom roles" }).click();
    await expect(page).toHaveTitle("Roles of Osprey deal team - Strongroom");
    await waitForHydration(page);
    const editor = page.getByRole("region", { name: "New role" });
    await editor.getByRole("textbox", { name: "Role name" }).fill("Reviewer");
    await editor.getByRole("checkbox", { name: "Comment", exact: true }).click();
    await expect(editor.getByRole("checkbox", { name: "View", exact: true })).toBeChecked();
    await expect(editor.getByRole("checkbox", { name: "Upload", exact: true })).not.toBeChecked();
    await editor.getByRole("checkbox", { name: "See and download the team's files" }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await editor.getByRole("button", { name: "Create role" }).click();
    await expect(page.getByTestId("custom-role").filter({ hasText: "Reviewer" })).toContainText("Nobody holds it · View (data rooms), Comment (data rooms), See and download the team's files");
    await gotoHydrated(page, teamPage);
    const row = page.getByTestId("team-member").filter({ hasText: invitee.email });
    await row.getByLabel("Role of Ada Analyst").selectOption({ label: "Reviewer" });
    await row.getByRole("button", { name: "Save role" }).click();
    await expect(page.locator(".Toastify__toast").filter({ hasText: "Role changed to Reviewer." })).toBeVisible();
    await expect(row).toContainText("Reviewer");

    // The owner creates the team's data room from the team page and puts a document in it.
    await page.getByRole("textbox", { name: "New data room's name" }).fill("Osprey documents");
    await page.getByRole("button", { name: "Create data room" }).click();
    await expect(page).toHaveTitle(/Osprey documents/);
    const roomId = new URL(page.url()).pathname.split("/").at(-1)!;
    const { rootFolderId } = (await (await page.request.get(`/api/datarooms/${roomId}`)).json()) as { rootFolderId: string };
    const fileId = await uploadViaTus(page.request, { folderId: rootFolderId, name: "Osprey model.txt", body: Buffer.from("Revenue: 12\n"), csrf: await csrfToken(page) });
    // And a memo in the team's own files (its drive, outside its rooms).
    const teamId = teamPage.split("/").at(-1)!;
    const { drive } = (await (await page.request.get(`/api/teams/${teamId}`)).json()) as { drive: { rootId: string } };
    await uploadViaTus(page.request, { folderId: drive.rootId, name: "Osprey memo.txt", body: Buffer.from("Open points: 3\n"), csrf: await csrfToken(page) });

    // The Reviewer switches to the team's workspace, whose rooms list holds the team's room: the document is there, with no upload, share or delete.
    await gotoHydrated(them, "/datarooms");
    await expect(them.getByRole("link", { name: "Osprey documents" })).toHaveCount(0);
    await them.getByRole("button", { name: "Workspace: Personal. Switch workspace" }).click();
    await them.getByRole("menuitem", { name: "Osprey deal team" }).click();
    await expect(them.getByTestId("workspace-switcher")).toHaveText("Osprey deal team");
    await expect(them.getByTestId("workspace-note")).toContainText("The rooms of the team “Osprey deal team”");
    await them.getByRole("link", { name: "Osprey documents", exact: true }).click();
    await expect(them.getByRole("heading", { level: 1, name: "Osprey documents" })).toBeVisible();
    await waitForHydration(them);
    await expect(them.getByRole("link", { name: "Osprey model.txt" })).toBeVisible();
    await expect(them.getByRole("button", { name: "Upload files" })).toHaveCount(0);
    await expect(them.getByRole("link", { name: "Share room" })).toHaveCount(0);
    await expect(them.getByRole("button", { name: "Delete" })).toHaveCount(0);
    // They can comment on it.
    await gotoHydrated(them, `/files/${fileId}`);
    const comments = them.getByTestId("file-comments");
    await comments.getByRole("textbox", { name: "Add a comment" }).fill("Revenue checked against the ledger.");
    await comments.getByRole("button", { name: "Comment", exact: true }).click();
    await expect(them.getByText("Comment added")).toBeVisible();
    // The team's own files are in the workspace's folders: the Reviewer reads the memo and finds no upload.
    await gotoHydrated(them, "/folders");
    await expect(them.getByTestId("workspace-note")).toContainText("The folders of the team “Osprey deal team”");
    await them.getByRole("link", { name: "Osprey deal team", exact: true }).click();
    await expect(them.getByRole("link", { name: "Osprey memo.txt" })).toBeVisible();
    await waitForHydration(them);
    await expect(them.getByRole("button", { name: "Upload files" })).toHaveCount(0);

    // Removed from the team, their open room page closes at once.
    await gotoHydrated(them, `/dataroom/${roomId}`);
    await expect(them.getByTestId("realtime-status")).toHaveAttribute("data-status", "connected");
    const notice = them.getByRole("dialog", { name: "You no longer have access" });
    await gotoHydrated(page, teamPage);
    await row.getByRole("button", { name: "Remove Ada Analyst" }).click();
    // It asks first, saying what they lose.
    const confirm = page.getByRole("dialog", { name: /^Remove Ada Analyst from / });
    await expect(confirm).toContainText("They lose the team’s data rooms and files at once.");
    await confirm.getByRole("button", { name: "Remove from the team" }).click();
    await expect(page.getByTestId("team-member")).toHaveCount(1);
    await expect(page.getByTestId("team-event").first()).toContainText(`removed ${invitee.email}`);
    await expect(notice).toContainText("You were removed from the team whose workspace holds this data room.");

    const after = await them.goto(teamPage);
    expect(after?.status()).toBe(404);

    // The owner keeps the team's logs 90 days and places a legal hold, which stops every cleanup.
    await page.getByRole("spinbutton", { name: "Keep logs for (days)" }).fill("90");
    await page.getByRole("button", { name: "Save retention" }).click();
    await expect(page.locator(".Toastify__toast").filter({ hasText: "Logs are kept 90 days." })).toBeVisible();
    await page.getByRole("textbox", { name: "Reason for a legal hold" }).fill("Regulator's request");
    await page.getByRole("button", { name: "Place legal hold" }).click();
    await expect(page.getByTestId("legal-hold")).toContainText("Regulator's request. Nothing is removed from the team's logs while it stands.");

    // The owner moves a form of their own into the team's workspace from the forms list.
    const created = await page.request.post("/api/forms", { data: { title: "Osprey buyer intake" }, headers: { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" } });
    expect(created.status()).toBe(201);
    await gotoHydrated(page, "/forms");
    const formRow = page.getByTestId("form-row").filter({ hasText: "Osprey buyer intake" });
    await formRow.getByLabel("Team to move Osprey buyer intake into").selectOption({ label: "Osprey deal team" });
    await formRow.getByRole("button", { name: "Move Osprey buyer intake into the chosen team" }).click();
    await expect(page.locator(".Toastify__toast").filter({ hasText: "The form is in the team's workspace now" })).toBeVisible();
    await expect(page.getByTestId("form-row").filter({ hasText: "Osprey buyer intake" })).toHaveCount(0);
  } finally {
    await theirs.close();
  }
});
