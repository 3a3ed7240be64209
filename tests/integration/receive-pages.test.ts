import { beforeAll, describe, expect, it } from "vitest";
import { addDataroomMember } from "~tests/factories/datarooms";
import { makeFolder, personalSpaceOf } from "~tests/factories/files";
import { countWhere, createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { createFieldSet, deleteFieldSet, listFieldSets, updateFieldSet } from "~/features/receive/field-sets.server";
import { receivePagesPersonalData } from "~/features/receive/personal-data.server";
import { createServiceContext } from "~/lib/service-context.server";
import { newAuthClient, testEnv } from "./helpers";

/**
 * Receive pages, the member's side (issue 24, step 1): create, list (and /api/user/receive-pages),
 * change, delete; the destination checked against the member's rights; the plan's limit; the
 * authorization matrix.
 */

type Page = { id: string; kind: string; path: string; status: string; hasPassword: boolean; destination: { folderId: string; isRoom: boolean; folderLabel: string | null }; fields: unknown[] };

describe("receive pages (managing)", () => {
  let owner: Person;
  let inbox: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Rene Receive" });
    inbox = (await personalSpaceOf(owner.id)).inboxId;
  });

  it("creates a simple and a form page into the member's folders, lists them (also as the user store's pages), and hides the token's hash", async () => {
    const simple = await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "Tax papers 2026", folderId: inbox });
    expect(simple.status, await simple.clone().text()).toBe(201);
    const { page } = await simple.json<{ page: Page }>();
    expect(page).toMatchObject({ kind: "simple", status: "open", hasPassword: false, destination: { folderId: inbox, isRoom: false, folderLabel: "Inbox" } });
    expect(page.path).toMatch(/^\/r\/[A-Za-z0-9_-]{43}$/);

    const form = await send(owner.client, "POST", "/api/receive-pages", {
      kind: "form",
      title: "Applications",
      message: "Send your CV and a cover letter.",
      folderId: inbox,
      slug: "jobs-2026",
      password: "letmein-2026",
      allowedTypes: [".PDF", "docx"],
      maxFileMb: 20,
      maxFilesPerUploader: 3,
      perUploaderFolders: true,
      requireName: true,
      requireEmail: true,
      fields: [
        { id: "role", type: "select", label: "Role", required: true, options: ["Engineer", "Designer"] },
        { id: "start", type: "date", label: "Earliest start", required: false },
      ],
      brandColor: "#1d4ed8",
    });
    expect(form.status, await form.clone().text()).toBe(201);
    const created = (await form.json<{ page: Page & { allowedTypes: string[] } }>()).page;
    expect(created).toMatchObject({ path: "/r/jobs-2026", hasPassword: true, allowedTypes: ["pdf", "docx"] });

    const listed = await (await get("/api/user/receive-pages", owner.client)).json<{ pages: Page[] }>();
    expect(listed.pages.map((item) => item.id)).toEqual([created.id, page.id]);
    expect(JSON.stringify(listed)).not.toContain("tokenHash");
    expect(JSON.stringify(listed)).not.toContain("letmein");
  });

  it("refuses what makes no sense with a message: fields on a simple page, per-person folders without a name or e-mail, a taken address", async () => {
    const fields = await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "x", folderId: inbox, fields: [{ id: "a", type: "text", label: "A" }] });
    expect(fields.status).toBe(400);
    expect((await fields.json<{ message: string }>()).message).toContain("A simple page has no fields");
    const perUploader = await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "x", folderId: inbox, perUploaderFolders: true });
    expect(perUploader.status).toBe(400);
    const taken = await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "x", folderId: inbox, slug: "jobs-2026" });
    expect(taken.status).toBe(409);
    const choice = await send(owner.client, "POST", "/api/receive-pages", { kind: "form", title: "x", folderId: inbox, fields: [{ id: "c", type: "select", label: "C", options: ["only"] }] });
    expect(choice.status).toBe(400);
  });

  it("lands only where the member may upload: a room folder as a guest is refused, as an outsider not found", async () => {
    const host = await signedIn({ tier: "business", name: "Hal Host" });
    const room = await createRoom(host.client, "Receiving room");
    const folder = await makeFolder(room.id, room.rootFolderId, "Incoming");
    const before = await countWhere("select count(*) as n from receive_pages where user_id = ?", owner.id);
    expect((await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "x", folderId: folder })).status).toBe(404);
    await addDataroomMember(room.id, owner.id, "guest");
    expect((await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "x", folderId: folder })).status).toBe(403);
    expect(await countWhere("select count(*) as n from receive_pages where user_id = ?", owner.id)).toBe(before);
    const mine = await send(host.client, "POST", "/api/receive-pages", { kind: "simple", title: "Data room intake", folderId: folder });
    expect((await mine.json<{ page: Page }>()).page.destination).toMatchObject({ isRoom: true, folderLabel: "Incoming" });
  });

  it("holds the plan's limit on the server, with the upgrade", async () => {
    const free = await signedIn({ name: "Flo Free" });
    const { inboxId } = await personalSpaceOf(free.id);
    expect((await send(free.client, "POST", "/api/receive-pages", { kind: "simple", title: "One", folderId: inboxId })).status).toBe(201);
    const second = await send(free.client, "POST", "/api/receive-pages", { kind: "simple", title: "Two", folderId: inboxId });
    expect(second.status).toBe(403);
    expect((await second.json<{ message: string }>()).message).toBe("Your Free plan allows 1 receive page. Delete one you no longer need, or upgrade your plan for more.");
  });

  it("changes and deletes for the owner only: anonymous 401, an outsider 404 with nothing changed", async () => {
    const { page } = await (await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "Change me", folderId: inbox })).json<{ page: Page }>();
    const outsider = await signedIn();
    expect((await get(`/api/receive-pages/${page.id}`)).status).toBe(401);
    expect((await send(await newAuthClient(), "DELETE", `/api/receive-pages/${page.id}`)).status).toBe(401);
    expect((await get(`/api/receive-pages/${page.id}`, outsider.client)).status).toBe(404);
    expect((await send(outsider.client, "PATCH", `/api/receive-pages/${page.id}`, { title: "Hijacked" })).status).toBe(404);
    expect((await send(outsider.client, "DELETE", `/api/receive-pages/${page.id}`)).status).toBe(404);
    expect(await countWhere("select count(*) as n from receive_pages where id = ? and title = 'Change me'", page.id)).toBe(1);

    const closed = await send(owner.client, "PATCH", `/api/receive-pages/${page.id}`, { isOpen: false, password: "secret-pass", deadlineAt: "2026-12-31T17:00:00.000Z" });
    expect(closed.status, await closed.clone().text()).toBe(200);
    expect((await closed.json<{ page: Page }>()).page).toMatchObject({ status: "closed", hasPassword: true });
    const unlocked = await (await send(owner.client, "PATCH", `/api/receive-pages/${page.id}`, { password: null, isOpen: true })).json<{ page: Page }>();
    expect(unlocked.page).toMatchObject({ status: "open", hasPassword: false });
    expect((await send(owner.client, "DELETE", `/api/receive-pages/${page.id}`)).status).toBe(204);
    expect(await countWhere("select count(*) as n from receive_pages where id = ?", page.id)).toBe(0);
  });

  it("lists a member's pages in their data export without token or password, and erases them", async () => {
    const member = await signedIn({ name: "Pam Pages" });
    const { inboxId } = await personalSpaceOf(member.id);
    await send(member.client, "POST", "/api/receive-pages", { kind: "simple", title: "Receipts", folderId: inboxId, password: "hunter2-2026" });
    const ctx = createServiceContext(testEnv, { requestId: "test" });
    await createFieldSet(ctx, member.id, { name: "Expenses", fields: [{ id: "project", type: "text", label: "Project", required: false }] });
    const [sets, record] = await receivePagesPersonalData.export(ctx, member.id);
    expect(sets).toMatchObject({ path: "receive-pages/field-sets.json", data: [{ name: "Expenses" }] });
    expect(record).toMatchObject({ path: "receive-pages/pages.json", data: [{ title: "Receipts", hasPassword: true, destination: { folder: "Inbox" } }] });
    expect(JSON.stringify(record)).not.toContain("hunter2");
    await receivePagesPersonalData.erase(ctx, member.id);
    expect(await countWhere("select count(*) as n from receive_pages where user_id = ?", member.id)).toBe(0);
    expect(await countWhere("select count(*) as n from receive_field_sets where user_id = ?", member.id)).toBe(0);
  });

  it("keeps sets of fields for reuse (Settings: receive page forms): the owner's only, validated, at most 50", async () => {
    const member = await signedIn({ name: "Sol Sets" });
    const ctx = createServiceContext(testEnv, { requestId: "test" });
    await createFieldSet(ctx, member.id, { name: "Tax client", fields: [{ id: "year", type: "select", label: "Tax year", required: true, options: ["2025", "2026"] }] });
    const [set] = await listFieldSets(ctx, member.id);
    expect(set).toMatchObject({ name: "Tax client", fields: [{ id: "year", label: "Tax year" }] });
    await expect(createFieldSet(ctx, member.id, { name: "Empty", fields: [] })).rejects.toMatchObject({ status: 400 });
    const outsider = await signedIn();
    await expect(updateFieldSet(ctx, outsider.id, set!.id, { name: "Mine now", fields: set!.fields })).rejects.toMatchObject({ status: 404 });
    await expect(deleteFieldSet(ctx, outsider.id, set!.id)).rejects.toMatchObject({ status: 404 });
    expect(await countWhere("select count(*) as n from receive_field_sets where id = ? and name = 'Tax client'", set!.id)).toBe(1);
    await updateFieldSet(ctx, member.id, set!.id, { name: "Tax clients", fields: set!.fields });
    await deleteFieldSet(ctx, member.id, set!.id);
    expect(await listFieldSets(ctx, member.id)).toEqual([]);
  });
});
