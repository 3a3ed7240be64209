import { beforeAll, describe, expect, it } from "vitest";
import type { FormDefinition } from "~/features/forms/form-definition";
import { openSharedSubmission } from "~/features/forms/form-shares.server";
import { listTrashedFormSubmissions, listTrashedForms, purgeFormsTrashJob } from "~/features/forms/forms-trash.server";
import { openPublicForm, unlockForm } from "~/features/forms/form-submissions.server";
import { getDashboard } from "~/features/workspace/dashboard.server";
import { createServiceContext } from "~/lib/service-context.server";
import { countWhere, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv, uniqueIp, type AuthClient } from "./helpers";

/**
 * Forms (issue 37, step 1): the member's side (create from nothing or a template, the draft's
 * saves, publishing versions, settings, the trash), the public submission checked by the shared
 * evaluator, test submissions kept apart, and the authorization matrix of every member route.
 */

type Detail = { id: string; title: string; status: string; revision: number; publishedVersion: number | null; hasUnpublishedChanges: boolean; definition: FormDefinition; publicPath: string | null };
type Submission = { id: string; version: number; isTest: boolean; answers: { fieldId: string; label: string; value: string | string[] }[] };

async function createForm(owner: Person, body: Record<string, unknown> = {}): Promise<Detail> {
  const response = await send(owner.client, "POST", "/api/forms", body);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ form: Detail }>()).form;
}

async function saveDraft(owner: Person, form: Detail, changes: Partial<Pick<Detail, "title">> & Partial<FormDefinition>): Promise<number> {
  const response = await send(owner.client, "PUT", `/api/forms/${form.id}/draft`, { revision: form.revision, title: changes.title ?? form.title, fields: changes.fields ?? form.definition.fields, rules: changes.rules ?? form.definition.rules });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json<{ revision: number }>()).revision;
}

async function publish(owner: Person, id: string): Promise<Detail> {
  const response = await send(owner.client, "POST", `/api/forms/${id}/publish`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json<{ form: Detail }>()).form;
}

// Each submission from its own address, unless one is given: the per-address limit is tested on its own.
function submit(visitor: AuthClient, id: string, answers: unknown, query = "", ip = uniqueIp()) {
  return send(visitor, "POST", `/api/forms/${id}/submissions${query}`, { answers }, { "cf-connecting-ip": ip });
}

const submissionsOf = (formId: string) => countWhere("select count(*) as n from form_submissions where form_id = ?", formId);

describe("forms: the member's side", () => {
  let owner: Person;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Fiona Forms" });
  });

  it("makes a blank form and one from a built-in template, and lists them newest first", async () => {
    const blank = await createForm(owner);
    expect(blank).toMatchObject({ title: "Untitled form", status: "draft", publishedVersion: null, publicPath: null, definition: { fields: [], rules: [] } });
    const intake = await createForm(owner, { templateId: "template-client-intake" });
    expect(intake.title).toBe("Client intake");
    expect(intake.definition.fields.map((field) => field.id)).toContain("company");
    expect(intake.definition.rules.length).toBeGreaterThan(0);
    const listed = await (await get("/api/forms", owner.client)).json<{ forms: { id: string }[] }>();
    expect(listed.forms.slice(0, 2).map((form) => form.id)).toEqual([intake.id, blank.id]);
    const missing = await send(owner.client, "POST", "/api/forms", { templateId: "template-nothing" });
    expect(missing.status).toBe(404);
  });

  it("generates a form from a sentence (offline: the template library and the words used) as a draft to review", async () => {
    const response = await send(owner.client, "POST", "/api/forms/generate", { prompt: "KYC request for new investors with their phone number and date of birth" });
    expect(response.status, await response.clone().text()).toBe(201);
    const { form } = await response.json<{ form: Detail & { generatedBy: string; added: string[] } }>();
    expect(form).toMatchObject({ title: "KYC document request", status: "draft", generatedBy: "offline", added: ["Phone"] });
    expect(form.definition.fields.map((field) => field.label)).toContain("Phone");
    expect((await send(owner.client, "POST", "/api/forms/generate", { prompt: "" })).status).toBe(400);
    expect((await send(owner.client, "POST", "/api/forms/generate", { prompt: "x".repeat(501) })).status).toBe(400);
  });

  it("saves drafts by revision: a save from a stale tab is refused with a message, not lost silently", async () => {
    const form = await createForm(owner);
    const revision = await saveDraft(owner, form, { title: "Intake 2027", fields: [{ id: "name", type: "short_text", label: "Name", required: true }] });
    expect(revision).toBe(form.revision + 1);
    const stale = await send(owner.client, "PUT", `/api/forms/${form.id}/draft`, { revision: form.revision, title: "Old tab", fields: [] });
    expect(stale.status).toBe(409);
    expect((await stale.json<{ message: string }>()).message).toContain("another tab");
    const saved = await (await get(`/api/forms/${form.id}`, owner.client)).json<{ form: Detail }>();
    expect(saved.form).toMatchObject({ title: "Intake 2027", revision });
  });

  it("refuses to publish an unfinished form and says what is missing", async () => {
    const form = await createForm(owner);
    const empty = await send(owner.client, "POST", `/api/forms/${form.id}/publish`);
    expect(empty.status).toBe(400);
    expect((await empty.json<{ message: string }>()).message).toContain("add at least one question");
    await saveDraft(owner, form, { fields: [{ id: "pick", type: "select", label: "Pick", required: false, options: ["Only one"] }] });
    const oneChoice = await send(owner.client, "POST", `/api/forms/${form.id}/publish`);
    expect(oneChoice.status).toBe(400);
    expect((await oneChoice.json<{ message: string }>()).message).toContain("needs at least two choices");
    const backwards = await send(owner.client, "PUT", `/api/forms/${form.id}/draft`, {
      revision: form.revision + 1,
      title: "x",
      fields: [{ id: "a", type: "short_text", label: "A" }, { id: "b", type: "short_text", label: "B" }],
      rules: [{ id: "r", conditions: [{ field: "b", operator: "is_empty" }], action: "show", target: "a" }],
    });
    expect(backwards.status).toBe(200);
    const refused = await send(owner.client, "POST", `/api/forms/${form.id}/publish`);
    expect((await refused.json<{ message: string }>()).message).toContain("only act on a field after the questions it looks at");
  });

  it("freezes a version on publishing; later edits wait for the next publish and each submission keeps its version", async () => {
    const form = await createForm(owner, { templateId: "template-contact" });
    const first = await publish(owner, form.id);
    expect(first).toMatchObject({ status: "published", publishedVersion: 1, hasUnpublishedChanges: false, publicPath: `/forms/${form.id}/view` });
    const visitor = await newAuthClient();
    expect((await submit(visitor, form.id, { name: "Ada", email: "ada@example.com", message: "Hello" })).status).toBe(201);

    await saveDraft(owner, first, { fields: [...form.definition.fields, { id: "company", type: "short_text", label: "Company", required: true }] });
    const pending = (await (await get(`/api/forms/${form.id}`, owner.client)).json<{ form: Detail }>()).form;
    expect(pending.hasUnpublishedChanges).toBe(true);
    // The public form still answers version 1: "company" is not a question there yet.
    expect((await submit(visitor, form.id, { name: "Bo", email: "bo@example.com", message: "Hi", company: "Acme" })).status).toBe(422);
    const second = await publish(owner, form.id);
    expect(second.publishedVersion).toBe(2);
    expect((await submit(visitor, form.id, { name: "Bo", email: "bo@example.com", message: "Hi", company: "Acme" })).status).toBe(201);

    const { submissions } = await (await get(`/api/forms/${form.id}/submissions`, owner.client)).json<{ submissions: Submission[] }>();
    expect(submissions.map((submission) => submission.version)).toEqual([2, 1]);
    expect(submissions[0]!.answers.map((answer) => answer.label)).toEqual(["Name", "E-mail", "Message", "Company"]);
  });

  it("opens a template at /forms/{id}/edit as a copy (the spec's templateId taken from id), and keeps the member's own templates", async () => {
    const form = await createForm(owner, { templateId: "template-feedback" });
    const saved = await send(owner.client, "POST", `/api/forms/${form.id}/save-as-template`);
    expect(saved.status).toBe(201);
    const { template } = await saved.json<{ template: Detail }>();
    const templates = await (await get("/api/forms?templates=1", owner.client)).json<{ forms: { id: string; title: string }[] }>();
    expect(templates.forms.map((item) => item.id)).toContain(template.id);
    const fromOwn = await createForm(owner, { templateId: template.id });
    expect(fromOwn.definition.fields.map((field) => field.id)).toEqual(form.definition.fields.map((field) => field.id));
    expect((await send(owner.client, "POST", `/api/forms/${template.id}/publish`)).status).toBe(400);
  });

  it("sends a deleted form to the trash: its public form is gone at once", async () => {
    const form = await publish(owner, (await createForm(owner, { templateId: "template-contact" })).id);
    expect((await send(owner.client, "DELETE", `/api/forms/${form.id}`)).status).toBe(204);
    expect(await countWhere("select count(*) as n from forms where id = ? and deleted_at is not null", form.id)).toBe(1);
    expect((await submit(await newAuthClient(), form.id, { name: "x" })).status).toBe(404);
    expect((await get(`/api/forms/${form.id}`, owner.client)).status).toBe(404);
  });
});

describe("forms: submissions", () => {
  let owner: Person;
  let visitor: AuthClient;
  let kyc: Detail;
  beforeAll(async () => {
    owner = await signedIn({ tier: "business", name: "Sam Submissions" });
    visitor = await newAuthClient();
    kyc = await publish(owner, (await createForm(owner, { templateId: "template-kyc-request" })).id);
  });

  const valid = { name: "Ada Lovelace", birth: "1990-12-10", nationality: "British", address: "12 St James's Square, London", "id-kind": "Passport", "id-number": "X1234567", consent: true, "id-scan": [{ name: "passport.pdf", size: 2048 }] };

  it("stores the answers of shown fields only: an answer to a hidden field is dropped, never stored", async () => {
    const response = await submit(visitor, kyc.id, { ...valid, "pep-details": "Mayor of Somewhere" });
    expect(response.status, await response.clone().text()).toBe(201);
    const { submissionId } = await response.json<{ submissionId: string }>();
    const row = await (await get(`/api/forms/${kyc.id}/submissions/${submissionId}`, owner.client)).json<{ submission: Submission }>();
    expect(row.submission.answers.map((answer) => answer.fieldId)).not.toContain("pep-details");
    const stored = await countWhere("select count(*) as n from form_submissions where id = ? and answers like '%Mayor%'", submissionId);
    expect(stored).toBe(0);
  });

  it("requires what a rule requires, on the server as in the browser", async () => {
    const before = await submissionsOf(kyc.id);
    const response = await submit(visitor, kyc.id, { ...valid, pep: true });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ ok: false, errors: { "pep-details": "This question needs an answer." } });
    expect(await submissionsOf(kyc.id)).toBe(before);
    expect((await submit(visitor, kyc.id, { ...valid, pep: true, "pep-details": "Councillor, 2010-2014" })).status).toBe(201);
  });

  it("answers 200 malformed or unacceptable submissions with a 4xx and a message, and writes no row", async () => {
    const form = await createForm(owner);
    const fields: FormDefinition["fields"] = [
      { id: "name", type: "short_text", label: "Name", required: true, min: 2, max: 40 },
      { id: "email", type: "email", label: "E-mail", required: true },
      { id: "age", type: "number", label: "Age", required: false, min: 18, max: 120 },
      { id: "site", type: "url", label: "Site", required: false },
      { id: "phone", type: "phone", label: "Phone", required: false },
      { id: "day", type: "date", label: "Day", required: false },
      { id: "at", type: "time", label: "At", required: false },
      { id: "pick", type: "select", label: "Pick", required: false, options: ["A", "B"] },
      { id: "many", type: "multi_select", label: "Many", required: false, options: ["X", "Y", "Z"], max: 2 },
      { id: "one", type: "radio", label: "One", required: false, options: ["Yes", "No"] },
      { id: "stars", type: "rating", label: "Stars", required: false, max: 5 },
      { id: "nps", type: "scale", label: "NPS", required: false, min: 0, max: 10 },
      { id: "code", type: "short_text", label: "Code", required: false, pattern: "[A-Z]{3}-\\d{3}", patternMessage: "Codes look like ABC-123." },
      { id: "agree", type: "consent", label: "I agree", required: true },
      { id: "intro", type: "paragraph", label: "Hello", required: false },
    ];
    await saveDraft(owner, form, { fields });
    await publish(owner, form.id);
    const good = { name: "Ada", email: "ada@example.com", agree: "true" };
    const bad: unknown[] = [
      null,
      [],
      "answers",
      42,
      {},
      { ...good, name: "" },
      { ...good, name: "A" },
      { ...good, name: "x".repeat(41) },
      { ...good, name: ["Ada", "Bo"] },
      { ...good, name: { first: "Ada" } },
      { ...good, name: 7 },
      { ...good, email: "ada" },
      { ...good, email: "ada@" },
      { ...good, email: "@example.com" },
      { ...good, email: "ada example.com" },
      { ...good, agree: "false" },
      { ...good, agree: "maybe" },
      { name: "Ada", email: "ada@example.com" },
      { ...good, age: "seventeen" },
      { ...good, age: "17" },
      { ...good, age: "121" },
      { ...good, age: "1e3" },
      { ...good, age: "0x20" },
      { ...good, site: "javascript:alert(1)" },
      { ...good, site: "not a url" },
      { ...good, site: "ftp://example.com" },
      { ...good, phone: "call me" },
      { ...good, phone: "12" },
      { ...good, day: "2026-02-30" },
      { ...good, day: "10/12/2026" },
      { ...good, at: "25:00" },
      { ...good, at: "9am" },
      { ...good, pick: "C" },
      { ...good, pick: ["A"] },
      { ...good, many: ["X", "Y", "Z"] },
      { ...good, many: ["W"] },
      { ...good, many: ["X", "X"] },
      { ...good, many: [1] },
      { ...good, one: "Maybe" },
      { ...good, stars: "6" },
      { ...good, stars: "0" },
      { ...good, stars: "4.5" },
      { ...good, nps: "11" },
      { ...good, nps: "-1" },
      { ...good, code: "abc-123" },
      { ...good, intro: "an answer to a paragraph" },
      { ...good, unknown: "a question the form does not ask" },
      { ...good, name: "x".repeat(10_001) },
    ];
    // Every field given a few more wrong shapes, to pass 200.
    const shapes: unknown[] = [true, false, 3.5, -1, [], [[]], { a: 1 }, "\u0000".repeat(20_000), "<script>alert(1)</script>", "9".repeat(600), ["a", "b"]];
    for (const field of fields) for (const shape of shapes) bad.push({ ...good, [field.id]: shape });
    expect(bad.length).toBeGreaterThanOrEqual(200);
    let fine = 0;
    for (const answers of bad) {
      const response = await submit(visitor, form.id, answers);
      // Some of the generic shapes are acceptable answers (false to an optional box left unticked): those are stored.
      if (response.status === 201) {
        fine += 1;
        continue;
      }
      expect([400, 422], JSON.stringify(answers).slice(0, 80)).toContain(response.status);
      const body = await response.json<{ message: string; errors?: Record<string, string> }>();
      expect(body.message.length).toBeGreaterThan(5);
    }
    expect(fine).toBeLessThan(10);
    expect(await submissionsOf(form.id)).toBe(fine);
    expect((await submit(visitor, form.id, { ...good, many: ["X", "Z"], code: "ABC-123", stars: 4, nps: "0", day: "2026-02-28", at: "09:30" })).status).toBe(201);
  });

  it("keeps test submissions from the preview apart from the real ones and their counts, and clears them", async () => {
    const form = await publish(owner, (await createForm(owner, { templateId: "template-contact" })).id);
    const answers = { name: "Tess", email: "tess@example.com", message: "Testing" };
    expect((await submit(owner.client, form.id, answers, "?test=1")).status).toBe(201);
    expect((await submit(visitor, form.id, answers)).status).toBe(201);
    // A visitor cannot make a test submission.
    expect((await submit(visitor, form.id, answers, "?test=1")).status).toBe(401);
    const real = await (await get(`/api/forms/${form.id}/submissions`, owner.client)).json<{ submissions: Submission[] }>();
    const tests = await (await get(`/api/forms/${form.id}/submissions?test=1`, owner.client)).json<{ submissions: Submission[] }>();
    expect(real.submissions.map((item) => item.isTest)).toEqual([false]);
    expect(tests.submissions.map((item) => item.isTest)).toEqual([true]);
    const listed = await (await get("/api/forms", owner.client)).json<{ forms: { id: string; submissions: number }[] }>();
    expect(listed.forms.find((item) => item.id === form.id)?.submissions).toBe(1);
    const cleared = await send(owner.client, "DELETE", `/api/forms/${form.id}/test-submissions`);
    expect(await cleared.json()).toEqual({ cleared: 1 });
    expect(await countWhere("select count(*) as n from form_submissions where form_id = ? and is_test = 1", form.id)).toBe(0);
  });

  it("takes no answers when closed, past its closing time or full, and thanks a bot without keeping anything", async () => {
    const form = await publish(owner, (await createForm(owner, { templateId: "template-contact" })).id);
    const answers = { name: "Cy", email: "cy@example.com", message: "Hi" };
    expect((await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { maxSubmissions: 1, thankYouMessage: "Thanks, we will write back." })).status).toBe(200);
    const first = await submit(visitor, form.id, answers);
    expect(await first.json()).toMatchObject({ ok: true, thankYouMessage: "Thanks, we will write back." });
    const full = await submit(visitor, form.id, answers);
    expect(full.status).toBe(410);
    await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { maxSubmissions: null, isOpen: false });
    expect((await submit(visitor, form.id, answers)).status).toBe(410);
    await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { isOpen: true, closesAt: "2020-01-01T00:00:00.000Z" });
    expect((await submit(visitor, form.id, answers)).status).toBe(410);
    await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { closesAt: null });
    const before = await submissionsOf(form.id);
    expect((await submit(visitor, form.id, { ...answers, _website: "https://spam.example" })).status).toBe(201);
    expect(await submissionsOf(form.id)).toBe(before);
    const badSettings = await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { redirectUrl: "javascript:alert(1)" });
    expect(badSettings.status).toBe(400);
  });

  it("tells the owner of each real submission (never of a test), without the answers in the notice", async () => {
    const form = await publish(owner, (await createForm(owner, { templateId: "template-contact" })).id);
    const response = await submit(visitor, form.id, { name: "Nell Notice", email: "nell@example.com", message: "A secret plan" });
    const { submissionId } = await response.json<{ submissionId: string }>();
    await submit(owner.client, form.id, { name: "Tess", email: "tess@example.com", message: "m" }, "?test=1");
    const notices = await testEnv.DB.prepare("select kind, title, excerpt, link from notifications where user_id = ? and link like ?").bind(owner.id, `/forms/${form.id}/%`).all<{ kind: string; title: string; excerpt: string; link: string }>();
    expect(notices.results).toEqual([{ kind: "form.submission", title: "New submission to “Contact”", excerpt: "3 answers, version 1.", link: `/forms/${form.id}/submissions/${submissionId}` }]);
    const { widgets } = getDashboard(createServiceContext(testEnv, { requestId: "forms-test" }), owner.id, ["attention"]);
    const attention = (await widgets.attention) as { kind: string; label: string; href: string }[];
    expect(attention).toContainEqual(expect.objectContaining({ kind: "form.submission", label: "New submission", href: `/forms/${form.id}/submissions/${submissionId}` }));
  });

  it("exports submissions as CSV with formulas defused and answers to dropped questions kept", async () => {
    const form = await createForm(owner, { templateId: "template-contact" });
    await publish(owner, form.id);
    await submit(visitor, form.id, { name: "=HYPERLINK(\"http://evil\")", email: "a@example.com", subject: "Hi, \"there\"", message: "line one\nline two" });
    // Version 2 drops "subject" and adds "company".
    const current = (await (await get(`/api/forms/${form.id}`, owner.client)).json<{ form: Detail }>()).form;
    await saveDraft(owner, current, { fields: [...current.definition.fields.filter((field) => field.id !== "subject"), { id: "company", type: "short_text", label: "Company", required: false }] });
    await publish(owner, form.id);
    await submit(visitor, form.id, { name: "Bo", email: "bo@example.com", message: "m", company: "Acme" });
    const response = await get(`/api/forms/${form.id}/submissions.csv`, owner.client);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="Contact-submissions.csv"');
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe('"Submitted (UTC)","Version","Name","E-mail","Message","Company","Other answers"');
    expect(lines[1]).toMatch(/^"[\d-]+ [\d:]+","2","Bo","bo@example.com","m","Acme",$/);
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[2]).toContain('"Subject: Hi, ""there"""');
    expect((await get(`/api/forms/${form.id}/submissions.csv`, (await signedIn({ tier: "pro" })).client)).status).toBe(404);
  });

  it("takes at most 30 submissions an hour from one address to one form, counted before anything is stored", async () => {
    const form = await publish(owner, (await createForm(owner, { templateId: "template-contact" })).id);
    const ip = uniqueIp();
    for (let i = 0; i < 30; i += 1) expect((await submit(visitor, form.id, { name: `N${i}`, email: `n${i}@example.com`, message: "m" }, "", ip)).status).toBe(201);
    const limited = await submit(visitor, form.id, { name: "One more", email: "more@example.com", message: "m" }, "", ip);
    expect(limited.status).toBe(429);
    expect((await limited.json<{ message: string }>()).message).toMatch(/^Too many submissions from your network\. Please wait \d+ minutes?/);
    expect(await submissionsOf(form.id)).toBe(30);
    // Another address is not held back.
    expect((await submit(visitor, form.id, { name: "Other", email: "o@example.com", message: "m" })).status).toBe(201);
  });

  it("asks for the form's password first: wrong ones are refused, the right one opens it, a new password closes it again", async () => {
    const form = await publish(owner, (await createForm(owner, { templateId: "template-contact" })).id);
    expect((await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { password: "short" })).status).toBe(400);
    const set = await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { password: "open-sesame-7" });
    expect((await set.json<{ form: { settings: { hasPassword: boolean } } }>()).form.settings.hasPassword).toBe(true);
    const answers = { name: "Pat", email: "pat@example.com", message: "m" };
    const locked = await submit(visitor, form.id, answers);
    expect(locked.status).toBe(401);
    expect(await submissionsOf(form.id)).toBe(0);
    const ctx = createServiceContext(testEnv, { requestId: "forms-password", client: { ip: uniqueIp(), userAgent: null } });
    expect(await openPublicForm(ctx, form.id)).toMatchObject({ state: "password", title: "Contact" });
    await expect(unlockForm(ctx, form.id, { password: "wrong-password" })).rejects.toMatchObject({ status: 401, message: "That password is not right. Check it with the person who sent you the link." });
    const cookie = await unlockForm(ctx, form.id, { password: "open-sesame-7" });
    expect((await openPublicForm(ctx, form.id, { cookie })).state).toBe("open");
    const opened = await submit(visitor, form.id, answers, "", uniqueIp());
    expect(opened.status).toBe(401);
    const withCookie = await send(visitor, "POST", `/api/forms/${form.id}/submissions`, { answers }, { cookie: `${visitor.jar.header()}; form_unlock=${cookie}`, "cf-connecting-ip": uniqueIp() });
    expect(withCookie.status, await withCookie.clone().text()).toBe(201);
    // A new password ends every unlock.
    await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { password: "another-one-8" });
    expect((await openPublicForm(ctx, form.id, { cookie })).state).toBe("password");
    await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { password: null });
    expect((await openPublicForm(ctx, form.id)).state).toBe("open");
  });

  it("pages through submissions newest first by keyset", async () => {
    const form = await publish(owner, (await createForm(owner, { templateId: "template-contact" })).id);
    for (let i = 0; i < 53; i += 1) expect((await submit(visitor, form.id, { name: `P${i}`, email: `p${i}@example.com`, message: "m" })).status).toBe(201);
    const first = await (await get(`/api/forms/${form.id}/submissions`, owner.client)).json<{ submissions: Submission[]; nextCursor: string }>();
    expect(first.submissions).toHaveLength(50);
    const second = await (await get(`/api/forms/${form.id}/submissions?cursor=${first.nextCursor}`, owner.client)).json<{ submissions: Submission[]; nextCursor: string | null }>();
    expect(second.submissions).toHaveLength(3);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.submissions, ...second.submissions].map((item) => item.id)).size).toBe(53);
    expect((await get(`/api/forms/${form.id}/submissions?cursor=garbage`, owner.client)).status).toBe(400);
  });
});

describe("forms: a submission shared by link", () => {
  it("opens for anyone with the link until it expires or is revoked (at once), records each opening, and keeps only the token's hash", async () => {
    const owner = await signedIn({ tier: "pro", name: "Sid Share" });
    const form = await publish(owner, (await createForm(owner, { templateId: "template-contact" })).id);
    const sent = await submit(await newAuthClient(), form.id, { name: "Ola Outside", email: "ola@example.com", message: "Please forward" });
    const { submissionId } = await sent.json<{ submissionId: string }>();
    const base = `/api/forms/${form.id}/submissions/${submissionId}/shares`;
    expect((await send(owner.client, "POST", base, { days: 3 })).status).toBe(400);
    const made = await send(owner.client, "POST", base, { days: 7, note: "Our accountant" });
    expect(made.status, await made.clone().text()).toBe(201);
    const { share, path, embedPath } = await made.json<{ share: { id: string; status: string }; path: string; embedPath: string }>();
    expect(share.status).toBe("active");
    const token = path.slice("/submissions/shared/".length);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(embedPath).toBe(`/submissions/embed/${token}`);
    expect(await countWhere("select count(*) as n from form_submission_shares where token_hash = ?", token)).toBe(0);

    const ctxAt = (now: Date) => createServiceContext(testEnv, { requestId: "share-test", client: { ip: "203.0.113.77", userAgent: "Test browser" }, now: () => now });
    const opened = await openSharedSubmission(ctxAt(new Date()), token);
    expect(opened).toMatchObject({ state: "open", formTitle: "Contact" });
    if (opened.state === "open") expect(opened.submission.answers.map((answer) => answer.value)).toContain("Ola Outside");
    await openSharedSubmission(ctxAt(new Date()), token, { embedded: true });
    const listed = await (await get(base, owner.client)).json<{ shares: { opens: number }[]; openings: { ip: string; embedded: boolean; userAgent: string }[] }>();
    expect(listed.shares[0]!.opens).toBe(2);
    expect(listed.openings.map((opening) => opening.embedded).sort()).toEqual([false, true]);
    expect(listed.openings[0]).toMatchObject({ ip: "203.0.113.0", userAgent: "Test browser" });

    // Expiry and revocation take effect at once; a wrong token is "not found".
    expect((await openSharedSubmission(ctxAt(new Date(Date.now() + 8 * 86_400_000)), token)).state).toBe("expired");
    expect((await openSharedSubmission(ctxAt(new Date()), "x".repeat(43))).state).toBe("missing");
    const outsider = await signedIn({ tier: "pro" });
    expect((await send(outsider.client, "DELETE", `${base}/${share.id}`)).status).toBe(404);
    expect((await send(outsider.client, "POST", base, { days: 1 })).status).toBe(404);
    expect((await get(base, outsider.client)).status).toBe(404);
    expect((await openSharedSubmission(ctxAt(new Date()), token)).state).toBe("open");
    expect((await send(owner.client, "DELETE", `${base}/${share.id}`)).status).toBe(204);
    expect((await openSharedSubmission(ctxAt(new Date()), token)).state).toBe("expired");
    expect((await send(owner.client, "DELETE", `${base}/${share.id}`)).status).toBe(404);
    // A submission sent to the trash takes its links with it.
    const again = await (await send(owner.client, "POST", base, { days: 1 })).json<{ path: string }>();
    await send(owner.client, "DELETE", `/api/forms/${form.id}/submissions/${submissionId}`);
    expect((await openSharedSubmission(ctxAt(new Date()), again.path.slice("/submissions/shared/".length))).state).toBe("missing");
  });

  it("takes only https origins as the sites that may embed it", async () => {
    const owner = await signedIn({ tier: "pro" });
    const form = await createForm(owner);
    const bad = await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { embedOrigins: ["http://portal.example.com"] });
    expect(bad.status).toBe(400);
    expect((await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { embedOrigins: ["https://portal.example.com/path"] })).status).toBe(400);
    const good = await send(owner.client, "PATCH", `/api/forms/${form.id}/settings`, { embedOrigins: ["https://Portal.Example.com/", "https://portal.example.com"] });
    expect((await good.json<{ form: { settings: { embedOrigins: string[] } } }>()).form.settings.embedOrigins).toEqual(["https://portal.example.com"]);
  });
});

describe("forms: the builder dashboard", () => {
  it("counts views, starts, completion and where visits stop, page by page, for the published version", async () => {
    const owner = await signedIn({ tier: "pro", name: "Dana Dashboard" });
    const form = await publish(owner, (await createForm(owner, { templateId: "template-job-application" })).id);
    const visitor = await newAuthClient();
    const progress = (visit: string, page: number, version = 1) => send(visitor, "POST", `/api/forms/${form.id}/progress`, { visit, version, page });
    // Three visits start; two reach page 2; one of those sends.
    for (const visit of ["visit-aaaaaaaaaaaaaaaa", "visit-bbbbbbbbbbbbbbbb", "visit-cccccccccccccccc"]) expect((await progress(visit, 0)).status).toBe(204);
    for (const visit of ["visit-bbbbbbbbbbbbbbbb", "visit-cccccccccccccccc"]) expect((await progress(visit, 1)).status).toBe(204);
    // Going back never lowers how far a visit got; an older version's visit is not counted.
    expect((await progress("visit-cccccccccccccccc", 0)).status).toBe(204);
    expect((await progress("visit-dddddddddddddddd", 0, 7)).status).toBe(204);
    const sent = await submit(visitor, form.id, { name: "Cy", email: "cy@example.com", role: "Design", why: "Because.", _visit: "visit-cccccccccccccccc" });
    expect(sent.status, await sent.clone().text()).toBe(201);
    // Refused: a page the form does not have, a malformed visit id, another's form unknown.
    expect((await progress("visit-aaaaaaaaaaaaaaaa", 2)).status).toBe(400);
    expect((await progress("x", 0)).status).toBe(400);
    expect((await send(visitor, "POST", `/api/forms/${crypto.randomUUID()}/progress`, { visit: "visit-aaaaaaaaaaaaaaaa", version: 1, page: 0 })).status).toBe(404);

    const { dashboard } = await (await get(`/api/forms/${form.id}/dashboard`, owner.client)).json<{ dashboard: Record<string, unknown> }>();
    expect(dashboard).toMatchObject({ starts: 3, submissions: 1, version: 1 });
    expect(dashboard.completionRate).toBeCloseTo(1 / 3);
    expect(dashboard.pages).toEqual([
      { page: 0, reached: 3, left: 1, dropOffRate: 1 / 3 },
      { page: 1, reached: 2, left: 1, dropOffRate: 0.5 },
    ]);
    expect((await get(`/api/forms/${form.id}/dashboard`, (await signedIn({ tier: "pro" })).client)).status).toBe(404);
  });
});

describe("forms: who may do what", () => {
  let owner: Person;
  let outsider: Person;
  let freeMember: Person;
  let form: Detail;
  let submissionId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Olga Owner" });
    outsider = await signedIn({ tier: "pro", name: "Otto Outsider" });
    freeMember = await signedIn({ tier: "free", name: "Fred Free" });
    form = await publish(owner, (await createForm(owner, { templateId: "template-contact" })).id);
    const response = await submit(await newAuthClient(), form.id, { name: "V", email: "v@example.com", message: "m" });
    submissionId = (await response.json<{ submissionId: string }>()).submissionId;
  });

  const routes = (id: () => string, sid: () => string): [string, string, unknown?][] => [
    ["GET", `/api/forms/${id()}`],
    ["PUT", `/api/forms/${id()}/draft`, { revision: 1, title: "Taken over", fields: [] }],
    ["POST", `/api/forms/${id()}/publish`],
    ["PATCH", `/api/forms/${id()}/settings`, { isOpen: false }],
    ["POST", `/api/forms/${id()}/save-as-template`],
    ["GET", `/api/forms/${id()}/submissions`],
    ["GET", `/api/forms/${id()}/dashboard`],
    ["GET", `/api/forms/${id()}/submissions.csv`],
    ["GET", `/api/forms/${id()}/submissions/${sid()}`],
    ["GET", `/api/forms/${id()}/submissions/${sid()}/shares`],
    ["POST", `/api/forms/${id()}/submissions/${sid()}/shares`, { days: 1 }],
    ["DELETE", `/api/forms/${id()}/submissions/${sid()}`],
    ["POST", `/api/forms/${id()}/submissions/${sid()}/restore`],
    ["DELETE", `/api/forms/${id()}/test-submissions`],
    ["POST", `/api/forms/${id()}/submissions?test=1`, { answers: { name: "T", email: "t@example.com", message: "m" } }],
    ["DELETE", `/api/forms/${id()}`],
  ];

  const snapshot = async () =>
    JSON.stringify([
      await countWhere("select count(*) as n from forms where user_id = ? and deleted_at is null and is_open = 1 and title = 'Contact'", owner.id),
      await countWhere("select count(*) as n from form_submissions where form_id = ? and deleted_at is null", form.id),
      await countWhere("select revision as n from forms where id = ?", form.id),
    ]);

  it("answers 401 to anyone signed out, and changes nothing", async () => {
    const before = await snapshot();
    const anonymous = await newAuthClient();
    for (const [method, path, body] of routes(() => form.id, () => submissionId)) {
      const response = method === "GET" ? await get(path) : await send(anonymous, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    expect((await get("/api/forms")).status).toBe(401);
    expect(await snapshot()).toBe(before);
  });

  it("answers 404 to another member, and changes nothing", async () => {
    const before = await snapshot();
    for (const [method, path, body] of routes(() => form.id, () => submissionId)) {
      const response = method === "GET" ? await get(path, outsider.client) : await send(outsider.client, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect((await response.json<{ message: string }>()).message).toContain("does not exist or you don't have access");
    }
    expect(await snapshot()).toBe(before);
  });

  it("answers 403 to a member whose plan has no forms, naming what is missing", async () => {
    const before = await snapshot();
    for (const [method, path, body] of routes(() => form.id, () => submissionId)) {
      const response = method === "GET" ? await get(path, freeMember.client) : await send(freeMember.client, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    const create = await send(freeMember.client, "POST", "/api/forms", {});
    expect(create.status).toBe(403);
    expect(await countWhere("select count(*) as n from forms where user_id = ?", freeMember.id)).toBe(0);
    expect(await snapshot()).toBe(before);
  });

  it("lets the owner do each of them", async () => {
    for (const [method, path, body] of routes(() => form.id, () => submissionId)) {
      const response = method === "GET" ? await get(path, owner.client) : await send(owner.client, method, path, method === "PUT" ? { revision: (await (await get(`/api/forms/${form.id}`, owner.client)).json<{ form: Detail }>()).form.revision, title: "Contact", fields: form.definition.fields } : body);
      expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
    }
  });
});

describe("forms: the trash", () => {
  it("keeps a deleted form and a deleted submission for 30 days to restore, then the nightly job deletes them for good", async () => {
    const owner = await signedIn({ tier: "pro", name: "Tom Trash" });
    const form = await publish(owner, (await createForm(owner, { templateId: "template-contact" })).id);
    const sent = await submit(await newAuthClient(), form.id, { name: "Ray", email: "ray@example.com", message: "m" });
    const { submissionId } = await sent.json<{ submissionId: string }>();
    expect((await send(owner.client, "DELETE", `/api/forms/${form.id}/submissions/${submissionId}`)).status).toBe(204);
    const ctx = createServiceContext(testEnv, { requestId: "forms-trash" });
    expect((await listTrashedFormSubmissions(ctx, owner.id, form.id)).map((item) => [item.id, item.daysLeft])).toEqual([[submissionId, 30]]);
    expect((await send(owner.client, "POST", `/api/forms/${form.id}/submissions/${submissionId}/restore`)).status).toBe(204);
    expect((await get(`/api/forms/${form.id}/submissions/${submissionId}`, owner.client)).status).toBe(200);
    expect((await send(owner.client, "POST", `/api/forms/${form.id}/submissions/${submissionId}/restore`)).status).toBe(404);

    expect((await send(owner.client, "DELETE", `/api/forms/${form.id}`)).status).toBe(204);
    expect((await listTrashedForms(ctx, owner.id)).map((item) => item.id)).toEqual([form.id]);
    const outsider = await signedIn({ tier: "pro" });
    expect((await send(outsider.client, "POST", `/api/forms/${form.id}/restore`)).status).toBe(404);
    expect((await send(owner.client, "POST", `/api/forms/${form.id}/restore`)).status).toBe(204);
    expect((await submit(await newAuthClient(), form.id, { name: "Back", email: "back@example.com", message: "m" })).status).toBe(201);

    // 31 days after a deletion, the nightly job deletes the form and all that hangs on it.
    await send(owner.client, "DELETE", `/api/forms/${form.id}`);
    await testEnv.DB.prepare("update forms set deleted_at = ? where id = ?").bind(Date.now() - 31 * 86_400_000, form.id).run();
    expect((await send(owner.client, "POST", `/api/forms/${form.id}/restore`)).status).toBe(404);
    await purgeFormsTrashJob.run({ ...ctx, jobId: "purge-test" }, {});
    expect(await countWhere("select count(*) as n from forms where id = ?", form.id)).toBe(0);
    expect(await countWhere("select count(*) as n from form_submissions where form_id = ?", form.id)).toBe(0);
    expect(await countWhere("select count(*) as n from form_versions where form_id = ?", form.id)).toBe(0);
  });
});
