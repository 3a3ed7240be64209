import { beforeAll, describe, expect, it } from "vitest";
import { personalSpaceOf } from "~tests/factories/files";
import type { FormField } from "~/features/forms/form-definition";
import { abortExpiredUploads } from "~/features/files/uploads.server";
import { confirmFormEmailCode, formEmailCookieName, openPublicForm, requestFormEmailCode } from "~/features/forms/form-submissions.server";
import { openReceivePage } from "~/features/receive/receive-public.server";
import { createServiceContext } from "~/lib/service-context.server";
import { countWhere, createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { mailsTo, newAuthClient, testEnv, uniqueIp, type AuthClient } from "./helpers";
import { bytes, patch } from "./tus-helpers";

/**
 * Forms with file and signature questions (issue 37): the files a visitor chose are checked with
 * the answers and against the owner's folder and quota, whole; the submission and one upload per
 * file are written together; the bytes go through the tus path with the submission's grant into
 * the form's folder (a subfolder per submission when asked), checked by their content; the owner
 * hears once every file is in. Refusals leave nothing behind.
 */

type Upload = { id: string; fieldId: string; name: string; size: number; partSize: number };
type Started = { ok: true; submissionId: string; files?: { grant: string; uploads: Upload[] } };

const pdf = (length: number) => {
  const out = bytes(length, 7);
  out.set(new TextEncoder().encode("%PDF-1.4\n%âãÏÓ\n"), 0);
  return out;
};

const drawn = "svg:M10 20L30 40L50 45.5M60 70L80 90";

async function makeForm(owner: Person, fields: FormField[], settings: Record<string, unknown> = {}, rules: unknown[] = []): Promise<{ id: string; folderId: string }> {
  const created = await send(owner.client, "POST", "/api/forms", { title: "Documents" });
  expect(created.status, await created.clone().text()).toBe(201);
  const { form } = await created.json<{ form: { id: string; revision: number } }>();
  const saved = await send(owner.client, "PUT", `/api/forms/${form.id}/draft`, { revision: form.revision, title: "Documents", fields, rules });
  expect(saved.status, await saved.clone().text()).toBe(200);
  const folderId = (await personalSpaceOf(owner.id)).inboxId;
  const configured = await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { fileFolderId: folderId, ...settings });
  expect(configured.status, await configured.clone().text()).toBe(200);
  const published = await send(owner.client, "POST", `/api/forms/${form.id}/publish`);
  expect(published.status, await published.clone().text()).toBe(200);
  return { id: form.id, folderId };
}

function submit(visitor: AuthClient | null, formId: string, answers: unknown, query = "") {
  return send(visitor, "POST", `/api/forms/${formId}/submissions${query}`, { answers }, { "cf-connecting-ip": uniqueIp() });
}

async function submitOk(formId: string, answers: unknown): Promise<Started> {
  const response = await submit(await newAuthClient(), formId, answers);
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json<Started>();
}

async function sendBytes(grant: string, upload: Upload, content: Uint8Array<ArrayBuffer>): Promise<Response> {
  const visitor = await newAuthClient();
  let last: Response | null = null;
  for (let offset = 0; offset < content.byteLength; offset += upload.partSize) {
    last = await patch(visitor, `/api/uploads/${upload.id}`, offset, content.slice(offset, offset + upload.partSize), { "strongroom-upload-grant": grant });
    if (last.status !== 204) return last;
  }
  return last!;
}

const rowsOf = async (formId: string) => ({
  submissions: await countWhere("select count(*) as n from form_submissions where form_id = ?", formId),
  uploads: await countWhere("select count(*) as n from uploads where form_submission_id in (select id from form_submissions where form_id = ?)", formId),
});

const notices = (owner: Person, formId: string) => countWhere("select count(*) as n from notifications where user_id = ? and kind = 'form.submission' and link like ?", owner.id, `/forms/${formId}/%`);

const fileField = (extra: Partial<FormField> = {}): FormField => ({ id: "passport", type: "file", label: "Passport scan", required: true, max: 2, accept: ["pdf"], maxFileMb: 5, ...extra });

describe("forms: file and signature answers", () => {
  let owner: Person;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Fay Files" });
  });

  it("takes a visitor's file into a folder of its own named after them, and tells the owner once it has arrived", async () => {
    const form = await makeForm(owner, [{ id: "name", type: "short_text", label: "Your name", required: true }, { id: "email", type: "email", label: "E-mail", required: true }, fileField()], { filesPerSubmission: true });
    const content = pdf(300);
    const started = await submitOk(form.id, { name: "Ada Lovelace", email: "ada@example.com", passport: [{ name: "passport.pdf", size: content.byteLength }] });
    expect(started.files?.uploads).toEqual([expect.objectContaining({ fieldId: "passport", name: "passport.pdf", size: 300 })]);
    // The answers are in; the owner hears of them once the file is.
    expect(await notices(owner, form.id)).toBe(0);
    expect((await sendBytes(started.files!.grant, started.files!.uploads[0]!, content)).status).toBe(204);
    const file = await testEnv.DB.prepare("select f.id, f.name, d.label from files f join folders d on d.id = f.folder_id where f.id = (select file_id from uploads where id = ?)").bind(started.files!.uploads[0]!.id).first<{ id: string; name: string; label: string }>();
    expect(file).toMatchObject({ name: "passport.pdf", label: "Ada Lovelace (ada@example.com)" });
    expect(await notices(owner, form.id)).toBe(1);
    const notice = await testEnv.DB.prepare("select excerpt from notifications where user_id = ? and link = ?").bind(owner.id, `/forms/${form.id}/submissions/${started.submissionId}`).first<{ excerpt: string }>();
    expect(notice?.excerpt).toBe("3 answers, 1 file, version 1.");
    // The owner's submission page lists the file with the file it became.
    const shown = await (await send(owner.client, "GET", `/api/forms/${form.id}/submissions/${started.submissionId}`)).json<{ submission: { files: { fieldId: string; name: string; fileId: string | null }[] } }>();
    expect(shown.submission.files).toEqual([{ fieldId: "passport", name: "passport.pdf", size: 300, fileId: file!.id, arrived: true }]);
  });

  it("delivers into a data room's folder: each submission and each file is in the room's audit log", async () => {
    const room = await createRoom(owner.client, "Buyer intake room");
    const form = await makeForm(owner, [{ id: "company", type: "short_text", label: "Company", required: true }, fileField({ required: false })], { fileFolderId: room.rootFolderId });
    const content = pdf(200);
    const started = await submitOk(form.id, { company: "Acme", passport: [{ name: "accounts.pdf", size: content.byteLength }] });
    expect((await sendBytes(started.files!.grant, started.files!.uploads[0]!, content)).status).toBe(204);
    await submitOk(form.id, { company: "Globex" });
    const log = await (await get(`/api/datarooms/${room.id}/audit`, owner.client)).json<{ entries: { action: string; actorId: string | null; targetName: string | null; detail: string | null }[] }>();
    expect(log.entries.filter((entry) => entry.action === "form.submission")).toEqual([
      expect.objectContaining({ actorId: null, targetName: "Documents", detail: "1 answer, version 1" }),
      expect.objectContaining({ actorId: null, targetName: "Documents", detail: "2 answers, 1 file, version 1" }),
    ]);
    expect(log.entries.find((entry) => entry.action === "file.upload")).toMatchObject({ targetName: "accounts.pdf", detail: expect.stringContaining("received with a submission to the form “Documents”") });
  });

  it("refuses files the question does not take (type, size, count) or that need JavaScript, with a message at the question, writing nothing", async () => {
    const form = await makeForm(owner, [fileField()]);
    const before = await rowsOf(form.id);
    const cases: [unknown, string][] = [
      [[{ name: "photo.jpg", size: 10 }], "“photo.jpg” is not a type this question takes. It takes PDF files."],
      [[{ name: "big.pdf", size: 6 * 1024 * 1024 }], "“big.pdf” is larger than this question takes (5 MB a file)."],
      [[{ name: "a.pdf", size: 1 }, { name: "b.pdf", size: 1 }, { name: "c.pdf", size: 1 }], "Choose at most 2 files."],
      ["passport.pdf", "Sending files needs JavaScript: turn it on, reload the page and choose the file again."],
      [[{ name: "a.pdf" }], "Each file needs its name and its size in bytes."],
      [[], "Choose a file to send."],
    ];
    for (const [answer, message] of cases) {
      const response = await submit(await newAuthClient(), form.id, { passport: answer });
      expect(response.status, JSON.stringify(answer)).toBe(422);
      expect((await response.json<{ errors: Record<string, string> }>()).errors.passport).toBe(message);
    }
    expect(await rowsOf(form.id)).toEqual(before);
  });

  it("refuses files that do not fit the owner's storage, whole, leaving neither the submission nor an upload", async () => {
    const basic = await signedIn({ tier: "basic", name: "Bea Basic" });
    const form = await makeForm(basic, [fileField({ accept: [], maxFileMb: undefined, max: 3 })]);
    const before = await rowsOf(form.id);
    const gb = 1024 * 1024 * 1024;
    const response = await submit(await newAuthClient(), form.id, { passport: [{ name: "a.mov", size: 4 * gb }, { name: "b.mov", size: 4 * gb }, { name: "c.mov", size: 4 * gb }] });
    expect(response.status).toBe(413);
    expect((await response.json<{ message: string }>()).message).toBe("These files do not fit: the storage of the person you are sending them to is full. Nothing was sent; let them know.");
    expect(await rowsOf(form.id)).toEqual(before);
  });

  it("never takes the files of a question the logic hid, and takes none in test mode", async () => {
    const form = await makeForm(
      owner,
      [{ id: "has", type: "radio", label: "Do you have a passport?", required: true, options: ["Yes", "No"] }, fileField({ required: false })],
      {},
      [{ id: "r1", match: "all", conditions: [{ field: "has", operator: "equals", value: "Yes" }], action: "show", target: "passport" }],
    );
    const hidden = await submitOk(form.id, { has: "No", passport: [{ name: "passport.pdf", size: 10 }] });
    expect(hidden.files).toBeUndefined();
    expect(await countWhere("select count(*) as n from uploads where form_submission_id = ?", hidden.submissionId)).toBe(0);
    const stored = await testEnv.DB.prepare("select answers, files from form_submissions where id = ?").bind(hidden.submissionId).first<{ answers: string; files: string }>();
    expect(JSON.parse(stored!.answers)).toEqual({ has: "No" });
    // The preview checks the files like a visitor's and uploads none.
    const test = await send(owner.client, "POST", `/api/forms/${form.id}/submissions?test=1`, { answers: { has: "Yes", passport: [{ name: "draft.pdf", size: 10 }] } });
    expect(test.status, await test.clone().text()).toBe(201);
    const body = await test.json<Started>();
    expect(body.files).toBeUndefined();
    expect(await countWhere("select count(*) as n from uploads where form_submission_id = ?", body.submissionId)).toBe(0);
  });

  it("lets a grant reach only its own submission's uploads, and drops a file whose content is not its type, telling the owner it did not arrive", async () => {
    const form = await makeForm(owner, [fileField()]);
    const fake = new TextEncoder().encode("MZ this is a program, not a PDF") as Uint8Array<ArrayBuffer>;
    const first = await submitOk(form.id, { passport: [{ name: "scan.pdf", size: fake.byteLength }] });
    const second = await submitOk(form.id, { passport: [{ name: "real.pdf", size: 64 }] });
    expect((await sendBytes(first.files!.grant, second.files!.uploads[0]!, pdf(64))).status).toBe(404);
    expect((await sendBytes("not-a-grant", first.files!.uploads[0]!, fake)).status).toBe(404);
    const refused = await sendBytes(first.files!.grant, first.files!.uploads[0]!, fake);
    expect(refused.status).toBe(415);
    expect(await countWhere("select count(*) as n from uploads where id = ?", first.files!.uploads[0]!.id)).toBe(0);
    const notice = await testEnv.DB.prepare("select excerpt from notifications where link = ?").bind(`/forms/${form.id}/submissions/${first.submissionId}`).first<{ excerpt: string }>();
    expect(notice?.excerpt).toBe("1 answer, 0 files (1 did not arrive), version 1.");
  });

  it("tells the owner of a submission whose files were abandoned, once, when the uploads expire", async () => {
    const form = await makeForm(owner, [fileField()]);
    const started = await submitOk(form.id, { passport: [{ name: "never.pdf", size: 64 }] });
    expect(await countWhere("select count(*) as n from notifications where link = ?", `/forms/${form.id}/submissions/${started.submissionId}`)).toBe(0);
    const ctx = createServiceContext(testEnv, { requestId: "purge" });
    await abortExpiredUploads(ctx, new Date(Date.now() + 3 * 24 * 3600_000));
    await abortExpiredUploads(ctx, new Date(Date.now() + 3 * 24 * 3600_000));
    expect(await countWhere("select count(*) as n from notifications where link = ?", `/forms/${form.id}/submissions/${started.submissionId}`)).toBe(1);
  });

  it("keeps a drawn or typed signature and refuses one it cannot read", async () => {
    const form = await makeForm(owner, [{ id: "sign", type: "signature", label: "Sign", required: true }]);
    for (const value of [drawn, "typed:Ada Lovelace"]) {
      const started = await submitOk(form.id, { sign: value });
      const stored = await testEnv.DB.prepare("select answers from form_submissions where id = ?").bind(started.submissionId).first<{ answers: string }>();
      expect(JSON.parse(stored!.answers)).toEqual({ sign: value });
    }
    for (const [value, message] of [
      ["svg:<script>", "Draw your signature again: this drawing could not be read."],
      ["svg:M10 20", "Draw your signature again: this drawing could not be read."],
      [`svg:${"M1 1L2 2".repeat(6_000)}`, "Draw your signature again: this drawing is too detailed."],
      ["typed:A", "Type your full name to sign (2 to 100 characters)."],
      ["Ada", "Sign here: draw your signature or type your name."],
      ["", "Sign here: draw your signature or type your name."],
    ]) {
      const response = await submit(await newAuthClient(), form.id, { sign: value });
      expect(response.status).toBe(422);
      expect((await response.json<{ errors: Record<string, string> }>()).errors.sign).toBe(message);
    }
  });

  it("sends files to the member's Inbox unless they choose a folder they may upload into, and publishes a file question only with a folder", async () => {
    const stranger = await signedIn({ tier: "pro", name: "Sam Stranger" });
    const created = await (await send(owner.client, "POST", "/api/forms", { title: "Needs a folder" })).json<{ form: { id: string; revision: number; settings: { fileFolderId: string | null } } }>();
    expect(created.form.settings.fileFolderId).toBe((await personalSpaceOf(owner.id)).inboxId);
    await send(owner.client, "PUT", `/api/forms/${created.form.id}/draft`, { revision: created.form.revision, title: "Needs a folder", fields: [fileField()] });
    expect((await send(owner.client, "PATCH", `/api/forms/${created.form.id}/settings`, { fileFolderId: null })).status).toBe(200);
    const refused = await send(owner.client, "POST", `/api/forms/${created.form.id}/publish`);
    expect(refused.status).toBe(400);
    expect((await refused.json<{ message: string }>()).message).toContain("choose the folder its files go to");
    const strangersFolder = (await personalSpaceOf(stranger.id)).inboxId;
    const outsider = await send(owner.client, "PATCH", `/api/forms/${created.form.id}/settings`, { fileFolderId: strangersFolder });
    expect(outsider.status).toBe(404);
    expect(await countWhere("select count(*) as n from forms where id = ? and file_folder_id is null", created.form.id)).toBe(1);
    const mine = await send(owner.client, "PATCH", `/api/forms/${created.form.id}/settings`, { fileFolderId: (await personalSpaceOf(owner.id)).inboxId, filesPerSubmission: true });
    expect(mine.status).toBe(200);
    expect((await mine.json<{ form: { settings: { fileFolderId: string; filesPerSubmission: boolean } } }>()).form.settings).toMatchObject({ filesPerSubmission: true });
    expect((await send(owner.client, "POST", `/api/forms/${created.form.id}/publish`)).status).toBe(200);
  });
});

describe("forms: one submission per verified e-mail address", () => {
  let owner: Person;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Vic Verify" });
  });

  const ctx = () => createServiceContext(testEnv, { requestId: "form-email", client: { ip: uniqueIp(), userAgent: null } });
  const codeIn = async (address: string) => /\b(\d{6})\b/.exec((await mailsTo(address)).at(-1)!.textBody)![1]!;
  const submitAs = async (formId: string, proof: string | null, answers: unknown) => {
    const visitor = await newAuthClient();
    const cookie = [visitor.jar.header(), proof ? `${formEmailCookieName(formId)}=${proof}` : ""].filter(Boolean).join("; ");
    return send(visitor, "POST", `/api/forms/${formId}/submissions`, { answers }, { "cf-connecting-ip": uniqueIp(), cookie });
  };

  it("asks for the address first, mails a code, takes the right code only, then one submission from that address", async () => {
    const form = await makeForm(owner, [{ id: "opinion", type: "long_text", label: "Your opinion", required: true }], { verifyEmail: true });
    expect(await openPublicForm(ctx(), form.id)).toMatchObject({ state: "email", pendingEmail: null, answered: null });
    // Without a proof nothing is taken.
    const unproven = await submitAs(form.id, null, { opinion: "Hello" });
    expect(unproven.status).toBe(401);
    expect((await unproven.json<{ message: string }>()).message).toBe("Confirm your e-mail address with the code we send it first (reload the page).");

    const pending = await requestFormEmailCode(ctx(), form.id, { email: " Ada@Example.com " });
    const mail = (await mailsTo("ada@example.com")).at(-1)!;
    expect(mail.subject).toMatch(/^\d{6} is your code for the form "Documents"$/);
    expect(await openPublicForm(ctx(), form.id, { emailCookie: pending })).toMatchObject({ state: "email", pendingEmail: "ada@example.com" });
    await expect(confirmFormEmailCode(ctx(), form.id, { code: "000000" === (await codeIn("ada@example.com")) ? "111111" : "000000", emailCookie: pending })).rejects.toMatchObject({ status: 401 });
    await expect(confirmFormEmailCode(ctx(), form.id, { code: "12ab", emailCookie: pending })).rejects.toMatchObject({ status: 400 });
    const proof = await confirmFormEmailCode(ctx(), form.id, { code: await codeIn("ada@example.com"), emailCookie: pending });
    expect(await openPublicForm(ctx(), form.id, { emailCookie: proof })).toMatchObject({ state: "open", verifiedEmail: "ada@example.com" });
    // A pending code is no proof, and a proof for one form opens no other.
    expect((await submitAs(form.id, pending, { opinion: "Hello" })).status).toBe(401);
    const other = await makeForm(owner, [{ id: "opinion", type: "long_text", label: "Your opinion", required: true }], { verifyEmail: true });
    expect((await openPublicForm(ctx(), other.id, { emailCookie: proof })).state).toBe("email");

    const first = await submitAs(form.id, proof, { opinion: "Ship it." });
    expect(first.status, await first.clone().text()).toBe(201);
    const { submissionId } = await first.json<{ submissionId: string }>();
    expect(await countWhere("select count(*) as n from form_submissions where id = ? and verified_email = 'ada@example.com'", submissionId)).toBe(1);
    const again = await submitAs(form.id, proof, { opinion: "Ship it twice." });
    expect(again.status).toBe(409);
    expect((await again.json<{ message: string }>()).message).toBe("ada@example.com has already answered this form: it takes one answer per e-mail address.");
    expect(await countWhere("select count(*) as n from form_submissions where form_id = ?", form.id)).toBe(1);
    expect(await openPublicForm(ctx(), form.id, { emailCookie: proof })).toMatchObject({ state: "email", answered: "ada@example.com" });
    // The owner sends that answer to the trash: the address may answer again.
    expect((await send(owner.client, "DELETE", `/api/forms/${form.id}/submissions/${submissionId}`)).status).toBe(204);
    expect((await submitAs(form.id, proof, { opinion: "Second thoughts." })).status).toBe(201);
  });

  it("refuses a malformed address with a message at the field, and a code request for a form that does not ask for one", async () => {
    const form = await makeForm(owner, [{ id: "opinion", type: "short_text", label: "Opinion", required: false }], { verifyEmail: true });
    await expect(requestFormEmailCode(ctx(), form.id, { email: "not-an-address" })).rejects.toMatchObject({ status: 400, fieldErrors: { email: ["Enter a valid e-mail address, such as name@example.com."] } });
    const plain = await makeForm(owner, [{ id: "opinion", type: "short_text", label: "Opinion", required: false }]);
    await expect(requestFormEmailCode(ctx(), plain.id, { email: "ada@example.com" })).rejects.toMatchObject({ status: 409 });
    await expect(requestFormEmailCode(ctx(), crypto.randomUUID(), { email: "ada@example.com" })).rejects.toMatchObject({ status: 404 });
  });
});

describe("forms: filtering the submissions list", () => {
  it("narrows the list and its CSV by words in the answers, a period and a version, page by page, and refuses a malformed filter with a message", async () => {
    const owner = await signedIn({ tier: "pro", name: "Flo Filters" });
    const form = await makeForm(owner, [{ id: "company", type: "short_text", label: "Company", required: true }, { id: "size", type: "radio", label: "Size", required: true, options: ["Small", "Large"] }]);
    for (const [company, size] of [["Acme Corp", "Large"], ["Globex", "Small"], ["Acme Labs", "Small"], ["Initech", "Large"]]) await submitOk(form.id, { company, size });
    const list = async (query: string) => {
      const response = await get(`/api/forms/${form.id}/submissions?${query}`, owner.client);
      expect(response.status, await response.clone().text()).toBe(200);
      return (await response.json<{ submissions: { answers: { fieldId: string; value: string }[] }[] }>()).submissions.map((row) => row.answers.find((answer) => answer.fieldId === "company")?.value);
    };
    expect(await list("q=acme")).toEqual(["Acme Labs", "Acme Corp"]);
    expect(await list("q=acme%20small")).toEqual(["Acme Labs"]);
    // The questions' ids are not searched, only the answers.
    expect(await list("q=company")).toEqual([]);
    expect(await list("q=50%25")).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await list(`from=${today}&to=${today}`)).toHaveLength(4);
    expect(await list("to=2020-01-01")).toEqual([]);
    expect(await list("version=1")).toHaveLength(4);
    expect(await list("version=2")).toEqual([]);
    const csv = await (await get(`/api/forms/${form.id}/submissions.csv?q=large`, owner.client)).text();
    expect(csv.trim().split("\n")).toHaveLength(3);
    expect(csv).toContain("Initech");
    expect(csv).not.toContain("Globex");
    for (const [query, message] of [
      ["from=2026-13-01", "From is a date such as 2026-11-27."],
      ["to=yesterday", "To is a date such as 2026-11-27."],
      ["from=2026-02-01&to=2026-01-01", "“To” is before “From”: swap them."],
      ["version=two", "Version is a whole number, such as 2."],
      [`q=${"x".repeat(101)}`, "Search for at most 100 characters."],
    ]) {
      const response = await get(`/api/forms/${form.id}/submissions?${query}`, owner.client);
      expect(response.status, query).toBe(400);
      expect((await response.json<{ message: string }>()).message).toBe(message);
    }
  });
});

describe("forms: receive pages backed by a form", () => {
  it("asks a published form's questions with its logic, keeps the answers with the files, and takes only the member's own forms without file questions", async () => {
    const owner = await signedIn({ tier: "pro", name: "Rhea Receive" });
    const form = await makeForm(
      owner,
      [
        { id: "name", type: "short_text", label: "Full name", required: true },
        { id: "kind", type: "radio", label: "Kind of papers", required: true, options: ["Tax", "Other"] },
        { id: "other", type: "short_text", label: "Which papers?", required: false },
        { id: "sign", type: "signature", label: "Signature", required: true },
      ],
      {},
      [{ id: "r1", match: "all", conditions: [{ field: "kind", operator: "equals", value: "Other" }], action: "require", target: "other" }],
    );
    const inbox = (await personalSpaceOf(owner.id)).inboxId;
    const create = (body: Record<string, unknown>) => send(owner.client, "POST", "/api/receive-pages", { kind: "form", title: "Papers", folderId: inbox, ...body });
    // Refusals: a form with file questions, someone else's form, a simple page, the page's own fields as well.
    const withFiles = await makeForm(owner, [fileField()]);
    expect((await (await create({ formId: withFiles.id })).json<{ message: string }>()).message).toBe("This form asks for files itself: the receive page takes the files. Choose a form without file questions.");
    const stranger = await signedIn({ tier: "pro", name: "Stan Stranger" });
    const strangers = await makeForm(stranger, [{ id: "q", type: "short_text", label: "Q", required: false }]);
    expect((await create({ formId: strangers.id })).status).toBe(400);
    expect((await create({ kind: "simple", formId: form.id })).status).toBe(400);
    expect((await create({ formId: form.id, fields: [{ id: "ref", type: "text", label: "Reference", required: false }] })).status).toBe(400);

    const created = await create({ formId: form.id });
    expect(created.status, await created.clone().text()).toBe(201);
    const { page } = await created.json<{ page: { path: string; formId: string } }>();
    expect(page.formId).toBe(form.id);
    const address = page.path.slice("/r/".length);
    const opening = await openReceivePage(createServiceContext(testEnv, { requestId: "rp" }), address, null);
    expect(opening).toMatchObject({ state: "open", page: { fields: [], form: { title: "Documents" } } });

    const visitor = await newAuthClient();
    const submitPage = (answers: unknown) => send(visitor, "POST", "/api/receive-submissions", { address, answers, files: [{ name: "papers.txt", size: 6 }] }, { "cf-connecting-ip": uniqueIp() });
    const refused = await submitPage({ name: "Ada", kind: "Other", sign: "typed:Ada Lovelace" });
    expect(refused.status).toBe(400);
    expect((await refused.json<{ fieldErrors: Record<string, string[]> }>()).fieldErrors).toEqual({ other: ["This question needs an answer."] });
    const started = await submitPage({ name: "Ada", kind: "Tax", sign: "typed:Ada Lovelace" });
    expect(started.status, await started.clone().text()).toBe(201);
    const { submissionId, grant, uploads } = await started.json<{ submissionId: string; grant: string; uploads: Upload[] }>();
    const stored = await testEnv.DB.prepare("select answers from receive_submissions where id = ?").bind(submissionId).first<{ answers: string }>();
    expect(JSON.parse(stored!.answers)).toEqual([
      { label: "Full name", value: "Ada" },
      { label: "Kind of papers", value: "Tax" },
      { label: "Signature", value: "Signed (typed): Ada Lovelace" },
    ]);
    expect((await patch(visitor, `/api/uploads/${uploads[0]!.id}`, 0, new TextEncoder().encode("papers") as Uint8Array<ArrayBuffer>, { "strongroom-upload-grant": grant })).status).toBe(204);
    const metadata = await testEnv.DB.prepare("select key, value from file_metadata where file_id = (select file_id from uploads where id = ?) order by key").bind(uploads[0]!.id).all<{ key: string; value: string }>();
    expect(metadata.results).toEqual(expect.arrayContaining([{ key: "Kind of papers", value: "Tax" }, { key: "Received via", value: "Papers" }]));
  });
});
