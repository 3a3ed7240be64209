import type { Page } from "@playwright/test";
import { makePdf } from "../../scripts/bench/pdf-fixture.mjs";
import { newConsentedContext, readLatestMail } from "./auth-helpers";
import { seriousViolations } from "./axe-helpers";
import { csrfToken, uploadViaTus } from "./files-helpers";
import { createMember, expect, gotoHydrated, test, waitForHydration } from "./fixtures";

/**
 * Data rooms, people (issue 19) in two browsers: the owner invites by e-mail from the users
 * overview; the invitee opens the link from the mailbox, creates their account on the way, lands in
 * the room and opens its PDF; the owner sees them in the room, removes them, and their next visit
 * is refused. A member who already has an account joins with one click.
 */

async function createRoomWithPdf(page: Page, name: string): Promise<{ roomId: string; fileId: string }> {
  const headers = { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" };
  const created = await page.request.post("/api/datarooms", { data: { name }, headers });
  expect(created.status(), await created.text()).toBe(201);
  const roomId = ((await created.json()) as { dataroom: { id: string } }).dataroom.id;
  const { rootFolderId } = (await (await page.request.get(`/api/datarooms/${roomId}`)).json()) as { rootFolderId: string };
  const fileId = await uploadViaTus(page.request, { folderId: rootFolderId, name: "Teaser.pdf", body: makePdf({ pages: 2 }), csrf: headers["X-CSRF-TOKEN"] });
  return { roomId, fileId };
}

test.describe("data room people", () => {
  test("an owner invites a newcomer, who registers from the link and opens the PDF; revoking download and removing them show on their open page at once", async ({ page, browser, baseURL }) => {
    test.setTimeout(120_000);
    await createMember(page.request, { tier: "pro", name: "Olivia Owner" });
    await gotoHydrated(page, "/datarooms");
    const { roomId, fileId } = await createRoomWithPdf(page, "Project Osprey");

    // The users overview: the owner alone, then an invitation with a role and a message.
    await gotoHydrated(page, `/dataroom/${roomId}`);
    await page.getByRole("navigation", { name: "Data room sections" }).getByRole("link", { name: "People" }).click();
    await page.waitForURL(new RegExp(`/dataroom/${roomId}/users$`));
    await waitForHydration(page);
    await expect(page).toHaveTitle("People of Project Osprey - Strongroom");
    await expect(page.getByTestId("room-member")).toHaveCount(1);
    const newcomer = `newcomer-${crypto.randomUUID()}@example.com`;
    await page.getByRole("textbox", { name: "E-mail addresses" }).fill(newcomer);
    await page.getByRole("combobox", { name: "Role" }).selectOption("member");
    await page.getByRole("textbox", { name: "Message (optional)" }).fill("The teaser is in the room.");
    await page.getByRole("button", { name: "Send invitations" }).click();
    await expect(page.locator(".Toastify__toast").filter({ hasText: `Invitation sent to ${newcomer}.` })).toBeVisible();
    await expect(page.getByTestId("pending-invitation").filter({ hasText: newcomer })).toContainText("Member");

    // The newcomer, in a browser of their own, opens the link from the mailbox.
    const mail = await readLatestMail(page, newcomer, /invited you to the data room "Project Osprey"/);
    expect(mail.text).toContain('Their message: "The teaser is in the room."');
    expect(mail.link).toMatch(/^\/invite\/[A-Za-z0-9_-]{43}$/);
    const theirs = await newConsentedContext(browser, baseURL!);
    try {
      const guest = await theirs.newPage();
      await gotoHydrated(guest, mail.link!);
      await expect(guest).toHaveTitle("Invitation - Strongroom");
      await expect(guest.getByRole("heading", { name: 'Join "Project Osprey"' })).toBeVisible();
      await expect(guest.getByText("Olivia Owner invited")).toBeVisible();
      await expect(guest.getByRole("textbox", { name: "E-mail address" })).toHaveValue(newcomer);
      expect(await seriousViolations(guest)).toEqual([]);
      await guest.getByRole("textbox", { name: "Name" }).fill("Nils Newcomer");
      await guest.getByRole("textbox", { name: "Password" }).fill("harbour-violet-lantern-58");
      await guest.getByRole("button", { name: "Create account and join" }).click();
      await guest.waitForURL(new RegExp(`/dataroom/${roomId}$`));
      await waitForHydration(guest);
      await expect(guest.getByRole("heading", { level: 1, name: "Project Osprey" })).toBeVisible();
      await expect(guest.getByText("Member", { exact: true })).toBeVisible();
      await guest.getByRole("link", { name: "Teaser.pdf" }).click();
      await guest.waitForURL(new RegExp(`/files/${fileId}$`));
      await expect(guest.getByRole("img", { name: "Page 1 of Teaser.pdf" })).toBeVisible();

      // The link worked once.
      await gotoHydrated(guest, mail.link!);
      await guest.waitForURL(new RegExp(`/dataroom/${roomId}$`));

      // The newcomer has the PDF open, with its Download control, live-connected to the room.
      await gotoHydrated(guest, `/files/${fileId}`);
      await expect(guest.getByRole("link", { name: "Download" })).toBeVisible();
      await expect(guest.getByTestId("realtime-status")).toHaveAttribute("data-status", "connected");

      // The owner sees them in the room, no invitation pending, and takes Download away on the permissions page.
      await gotoHydrated(page, `/dataroom/${roomId}/users`);
      const row = page.getByTestId("room-member").filter({ hasText: "Nils Newcomer" });
      await expect(row).toContainText(newcomer);
      await expect(page.getByText("No invitations are waiting for an answer.")).toBeVisible();
      await page.getByRole("link", { name: "Permissions" }).click();
      await page.waitForURL(new RegExp(`/dataroom/${roomId}/permissions$`));
      await waitForHydration(page);
      await expect(page).toHaveTitle("Permissions of Project Osprey - Strongroom");
      const download = page.getByRole("switch", { name: "Download for Nils Newcomer" });
      await expect(download).toBeChecked();
      await expect(page.getByRole("switch", { name: "Download for Olivia Owner" })).toBeDisabled();
      await download.uncheck();
      await expect(page.getByTestId("permissions-pending")).toHaveText("All changes saved.");
      await expect(download).not.toBeChecked();

      // Without reloading, the newcomer's page drops its Download control; a direct download is refused.
      await expect(guest.getByRole("link", { name: "Download" })).toHaveCount(0);
      await expect(guest.getByRole("img", { name: "Page 1 of Teaser.pdf" })).toBeVisible();
      expect((await guest.request.get(`/api/files/${fileId}/download`)).status()).toBe(403);

      // The owner sees them on the sessions page, with the file open, and ends their access: their open page says so at once.
      await gotoHydrated(page, `/dataroom/${roomId}/users`);
      await page.getByRole("link", { name: "Sessions" }).click();
      await page.waitForURL(new RegExp(`/dataroom/${roomId}/sessions$`));
      await waitForHydration(page);
      await expect(page).toHaveTitle("Sessions of Project Osprey - Strongroom");
      const session = page.getByTestId("room-session").filter({ hasText: "Nils Newcomer" });
      await expect(session).toContainText("Member");
      await session.getByRole("button", { name: "End access of Nils Newcomer" }).click();
      await expect(page.locator(".Toastify__toast").filter({ hasText: "Nils Newcomer no longer has access. Their open pages were closed." })).toBeVisible();
      await expect(page.getByTestId("room-session").filter({ hasText: "Nils Newcomer" })).toHaveCount(0);
      const notice = guest.getByRole("dialog", { name: "You no longer have access" });
      await expect(notice).toBeVisible();
      await expect(notice).toContainText("You were removed from this data room.");

      // Their access ended: the room, the file and its download are refused.
      const roomPage = await guest.goto(`/dataroom/${roomId}`);
      expect(roomPage?.status()).toBe(404);
      expect((await guest.request.get(`/api/files/${fileId}/download`)).status()).toBe(404);
    } finally {
      await theirs.close();
    }
  });

  test("someone with an account joins with one click, sees files added live, and the permissions page holds a burst to 5 in 10 s; signed in as someone else one is offered to switch", async ({ page, browser, baseURL }) => {
    test.setTimeout(90_000);
    await createMember(page.request, { tier: "pro", name: "Oscar Owner" });
    await gotoHydrated(page, "/datarooms");
    const { roomId } = await createRoomWithPdf(page, "Project Heron");

    const theirs = await newConsentedContext(browser, baseURL!);
    try {
      const other = await theirs.newPage();
      const invitee = await createMember(other.request, { tier: "free", name: "Ines Invitee" });
      await gotoHydrated(page, `/dataroom/${roomId}/users`);
      await page.getByRole("textbox", { name: "E-mail addresses" }).fill(invitee.email);
      await page.getByRole("combobox", { name: "Role" }).selectOption("guest");
      await page.getByRole("button", { name: "Send invitations" }).click();
      await expect(page.getByTestId("pending-invitation").filter({ hasText: invitee.email })).toContainText("Guest");
      const mail = await readLatestMail(page, invitee.email, /Project Heron/);

      // The owner's own browser opens the link: it is for someone else.
      await gotoHydrated(page, mail.link!);
      await expect(page.getByText(`this invitation is for ${invitee.email}`)).toBeVisible();
      await expect(page.getByRole("button", { name: "Sign out and continue" })).toBeVisible();

      // The invitee, signed in, joins with one click and sees the room as a guest.
      await gotoHydrated(other, mail.link!);
      await other.getByRole("button", { name: "Join data room" }).click();
      await other.waitForURL(new RegExp(`/dataroom/${roomId}$`));
      await expect(other.getByText("Guest", { exact: true })).toBeVisible();
      await expect(other.getByRole("button", { name: "Upload files" })).toHaveCount(0);

      // A file the owner adds shows up on the guest's open room page without a reload.
      await expect(other.getByTestId("realtime-status")).toHaveAttribute("data-status", "connected");
      const { rootFolderId } = (await (await page.request.get(`/api/datarooms/${roomId}`)).json()) as { rootFolderId: string };
      await uploadViaTus(page.request, { folderId: rootFolderId, name: "Heron memo.txt", body: Buffer.from("Heron memo\n"), csrf: await csrfToken(page) });
      await expect(other.getByRole("link", { name: "Heron memo.txt" })).toBeVisible();

      // Both in the room: each page says who is there now.
      await gotoHydrated(page, `/dataroom/${roomId}`);
      await expect(page.getByTestId("room-presence")).toContainText("Ines Invitee");
      await expect(other.getByTestId("room-presence")).toContainText("Oscar Owner");

      // The permissions page sends a burst of toggles together, and refuses more than 5 in 10 s.
      await gotoHydrated(page, `/dataroom/${roomId}/permissions`);
      for (const permission of ["Download", "Upload", "Edit", "Share", "Invite", "Analytics"]) {
        await page.getByRole("switch", { name: `${permission} for Ines Invitee` }).click();
      }
      await expect(page.locator(".Toastify__toast").filter({ hasText: "Too many permission changes: at most 5 in 10 seconds." })).toBeVisible();
      await expect(page.getByTestId("permissions-pending")).toHaveText("All changes saved.");
      await expect(page.getByRole("switch", { name: "Analytics for Ines Invitee" })).not.toBeChecked();
      await expect(page.getByRole("switch", { name: "Invite for Ines Invitee" })).toBeChecked();
      const matrix = (await (await page.request.get(`/api/datarooms/${roomId}/permissions`)).json()) as { rows: { name: string; overridden: string[] }[] };
      expect(matrix.rows.find((row) => row.name === "Ines Invitee")!.overridden.sort()).toEqual(["download", "edit", "invite", "share", "upload"]);

      // A guest sees the owner and themselves in the users overview, and can leave.
      await gotoHydrated(other, `/dataroom/${roomId}/users`);
      await expect(other.getByTestId("room-member")).toHaveCount(2);
      await other.getByRole("button", { name: "Leave data room" }).click();
      await other.waitForURL(/\/datarooms$/);
      await expect(other.locator(".Toastify__toast").filter({ hasText: "You left the data room." })).toBeVisible();
      expect((await other.goto(`/dataroom/${roomId}`))?.status()).toBe(404);
    } finally {
      await theirs.close();
    }
  });
});
