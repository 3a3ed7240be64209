import { newConsentedContext } from "./auth-helpers";
import { seriousViolations } from "./axe-helpers";
import { csrfToken, uploadViaTus } from "./files-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/** Comments, notifications and collaboration in a room (issue 20), in two browsers: a member mentions the owner, who is told and answers. */

test.describe("data room comments", () => {
  test("a member joins from the invitation on their dashboard and mentions the owner on a file; the owner is told in the room, opens it, replies and resolves, and the member's open page shows the reply at once", async ({ page, browser, baseURL }) => {
    test.setTimeout(90_000);
    await createMember(page.request, { tier: "pro", name: "Oona Owner" });
    await gotoHydrated(page, "/datarooms");
    const headers = { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" };
    const created = await page.request.post("/api/datarooms", { data: { name: "Project Osprey" }, headers });
    expect(created.status(), await created.text()).toBe(201);
    const roomId = ((await created.json()) as { dataroom: { id: string } }).dataroom.id;
    const { rootFolderId } = (await (await page.request.get(`/api/datarooms/${roomId}`)).json()) as { rootFolderId: string };
    const fileId = await uploadViaTus(page.request, { folderId: rootFolderId, name: "Osprey terms.txt", body: Buffer.from("Fee: 2%\n"), csrf: headers["X-CSRF-TOKEN"] });

    const theirs = await newConsentedContext(browser, baseURL!);
    try {
      const other = await theirs.newPage();
      const member = await createMember(other.request, { tier: "free", name: "Mina Reviewer" });
      const invited = await page.request.post(`/api/datarooms/${roomId}/invitations`, { data: { emails: [member.email], role: "member" }, headers });
      expect(invited.status(), await invited.text()).toBe(201);
      // They join from their dashboard's "Needs your attention" (the e-mail's link is the people journey's).
      await gotoHydrated(other, "/dashboard");
      await other.getByRole("link", { name: "Oona Owner invited you to the data room “Project Osprey”" }).click();
      await expect(other).toHaveTitle("Invitation - Strongroom");
      await expect(other.getByRole("heading", { level: 1 })).toHaveText("Invitation to “Project Osprey”");
      expect(await seriousViolations(other)).toEqual([]);
      await other.getByRole("button", { name: "Join data room" }).click();
      await other.waitForURL(new RegExp(`/dataroom/${roomId}$`));

      // The member comments on the file and mentions the owner, picked from the room's people.
      await gotoHydrated(other, `/files/${fileId}`);
      const comments = other.getByTestId("file-comments");
      await expect(comments).toContainText("No comments yet.");
      await comments.getByRole("textbox", { name: "Add a comment" }).fill("Is the fee final?");
      await comments.getByRole("combobox", { name: "Mention someone" }).selectOption({ label: "Oona Owner" });
      await expect(comments.getByRole("textbox", { name: "Add a comment" })).toHaveValue("Is the fee final? @Oona Owner ");
      await comments.getByRole("button", { name: "Comment", exact: true }).click();
      await expect(other.getByText("Comment added")).toBeVisible();
      const thread = comments.getByTestId("comment-thread");
      await expect(thread).toContainText("Is the fee final?");
      await expect(thread.locator("strong", { hasText: "@Oona Owner" })).toBeVisible();
      await expect(other.getByTestId("realtime-status")).toHaveAttribute("data-status", "connected");

      // The owner is told: the room's Activity tab counts it, the list has it, and an e-mail went out.
      await gotoHydrated(page, `/dataroom/${roomId}`);
      await page.getByRole("navigation", { name: "Data room sections" }).getByRole("link", { name: "Activity 1 unread" }).click();
      await page.getByRole("navigation", { name: "Activity pages" }).getByRole("link", { name: "Notifications (1)" }).click();
      await expect(page).toHaveTitle("Notifications of Project Osprey - Strongroom");
      const item = page.getByTestId("notification");
      await expect(item).toHaveAttribute("data-read", "false");
      await expect(item).toContainText("“Is the fee final? @Oona Owner”");
      expect(await seriousViolations(page)).toEqual([]);

      // They choose a daily digest for this room.
      await page.getByRole("radio", { name: /Daily digest/ }).click();
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("Notifications of this room: Daily digest.")).toBeVisible();

      // Opening it leads to the comment; they reply and resolve the thread.
      await page.getByRole("link", { name: "Mina Reviewer mentioned you on Osprey terms.txt" }).click();
      await page.waitForURL(new RegExp(`/files/${fileId}#comment-`));
      const ownerThread = page.getByTestId("file-comments").getByTestId("comment-thread");
      await ownerThread.getByRole("button", { name: "Reply" }).click();
      await ownerThread.getByRole("textbox", { name: "Reply to Mina Reviewer" }).fill("Yes, 2% is final.");
      await ownerThread.getByRole("button", { name: "Reply", exact: true }).last().click();
      await expect(ownerThread).toContainText("Yes, 2% is final.");
      await ownerThread.getByRole("button", { name: "Resolve" }).click();
      await expect(ownerThread.getByText("Resolved by Oona Owner")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      // The member's open page shows the reply and the resolution without a reload.
      await expect(thread).toContainText("Yes, 2% is final.");
      await expect(thread.getByText("Resolved by Oona Owner")).toBeVisible();

      // The comments page files it under resolved; opening the file read the owner's notification.
      await gotoHydrated(page, `/dataroom/${roomId}/comments`);
      await expect(page.getByText("No open threads.")).toBeVisible();
      await page.getByRole("link", { name: "Resolved" }).click();
      await expect(page.getByTestId("room-thread")).toContainText("Osprey terms.txt");
      const list = (await (await page.request.get(`/api/datarooms/${roomId}/notifications`)).json()) as { unread: number };
      expect(list.unread).toBe(0);
    } finally {
      await theirs.close();
    }
  });
});
