import { describe, expect, it } from "vitest";
import { openCaseFromFormJob, openCaseFromReceiveJob } from "~/features/cases/cases.jobs";
import { createCaseType, getCase, openCase, setCaseStatus } from "~/features/cases/cases.server";
import type { FormField } from "~/features/forms/form-definition";
import { personalSpaceOf, testContext } from "~tests/factories/files";
import { countWhere, send, signedIn, type Person } from "./dataroom-helpers";
import { mailsTo, newAuthClient, uniqueIp } from "./helpers";
import { sendThroughPage } from "./receive-helpers";
import { bytes, patch } from "./tus-helpers";

/**
 * Outsiders acting on an open case (issue 41): the case's owner sends one of their forms or receive
 * pages to someone for the case; the link's ticket binds the first submission of that form or page
 * to the case, whose files then go into the case file and whose answer joins the timeline, once.
 * Everything else changes nothing.
 */

const ctx = () => testContext();
type Upload = { id: string; partSize: number };

async function publishedForm(owner: Person): Promise<string> {
  const created = await send(owner.client, "POST", "/api/forms", { title: "Damage report" });
  const { form } = await created.json<{ form: { id: string; revision: number } }>();
  const fields: FormField[] = [
    { id: "name", type: "short_text", label: "Your name", required: true },
    { id: "photos", type: "file", label: "Photos", required: false, max: 2, accept: ["pdf"], maxFileMb: 5 },
  ];
  expect((await send(owner.client, "PUT", `/api/forms/${form.id}/draft`, { revision: form.revision, title: "Damage report", fields, rules: [] })).status).toBe(200);
  expect((await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { fileFolderId: (await personalSpaceOf(owner.id)).inboxId })).status).toBe(200);
  expect((await send(owner.client, "POST", `/api/forms/${form.id}/publish`)).status).toBe(200);
  return form.id;
}

/** The ticket in the newest case-request e-mail to the address. */
async function ticketFor(email: string): Promise<{ formId: string; ticket: string }> {
  const mail = (await mailsTo(email)).filter((item) => item.template === "case-request").at(-1)!;
  const match = mail.textBody.match(/\/forms\/([0-9a-f-]{36})\/view\?task=([A-Za-z0-9_-]{43})/)!;
  return { formId: match[1]!, ticket: match[2]! };
}

async function answer(formId: string, answers: Record<string, unknown>, file?: Uint8Array<ArrayBuffer>): Promise<string> {
  const visitor = await newAuthClient();
  const response = await send(visitor, "POST", `/api/forms/${formId}/submissions`, { answers: { ...answers, ...(file ? { photos: [{ name: "pier.pdf", size: file.byteLength }] } : {}) } }, { "cf-connecting-ip": uniqueIp() });
  expect(response.status, await response.clone().text()).toBe(201);
  const started = await response.json<{ submissionId: string; files?: { grant: string; uploads: Upload[] } }>();
  if (file) {
    const upload = started.files!.uploads[0]!;
    expect((await patch(visitor, `/api/uploads/${upload.id}`, 0, file, { "strongroom-upload-grant": started.files!.grant })).status).toBe(204);
  }
  return started.submissionId;
}

describe("a form sent for a case", () => {
  it("e-mails the person a link whose answer, files included, is filed into the open case once; the person takes part and the timeline says what came", async () => {
    const owner = await signedIn({ tier: "business", name: "Olga Owner" });
    const type = await createCaseType(ctx(), owner.id, { name: "Claim", fields: [], folders: [] });
    const opened = await openCase(ctx(), owner.id, { typeId: type.id, title: "Pier collapse" });
    const formId = await publishedForm(owner);
    const sent = await send(owner.client, "POST", `/api/cases/${opened.id}/requests`, { formId, email: "Sue@Example.com", name: "Sue Surveyor", message: "Photos of the pier, please." });
    expect(sent.status, await sent.clone().text()).toBe(201);
    const mail = (await mailsTo("sue@example.com")).find((item) => item.template === "case-request")!;
    expect(mail.subject).toBe('Olga Owner asks you to fill in "Damage report"');
    expect(mail.textBody).toContain('for "CASE-0001 Pier collapse"');
    expect(mail.textBody).toContain("Photos of the pier, please.");
    const { ticket } = await ticketFor("sue@example.com");
    // Only the ticket's hash is kept.
    expect(await countWhere("select count(*) as n from case_requests where token_hash = ?", ticket)).toBe(0);

    const content = bytes(400, 3);
    content.set(new TextEncoder().encode("%PDF-1.4\n"), 0);
    const submissionId = await answer(formId, { name: "Sue Surveyor", _task: ticket }, content);
    // The files are in: the case job was queued; delivered twice, it files once.
    expect(await countWhere("select count(*) as n from jobs where id = ?", `${openCaseFromFormJob.type}:${submissionId}`)).toBe(1);
    await openCaseFromFormJob.run({ ...testContext(), jobId: "again" }, { submissionId });
    await openCaseFromFormJob.run({ ...testContext(), jobId: "again" }, { submissionId });
    const view = await getCase(ctx(), owner.id, opened.id);
    expect(view.files.map((file) => file.name)).toEqual(["pier.pdf"]);
    expect(view.participants).toEqual([{ email: "sue@example.com", name: "Sue Surveyor", isMember: false }]);
    expect(view.requests).toEqual([expect.objectContaining({ kind: "form", title: "Damage report", email: "sue@example.com", answeredAt: expect.any(String) })]);
    expect(view.timeline.filter((event) => event.kind === "case.answered").map((event) => event.detail)).toEqual(["Sue Surveyor <sue@example.com> answered “Damage report” with 1 file: pier.pdf"]);
    expect(view.timeline.filter((event) => event.kind === "case.requested").map((event) => event.detail)).toEqual(["Asked Sue Surveyor <sue@example.com> to fill in “Damage report”"]);
    // No second case was opened for it.
    expect(await countWhere("select count(*) as n from cases where owner_id = ?", owner.id)).toBe(1);

    // The same ticket again, no ticket, or a made-up one: ordinary submissions, nothing more in the case.
    const again = await answer(formId, { name: "Sue again", _task: ticket });
    await answer(formId, { name: "Someone" });
    await answer(formId, { name: "Guesser", _task: "x".repeat(43) });
    await openCaseFromFormJob.run({ ...testContext(), jobId: "third" }, { submissionId: again });
    expect((await getCase(ctx(), owner.id, opened.id)).timeline.filter((event) => event.kind === "case.answered")).toHaveLength(1);
  });

  it("refuses another member's form, a closed case, a participant sending and an outsider, with nothing sent or written; a closed case files nothing", async () => {
    const owner = await signedIn({ tier: "business", name: "Olga Owner" });
    const type = await createCaseType(ctx(), owner.id, { name: "Claim", fields: [], folders: [] });
    const opened = await openCase(ctx(), owner.id, { typeId: type.id, title: "Storm" });
    const formId = await publishedForm(owner);
    const other = await signedIn({ tier: "business" });
    const othersForm = await publishedForm(other);
    const participant = await signedIn({ tier: "business" });
    await send(owner.client, "POST", `/api/cases/${opened.id}/participants`, { email: participant.email });
    const before = await countWhere("select count(*) as n from case_requests");

    expect((await send(owner.client, "POST", `/api/cases/${opened.id}/requests`, { formId: othersForm, email: "a@example.com" })).status).toBe(400);
    expect((await send(owner.client, "POST", `/api/cases/${opened.id}/requests`, { formId, email: "not an address" })).status).toBe(400);
    expect((await send(participant.client, "POST", `/api/cases/${opened.id}/requests`, { formId, email: "a@example.com" })).status).toBe(403);
    expect((await send(other.client, "POST", `/api/cases/${opened.id}/requests`, { formId: othersForm, email: "a@example.com" })).status).toBe(404);
    expect((await send(await newAuthClient(), "POST", `/api/cases/${opened.id}/requests`, { formId, email: "a@example.com" })).status).toBe(401);
    expect(await countWhere("select count(*) as n from case_requests")).toBe(before);
    expect((await mailsTo("a@example.com")).filter((item) => item.template === "case-request")).toEqual([]);

    // Sent, then the case is closed before the answer: the answer is an ordinary submission.
    expect((await send(owner.client, "POST", `/api/cases/${opened.id}/requests`, { formId, email: "late@example.com" })).status).toBe(201);
    const { ticket } = await ticketFor("late@example.com");
    await setCaseStatus(ctx(), owner.id, opened.id, { status: "closed" });
    expect((await send(owner.client, "POST", `/api/cases/${opened.id}/requests`, { formId, email: "b@example.com" })).status).toBe(409);
    const submissionId = await answer(formId, { name: "Late", _task: ticket });
    expect(await countWhere("select count(*) as n from jobs where id = ?", `${openCaseFromFormJob.type}:${submissionId}`)).toBe(0);
    expect((await getCase(ctx(), owner.id, opened.id)).timeline.some((event) => event.kind === "case.answered")).toBe(false);
  });
});

/** A receive page of the owner's, delivering into their inbox (or a folder given); its id and public address. */
async function receivePage(owner: Person, options: Record<string, unknown> = {}): Promise<{ id: string; address: string }> {
  const folderId = (await personalSpaceOf(owner.id)).inboxId;
  const made = await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "Claim documents", folderId, ...options });
  expect(made.status, await made.clone().text()).toBe(201);
  const { page } = await made.json<{ page: { id: string; path: string } }>();
  return { id: page.id, address: page.path.slice("/r/".length) };
}

/** A visitor sends one file through the page (with the ticket when given); the submission's id once its bytes are in. */
const sendThrough = (address: string, task: string | undefined, name: string) => sendThroughPage(address, { name: "Sue Surveyor", email: "sue@example.com", ...(task ? { task } : {}) }, [{ name, content: "proof" }]);

describe("a receive page sent for a case", () => {
  it("e-mails the person the page's address with a ticket; the files they send go into the case file once, and a second use of the ticket or another page's address files nothing", async () => {
    const owner = await signedIn({ tier: "business", name: "Olga Owner" });
    const type = await createCaseType(ctx(), owner.id, { name: "Claim", fields: [], folders: [] });
    const opened = await openCase(ctx(), owner.id, { typeId: type.id, title: "Flooded cellar" });
    const page = await receivePage(owner);
    // She takes part already: asked without a name, she is asked under the one she has.
    expect((await send(owner.client, "POST", `/api/cases/${opened.id}/participants`, { email: "sue@example.com", name: "Sue Surveyor" })).status).toBe(201);
    const sent = await send(owner.client, "POST", `/api/cases/${opened.id}/requests`, { receivePageId: page.id, email: "sue@example.com", message: "The cellar photos, please." });
    expect(sent.status, await sent.clone().text()).toBe(201);
    const mail = (await mailsTo("sue@example.com")).filter((item) => item.template === "case-request").at(-1)!;
    expect(mail.subject).toBe('Olga Owner asks you to send files through "Claim documents"');
    expect(mail.textBody).toContain('for "CASE-0001 Flooded cellar"');
    const ticket = mail.textBody.match(new RegExp(`/r/${page.address}\\?task=([A-Za-z0-9_-]{43})`))![1]!;

    const submissionId = await sendThrough(page.address, ticket, "cellar.jpg");
    // The files are in: the case job was queued; delivered twice, it files once.
    expect(await countWhere("select count(*) as n from jobs where id = ?", `${openCaseFromReceiveJob.type}:${submissionId}`)).toBe(1);
    await openCaseFromReceiveJob.run({ ...testContext(), jobId: "again" }, { submissionId });
    await openCaseFromReceiveJob.run({ ...testContext(), jobId: "again" }, { submissionId });
    const view = await getCase(ctx(), owner.id, opened.id);
    expect(view.files.map((file) => file.name)).toEqual(["cellar.jpg"]);
    expect(view.requests).toEqual([expect.objectContaining({ kind: "receive", title: "Claim documents", email: "sue@example.com", answeredAt: expect.any(String) })]);
    expect(view.timeline.filter((event) => event.kind === "case.received").map((event) => event.detail)).toEqual(["Sue Surveyor <sue@example.com> sent 1 file: cellar.jpg through “Claim documents”"]);
    expect(view.timeline.filter((event) => event.kind === "case.requested").map((event) => event.detail)).toEqual(["Asked Sue Surveyor <sue@example.com> to send files through “Claim documents”"]);
    expect(view.participants).toEqual([{ email: "sue@example.com", name: "Sue Surveyor", isMember: false }]);

    // The ticket again, no ticket, or the ticket on another of the owner's pages: ordinary submissions that stay in the inbox.
    const other = await receivePage(owner, { title: "Other page" });
    const again = await sendThrough(page.address, ticket, "again.jpg");
    await sendThrough(page.address, undefined, "plain.jpg");
    const elsewhere = await sendThrough(other.address, ticket, "elsewhere.jpg");
    expect(await countWhere("select count(*) as n from jobs where id in (?, ?)", `${openCaseFromReceiveJob.type}:${again}`, `${openCaseFromReceiveJob.type}:${elsewhere}`)).toBe(0);
    const after = await getCase(ctx(), owner.id, opened.id);
    expect(after.files.map((file) => file.name)).toEqual(["cellar.jpg"]);
    expect(after.timeline.filter((event) => event.kind === "case.received")).toHaveLength(1);
  });

  it("refuses another member's page, a closed page and a choice of both or neither, with nothing sent or written", async () => {
    const owner = await signedIn({ tier: "business", name: "Olga Owner" });
    const type = await createCaseType(ctx(), owner.id, { name: "Claim", fields: [], folders: [] });
    const opened = await openCase(ctx(), owner.id, { typeId: type.id, title: "Hail" });
    const page = await receivePage(owner);
    const other = await signedIn({ tier: "business" });
    const othersPage = await receivePage(other);
    const closed = await receivePage(owner, { title: "Closed page" });
    expect((await send(owner.client, "PATCH", `/api/receive-pages/${closed.id}`, { isOpen: false })).status).toBe(200);
    const formId = await publishedForm(owner);
    const before = await countWhere("select count(*) as n from case_requests");

    const refusals = [
      [{ receivePageId: othersPage.id }, "receivePageId: Choose one of your receive pages."],
      [{ receivePageId: "not-a-page" }, "receivePageId: Choose one of your receive pages."],
      [{ receivePageId: closed.id }, "receivePageId: “Closed page” takes no files now (closed): open it again, or choose another page."],
      [{ receivePageId: page.id, formId }, "formId: Choose one form or one receive page to send."],
      [{}, "formId: Choose one form or one receive page to send."],
    ] as const;
    for (const [choice, message] of refusals) {
      const response = await send(owner.client, "POST", `/api/cases/${opened.id}/requests`, { ...choice, email: "a@example.com" });
      expect(response.status).toBe(400);
      expect((await response.json<{ message: string }>()).message).toBe(message);
    }
    expect(await countWhere("select count(*) as n from case_requests")).toBe(before);
    expect((await mailsTo("a@example.com")).filter((item) => item.template === "case-request")).toEqual([]);
  });
});
