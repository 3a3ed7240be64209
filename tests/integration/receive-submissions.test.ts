import { beforeAll, describe, expect, it } from "vitest";
import { personalSpaceOf } from "~tests/factories/files";
import { receivePagesPersonalData } from "~/features/receive/personal-data.server";
import { abortExpiredUploads } from "~/features/files/uploads.server";
import { replaceReceivePageLogo } from "~/features/receive/receive-logo.server";
import { openReceivePage, receivePageLogo, receiveUnlockCookie, unlockReceivePage } from "~/features/receive/receive-public.server";
import { createServiceContext } from "~/lib/service-context.server";
import { countWhere, createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv, type AuthClient } from "./helpers";
import { bytes, call, metadata, patch } from "./tus-helpers";

/**
 * Receive pages, the public side (issue 24): a visitor's submission is checked whole and turned
 * into uploads at once; the uploads go through the tus path with the submission's grant, land in
 * the page's folder (or the sender's own folder), carry the sender's details as metadata, and
 * the owner hears once. Refusals leave nothing behind.
 */

type Upload = { id: string; name: string; relativePath: string; size: number; partSize: number };
type Started = { submissionId: string; grant: string; folderLabel: string | null; uploads: Upload[] };

const ctx = () => createServiceContext(testEnv, { requestId: "receive-test", client: { ip: "198.51.100.7", userAgent: null } });
const pdf = (length: number) => {
  const out = bytes(length, 7);
  out.set(new TextEncoder().encode("%PDF-1.4\n%âãÏÓ\n"), 0);
  return out;
};
const text = (value: string) => new TextEncoder().encode(value) as Uint8Array<ArrayBuffer>;

async function makePage(owner: Person, options: Record<string, unknown>): Promise<{ id: string; address: string }> {
  const folderId = (await personalSpaceOf(owner.id)).inboxId;
  const response = await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "Documents please", folderId, ...options });
  expect(response.status, await response.clone().text()).toBe(201);
  const { page } = await response.json<{ page: { id: string; path: string } }>();
  return { id: page.id, address: page.path.slice("/r/".length) };
}

function submit(visitor: AuthClient, body: Record<string, unknown>, ip = visitor.ip) {
  return send(visitor, "POST", "/api/receive-submissions", body, { "cf-connecting-ip": ip });
}

async function submitOk(visitor: AuthClient, body: Record<string, unknown>): Promise<Started> {
  const response = await submit(visitor, body);
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json<Started>();
}

/** Sends one upload's bytes in its parts with the grant, as the page's tus client does. */
async function sendBytes(visitor: AuthClient, grant: string, upload: Upload, content: Uint8Array<ArrayBuffer>): Promise<Response> {
  let last: Response | null = null;
  for (let offset = 0; offset < content.byteLength; offset += upload.partSize) {
    last = await patch(visitor, `/api/uploads/${upload.id}`, offset, content.slice(offset, offset + upload.partSize), { "strongroom-upload-grant": grant });
    if (last.status !== 204) return last;
  }
  return last!;
}

const counts = async () => ({
  submissions: await countWhere("select count(*) as n from receive_submissions"),
  uploads: await countWhere("select count(*) as n from uploads where receive_submission_id is not null"),
});

describe("receive pages (visitors)", () => {
  let owner: Person;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Olga Owner" });
  });

  it("takes a visitor's answers, two files and a folder into their own folder, with their details as metadata, and tells the owner once", async () => {
    const page = await makePage(owner, {
      kind: "form",
      title: "Job applications",
      requireName: true,
      requireEmail: true,
      perUploaderFolders: true,
      fields: [
        { id: "role", type: "select", label: "Role", required: true, options: ["Engineer", "Designer"] },
        { id: "start", type: "date", label: "Earliest start", required: false },
        { id: "nda", type: "checkbox", label: "I accept the NDA", required: true },
      ],
    });
    const visitor = await newAuthClient();
    const cv = pdf(12 * 1024 * 1024 + 5); // more than one part: the multipart upload starts on the first PATCH
    const started = await submitOk(visitor, {
      address: page.address,
      name: "Ada Lovelace",
      email: "Ada@Example.com",
      answers: { role: "Engineer", start: "2027-01-04", nda: true },
      files: [
        { name: "cv.pdf", size: cv.byteLength },
        { name: "letter.txt", size: 11 },
        { name: "notes.md", size: 7, relativePath: "Portfolio/2026" },
      ],
    });
    expect(started.folderLabel).toBe("Ada Lovelace (ada@example.com)");
    expect(started.uploads.map((upload) => upload.relativePath)).toEqual(["Ada Lovelace (ada@example.com)", "Ada Lovelace (ada@example.com)", "Ada Lovelace (ada@example.com)/Portfolio/2026"]);
    expect(started.grant).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await countWhere("select count(*) as n from receive_submissions where grant_hash = ?", started.grant)).toBe(0);

    const contents = [cv, text("Dear hiring"), text("# Notes")];
    for (const [index, upload] of started.uploads.entries()) {
      const response = await sendBytes(visitor, started.grant, upload, contents[index]!);
      expect(response.status, await response.clone().text()).toBe(204);
      // Not told until the last one is in.
      expect(await countWhere("select count(*) as n from notifications where user_id = ? and kind = 'receive.files'", owner.id)).toBe(index === 2 ? 1 : 0);
    }

    const inbox = (await personalSpaceOf(owner.id)).inboxId;
    const folder = await testEnv.DB.prepare("select id from folders where parent_id = ? and label = ?").bind(inbox, "Ada Lovelace (ada@example.com)").first<{ id: string }>();
    expect(folder).not.toBeNull();
    const files = await testEnv.DB.prepare("select name, size, content_type, uploaded_by from files where folder_id = ? order by name").bind(folder!.id).all<{ name: string; size: number; content_type: string; uploaded_by: string }>();
    expect(files.results.map((file) => [file.name, file.content_type, file.uploaded_by])).toEqual([
      ["cv.pdf", "application/pdf", owner.id],
      ["letter.txt", "text/plain", owner.id],
    ]);
    expect(await countWhere("select count(*) as n from files f join folders p on p.id = f.folder_id join folders g on g.id = p.parent_id where f.name = 'notes.md' and p.label = '2026' and g.label = 'Portfolio' and g.parent_id = ?", folder!.id)).toBe(1);

    const cvId = (await testEnv.DB.prepare("select id from files where folder_id = ? and name = 'cv.pdf'").bind(folder!.id).first<{ id: string }>())!.id;
    const metadataRows = await testEnv.DB.prepare("select key, value from file_metadata where file_id = ? order by key").bind(cvId).all<{ key: string; value: string }>();
    expect(Object.fromEntries(metadataRows.results.map((row) => [row.key, row.value]))).toMatchObject({
      "Received via": "Job applications",
      "Sender name": "Ada Lovelace",
      "Sender e-mail": "ada@example.com",
      Role: "Engineer",
      "Earliest start": "2027-01-04",
      "I accept the NDA": "Yes",
    });
    const notice = await testEnv.DB.prepare("select title, excerpt, link from notifications where user_id = ? and kind = 'receive.files'").bind(owner.id).first<{ title: string; excerpt: string; link: string }>();
    expect(notice).toEqual({ title: "Ada Lovelace sent 3 files through “Job applications”", excerpt: "cv.pdf, letter.txt, notes.md", link: `/folders/${folder!.id}` });
    // The visitor sees nothing of the owner's files.
    expect((await send(visitor, "GET", `/api/folders/${inbox}`)).status).toBe(401);
  });

  it("refuses what the page does not take, whole, with a message, and writes nothing", async () => {
    const page = await makePage(owner, { kind: "form", allowedTypes: ["pdf"], maxFileMb: 1, maxFilesPerUploader: 2, requireEmail: true, fields: [{ id: "ref", type: "text", label: "Reference", required: true }] });
    const visitor = await newAuthClient();
    const before = await counts();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ email: "a@example.com", answers: { ref: "A1" }, files: [{ name: "ok.pdf", size: 10 }, { name: "run.exe", size: 10 }] }, 413, "“run.exe” is not a type this page takes. It takes PDF files."],
      [{ email: "a@example.com", answers: { ref: "A1" }, files: [{ name: "big.pdf", size: 2 * 1024 * 1024 }] }, 413, "“big.pdf” is larger than this page takes (1 MB a file)."],
      [{ email: "a@example.com", answers: { ref: "A1" }, files: [{ name: "a.pdf", size: 1 }, { name: "b.pdf", size: 1 }, { name: "c.pdf", size: 1 }] }, 400, "This page takes at most 2 files from each person. Remove 1."],
      [{ answers: { ref: "A1" }, files: [{ name: "a.pdf", size: 1 }] }, 400, "Enter your e-mail address."],
      [{ email: "a@example.com", answers: {}, files: [{ name: "a.pdf", size: 1 }] }, 400, "Fill in “Reference”."],
      [{ email: "a@example.com", answers: { ref: "A1" }, files: [] }, 400, "files: Add at least one file."],
      [{ email: "a@example.com", answers: { ref: "A1" }, files: [{ name: "a.pdf", size: 1 }], website: "http://spam.example" }, 400, "This submission could not be accepted."],
    ];
    for (const [body, status, message] of cases) {
      const response = await submit(visitor, { address: page.address, ...body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((await response.json<{ message: string }>()).message).toBe(message);
    }
    expect(await counts()).toEqual(before);

    // Closed, then past its deadline: a clear 410.
    await send(owner.client, "PATCH", `/api/receive-pages/${page.id}`, { isOpen: false });
    const closed = await submit(visitor, { address: page.address, email: "a@example.com", answers: { ref: "A1" }, files: [{ name: "a.pdf", size: 1 }] });
    expect(closed.status).toBe(410);
    expect((await closed.json<{ message: string }>()).message).toBe("This page is closed: it takes no more files. Ask the person who sent you the link.");
    await send(owner.client, "PATCH", `/api/receive-pages/${page.id}`, { isOpen: true, deadlineAt: "2026-01-01T09:30:00.000Z" });
    const late = await submit(visitor, { address: page.address, email: "a@example.com", answers: { ref: "A1" }, files: [{ name: "a.pdf", size: 1 }] });
    expect(late.status).toBe(410);
    expect((await late.json<{ message: string }>()).message).toBe("This page stopped taking files on 2026-01-01 09:30 UTC. Ask the person who sent you the link.");
    expect((await openReceivePage(ctx(), page.address, null)).state).toBe("past-deadline");
    expect((await submit(visitor, { address: "no-such-page", files: [{ name: "a.pdf", size: 1 }] })).status).toBe(404);
    expect(await counts()).toEqual(before);
  });

  it("counts a person's files by what they delivered: a withdrawn file does not use up their allowance", async () => {
    const page = await makePage(owner, { title: "One each", requireEmail: true, maxFilesPerUploader: 1 });
    const visitor = await newAuthClient();
    const first = await submitOk(visitor, { address: page.address, email: "bo@example.com", files: [{ name: "a.txt", size: 1 }] });
    // While it is on its way it counts; withdrawn, it does not.
    const meanwhile = await submit(visitor, { address: page.address, email: "bo@example.com", files: [{ name: "b.txt", size: 1 }] });
    expect((await meanwhile.json<{ message: string }>()).message).toBe("This page takes at most 1 file from each person; you have sent 1 already. Remove 1.");
    expect((await call({ method: "DELETE", path: `/api/uploads/${first.uploads[0]!.id}`, client: visitor, headers: { "strongroom-upload-grant": first.grant } })).status).toBe(204);
    const again = await submitOk(visitor, { address: page.address, email: "bo@example.com", files: [{ name: "b.txt", size: 1 }] });
    expect((await sendBytes(visitor, again.grant, again.uploads[0]!, text("b"))).status).toBe(204);
    const third = await submit(visitor, { address: page.address, email: "bo@example.com", files: [{ name: "c.txt", size: 1 }] });
    expect(third.status).toBe(400);
    expect((await third.json<{ message: string }>()).message).toBe("This page takes at most 1 file from each person; you have sent 1 already. Remove 1.");
  });

  it("refuses files that do not fit the owner's storage, whole, leaving nothing", async () => {
    const small = await signedIn({ tier: "free", name: "Fran Free" });
    const page = await makePage(small, {});
    const before = await counts();
    const response = await submit(await newAuthClient(), { address: page.address, files: [{ name: "a.mov", size: 600 * 1024 * 1024 }, { name: "b.mov", size: 600 * 1024 * 1024 }] });
    expect(response.status).toBe(413);
    expect((await response.json<{ message: string }>()).message).toBe("These files do not fit: the storage of the person you are sending to is full. Nothing was sent; let them know.");
    expect(await counts()).toEqual(before);
    // One of them fits.
    await submitOk(await newAuthClient(), { address: page.address, files: [{ name: "a.mov", size: 600 * 1024 * 1024 }] });
  });

  it("lets a grant reach only its own submission's uploads, and drops a file whose content is not its type", async () => {
    const page = await makePage(owner, { allowedTypes: ["pdf"] });
    const visitor = await newAuthClient();
    const first = await submitOk(visitor, { address: page.address, files: [{ name: "fake.pdf", size: 12 }] });
    const second = await submitOk(await newAuthClient(), { address: page.address, files: [{ name: "real.pdf", size: 64 }] });
    const other = second.uploads[0]!;
    const grant = { "strongroom-upload-grant": first.grant };
    // No session and no grant: 401. Another submission's upload, or a new one, with this grant: 404.
    expect((await call({ method: "HEAD", path: `/api/uploads/${other.id}`, tus: false })).status).toBe(401);
    expect((await call({ method: "HEAD", path: `/api/uploads/${other.id}`, headers: grant, tus: false })).status).toBe(404);
    expect((await patch(visitor, `/api/uploads/${other.id}`, 0, pdf(64), grant)).status).toBe(404);
    expect((await call({ method: "DELETE", path: `/api/uploads/${other.id}`, client: visitor, headers: grant })).status).toBe(404);
    const created = await call({ method: "POST", path: "/api/uploads", client: visitor, headers: { ...grant, "upload-length": "5", "upload-metadata": metadata({ filename: "x.pdf", folderId: (await personalSpaceOf(owner.id)).inboxId }) } });
    expect(created.status).toBe(404);
    expect((await call({ method: "HEAD", path: `/api/uploads/${first.uploads[0]!.id}`, headers: grant, tus: false })).status).toBe(200);

    // A text file named .pdf on a PDF-only page: refused on its last byte, nothing kept, nobody told.
    const key = (await testEnv.DB.prepare("select r2_key from uploads where id = ?").bind(first.uploads[0]!.id).first<{ r2_key: string }>())!.r2_key;
    const refused = await sendBytes(visitor, first.grant, first.uploads[0]!, text("hello, world"));
    expect(refused.status).toBe(415);
    expect((await refused.json<{ message: string }>()).message).toBe("“fake.pdf” does not look like what its name says (its content is text/plain), so it was not kept. Send the file itself.");
    expect(await countWhere("select count(*) as n from files where name = 'fake.pdf'")).toBe(0);
    expect(await countWhere("select count(*) as n from uploads where receive_submission_id = ?", first.submissionId)).toBe(0);
    expect(await countWhere("select count(*) as n from receive_submissions where id = ? and notified_at is null", first.submissionId)).toBe(1);
    expect(await testEnv.FILES.head(key)).toBeNull();

    // The other visitor withdraws their only file: nothing to tell.
    const withdrawn = await call({ method: "DELETE", path: `/api/uploads/${other.id}`, client: await newAuthClient(), headers: { "strongroom-upload-grant": second.grant } });
    expect(withdrawn.status).toBe(204);
    expect(await countWhere("select count(*) as n from uploads where id = ?", other.id)).toBe(0);
  });

  it("keeps a visitor's file beside an owner's file of the same name instead of replacing it", async () => {
    const page = await makePage(owner, { title: "Same names" });
    const inbox = (await personalSpaceOf(owner.id)).inboxId;
    for (const round of [1, 2]) {
      const visitor = await newAuthClient();
      const started = await submitOk(visitor, { address: page.address, files: [{ name: "report.txt", size: 6 }] });
      expect((await sendBytes(visitor, started.grant, started.uploads[0]!, text(`round${round}`))).status).toBe(204);
    }
    const names = await testEnv.DB.prepare("select name, version from files where folder_id = ? and name like 'report%' order by name").bind(inbox).all<{ name: string; version: number }>();
    expect(names.results).toEqual([
      { name: "report (2).txt", version: 1 },
      { name: "report.txt", version: 1 },
    ]);
  });

  it("delivers into a data room's folder and the room's audit log says the file came through the page and from whom", async () => {
    const room = await createRoom(owner.client, "Due diligence");
    const response = await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "Seller documents", folderId: room.rootFolderId, requireName: true });
    expect(response.status, await response.clone().text()).toBe(201);
    const address = (await response.json<{ page: { path: string } }>()).page.path.slice(3);
    const visitor = await newAuthClient();
    const started = await submitOk(visitor, { address, name: "Sam Seller", files: [{ name: "accounts.csv", size: 8 }] });
    expect((await sendBytes(visitor, started.grant, started.uploads[0]!, text("a,b\n1,2\n"))).status).toBe(204);
    const log = await (await get(`/api/datarooms/${room.id}/audit`, owner.client)).json<{ entries: { action: string; targetName: string | null; detail: string | null }[] }>();
    expect(log.entries.find((entry) => entry.action === "file.upload")).toMatchObject({ targetName: "accounts.csv", detail: expect.stringContaining("received via the receive page “Seller documents” from Sam Seller") });
  });

  it("shows the owner what came through a page (anonymous 401, outsider 404), and keeps it in their personal data", async () => {
    const member = await signedIn({ tier: "basic", name: "Pia Personal" });
    const page = await makePage(member, { title: "Receipts", requireEmail: true, kind: "form", fields: [{ id: "project", type: "text", label: "Project", required: false }] });
    const visitor = await newAuthClient();
    const started = await submitOk(visitor, { address: page.address, email: "sender@example.com", answers: { project: "Apollo" }, files: [{ name: "taxi.txt", size: 4 }] });
    expect((await sendBytes(visitor, started.grant, started.uploads[0]!, text("12.5"))).status).toBe(204);

    expect((await get(`/api/receive-pages/${page.id}/submissions`)).status).toBe(401);
    const outsider = await signedIn({ tier: "pro" });
    expect((await get(`/api/receive-pages/${page.id}/submissions`, outsider.client)).status).toBe(404);
    const listed = await get(`/api/receive-pages/${page.id}/submissions`, member.client);
    expect(listed.status).toBe(200);
    expect((await listed.json<{ submissions: unknown[] }>()).submissions).toEqual([
      expect.objectContaining({ email: "sender@example.com", answers: [{ label: "Project", value: "Apollo" }], fileCount: 1, bytes: 4, delivered: true }),
    ]);

    const ctx = createServiceContext(testEnv, { requestId: "test" });
    const records = await receivePagesPersonalData.export(ctx, member.id);
    const received = records.find((record) => record.path === "receive-pages/received.json");
    expect(received).toMatchObject({ data: [{ page: "Receipts", email: "sender@example.com", answers: [{ label: "Project", value: "Apollo" }], files: 1 }] });
    expect(JSON.stringify(records)).not.toContain(started.grant);
    await receivePagesPersonalData.erase(ctx, member.id);
    expect(await countWhere("select count(*) as n from receive_submissions where user_id = ?", member.id)).toBe(0);
  });

  it("tells the owner about the files that arrived when a visitor abandons the rest (the nightly purge aborts them)", async () => {
    const member = await signedIn({ tier: "pro", name: "Abe Abandoned" });
    const page = await makePage(member, { title: "Half sent" });
    const visitor = await newAuthClient();
    const started = await submitOk(visitor, { address: page.address, files: [{ name: "one.txt", size: 3 }, { name: "two.txt", size: 3 }] });
    expect((await sendBytes(visitor, started.grant, started.uploads[0]!, text("one"))).status).toBe(204);
    const notices = () => countWhere("select count(*) as n from notifications where user_id = ? and kind = 'receive.files'", member.id);
    expect(await notices()).toBe(0);
    const ctx = createServiceContext(testEnv, { requestId: "purge" });
    await abortExpiredUploads(ctx, new Date(Date.now() + 3 * 24 * 3600_000));
    expect(await countWhere("select count(*) as n from uploads where receive_submission_id = ?", started.submissionId)).toBe(0);
    const notice = await testEnv.DB.prepare("select title, excerpt from notifications where user_id = ? and kind = 'receive.files'").bind(member.id).first<{ title: string; excerpt: string }>();
    expect(notice).toEqual({ title: "Someone sent 1 file through “Half sent”", excerpt: "one.txt" });
    // A second purge tells nobody twice.
    await abortExpiredUploads(ctx, new Date(Date.now() + 3 * 24 * 3600_000));
    expect(await notices()).toBe(1);
  });

  it("keeps a page's logo when it is a real PNG, JPEG, WebP or GIF (never SVG), shows it to visitors, and deletes it with the page", async () => {
    const page = await makePage(owner, { title: "Branded" });
    const ctx = createServiceContext(testEnv, { requestId: "logo" });
    const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="), (char) => char.charCodeAt(0));
    const outsider = await signedIn({ tier: "pro" });
    await expect(replaceReceivePageLogo(ctx, outsider.id, page.id, new File([png], "logo.png"))).rejects.toThrow("This receive page does not exist or you don't have access to it.");
    await expect(replaceReceivePageLogo(ctx, owner.id, page.id, new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], "logo.png"))).rejects.toThrow("A logo is a PNG, JPEG, WebP or GIF image.");
    await expect(replaceReceivePageLogo(ctx, owner.id, page.id, new File([new Uint8Array(600 * 1024)], "big.png"))).rejects.toThrow("A logo is at most 512 KB.");
    expect(await receivePageLogo(ctx, page.address)).toBeNull();

    await replaceReceivePageLogo(ctx, owner.id, page.id, new File([png], "logo.png"));
    const logo = await receivePageLogo(ctx, page.address);
    expect(logo).toMatchObject({ type: "image/png", size: png.byteLength });
    expect(new Uint8Array(await new Response(logo!.body).arrayBuffer())).toEqual(png);
    const opened = await openReceivePage(ctx, page.address, null);
    expect(opened.state === "open" && opened.page.logoPath).toMatch(new RegExp(`^/r/${page.address}/logo\\?v=`));

    const key = (await testEnv.DB.prepare("select logo_key from receive_pages where id = ?").bind(page.id).first<{ logo_key: string }>())!.logo_key;
    expect(await testEnv.FILES.head(key)).not.toBeNull();
    expect((await send(owner.client, "DELETE", `/api/receive-pages/${page.id}`)).status).toBe(204);
    expect(await testEnv.FILES.head(key)).toBeNull();
  });

  it("asks for the password first, counts wrong ones, and limits submissions per network address", async () => {
    const page = await makePage(owner, { password: "open-sesame" });
    const visitor = await newAuthClient();
    expect((await openReceivePage(ctx(), page.address, null)).state).toBe("password");
    const locked = await submit(visitor, { address: page.address, files: [{ name: "a.txt", size: 1 }] });
    expect(locked.status).toBe(401);
    await expect(unlockReceivePage(ctx(), page.address, { password: "wrong" })).rejects.toThrow("That password is not right.");
    const cookie = await unlockReceivePage(ctx(), page.address, { password: "open-sesame" });
    expect((await openReceivePage(ctx(), page.address, cookie)).state).toBe("open");
    visitor.jar.store(new Response(null, { headers: { "set-cookie": receiveUnlockCookie(cookie, false) } }));
    for (let index = 0; index < 20; index++) expect((await submit(visitor, { address: page.address, files: [{ name: `a${index}.txt`, size: 1 }] }, "203.0.113.99")).status).toBe(201);
    const limited = await submit(visitor, { address: page.address, files: [{ name: "b.txt", size: 1 }] }, "203.0.113.99");
    expect(limited.status).toBe(429);
    expect((await limited.json<{ message: string }>()).message).toMatch(/^Too many submissions from your network\. Please wait \d+ minutes? and try again\.$/);
    // Another address is not held back.
    expect((await submit(visitor, { address: page.address, files: [{ name: "c.txt", size: 1 }] }, "203.0.113.100")).status).toBe(201);
    // A changed password locks the page again.
    await send(owner.client, "PATCH", `/api/receive-pages/${page.id}`, { password: "new-secret" });
    expect((await openReceivePage(ctx(), page.address, cookie)).state).toBe("password");
  });
});
