import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { EnvelopeDetail } from "~/features/signatures/envelopes.server";
import { signatureRemindersJob } from "~/features/signatures/signatures.jobs";
import type { VerifyReport } from "~/features/signatures/verify-types";
import worker from "~workers/app";
import { testContext } from "~tests/factories/files";
import { addDataroomMember } from "~tests/factories/datarooms";
import { contractPdf, signaturePng } from "~tests/shared/signature-fixtures";
import { countWhere, createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { mailsTo, newAuthClient, origin, testEnv } from "./helpers";
import { address, createEnvelope, linkTokenFor, openLink, pdfInPersonalSpace, sealNow, signAs, signatureField } from "./signature-helpers";

/**
 * E-signatures (issue 38, step 1): envelopes from a PDF to the sealed file, in parallel and in
 * order, decline, void, expiry and reminders through the cron, what one link may touch, the
 * verify endpoint, and the authorization matrix of the member routes.
 */

type Signing = { state: string; reason?: string; message?: string; fields: { id: string }[]; needsCode?: boolean; waitingFor?: string };

async function stateOf(token: string): Promise<Signing> {
  const response = await openLink(token);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json<{ signing: Signing }>()).signing;
}

async function envelopeOf(owner: Person, id: string): Promise<EnvelopeDetail> {
  const response = await get(`/api/signatures/${id}`, owner.client);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json<{ envelope: EnvelopeDetail }>()).envelope;
}

async function verify(bytes: Uint8Array<ArrayBuffer>, ip = `203.0.113.${Math.floor(Math.random() * 200) + 20}`): Promise<Response> {
  const visitor = await newAuthClient();
  return exports.default.fetch(`${origin}/api/signatures/verify`, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/pdf", origin, cookie: visitor.jar.header(), "x-csrf-token": visitor.csrfToken, "cf-connecting-ip": ip },
    body: bytes,
  });
}

describe("e-signatures: sending and signing", () => {
  let owner: Person;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Sam Sender" });
  });

  it("takes a parallel envelope from a PDF to a sealed file next to the original that the verify page recognises", async () => {
    const { file, space } = await pdfInPersonalSpace(owner, 2, "Share purchase agreement.pdf");
    const [ada, grace] = [address("ada"), address("grace")];
    const envelope = await createEnvelope(owner, {
      fileId: file.id,
      title: "Share purchase agreement",
      message: "Please sign by Friday.",
      recipients: [
        { roleId: "buyer", name: "Ada Lovelace", email: ada },
        { roleId: "seller", name: "Grace Hopper", email: grace },
      ],
      fields: [signatureField("buyer", "b1", { page: 1 }), signatureField("seller", "s1", { page: 1, x: 0.55 }), { ...signatureField("seller", "d1"), type: "date", y: 0.9, h: 0.035 }],
      send: true,
    });
    expect(envelope).toMatchObject({ status: "sent", pageCount: 2 });
    expect(envelope.people.map((person) => person.status)).toEqual(["sent", "sent"]);

    const adaToken = await linkTokenFor(ada);
    const graceToken = await linkTokenFor(grace);
    const opened = await stateOf(adaToken);
    expect(opened).toMatchObject({ state: "open", needsCode: false });
    expect(opened.fields.map((field) => field.id)).toEqual(["b1"]);

    const visitor = await newAuthClient();
    const signedAda = await signAs(visitor, adaToken, "", { consent: true, values: { b1: "typed:Ada Lovelace" } });
    expect(signedAda.status, await signedAda.clone().text()).toBe(200);
    expect(await signedAda.json()).toEqual({ completed: false, next: null });
    expect(await stateOf(adaToken)).toMatchObject({ state: "closed", reason: "signed" });

    const signedGrace = await signAs(visitor, graceToken, "", { consent: true, values: { s1: "svg:M20 150L120 40L200 160" } });
    expect(await signedGrace.json()).toEqual({ completed: true, next: null });
    await sealNow(envelope.id);

    const done = await envelopeOf(owner, envelope.id);
    expect(done.status).toBe("completed");
    expect(done.sealedSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(done.events.map((event) => event.type)).toEqual(expect.arrayContaining(["created", "sent", "opened", "signed", "completed"]));
    // The sealed file sits next to the original, under its own name.
    const sealedRow = await testEnv.DB.prepare("select name, folder_id as folderId, sha256 from files where id = ?").bind(done.sealedFileId).first<{ name: string; folderId: string; sha256: string }>();
    expect(sealedRow).toEqual({ name: "Share purchase agreement (signed).pdf", folderId: space.rootId, sha256: done.sealedSha256 });
    // Everyone gets the signed PDF by e-mail; the recipients' links now download it.
    for (const email of [ada, grace]) expect((await mailsTo(email)).some((mail) => mail.template === "signature-completed")).toBe(true);
    expect((await mailsTo(owner.email)).some((mail) => mail.subject.includes("is signed by everyone") && mail.textBody.includes(done.sealedSha256!))).toBe(true);
    const download = await exports.default.fetch(`${origin}/api/sign/${adaToken}/signed.pdf`);
    expect(download.status).toBe(200);
    const sealed = new Uint8Array(await download.arrayBuffer());

    const checked = await verify(sealed);
    expect(checked.status).toBe(200);
    const { result } = await checked.json<{ result: VerifyReport }>();
    expect(result).toMatchObject({ kind: "signed", allValid: true, modifiedAfterSigning: false, envelope: { title: "Share purchase agreement" } });
    expect(result.kind === "signed" && result.signatures[0]).toMatchObject({ ours: true, intact: true, signatureValid: true });

    // A byte changed after sealing, and an update appended after it, are both reported.
    const flipped = new Uint8Array(sealed);
    flipped[11] = flipped[11]! ^ 1;
    const flippedResult = (await (await verify(flipped)).json<{ result: VerifyReport }>()).result;
    expect(flippedResult.kind === "signed" && flippedResult.signatures[0]).toMatchObject({ intact: false, problem: "The signed bytes were changed after signing." });
    const { PDF } = await import("@libpdf/core");
    const later = await PDF.load(sealed);
    later.getPage(0)!.drawText("Changed later", { x: 72, y: 100 });
    const appended = new Uint8Array(await later.save({ incremental: true }));
    const appendedResult = (await (await verify(appended)).json<{ result: VerifyReport }>()).result;
    expect(appendedResult).toMatchObject({ kind: "signed", modifiedAfterSigning: true, envelope: null });
  });

  it("enforces the order of a sequential envelope on the server: the second signer waits until the first has signed", async () => {
    const { file } = await pdfInPersonalSpace(owner, 1);
    const [first, second] = [address("first"), address("second")];
    const envelope = await createEnvelope(owner, {
      fileId: file.id,
      title: "Board resolution",
      signingOrder: "sequential",
      recipients: [
        { roleId: "a", name: "First Signer", email: first },
        { roleId: "b", name: "Second Signer", email: second },
      ],
      fields: [signatureField("a", "a1"), signatureField("b", "b1", { x: 0.55 })],
      send: true,
    });
    expect(envelope.people.map((person) => person.status)).toEqual(["sent", "waiting"]);
    expect((await mailsTo(second)).length).toBe(0);
    // The second signer has no link yet; one is issued when it is their turn. Sending again refuses.
    const early = await send(owner.client, "POST", `/api/signatures/${envelope.id}/recipients/${envelope.people[1]!.id}/resend`);
    expect(early.status).toBe(409);
    expect((await early.json<{ message: string }>()).message).toContain("not Second Signer's turn");

    const visitor = await newAuthClient();
    const firstToken = await linkTokenFor(first);
    const signedFirst = await signAs(visitor, firstToken, "", { consent: true, values: { a1: "typed:First Signer" } });
    expect(await signedFirst.json()).toEqual({ completed: false, next: "Second Signer" });
    const secondToken = await linkTokenFor(second);
    expect(await stateOf(secondToken)).toMatchObject({ state: "open" });
    const signedSecond = await signAs(visitor, secondToken, "", { consent: true, values: { b1: "typed:Second Signer" } });
    expect(await signedSecond.json()).toEqual({ completed: true, next: null });
  });

  it("refuses a later signer who signs before their turn, and the database keeps nothing of it", async () => {
    const { file } = await pdfInPersonalSpace(owner, 1);
    const [first, second] = [address("one"), address("two")];
    const envelope = await createEnvelope(owner, {
      fileId: file.id,
      title: "Lease",
      signingOrder: "sequential",
      recipients: [
        { roleId: "a", name: "Landlord", email: first },
        { roleId: "b", name: "Tenant", email: second },
      ],
      fields: [signatureField("a", "a1"), signatureField("b", "b1", { x: 0.55 })],
      send: true,
    });
    // A link for the tenant made outside their turn (as a leaked or forwarded one would be).
    const { issueRecipientLink } = await import("~/features/signatures/envelopes.server");
    const early = /\/sign\/(.+)$/.exec(await issueRecipientLink(testContext(), envelope.people[1]!.id))![1]!;
    expect(await stateOf(early)).toMatchObject({ state: "waiting", waitingFor: "Landlord", message: "This document is signed in order: Landlord signs first. You will get an e-mail when it is your turn." });
    const refused = await signAs(await newAuthClient(), early, "", { consent: true, values: { b1: "typed:Tenant" } });
    expect(refused.status).toBe(409);
    expect(await countWhere("select count(*) as n from signature_recipients where envelope_id = ? and status = 'signed'", envelope.id)).toBe(0);
  });

  it("lets one recipient fill in only their own fields: another's field refuses the whole request", async () => {
    const { file } = await pdfInPersonalSpace(owner, 1);
    const [a, b] = [address("mine"), address("theirs")];
    const envelope = await createEnvelope(owner, {
      fileId: file.id,
      title: "NDA",
      recipients: [
        { roleId: "a", name: "Alice", email: a },
        { roleId: "b", name: "Bob", email: b },
      ],
      fields: [signatureField("a", "a1"), signatureField("b", "b1", { x: 0.55 }), { ...signatureField("b", "b2"), type: "text", label: "Company" }],
      send: true,
    });
    const token = await linkTokenFor(a);
    const visitor = await newAuthClient();
    const forged = await signAs(visitor, token, "", { consent: true, values: { a1: "typed:Alice", b1: "typed:Not Bob", b2: "Evil Corp" } });
    expect(forged.status).toBe(403);
    expect((await forged.json<{ message: string }>()).message).toBe("You can fill in only your own fields. Reload the page and sign again.");
    const missing = await signAs(visitor, token, "", { consent: true, values: {} });
    expect(missing.status).toBe(400);
    expect((await missing.json<{ message: string }>()).message).toBe("Sign here: draw your signature, type your name or upload a picture of it.");
    const noConsent = await signAs(visitor, token, "", { values: { a1: "typed:Alice" } });
    expect(noConsent.status).toBe(400);
    expect(await countWhere("select count(*) as n from signature_recipients where envelope_id = ? and status = 'signed'", envelope.id)).toBe(0);
    // Their own fields only: Bob's field ids never reach Alice's page.
    expect((await stateOf(token)).fields.map((field) => field.id)).toEqual(["a1"]);
  });

  it("signs with an uploaded picture of a signature: checked, usable only by its uploader, drawn into the sealed PDF, then deleted", async () => {
    const { file, space } = await pdfInPersonalSpace(owner, 1);
    const [a, b] = [address("picture"), address("typist")];
    const envelope = await createEnvelope(owner, {
      fileId: file.id,
      title: "Consulting agreement",
      recipients: [
        { roleId: "a", name: "Pia Picture", email: a },
        { roleId: "b", name: "Ty Typist", email: b },
      ],
      fields: [signatureField("a", "a1"), signatureField("b", "b1", { x: 0.55 })],
      send: true,
    });
    const [aToken, bToken] = [await linkTokenFor(a), await linkTokenFor(b)];
    const visitor = await newAuthClient();
    const upload = (token: string, body: Uint8Array<ArrayBuffer>, type = "image/png") =>
      exports.default.fetch(`${origin}/api/sign/${token}/signature-image`, { method: "POST", headers: { accept: "application/json", "content-type": type, origin, cookie: visitor.jar.header(), "x-csrf-token": visitor.csrfToken }, body });
    const imagePrefix = `signatures/${space.spaceId}/img-${envelope.id}/`;

    const notPicture = await upload(aToken, new TextEncoder().encode("%PDF-1.7 not a picture"));
    expect(notPicture.status).toBe(415);
    expect((await notPicture.json<{ message: string }>()).message).toBe("Use a PNG or JPEG picture of your signature.");
    const huge = new Uint8Array(1024 * 1024 + 1);
    huge.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect((await upload(aToken, huge)).status).toBe(413);
    const broken = (await signaturePng()).slice(0, 60);
    expect((await upload(aToken, broken)).status).toBe(400);
    expect((await testEnv.FILES.list({ prefix: imagePrefix })).objects).toHaveLength(0);

    const uploaded = await upload(aToken, await signaturePng());
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const { value } = await uploaded.json<{ value: string }>();
    expect(value).toMatch(/^image:[0-9a-f]{64}$/);
    // Another recipient cannot sign with it (pictures are kept per recipient), nor with a made-up one.
    const borrowed = await signAs(visitor, bToken, "", { consent: true, values: { b1: value } });
    expect(borrowed.status).toBe(400);
    expect((await borrowed.json<{ message: string }>()).message).toBe("Upload the picture of your signature again: it was not received.");
    expect((await signAs(visitor, aToken, "", { consent: true, values: { a1: `image:${"0".repeat(64)}` } })).status).toBe(400);
    expect(await countWhere("select count(*) as n from signature_recipients where envelope_id = ? and status = 'signed'", envelope.id)).toBe(0);

    expect((await signAs(visitor, aToken, "", { consent: true, values: { a1: value } })).status).toBe(200);
    expect(await (await signAs(visitor, bToken, "", { consent: true, values: { b1: "typed:Ty Typist" } })).json()).toEqual({ completed: true, next: null });
    await sealNow(envelope.id);
    const sealed = new TextDecoder("latin1").decode(await (await exports.default.fetch(`${origin}/api/sign/${aToken}/signed.pdf`)).arrayBuffer());
    expect(sealed.match(/\/Subtype\s*\/Image/g)?.length).toBe(2); // the picture and its transparency mask
    expect((await testEnv.FILES.list({ prefix: imagePrefix })).objects).toHaveLength(0);
    // A closed link takes no more pictures.
    expect((await upload(aToken, await signaturePng())).status).toBe(410);
  });

  it("closes every link when a recipient declines with a reason, and tells the sender", async () => {
    const { file } = await pdfInPersonalSpace(owner, 1);
    const [a, b] = [address("decliner"), address("other")];
    const envelope = await createEnvelope(owner, {
      fileId: file.id,
      title: "Side letter",
      recipients: [
        { roleId: "a", name: "Dee Cliner", email: a },
        { roleId: "b", name: "Otto Other", email: b },
      ],
      fields: [signatureField("a", "a1"), signatureField("b", "b1", { x: 0.55 })],
      send: true,
    });
    const visitor = await newAuthClient();
    const noReason = await signAs(visitor, await linkTokenFor(a), "/decline", { reason: " " });
    expect(noReason.status).toBe(400);
    const declined = await signAs(visitor, await linkTokenFor(a), "/decline", { reason: "The price in clause 4 is wrong." });
    expect(declined.status).toBe(200);
    expect((await envelopeOf(owner, envelope.id)).status).toBe("declined");
    expect(await stateOf(await linkTokenFor(a))).toMatchObject({ state: "closed", reason: "declined" });
    expect(await stateOf(await linkTokenFor(b))).toMatchObject({ state: "closed", reason: "otherDeclined" });
    const late = await signAs(visitor, await linkTokenFor(b), "", { consent: true, values: { b1: "typed:Otto" } });
    expect(late.status).toBe(410);
    expect((await mailsTo(owner.email)).some((mail) => mail.template === "signature-declined" && mail.textBody.includes("The price in clause 4 is wrong."))).toBe(true);
  });

  it("voids an envelope: its links say so and nobody can sign, and a voided one cannot be voided again", async () => {
    const { file } = await pdfInPersonalSpace(owner, 1);
    const a = address("voided");
    const envelope = await createEnvelope(owner, { fileId: file.id, title: "Old offer", recipients: [{ roleId: "a", name: "Vic", email: a }], fields: [signatureField("a", "a1")], send: true });
    const voided = await send(owner.client, "POST", `/api/signatures/${envelope.id}/void`, { reason: "Superseded by the new offer." });
    expect(voided.status).toBe(200);
    expect(await stateOf(await linkTokenFor(a))).toMatchObject({ state: "closed", reason: "voided", message: "The sender voided this document: it can no longer be signed." });
    expect((await signAs(await newAuthClient(), await linkTokenFor(a), "", { consent: true, values: { a1: "typed:Vic" } })).status).toBe(410);
    expect((await mailsTo(a)).some((mail) => mail.template === "signature-voided")).toBe(true);
    expect((await send(owner.client, "POST", `/api/signatures/${envelope.id}/void`, {})).status).toBe(409);
  });

  it("asks for an e-mailed code before signing when the sender chose it", async () => {
    const { file } = await pdfInPersonalSpace(owner, 1);
    const a = address("coded");
    await createEnvelope(owner, { fileId: file.id, title: "Loan", recipients: [{ roleId: "a", name: "Cody", email: a, requireCode: true }], fields: [signatureField("a", "a1")], send: true });
    const token = await linkTokenFor(a);
    expect(await stateOf(token)).toMatchObject({ state: "open", needsCode: true });
    const visitor = await newAuthClient();
    const withoutCode = await signAs(visitor, token, "", { consent: true, values: { a1: "typed:Cody" } });
    expect(withoutCode.status).toBe(403);
    const asked = await signAs(visitor, token, "/code", {});
    expect(asked.status).toBe(200);
    const pending = asked.headers.get("set-cookie")!.split(";")[0]!;
    const code = /\b(\d{6})\b/.exec((await mailsTo(a)).filter((mail) => mail.template === "signature-email-code").at(-1)!.textBody)![1]!;
    const confirmed = await signAs(visitor, token, "/code/confirm", { code }, pending);
    expect(confirmed.status).toBe(200);
    const proof = confirmed.headers.get("set-cookie")!.split(";")[0]!;
    const signed = await signAs(visitor, token, "", { consent: true, values: { a1: "typed:Cody" } }, proof);
    expect(signed.status, await signed.clone().text()).toBe(200);
  });

  it("checks sending: every signer needs a field, fields sit on real pages, one role per recipient", async () => {
    const { file } = await pdfInPersonalSpace(owner, 1);
    const [a, b] = [address("withfield"), address("nofield")];
    const recipients = [
      { roleId: "a", name: "Has Field", email: a },
      { roleId: "b", name: "No Field", email: b },
    ];
    const draft = await createEnvelope(owner, { fileId: file.id, title: "Draft", recipients, fields: [signatureField("a", "a1")] });
    expect(draft.status).toBe("draft");
    const refused = await send(owner.client, "POST", `/api/signatures/${draft.id}/send`);
    expect(refused.status).toBe(400);
    expect((await refused.json<{ message: string }>()).message).toBe("No Field has no field to sign yet. Place at least one field for every signer.");
    expect((await mailsTo(a)).length).toBe(0);
    const offPage = await send(owner.client, "POST", "/api/signatures", { fileId: file.id, title: "x", recipients, fields: [signatureField("a", "a1", { page: 3 })] });
    expect(offPage.status).toBe(400);
    expect((await offPage.json<{ message: string }>()).message).toBe("fields: A field is on page 4, but the document has 1 page.");
    const twice = await send(owner.client, "POST", "/api/signatures", { fileId: file.id, title: "x", recipients: [recipients[0], { ...recipients[1], email: a }], fields: [] });
    expect(twice.status).toBe(400);
    // The draft is fixed by revision, then sent.
    const fixed = await send(owner.client, "PUT", `/api/signatures/${draft.id}`, { revision: draft.revision, title: "Draft", recipients, fields: [signatureField("a", "a1"), signatureField("b", "b1", { x: 0.55 })] });
    expect(fixed.status, await fixed.clone().text()).toBe(200);
    const stale = await send(owner.client, "PUT", `/api/signatures/${draft.id}`, { revision: draft.revision, title: "Old tab", recipients, fields: [] });
    expect(stale.status).toBe(409);
    expect((await send(owner.client, "POST", `/api/signatures/${draft.id}/send`)).status).toBe(200);
  });

  it("expires envelopes and sends due reminders through the morning cron, once a day", async () => {
    const { file } = await pdfInPersonalSpace(owner, 1);
    const [late, slow] = [address("late"), address("slow")];
    const expiring = await createEnvelope(owner, { fileId: file.id, title: "Expiring", expiresInDays: 3, recipients: [{ roleId: "a", name: "Lately", email: late }], fields: [signatureField("a", "a1")], send: true });
    const reminded = await createEnvelope(owner, { fileId: file.id, title: "Reminded", reminderFirstDays: 2, reminderEveryDays: 3, recipients: [{ roleId: "a", name: "Slowly", email: slow }], fields: [signatureField("a", "a1")], send: true });

    // The 07:00 trigger enqueues the job (captured here, run below with a later clock).
    const sent: { jobId: string }[] = [];
    const queue = { send: async (body: { jobId: string }) => void sent.push(body), sendBatch: async () => undefined };
    await worker.scheduled!(createScheduledController({ cron: "0 7 * * *", scheduledTime: Date.UTC(2026, 10, 28, 7) }), { ...testEnv, BATCH_JOBS: queue as unknown as Queue }, createExecutionContext());
    expect(sent.map((body) => body.jobId)).toContain("cron:signatures.reminders:2026-11-28");

    const run = (days: number) => signatureRemindersJob.run({ ...testContext(() => new Date(Date.now() + days * 86_400_000)), jobId: "test" }, {});
    await run(1);
    expect((await mailsTo(slow)).filter((mail) => mail.template === "signature-request").length).toBe(1);
    await run(2.1);
    await run(2.2);
    const afterFirst = (await mailsTo(slow)).filter((mail) => mail.template === "signature-request");
    expect(afterFirst.length).toBe(2);
    expect(afterFirst.at(-1)!.subject).toMatch(/^Reminder: /);
    await run(3.5);
    expect((await envelopeOf(owner, expiring.id)).status).toBe("expired");
    expect(await stateOf(await linkTokenFor(late))).toMatchObject({ state: "closed", reason: "expired" });
    expect((await envelopeOf(owner, reminded.id)).people[0]!.remindersSent).toBe(1);
  });
});

describe("e-signature templates", () => {
  it("saves a designed PDF with roles as a template, edits it by revision, and sends envelopes from it with a recipient per role", async () => {
    const owner = await signedIn({ tier: "pro", name: "Tia Template" });
    const { file } = await pdfInPersonalSpace(owner, 2, "Sale agreement.pdf");
    const roles = [
      { id: "buyer", name: "Buyer" },
      { id: "seller", name: "Seller" },
    ];
    const created = await send(owner.client, "POST", "/api/signatures/templates", { fileId: file.id, name: "Sale agreement", roles });
    expect(created.status, await created.clone().text()).toBe(201);
    const { template } = await created.json<{ template: { id: string; revision: number; pageCount: number; fields: unknown[] } }>();
    expect(template).toMatchObject({ pageCount: 2, fields: [] });
    const fields = [signatureField("buyer", "b1", { page: 1 }), signatureField("seller", "s1", { page: 1, x: 0.55 })];
    const saved = await send(owner.client, "PUT", `/api/signatures/templates/${template.id}`, { revision: template.revision, name: "Sale agreement", roles, fields });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const stale = await send(owner.client, "PUT", `/api/signatures/templates/${template.id}`, { revision: template.revision, name: "Old tab", roles, fields: [] });
    expect(stale.status).toBe(409);
    const unknownRole = await send(owner.client, "PUT", `/api/signatures/templates/${template.id}`, { revision: template.revision + 1, name: "x", roles, fields: [signatureField("nobody", "n1")] });
    expect(unknownRole.status).toBe(400);
    // Other members cannot see or use it.
    const outsider = await signedIn({ tier: "pro" });
    expect((await get(`/api/signatures/templates/${template.id}`, outsider.client)).status).toBe(404);
    expect((await send(outsider.client, "POST", "/api/signatures", { templateId: template.id, title: "x", recipients: [{ roleId: "buyer", name: "B", email: address("b") }], fields: [] })).status).toBe(404);

    // Sending from it: every role with fields needs a recipient.
    const oneShort = await send(owner.client, "POST", "/api/signatures", { templateId: template.id, title: "Sale to Bob", recipients: [{ roleId: "buyer", name: "Bob", email: address("bob") }], fields: [] });
    expect(oneShort.status).toBe(400);
    expect((await oneShort.json<{ message: string }>()).message).toBe("recipients: Add a recipient for the role “Seller”.");
    const envelope = await createEnvelope(owner, { templateId: template.id, title: "Sale to Bob", recipients: [{ roleId: "buyer", name: "Bob", email: address("bob") }, { roleId: "seller", name: "Sue", email: address("sue") }], fields: [], send: true });
    expect(envelope).toMatchObject({ status: "sent", pageCount: 2, documentName: "Sale agreement.pdf" });
    expect(envelope.fields.map((field) => field.id)).toEqual(["b1", "s1"]);
    const listed = await (await get("/api/signatures/templates", owner.client)).json<{ templates: { id: string; fieldCount: number }[] }>();
    expect(listed.templates).toEqual([expect.objectContaining({ id: template.id, fieldCount: 2 })]);
    expect((await get(`/api/signatures/templates/${template.id}/document`, owner.client)).headers.get("content-type")).toBe("application/pdf");

    // Deleting sends it to the trash: gone from the list and from sending, back on restore, and
    // purged with its PDF by the daily job after 30 days. Envelopes sent from it keep their copy.
    expect((await send(outsider.client, "DELETE", `/api/signatures/templates/${template.id}`)).status).toBe(404);
    expect((await send(owner.client, "DELETE", `/api/signatures/templates/${template.id}`)).status).toBe(200);
    expect((await get(`/api/signatures/templates/${template.id}`, owner.client)).status).toBe(404);
    expect((await send(outsider.client, "POST", `/api/signatures/templates/${template.id}/restore`)).status).toBe(404);
    expect((await send(owner.client, "POST", `/api/signatures/templates/${template.id}/restore`)).status).toBe(200);
    expect((await get(`/api/signatures/templates/${template.id}`, owner.client)).status).toBe(200);
    expect((await send(owner.client, "DELETE", `/api/signatures/templates/${template.id}`)).status).toBe(200);
    const key = (await testEnv.DB.prepare("select document_key as key from signature_templates where id = ?").bind(template.id).first<{ key: string }>())!.key;
    await signatureRemindersJob.run({ ...testContext(() => new Date(Date.now() + 29 * 86_400_000)), jobId: "test" }, {});
    expect(await countWhere("select count(*) as n from signature_templates where id = ?", template.id)).toBe(1);
    await signatureRemindersJob.run({ ...testContext(() => new Date(Date.now() + 31 * 86_400_000)), jobId: "test" }, {});
    expect(await countWhere("select count(*) as n from signature_templates where id = ?", template.id)).toBe(0);
    expect(await testEnv.FILES.head(key)).toBeNull();
    expect((await get(`/api/signatures/${envelope.id}/document`, owner.client)).status).toBe(200);
  });
});

describe("signatures in the workspace search", () => {
  it("finds the member's own documents by title or document name and their templates by name, never another's or a trashed template, and narrows by place", async () => {
    const owner = await signedIn({ tier: "pro", name: "Sue Searcher" });
    const other = await signedIn({ tier: "pro", name: "Otto Other" });
    const { file } = await pdfInPersonalSpace(owner, 1, "Kestrel lease.pdf");
    const one = [{ roleId: "a", name: "Kim", email: address("kim") }];
    const mine = await createEnvelope(owner, { fileId: file.id, title: "Warehouse lease", recipients: one, fields: [signatureField("a", "a1")] });
    const template = await (await send(owner.client, "POST", "/api/signatures/templates", { fileId: file.id, name: "Kestrel NDA", roles: [{ id: "a", name: "Party" }] })).json<{ template: { id: string } }>();
    const trashed = await (await send(owner.client, "POST", "/api/signatures/templates", { fileId: file.id, name: "Kestrel old", roles: [{ id: "a", name: "Party" }] })).json<{ template: { id: string } }>();
    expect((await send(owner.client, "DELETE", `/api/signatures/templates/${trashed.template.id}`)).status).toBe(200);
    const { file: theirs } = await pdfInPersonalSpace(other, 1, "Kestrel theirs.pdf");
    await createEnvelope(other, { fileId: theirs.id, title: "Kestrel deal", recipients: one, fields: [signatureField("a", "a1")] });

    const { searchWorkspace } = await import("~/features/search/search.server");
    const search = async (query: Record<string, string>) => (await searchWorkspace(testContext(), owner.id, query)).hits;
    const found = await search({ q: "kestrel", kind: "signature" });
    expect(found.map((hit) => [hit.title, hit.href, hit.detail]).sort()).toEqual([
      ["Kestrel NDA", `/signatures/templates/${template.template.id}`, "Template"],
      ["Warehouse lease", `/signatures/${mine.id}`, "Draft"],
    ]);
    expect((await search({ q: "wareho" })).filter((hit) => hit.kind === "signature").map((hit) => hit.id)).toEqual([mine.id]);
    expect(await search({ q: "kestrel", kind: "signature", owner: "others" })).toEqual([]);
    expect((await search({ q: "kestrel", kind: "signature", place: "personal" })).length).toBe(2);
    expect(await search({ q: "kestrel", kind: "signature", place: crypto.randomUUID() })).toEqual([]);
  });
});

describe("signatures waiting for me", () => {
  it("puts a document waiting on the member's own signature in their attention feed, with their own link, and takes it out once signed", async () => {
    const sender = await signedIn({ tier: "pro", name: "Sid Sender" });
    const signer = await signedIn({ name: "Mia Member" });
    const { file } = await pdfInPersonalSpace(sender, 1);
    await createEnvelope(sender, { fileId: file.id, title: "Member contract", recipients: [{ roleId: "a", name: "Mia Member", email: signer.email }], fields: [signatureField("a", "a1")], send: true });
    const { getDashboard } = await import("~/features/workspace/dashboard.server");
    const attention = async () => (await getDashboard(testContext(), signer.id, ["attention"]).widgets.attention) as { kind: string; title: string; href: string }[];
    const waiting = (await attention()).filter((item) => item.kind === "signature.waiting");
    expect(waiting).toEqual([expect.objectContaining({ title: "Sid Sender asks you to sign “Member contract”", href: `/sign/${await linkTokenFor(signer.email)}` })]);
    expect((await attention()).some((item) => item.kind === "signature.waiting" && item.title.includes("Member contract"))).toBe(true);
    await signAs(await newAuthClient(), await linkTokenFor(signer.email), "", { consent: true, values: { a1: "typed:Mia Member" } });
    expect((await attention()).filter((item) => item.kind === "signature.waiting")).toEqual([]);
    // The sender's own list does not show it as waiting for them.
    const senderView = await (await get("/api/signatures?view=waiting_for_me", sender.client)).json<{ envelopes: unknown[] }>();
    expect(senderView.envelopes).toEqual([]);
  });
});

describe("e-signatures: who may", () => {
  let owner: Person;
  let envelopeId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Olive Owner" });
    const { file } = await pdfInPersonalSpace(owner, 1);
    envelopeId = (await createEnvelope(owner, { fileId: file.id, title: "Private deal", recipients: [{ roleId: "a", name: "Xena", email: address("xena") }], fields: [signatureField("a", "a1")] })).id;
  });

  it("answers anonymous 401, an outsider 404 with nothing changed, and the owner", async () => {
    expect((await get(`/api/signatures/${envelopeId}`)).status).toBe(401);
    const outsider = await signedIn({ tier: "pro", name: "Outsider" });
    for (const [method, path] of [
      ["GET", `/api/signatures/${envelopeId}`],
      ["PUT", `/api/signatures/${envelopeId}`],
      ["POST", `/api/signatures/${envelopeId}/send`],
      ["POST", `/api/signatures/${envelopeId}/void`],
      ["GET", `/api/signatures/${envelopeId}/document`],
    ] as const) {
      const response = method === "GET" ? await get(path, outsider.client) : await send(outsider.client, method, path, {});
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect(await countWhere("select count(*) as n from signature_envelopes where id = ? and status = 'draft'", envelopeId)).toBe(1);
    expect((await get(`/api/signatures/${envelopeId}`, owner.client)).status).toBe(200);
    const listed = await (await get("/api/signatures?view=drafts", outsider.client)).json<{ envelopes: { id: string }[] }>();
    expect(listed.envelopes.map((one) => one.id)).not.toContain(envelopeId);
  });

  it("refuses a member whose plan has no e-signatures with the spec's message, and the add-on unlocks it", async () => {
    const basic = await signedIn({ tier: "basic", name: "Basil Basic" });
    const { file } = await pdfInPersonalSpace(basic, 1);
    const body = { fileId: file.id, title: "Try", recipients: [{ roleId: "a", name: "Someone", email: address("someone") }], fields: [signatureField("a", "a1")] };
    const refused = await send(basic.client, "POST", "/api/signatures", body);
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toMatch(/^E-signatures require appropriate permissions/);
    await testEnv.DB.prepare("insert into user_addons (user_id, addon, quantity, updated_at) values (?, 'e_signatures', 1, ?)").bind(basic.id, Date.now()).run();
    expect((await send(basic.client, "POST", "/api/signatures", body)).status).toBe(201);
  });

  it("lets room people with request_signatures send from the room's PDFs and see the room's envelopes; others get 403", async () => {
    const room = await createRoom(owner.client, `Signing room ${Date.now()}`);
    const { createFile } = await import("~tests/factories/files");
    const pdf = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "Room deal.pdf", content: new Uint8Array(await contractPdf(1)), contentType: "application/pdf", uploadedBy: owner.id });
    const member = await signedIn({ tier: "pro", name: "Mo Member" });
    await addDataroomMember(room.id, member.id, "member");
    const body = { fileId: pdf.id, dataroomId: room.id, title: "Room deal", recipients: [{ roleId: "a", name: "Rita", email: address("rita") }], fields: [signatureField("a", "a1")] };
    const refused = await send(member.client, "POST", "/api/signatures", body);
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toBe("You don't have permission to request signatures in this data room.");
    const created = await createEnvelope(owner, body);
    expect(created.dataroomId).toBe(room.id);
    expect((await get(`/api/signatures/${created.id}`, member.client)).status).toBe(403);
    expect((await get(`/api/signatures?dataroomId=${room.id}`, member.client)).status).toBe(403);
    await testEnv.DB.prepare("update dataroom_members set overrides = ? where dataroom_id = ? and user_id = ?").bind(JSON.stringify({ request_signatures: true }), room.id, member.id).run();
    await testEnv.DATA_ROOM.getByName(room.id).reload(room.id);
    const listed = await (await get(`/api/signatures?dataroomId=${room.id}`, member.client)).json<{ envelopes: { id: string }[] }>();
    expect(listed.envelopes.map((one) => one.id)).toEqual([created.id]);
    await testEnv.DATA_ROOM.getByName(room.id).flushAudit();
    const audit = await countWhere("select count(*) as n from dataroom_audit_log where dataroom_id = ? and action = 'signature.created'", room.id);
    expect(audit).toBe(1);
  });
});

describe("a member's signature records", () => {
  it("are in their export (without link tokens) and gone after erasure, with the envelopes' own copies of the PDF", async () => {
    const sender = await signedIn({ tier: "pro", name: "Pia Private" });
    const { file } = await pdfInPersonalSpace(sender, 1);
    const envelope = await createEnvelope(sender, { fileId: file.id, title: "Private matter", recipients: [{ roleId: "a", name: "Ray", email: address("ray") }], fields: [signatureField("a", "a1")], send: true });
    const { signaturesPersonalData } = await import("~/features/signatures/personal-data.server");
    const records = await signaturesPersonalData.export(testContext(), sender.id);
    expect(records.map((record) => record.path)).toEqual(["signatures/documents.json"]);
    expect(JSON.stringify(records)).toContain("Private matter");
    expect(JSON.stringify(records)).not.toMatch(/token/i);
    const { r2Keys } = await signaturesPersonalData.erase(testContext(), sender.id);
    expect(r2Keys).toHaveLength(1);
    expect(r2Keys[0]).toMatch(/^signatures\//);
    expect(await countWhere("select count(*) as n from signature_envelopes where id = ?", envelope.id)).toBe(0);
    expect(await countWhere("select count(*) as n from signature_recipients where envelope_id = ?", envelope.id)).toBe(0);
  });
});

describe("the verify endpoint", () => {
  it("answers a file that is not a PDF, a PDF without signatures, an empty body and a file over 25 MB plainly", async () => {
    const notPdf = await verify(new TextEncoder().encode("hello, not a pdf"));
    expect(notPdf.status).toBe(200);
    expect((await notPdf.json<{ result: VerifyReport }>()).result.kind).toBe("not-pdf");
    const unsigned = await verify(new Uint8Array(await contractPdf(1)));
    expect((await unsigned.json<{ result: VerifyReport }>()).result.kind).toBe("unsigned");
    expect((await verify(new Uint8Array(0))).status).toBe(400);
    const big = await verify(new Uint8Array(25 * 1024 * 1024 + 1));
    expect(big.status).toBe(413);
  });
});
