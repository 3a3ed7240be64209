// The demo member's sample content, put in through the running app's own API (sign-in, folders,
// tus uploads, the trash), so it is made exactly as a member's would be: sniffed, hashed, counted
// against the quota. `npm start` runs it once, right after it creates the demo member; no network
// beyond the local server. Usage on its own: node scripts/seed-demo.mjs [http://localhost:5173]
import { makePdf } from "./bench/pdf-fixture.mjs";
import { DEMO_GUEST, DEMO_MEMBER } from "./ops-lib.mjs";
import { makePng } from "./bench/png-fixture.mjs";

/** A tiny browser: cookies follow Set-Cookie, unsafe requests carry the CSRF token. */
function client(baseURL) {
  const cookies = new Map();
  let csrf = "";
  async function request(path, init = {}) {
    const headers = new Headers(init.headers);
    headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    if (init.method && init.method !== "GET") headers.set("x-csrf-token", csrf);
    const response = await fetch(new URL(path, baseURL), { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair.indexOf("=");
      const value = pair.slice(index + 1);
      if (value === "") cookies.delete(pair.slice(0, index));
      else cookies.set(pair.slice(0, index), value);
    }
    return response;
  }
  async function json(path, init = {}, expected = 200) {
    const response = await request(path, { ...init, headers: { accept: "application/json", "content-type": "application/json", ...init.headers } });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${init.method ?? "GET"} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  }
  return {
    request,
    json,
    /** Opens a page as a visitor would (its CSRF token is then sent with unsafe requests). */
    async open(path) {
      const page = await (await request(path)).text();
      csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page)?.[1] ?? csrf;
    },
    async signIn({ email, password }) {
      const page = await (await request("/login")).text();
      csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page)?.[1] ?? "";
      const body = await json("/login", { method: "POST", body: JSON.stringify({ email, password }) });
      csrf = body.csrf_token;
    },
  };
}

/** A solid-colour PNG with a darker band across its lower part. */
const bandedPng = (width, height, [r, g, b]) => makePng(width, height, (y) => (y > height * 0.6 ? [r * 0.7, g * 0.7, b * 0.7] : [r, g, b]));

const base64 = (text) => Buffer.from(text, "utf8").toString("base64");

/** One file through the tus API (creation, then one PATCH per part); returns the new file's id. */
async function upload(browser, folderId, name, body) {
  const tus = { "tus-resumable": "1.0.0", "x-requested-with": "XMLHttpRequest" };
  const created = await browser.request("/api/uploads", {
    method: "POST",
    headers: { ...tus, "upload-length": String(body.length), "upload-metadata": `filename ${base64(name)},folderId ${base64(folderId)}` },
  });
  if (created.status !== 201) throw new Error(`Uploading ${name}: ${created.status} ${await created.text()}`);
  const location = created.headers.get("location");
  const partSize = Number(created.headers.get("strongroom-part-size"));
  let offset = 0;
  let fileId = null;
  while (offset < body.length) {
    const patched = await browser.request(location, {
      method: "PATCH",
      headers: { ...tus, "upload-offset": String(offset), "content-type": "application/offset+octet-stream" },
      body: body.subarray(offset, Math.min(body.length, offset + partSize)),
    });
    if (patched.status !== 204) throw new Error(`Uploading ${name}: ${patched.status} ${await patched.text()}`);
    offset = Number(patched.headers.get("upload-offset"));
    fileId = patched.headers.get("strongroom-file-id") ?? fileId;
  }
  return fileId;
}

export const DEMO_FOLDERS = [
  { label: "Board papers", color: "#2563eb", icon: "gavel" },
  { label: "Contracts", color: "#059669", icon: "handshake" },
  { label: "Site photos", color: "#ea580c", icon: "photo_library", kind: "gallery" },
];

export const DEMO_DATAROOM = { name: "Project Falcon", description: "Due diligence for the Falcon acquisition: teaser, financials and legal documents." };

/** Folders, a multi-page PDF, images, a text and a CSV file, a file in the trash, and a data room. */
export async function seedDemoContent(baseURL, member = DEMO_MEMBER, guest = DEMO_GUEST) {
  const browser = client(baseURL);
  await browser.signIn(member);
  const { folders } = await browser.json("/api/user/default-folders");
  const inbox = folders.find((folder) => folder.label === "Inbox") ?? folders[0];
  const made = {};
  for (const folder of DEMO_FOLDERS) {
    const body = await browser.json("/api/folders", { method: "POST", body: JSON.stringify({ parentId: inbox.uid, ...folder }) }, 201);
    made[folder.label] = body.folder.uid ?? body.folder.id;
  }
  await upload(browser, made["Board papers"], "Board pack Q3.pdf", makePdf({ pages: 6, text: "Revenue grew eleven percent. The Falcon acquisition closes in December." }));
  await upload(
    browser,
    made["Board papers"],
    "Minutes 2026-09-14.txt",
    Buffer.from("Minutes of the board meeting, 14 September 2026\n\n1. Quarterly results approved.\n2. Data room for the Series B opened.\n3. Next meeting: 12 October.\n"),
  );
  await upload(
    browser,
    made["Contracts"],
    "Customers.csv",
    Buffer.from("customer,plan,seats,renewal\nNorthwind,Business,40,2027-01-31\nContoso,Pro,12,2026-12-15\nFabrikam,Basic,5,2027-03-01\n"),
  );
  const lobby = await upload(browser, made["Site photos"], "Lobby.png", bandedPng(320, 200, [37, 99, 235]));
  const roof = await upload(browser, made["Site photos"], "Roof terrace.png", bandedPng(320, 200, [234, 88, 12]));
  const draft = await upload(browser, inbox.uid, "Old draft.txt", Buffer.from("An early draft, superseded by the board pack.\n"));
  await browser.json("/api/items/delete", { method: "POST", body: JSON.stringify({ items: [{ type: "file", id: draft }] }) });

  // A data room with its own documents (docs/datarooms.md).
  const { dataroom } = await browser.json("/api/datarooms", { method: "POST", body: JSON.stringify(DEMO_DATAROOM) }, 201);
  const { rootFolderId } = await browser.json(`/api/datarooms/${dataroom.id}`);
  const financials = await browser.json("/api/folders", { method: "POST", body: JSON.stringify({ parentId: rootFolderId, label: "Financials", color: "#7c3aed", icon: "insights" }) }, 201);
  const teaser = await upload(browser, rootFolderId, "Falcon teaser.pdf", makePdf({ pages: 3, text: "Project Falcon: a logistics platform with EUR 2.2 million quarterly revenue." }));
  await upload(browser, financials.folder.uid, "Revenue by quarter.csv", Buffer.from("quarter,revenue_eur\n2026-Q1,1840000\n2026-Q2,2015000\n2026-Q3,2230000\n"));

  // The demo guest joins the room the way anyone would: an invitation mailed to them, its link accepted.
  const message = "Welcome to the Falcon data room: start with the teaser.";
  await browser.json(`/api/datarooms/${dataroom.id}/invitations`, { method: "POST", body: JSON.stringify({ emails: [guest.email], role: "guest", message }) }, 201);
  const mailbox = await (await browser.request(`/dev/mail?to=${encodeURIComponent(guest.email)}`)).text();
  const token = /\/invite\/([A-Za-z0-9_-]{43})/.exec(mailbox)?.[1];
  if (!token) throw new Error("The demo guest's invitation is not in the development mailbox.");
  const guestBrowser = client(baseURL);
  await guestBrowser.signIn(guest);
  await guestBrowser.json("/api/invitations/accept", { method: "POST", body: JSON.stringify({ token }) });

  // A share link of the teaser for investors (docs/sharing.md): /s/falcon-teaser asks for an e-mail address.
  await browser.json("/api/share-links", { method: "POST", body: JSON.stringify({ target: { type: "file", id: teaser }, name: "For investors", slug: "falcon-teaser", requireEmail: true }) }, 201);

  // A public gallery of the site photos (docs/galleries.md): /public-gallery/site-photos, web-size downloads.
  await browser.json("/api/share-links", { method: "POST", body: JSON.stringify({ target: { type: "folder", id: made["Site photos"] }, presentation: "gallery", name: "For the client", slug: "site-photos", downloadSize: "web" }) }, 201);

  // A receive page (docs/receive-pages.md): anyone at /r/falcon-documents sends files into the room.
  await browser.json(
    "/api/receive-pages",
    {
      method: "POST",
      body: JSON.stringify({
        kind: "form",
        title: "Falcon: documents from the seller",
        message: "Please send the signed NDA and the latest management accounts.",
        folderId: financials.folder.uid,
        slug: "falcon-documents",
        requireName: true,
        requireEmail: true,
        perUploaderFolders: true,
        brandColor: "#7c3aed",
        fields: [{ id: "company", type: "text", label: "Company", required: true }],
      }),
    },
    201,
  );

  // A published form (docs/forms.md) with a rule, a file question and a signature, delivering into the
  // Falcon room (its submissions are in the room's audit log), and two submissions from visitors without an account.
  const { form } = await browser.json("/api/forms", { method: "POST", body: JSON.stringify({ templateId: "template-client-intake", title: "Falcon: buyer intake" }) }, 201);
  const fields = [
    ...form.definition.fields,
    { id: "loi", type: "file", label: "Letter of intent (PDF, optional)", required: false, max: 1, accept: ["pdf"], maxFileMb: 20 },
    { id: "signature", type: "signature", label: "Signature", required: false },
  ];
  await browser.json(`/api/forms/${form.id}/draft`, { method: "PUT", body: JSON.stringify({ revision: form.revision, title: form.title, description: form.description, fields, rules: form.definition.rules }) });
  await browser.json(`/api/forms/${form.id}/settings`, { method: "PATCH", body: JSON.stringify({ thankYouMessage: "Thank you. The Falcon deal team will write to you within two working days.", fileFolderId: rootFolderId }) });
  await browser.json(`/api/forms/${form.id}/publish`, { method: "POST" });
  const visitor = client(baseURL);
  await visitor.open(`/forms/${form.id}/view`);
  const answers = [
    { name: "Grace Hopper", email: "grace@example.com", kind: "A company", company: "Cobol Capital", matter: "We would like to see the data room for Project Falcon.", referral: "An event", consent: true, signature: "typed:Grace Hopper" },
    { name: "Alan Turing", email: "alan@example.com", phone: "+44 20 7946 0000", kind: "A person", matter: "Private investor: interested in a minority stake.", referral: "A friend or colleague", consent: true },
  ];
  for (const answer of answers) await visitor.json(`/api/forms/${form.id}/submissions`, { method: "POST", body: JSON.stringify({ answers: answer }) }, 201);

  // E-signatures (docs/signatures.md): the Falcon NDA, signed in order in the room (the demo guest has
  // signed, Grace's turn now), and a consulting agreement everyone signed, sealed next to its original.
  const signField = (roleId, id, page, x) => ({ id, type: "signature", roleId, page, x, y: 0.78, w: 0.3, h: 0.07, required: true, label: "", options: [] });
  const dateField = (roleId, id, page, x) => ({ id, type: "date", roleId, page, x, y: 0.87, w: 0.18, h: 0.035, required: true, label: "", options: [] });
  const nda = await upload(browser, rootFolderId, "Falcon NDA.pdf", makePdf({ pages: 2, text: "Mutual non-disclosure agreement between the parties to Project Falcon." }));
  await browser.json("/api/signatures", {
    method: "POST",
    body: JSON.stringify({
      fileId: nda,
      dataroomId: dataroom.id,
      title: "Falcon NDA",
      message: "Please sign the NDA before we open the financials.",
      signingOrder: "sequential",
      recipients: [
        { roleId: "guest", name: guest.name, email: guest.email },
        { roleId: "grace", name: "Grace Hopper", email: "grace@example.com" },
      ],
      fields: [signField("guest", "g1", 1, 0.08), dateField("guest", "g2", 1, 0.08), signField("grace", "h1", 1, 0.55), dateField("grace", "h2", 1, 0.55)],
      reminderFirstDays: 3,
      reminderEveryDays: 3,
      send: true,
    }),
  }, 201);
  const agreement = await upload(browser, made["Contracts"], "Consulting agreement.pdf", makePdf({ pages: 2, text: "Consulting agreement: advisory services for the Falcon acquisition." }));
  await browser.json("/api/signatures", {
    method: "POST",
    body: JSON.stringify({ fileId: agreement, title: "Consulting agreement", recipients: [{ roleId: "alan", name: "Alan Turing", email: "alan@example.com" }], fields: [signField("alan", "a1", 1, 0.1), dateField("alan", "a2", 1, 0.1)], send: true }),
  }, 201);
  for (const [email, value] of [[guest.email, `typed:${guest.name}`], ["alan@example.com", "typed:Alan Turing"]]) {
    const mailbox = await (await browser.request(`/dev/mail?to=${encodeURIComponent(email)}`)).text();
    const signToken = /\/sign\/([A-Za-z0-9_-]{43})/.exec(mailbox)?.[1];
    if (!signToken) throw new Error(`The signing link for ${email} is not in the development mailbox.`);
    const signer = client(baseURL);
    await signer.open(`/sign/${signToken}`);
    const { fields: own } = (await signer.json(`/api/sign/${signToken}`)).signing;
    const values = Object.fromEntries(own.filter((field) => field.type === "signature").map((field) => [field.id, value]));
    await signer.json(`/api/sign/${signToken}`, { method: "POST", body: JSON.stringify({ consent: true, values }) });
  }

  // Workflows and cases (docs/workflows.md, docs/cases.md): a "Contract" case type; "Contract approval"
  // starts on each file uploaded into Contracts / To approve, asks the demo guest to approve within
  // three days, then tags the contract and files it into a new case, or (declined) moves it to
  // Contracts / Declined; either way the team hears by e-mail (the dev mailbox). One contract is
  // waiting for the guest (their My tasks); one case was opened by hand, with a task and a milestone.
  // "Buyer intake review" starts on each answer to the buyer intake form and e-mails the deal team.
  const { caseType } = await browser.json(
    "/api/case-types",
    { method: "POST", body: JSON.stringify({ name: "Contract", description: "A customer or supplier contract.", fields: [{ label: "Counterparty", type: "text", required: true }, { label: "Annual value", type: "number" }, { label: "Renewal date", type: "date" }], folders: ["Signed", "Correspondence"] }) },
    201,
  );
  const toApprove = await browser.json("/api/folders", { method: "POST", body: JSON.stringify({ parentId: made["Contracts"], label: "To approve" }) }, 201);
  const declined = await browser.json("/api/folders", { method: "POST", body: JSON.stringify({ parentId: made["Contracts"], label: "Declined" }) }, 201);
  await browser.json(
    "/api/workflows",
    {
      method: "POST",
      body: JSON.stringify({
        name: "Contract approval",
        trigger: { type: "upload", folderId: toApprove.folder.uid },
        steps: [
          { type: "approve", name: "Legal review", assignees: [guest.email], mode: "one", dueInHours: 72, escalation: { action: "remind" } },
          { type: "tag", name: "Mark it approved", tags: ["approved"], when: "approved" },
          { type: "case", name: "File it", caseTypeId: caseType.id, when: "approved" },
          { type: "move", name: "Set it aside", folderId: declined.folder.uid, when: "rejected" },
          { type: "email", name: "Tell the team", to: ["contracts@example.com"], subject: "A contract was reviewed", message: "Open Strongroom to see the decision and the comment." },
        ],
      }),
    },
    201,
  );
  await browser.json(
    "/api/workflows",
    {
      method: "POST",
      body: JSON.stringify({
        name: "Buyer intake review",
        trigger: { type: "form", formId: form.id },
        steps: [{ type: "email", name: "Tell the deal team", to: ["deals@example.com"], subject: "A buyer answered the intake form", message: "Read the answers under Forms → Falcon: buyer intake." }],
      }),
    },
    201,
  );
  // A workflow of the data room: each file uploaded into Project Falcon / Legal asks the room's owner
  // and admins to sign it off, then tags it; the room's audit log records every run. One draft waits
  // for the demo member (the room's owner) in My tasks.
  const legal = await browser.json("/api/folders", { method: "POST", body: JSON.stringify({ parentId: rootFolderId, label: "Legal", color: "#0f766e", icon: "gavel" }) }, 201);
  await browser.json(
    "/api/workflows",
    {
      method: "POST",
      body: JSON.stringify({
        name: "Falcon legal sign-off",
        trigger: { type: "upload", folderId: legal.folder.uid },
        steps: [
          { type: "approve", name: "Room admins sign off", assignees: [], roles: ["admin"], mode: "one" },
          { type: "tag", name: "Mark it signed off", tags: ["signed-off"], when: "approved" },
        ],
      }),
    },
    201,
  );
  await upload(browser, legal.folder.uid, "Falcon SPA draft.pdf", makePdf({ pages: 2, text: "Share purchase agreement for Project Falcon, draft 3." }));
  await upload(browser, toApprove.folder.uid, "Northwind supply agreement.pdf", makePdf({ pages: 2, text: "Supply agreement between Northwind and the demo company, 2027 to 2029." }));
  const { case: renewal } = await browser.json("/api/cases", { method: "POST", body: JSON.stringify({ typeId: caseType.id, title: "Fabrikam renewal", values: { counterparty: "Fabrikam", annual_value: 24000, renewal_date: "2027-03-01" }, dueDate: "2027-02-15" }) }, 201);
  await browser.json(`/api/cases/${renewal.id}/tasks`, { method: "POST", body: JSON.stringify({ title: "Send the renewal quote", dueDate: "2027-01-15" }) }, 201);
  await browser.json(`/api/cases/${renewal.id}/tasks`, { method: "POST", body: JSON.stringify({ kind: "milestone", title: "Renewal signed", dueDate: "2027-02-15" }) }, 201);
  // The buyer intake form sent for the case to Fabrikam's buyer (the dev mailbox): their answer will join the case.
  await browser.json(`/api/cases/${renewal.id}/requests`, { method: "POST", body: JSON.stringify({ formId: form.id, email: "fabrikam.buyer@example.com", name: "Fabrikam buyer", message: "A few questions before we renew." }) }, 201);

  // A team (docs/teams.md): the demo member owns "Falcon deal team"; the demo guest joined it from the mailed link and holds the custom role Reviewer, an analyst's invitation waits; the team's workspace holds "Falcon team room".
  const { team } = await browser.json("/api/teams", { method: "POST", body: JSON.stringify({ name: "Falcon deal team" }) }, 201);
  await browser.json(`/api/teams/${team.id}/invitations`, { method: "POST", body: JSON.stringify({ emails: [guest.email], role: "member", message: "The people working on Falcon." }) }, 201);
  const teamMailbox = await (await browser.request(`/dev/mail?to=${encodeURIComponent(guest.email)}`)).text();
  const teamToken = [...teamMailbox.matchAll(/\/invite\/([A-Za-z0-9_-]{43})/g)].map((match) => match[1]).find((found) => found !== token);
  if (!teamToken) throw new Error("The demo guest's team invitation is not in the development mailbox.");
  await guestBrowser.json("/api/invitations/accept", { method: "POST", body: JSON.stringify({ token: teamToken }) });
  await browser.json(`/api/teams/${team.id}/invitations`, { method: "POST", body: JSON.stringify({ emails: ["analyst@example.com"], role: "member" }) }, 201);
  // A custom role: the guest reviews (reads, downloads, comments) in the team's rooms and reads its files.
  const { role: reviewer } = await browser.json(
    `/api/teams/${team.id}/roles`,
    { method: "POST", body: JSON.stringify({ name: "Reviewer", description: "Reads, downloads and comments; changes nothing.", permissions: ["dataroom.view", "dataroom.download", "dataroom.comment", "files.view"] }) },
    201,
  );
  const { members } = await browser.json(`/api/teams/${team.id}`);
  const guestInTeam = members.find((person) => person.email === guest.email);
  await browser.json(`/api/teams/${team.id}/members/${guestInTeam.userId}`, { method: "PATCH", body: JSON.stringify({ role: "member", customRoleId: reviewer.id }) });
  // The team's own workspace: a data room made in it (the guest is in it as a Reviewer). Switch to the team in the top bar to see it.
  await browser.json(`/api/teams/${team.id}/datarooms`, { method: "POST", body: JSON.stringify({ name: "Falcon team room", description: "The deal team's working room." }) }, 201);
  // The team's drive (its own files outside its rooms, on the owner's storage): a folder of memos and a gallery.
  const { drive } = await browser.json(`/api/teams/${team.id}`);
  const memos = await browser.json("/api/folders", { method: "POST", body: JSON.stringify({ parentId: drive.rootId, label: "Deal memos", color: "#0f766e" }) }, 201);
  await upload(browser, memos.folder.uid, "Falcon deal memo.pdf", makePdf({ pages: 2, text: "Deal memo: the Falcon acquisition, terms and open points for the team." }));
  const visit = await browser.json("/api/folders", { method: "POST", body: JSON.stringify({ parentId: drive.rootId, label: "Warehouse visit", icon: "photo_library", kind: "gallery" }) }, 201);
  await upload(browser, visit.folder.uid, "Loading dock.png", bandedPng(320, 200, [15, 118, 110]));

  // Billing (docs/billing.md): the demo member's Business subscription with an extra data rooms pack, bought through
  // the local payments driver's checkout with Stripe's paying test card: Settings → Subscription and Invoices show it.
  const { url: checkoutUrl } = await browser.json("/api/billing/checkout", { method: "POST", body: JSON.stringify({ tier: "business", interval: "month", addons: { extra_datarooms: 1 } }) }, 201);
  const checkoutPath = new URL(checkoutUrl).pathname;
  await browser.open(checkoutPath);
  const paid = await browser.request(checkoutPath, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ intent: "pay", card: "4242 4242 4242 4242" }).toString() });
  if (paid.status !== 302 || !paid.headers.get("location")?.includes("/checkout/success")) throw new Error(`The demo checkout answered ${paid.status}: ${(await paid.text()).slice(0, 300)}`);
  // A print order (docs/billing.md): prints of two "Site photos", paid at the local checkout and now at the
  // development print lab (/dev/lab: "Ship" or "Fail" it and watch the order's page and the mailbox).
  const prints = await browser.json("/api/print-orders", {
    method: "POST",
    body: JSON.stringify({
      folderId: made["Site photos"],
      items: [
        { fileId: lobby, size: "20x30", paper: "lustre", quantity: 1 },
        { fileId: roof, size: "13x18", paper: "fine-art", quantity: 2 },
      ],
      name: "Demo Member",
      address: { line1: "1 Harbour Road", city: "Hamburg", postalCode: "20457", country: "DE" },
    }),
  }, 201);
  const printsPath = new URL(prints.url).pathname;
  await browser.open(printsPath);
  const printsPaid = await browser.request(printsPath, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ intent: "pay", card: "4242 4242 4242 4242" }).toString() });
  if (printsPaid.status !== 302) throw new Error(`The demo print order's checkout answered ${printsPaid.status}: ${(await printsPaid.text()).slice(0, 300)}`);
  return { folders: Object.keys(made).length, files: 7, trashed: 1, datarooms: 1, guests: 1, shareLinks: 1, receivePages: 1, forms: 1, submissions: answers.length, signatures: 2, workflows: 3, cases: 1, teams: 1 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const baseURL = process.argv[2] ?? `http://localhost:${process.env.PORT ?? "5173"}`;
  const result = await seedDemoContent(baseURL);
  console.log(`Seeded the demo member's sample content: ${result.folders} folders, ${result.files} files, ${result.trashed} in the trash, ${result.datarooms} data room with ${result.guests} guest, ${result.shareLinks} share link, ${result.receivePages} receive page and ${result.forms} form with ${result.submissions} submissions.`);
}
