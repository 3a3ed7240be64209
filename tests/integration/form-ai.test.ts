import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { createFile, personalSpaceOf } from "~tests/factories/files";
import { proposePdfMapping } from "~/features/forms/form-pdf-mapping.server";
import { generateForm } from "~/features/forms/forms.server";
import { createServiceContext } from "~/lib/service-context.server";
import { countWhere, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv, uniqueIp } from "./helpers";

/**
 * Workers AI for forms (issue 37, ADR 030). The binding exists only in production; here a fake one
 * stands in for it, answering what a model might: a good form, nonsense, or nothing. A good answer
 * is used whole; anything else is refused whole and the offline generator makes the draft, saying why.
 */

type Ai = { run: (model: string, input: Record<string, unknown>) => Promise<unknown> };
const withAi = (ai: Ai) => createServiceContext({ ...testEnv, AI: ai } as typeof testEnv, { requestId: "form-ai" });
const answering = (response: unknown): Ai & { asked: Record<string, unknown>[] } => {
  const asked: Record<string, unknown>[] = [];
  return { asked, run: async (_model, input) => (asked.push(input), { response }) };
};

describe("forms: Workers AI where it is bound", () => {
  let owner: Person;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Al Model" });
  });

  it("uses the model's form when it holds together, asked for JSON with the member's sentence", async () => {
    const ai = answering(
      JSON.stringify({
        title: "Vendor onboarding",
        description: "New suppliers tell us who they are.",
        fields: [
          { id: "company", type: "short_text", label: "Company name", required: true },
          { id: "vat", type: "radio", label: "Are you VAT registered?", required: true, options: ["Yes", "No"] },
          { id: "vat-number", type: "short_text", label: "VAT number", required: false },
        ],
        rules: [{ id: "r1", match: "all", conditions: [{ field: "vat", operator: "equals", value: "Yes" }], action: "show", target: "vat-number" }],
      }),
    );
    const form = await generateForm(withAi(ai), owner.id, { prompt: "Vendor onboarding with VAT number when registered" });
    expect(form).toMatchObject({ title: "Vendor onboarding", generatedBy: "workers-ai", fallbackReason: null, status: "draft" });
    expect(form.definition.fields.map((field) => field.id)).toEqual(["company", "vat", "vat-number"]);
    expect(form.definition.rules).toHaveLength(1);
    expect(JSON.stringify(ai.asked[0])).toContain("Vendor onboarding with VAT number when registered");
    expect(ai.asked[0]).toMatchObject({ response_format: { type: "json_object" } });
  });

  it("refuses an answer that is not a valid form whole, and makes the draft offline instead, saying why", async () => {
    const invalid = [
      "Sure! Here is your form: a name field and an e-mail field.",
      { title: "Broken", fields: [{ id: "Bad Id", type: "short_text", label: "Name", required: true }] },
      { title: "Unknown type", fields: [{ id: "x", type: "hologram", label: "Beam me", required: false }] },
      { title: "Rule backwards", fields: [{ id: "a", type: "short_text", label: "A", required: false }, { id: "b", type: "short_text", label: "B", required: false }], rules: [{ id: "r1", match: "all", conditions: [{ field: "b", operator: "is_empty" }], action: "hide", target: "a" }] },
      { title: "Only a heading", fields: [{ id: "h", type: "heading", label: "Hello", required: false }] },
    ];
    for (const response of invalid) {
      const before = await countWhere("select count(*) as n from forms where user_id = ?", owner.id);
      const form = await generateForm(withAi(answering(response)), owner.id, { prompt: "A job application with a phone number" });
      expect(form, JSON.stringify(response)).toMatchObject({ generatedBy: "offline", fallbackReason: "the model's answer was not a valid form", title: "Job application" });
      expect(await countWhere("select count(*) as n from forms where user_id = ?", owner.id)).toBe(before + 1);
    }
    const unreachable = await generateForm(withAi({ run: async () => Promise.reject(new Error("3040: capacity")) }), owner.id, { prompt: "Event registration" });
    expect(unreachable).toMatchObject({ generatedBy: "offline", fallbackReason: "the model could not be reached" });
  });
});

/** A PDF made as a form: fillable text fields (one with a tooltip), a checkbox and a signature field. */
async function fillablePdf(): Promise<Uint8Array<ArrayBuffer>> {
  const document = await PDFDocument.create();
  const page = document.addPage([595, 842]);
  const form = document.getForm();
  const fields: [string, number][] = [["applicant.fullLegalName", 760], ["dob", 720], ["Nationality", 680], ["Fax", 640]];
  for (const [name, y] of fields) form.createTextField(name).addToPage(page, { x: 50, y, width: 300, height: 20 });
  form.createCheckBox("pep_box").addToPage(page, { x: 50, y: 600, width: 12, height: 12 });
  return new Uint8Array(await document.save()) as Uint8Array<ArrayBuffer>;
}

describe("forms: mapping a form's questions onto a PDF's fields", () => {
  let owner: Person;
  let formId: string;
  let pdfId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Mo Mapping" });
    const created = await send(owner.client, "POST", "/api/forms", { templateId: "template-kyc-request" });
    formId = (await created.json<{ form: { id: string } }>()).form.id;
    const space = await personalSpaceOf(owner.id);
    pdfId = (await createFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "KYC.pdf", content: await fillablePdf(), contentType: "application/pdf" })).id;
  });

  it("proposes, offline, the question most alike for each fillable field of the PDF, for the member to review", async () => {
    const response = await get(`/api/forms/${formId}/pdf-mapping?fileId=${pdfId}`, owner.client);
    expect(response.status, await response.clone().text()).toBe(200);
    const proposal = await response.json<{ mappedBy: string; targets: { name: string; type: string }[]; pairs: { target: string; fieldId: string | null }[] }>();
    expect(proposal.mappedBy).toBe("offline");
    expect(proposal.targets.map((target) => `${target.name}:${target.type}`)).toEqual(["applicant.fullLegalName:text", "dob:text", "Nationality:text", "Fax:text", "pep_box:checkbox"]);
    expect(Object.fromEntries(proposal.pairs.map((pair) => [pair.target, pair.fieldId]))).toEqual({ "applicant.fullLegalName": "name", dob: null, Nationality: "nationality", Fax: null, pep_box: "pep" });
  });

  it("uses the model's pairs where bound when they fit, and the offline proposal when they do not", async () => {
    const ctx = (response: unknown) => withAi(answering(response));
    const good = await proposePdfMapping(ctx({ pairs: [{ target: "applicant.fullLegalName", fieldId: "name" }, { target: "dob", fieldId: "birth" }, { target: "Nationality", fieldId: "nationality" }, { target: "Fax", fieldId: null }, { target: "pep_box", fieldId: "pep" }] }), owner.id, formId, pdfId);
    expect(good).toMatchObject({ mappedBy: "workers-ai", fallbackReason: null });
    expect(good.pairs.find((pair) => pair.target === "dob")?.fieldId).toBe("birth");
    // A text answer into a checkbox, a field the PDF does not have: refused whole.
    for (const pairs of [[{ target: "pep_box", fieldId: "name" }], [{ target: "Shoe size", fieldId: "name" }]]) {
      const refused = await proposePdfMapping(ctx({ pairs }), owner.id, formId, pdfId);
      expect(refused).toMatchObject({ mappedBy: "offline", fallbackReason: "the model's answer did not match this PDF and form" });
    }
  });

  it("refuses what is not a PDF with fields, and anyone else's form or file (404)", async () => {
    const space = await personalSpaceOf(owner.id);
    const text = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "notes.txt", content: "hello" });
    const plainPdf = await PDFDocument.create();
    plainPdf.addPage();
    const flat = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "flat.pdf", content: new Uint8Array(await plainPdf.save()) as Uint8Array<ArrayBuffer>, contentType: "application/pdf" });
    const cases: [string, number, string][] = [
      [text.id, 400, "“notes.txt” is not a PDF: choose a PDF with form fields."],
      [flat.id, 400, "“flat.pdf” has no form fields to fill. Choose a PDF made as a form (with fillable fields)."],
      ["not-an-id", 400, "fileId: choose the PDF to map onto."],
    ];
    for (const [fileId, status, message] of cases) {
      const response = await get(`/api/forms/${formId}/pdf-mapping?fileId=${fileId}`, owner.client);
      expect(response.status).toBe(status);
      expect((await response.json<{ message: string }>()).message).toBe(message);
    }
    const outsider = await signedIn({ tier: "pro", name: "Oscar Outsider" });
    expect((await get(`/api/forms/${formId}/pdf-mapping?fileId=${pdfId}`, outsider.client)).status).toBe(404);
    const outsidersForm = (await (await send(outsider.client, "POST", "/api/forms", {})).json<{ form: { id: string } }>()).form.id;
    expect((await get(`/api/forms/${outsidersForm}/pdf-mapping?fileId=${pdfId}`, outsider.client)).status).toBe(404);
    expect((await get(`/api/forms/${formId}/pdf-mapping?fileId=${pdfId}`)).status).toBe(401);
  });
});

describe("forms: filling the mapped PDF with a submission", () => {
  it("keeps the reviewed pairs (each checked against the PDF and the form) and fills a copy of the PDF with a submission's answers", async () => {
    const owner = await signedIn({ tier: "pro", name: "Fil Filler" });
    const created = await (await send(owner.client, "POST", "/api/forms", { templateId: "template-kyc-request" })).json<{ form: { id: string } }>();
    const formId = created.form.id;
    const space = await personalSpaceOf(owner.id);
    const pdf = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "KYC.pdf", content: await fillablePdf(), contentType: "application/pdf" });
    // A pair the PDF cannot take is refused, and nothing is kept.
    const wrong = await send(owner.client, "PUT", `/api/forms/${formId}/pdf-mapping`, { fileId: pdf.id, pairs: { pep_box: "name" } });
    expect(wrong.status).toBe(400);
    expect((await wrong.json<{ message: string }>()).message).toBe("“Full legal name” cannot fill “pep_box” (a checkbox field).");
    expect(await countWhere("select count(*) as n from forms where id = ? and pdf_map is not null", formId)).toBe(0);
    const saved = await send(owner.client, "PUT", `/api/forms/${formId}/pdf-mapping`, { fileId: pdf.id, pairs: { "applicant.fullLegalName": "name", dob: "birth", Nationality: "nationality", Fax: null, pep_box: "pep" } });
    expect(saved.status, await saved.clone().text()).toBe(200);

    expect((await send(owner.client, "POST", `/api/forms/${formId}/publish`)).status).toBe(200);
    const answers = { name: "Ada Lovelace", birth: "1990-12-10", nationality: "British", address: "12 St James's Square", "id-kind": "Passport", "id-number": "X1", pep: true, "pep-details": "Councillor", consent: true, "id-scan": [{ name: "p.pdf", size: 10 }] };
    const submitted = await send(await newAuthClient(), "POST", `/api/forms/${formId}/submissions`, { answers }, { "cf-connecting-ip": uniqueIp() });
    expect(submitted.status, await submitted.clone().text()).toBe(201);
    const { submissionId } = await submitted.json<{ submissionId: string }>();
    const filled = await get(`/api/forms/${formId}/submissions/${submissionId}/filled.pdf`, owner.client);
    expect(filled.status, await filled.clone().text()).toBe(200);
    expect(filled.headers.get("content-type")).toBe("application/pdf");
    expect(filled.headers.get("content-disposition")).toContain("KYC - ");
    const document = await PDFDocument.load(new Uint8Array(await filled.arrayBuffer()));
    const form = document.getForm();
    expect(form.getTextField("applicant.fullLegalName").getText()).toBe("Ada Lovelace");
    expect(form.getTextField("dob").getText()).toBe("1990-12-10");
    expect(form.getTextField("Fax").getText()).toBeUndefined();
    expect(form.getCheckBox("pep_box").isChecked()).toBe(true);

    // Saved next to the PDF it fills: a file of that folder with the answers in it, once per submission.
    const save = () => send(owner.client, "POST", `/api/forms/${formId}/submissions/${submissionId}/filled.pdf/save`);
    const first = await save();
    expect(first.status, await first.clone().text()).toBe(201);
    const { file } = await first.json<{ file: { id: string; name: string; folderId: string } }>();
    expect(file).toMatchObject({ folderId: space.inboxId, name: expect.stringMatching(/^KYC - \d{4}-\d{2}-\d{2}\.pdf$/) });
    const stored = await get(`/api/files/${file.id}/download`, owner.client);
    expect(stored.status).toBe(200);
    expect((await PDFDocument.load(new Uint8Array(await stored.arrayBuffer()))).getForm().getTextField("applicant.fullLegalName").getText()).toBe("Ada Lovelace");
    const files = await countWhere("select count(*) as n from files where folder_id = ?", space.inboxId);
    const again = await save();
    expect(again.status).toBe(200);
    expect((await again.json<{ file: { id: string } }>()).file.id).toBe(file.id);
    expect(await countWhere("select count(*) as n from files where folder_id = ?", space.inboxId)).toBe(files);

    // Someone else: 404 (and nothing saved); before a mapping: 409.
    const outsider = await signedIn({ tier: "pro", name: "Ola Outside" });
    expect((await get(`/api/forms/${formId}/submissions/${submissionId}/filled.pdf`, outsider.client)).status).toBe(404);
    expect((await send(outsider.client, "POST", `/api/forms/${formId}/submissions/${submissionId}/filled.pdf/save`)).status).toBe(404);
    expect(await countWhere("select count(*) as n from files where folder_id = ?", space.inboxId)).toBe(files);
    expect((await send(owner.client, "PUT", `/api/forms/${formId}/pdf-mapping`, { fileId: null })).status).toBe(200);
    expect((await get(`/api/forms/${formId}/submissions/${submissionId}/filled.pdf`, owner.client)).status).toBe(409);
  });
});

describe("forms: who may map a form onto a PDF and fill it", () => {
  it("answers anonymous 401, an outsider 404 with nothing changed, a member without forms 403, and the owner 200", async () => {
    const owner = await signedIn({ tier: "pro", name: "Ona Owner" });
    const outsider = await signedIn({ tier: "pro", name: "Otto Outsider" });
    const free = await signedIn({ tier: "free", name: "Fred Free" });
    const formId = (await (await send(owner.client, "POST", "/api/forms", { templateId: "template-contact" })).json<{ form: { id: string } }>()).form.id;
    const space = await personalSpaceOf(owner.id);
    const pdf = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "Sheet.pdf", content: await fillablePdf(), contentType: "application/pdf" });
    const body = { fileId: pdf.id, pairs: { "applicant.fullLegalName": "name" } };
    const mapped = () => countWhere("select count(*) as n from forms where id = ? and pdf_map is not null", formId);
    expect((await send(await newAuthClient(), "PUT", `/api/forms/${formId}/pdf-mapping`, body)).status).toBe(401);
    expect((await send(outsider.client, "PUT", `/api/forms/${formId}/pdf-mapping`, body)).status).toBe(404);
    expect((await send(free.client, "PUT", `/api/forms/${formId}/pdf-mapping`, body)).status).toBe(403);
    expect((await get(`/api/forms/${formId}/pdf-mapping?fileId=${pdf.id}`, free.client)).status).toBe(403);
    expect(await mapped()).toBe(0);
    expect((await send(owner.client, "PUT", `/api/forms/${formId}/pdf-mapping`, body)).status).toBe(200);
    expect(await mapped()).toBe(1);
    const fake = crypto.randomUUID();
    expect((await get(`/api/forms/${formId}/submissions/${fake}/filled.pdf`)).status).toBe(401);
    expect((await get(`/api/forms/${formId}/submissions/${fake}/filled.pdf`, free.client)).status).toBe(403);
    expect((await send(await newAuthClient(), "POST", `/api/forms/${formId}/submissions/${fake}/filled.pdf/save`)).status).toBe(401);
    expect((await send(free.client, "POST", `/api/forms/${formId}/submissions/${fake}/filled.pdf/save`)).status).toBe(403);
    expect((await get(`/api/forms/${formId}/submissions/${fake}/filled.pdf`, owner.client)).status).toBe(404);
  });
});
