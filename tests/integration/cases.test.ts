import { introspectWorkflowInstance } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { openCaseFromFormJob, openCaseFromReceiveJob } from "~/features/cases/cases.jobs";
import { casesPersonalData } from "~/features/cases/personal-data.server";
import { addCaseComment, addCaseTask, addParticipant, caseRoomChoicesFor, completeCaseTask, newCaseRoomChoiceFor, createCaseType, getCase, listCases, openCase, setCaseStatus, startCaseWorkflow } from "~/features/cases/cases.server";
import { createWorkflow, decideTask, listMyTasks } from "~/features/workflows/workflows.server";
import { createFile, personalSpaceOf, testContext } from "~tests/factories/files";
import { countWhere, createRoom, get, joinRoom, send, signedIn } from "./dataroom-helpers";
import { verifyRoomAudit } from "~/features/datarooms/audit.server";
import { newAuthClient, testEnv } from "./helpers";
import { sendThroughPage } from "./receive-helpers";

/**
 * Cases (issue 41): case types with fields and a case file's folders (made and changed), cases with values, status,
 * people, tasks and milestones and a timeline; the list's filters; a workflow step that files its
 * document into a new case (once); the authorization matrix on the API.
 */

const ctx = () => testContext();
const folderLabels = async (parentId: string) =>
  (await testEnv.DB.prepare("select label from folders where parent_id = ? and trashed_at is null order by label").bind(parentId).all<{ label: string }>()).results.map((row) => row.label);

async function owner() {
  const person = await signedIn({ tier: "business", name: "Olga Owner" });
  const type = await createCaseType(ctx(), person.id, {
    name: "Insurance claim",
    fields: [
      { label: "Policy number", type: "text", required: true },
      { label: "Amount", type: "number" },
      { label: "Incident date", type: "date" },
      { label: "Severity", type: "select", options: ["Low", "High"] },
    ],
    folders: ["Evidence", "Correspondence"],
  });
  return { person, type };
}

describe("cases", () => {
  it("opens a case of a type with its values and a case file holding the type's folders, and its timeline records what happens", async () => {
    const { person, type } = await owner();
    expect(type.fields.map((field) => field.key)).toEqual(["policy_number", "amount", "incident_date", "severity"]);
    const assignee = await signedIn({ tier: "business", name: "Ada Adjuster" });
    const opened = await openCase(ctx(), person.id, { typeId: type.id, title: "Water damage", values: { policy_number: "P-77", amount: "1250.50", incident_date: "2026-11-02", severity: "High" }, assignee: assignee.email, dueDate: "2026-12-31" });
    expect(opened.reference).toBe("CASE-0001");
    expect(await folderLabels(opened.folderId!)).toEqual(["Correspondence", "Evidence"]);
    const root = (await personalSpaceOf(person.id)).rootId;
    expect(await folderLabels(root)).toContain("Cases");

    await addParticipant(ctx(), person.id, opened.id, { email: "claimant@example.com", name: "Carl Claimant" });
    const { id: taskId } = await addCaseTask(ctx(), assignee.id, opened.id, { title: "Call the claimant", assignee: assignee.email, dueDate: "2026-12-01" });
    await addCaseTask(ctx(), person.id, opened.id, { kind: "milestone", title: "Assessment done" });
    await completeCaseTask(ctx(), assignee.id, opened.id, taskId);
    await expect(completeCaseTask(ctx(), assignee.id, opened.id, taskId)).rejects.toMatchObject({ status: 409 });
    await setCaseStatus(ctx(), assignee.id, opened.id, { status: "waiting" });

    const page = await getCase(ctx(), person.id, opened.id);
    expect(page.case).toMatchObject({ reference: "CASE-0001", title: "Water damage", status: "waiting", assignee: { name: "Ada Adjuster" } });
    expect(page.case.fields.map((field) => field.value)).toEqual(["P-77", 1250.5, "2026-11-02", "High"]);
    expect(page.participants).toEqual([{ email: "claimant@example.com", name: "Carl Claimant", isMember: false }]);
    expect(page.tasks.map((task) => [task.kind, task.title, task.done !== null])).toEqual([["task", "Call the claimant", true], ["milestone", "Assessment done", false]]);
    expect(page.timeline.map((event) => event.kind)).toEqual(["case.opened", "case.participant", "case.task", "case.milestone", "case.task-done", "case.status"]);
    expect(page.timeline.at(-1)).toMatchObject({ actor: "Ada Adjuster", detail: "Open → Waiting" });
  });

  it("refuses values that do not fit the type's fields and an assignee without an account, with nothing written", async () => {
    const { person, type } = await owner();
    const base = { typeId: type.id, title: "T" };
    await expect(openCase(ctx(), person.id, { ...base, values: {} })).rejects.toThrow("values.policy_number: Policy number is required.");
    await expect(openCase(ctx(), person.id, { ...base, values: { policy_number: "P", amount: "lots" } })).rejects.toThrow("values.amount: Amount must be a number.");
    await expect(openCase(ctx(), person.id, { ...base, values: { policy_number: "P", incident_date: "02/11/2026" } })).rejects.toThrow("values.incident_date: Incident date is a date, written YYYY-MM-DD.");
    await expect(openCase(ctx(), person.id, { ...base, values: { policy_number: "P", severity: "Medium" } })).rejects.toThrow("values.severity: Severity is one of: Low, High.");
    await expect(openCase(ctx(), person.id, { ...base, values: { policy_number: "P" }, assignee: "ghost@example.test" })).rejects.toThrow("assignee: ghost@example.test is not a Strongroom member yet.");
    await expect(createCaseType(ctx(), person.id, { name: "Bad", fields: [{ label: "A", type: "select", options: ["only"] }] })).rejects.toThrow("A choice field needs at least two options.");
    await expect(createCaseType(ctx(), person.id, { name: "Bad", fields: [{ label: "Name", type: "text" }, { label: "name", type: "text" }] })).rejects.toThrow("Two fields have the same label.");
    expect(await countWhere("select count(*) as n from cases where owner_id = ?", person.id)).toBe(0);
  });

  it("lists the member's cases by type, status, assignee and due date", async () => {
    const { person, type } = await owner();
    const other = await createCaseType(ctx(), person.id, { name: "Complaint" });
    const mine = await openCase(ctx(), person.id, { typeId: type.id, title: "Mine", values: { policy_number: "1" }, assignee: person.id, dueDate: "2020-01-01" });
    const open = await openCase(ctx(), person.id, { typeId: other.id, title: "Unassigned" });
    const closed = await openCase(ctx(), person.id, { typeId: other.id, title: "Closed one" });
    await setCaseStatus(ctx(), person.id, closed.id, { status: "closed" });
    const ids = async (query: Record<string, string>) => (await listCases(ctx(), person.id, query)).cases.map((row) => row.id).sort();
    expect(await ids({})).toEqual([mine.id, open.id, closed.id].sort());
    expect(await ids({ type: type.id })).toEqual([mine.id]);
    expect(await ids({ status: "closed" })).toEqual([closed.id]);
    expect(await ids({ assignee: "me" })).toEqual([mine.id]);
    expect(await ids({ assignee: "nobody" })).toEqual([open.id, closed.id].sort());
    expect(await ids({ due: "overdue" })).toEqual([mine.id]);
    expect((await listCases(ctx(), person.id, { due: "overdue" })).cases[0]).toMatchObject({ isOverdue: true, assignee: "Olga Owner" });
  });
});

describe("a workflow that files into a case", () => {
  it("files the approved document into a new case once, and the case's timeline shows the run's upload, approval and filing", async () => {
    const { person, type } = await owner();
    const loose = await createCaseType(ctx(), person.id, { name: "Contract" });
    const approver = await signedIn({ tier: "free", name: "Ada Approver" });
    const space = await personalSpaceOf(person.id);
    const contract = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "Supply contract.pdf", content: "%PDF-1.4 c", contentType: "application/pdf", uploadedBy: person.id });
    const workflow = await createWorkflow(ctx(), person.id, {
      name: "Contract approval",
      steps: [{ type: "approve", name: "Legal review", assignees: [approver.id], mode: "one" }, { type: "case", name: "File it", caseTypeId: loose.id }],
    });
    await expect(createWorkflow(ctx(), person.id, { name: "X", steps: [{ type: "case", name: "File", caseTypeId: (await owner()).type.id }] })).rejects.toThrow("“File” files into a case type that is not yours.");
    const { startRun } = await import("~/features/workflows/workflows.server");
    const run = await startRun(ctx(), person.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    await expect.poll(async () => (await listMyTasks(ctx(), approver.id)).length, { timeout: 5_000 }).toBe(1);
    await decideTask(ctx(), approver.id, (await listMyTasks(ctx(), approver.id))[0]!.id, { decision: "approve", comment: "Fine." });
    await instance.waitForStatus("complete");

    const [found] = (await listCases(ctx(), person.id, { type: loose.id })).cases;
    expect(found).toMatchObject({ reference: "CASE-0001", title: "Supply contract" });
    const page = await getCase(ctx(), person.id, found!.id);
    expect(page.files.map((file) => file.name)).toEqual(["Supply contract.pdf"]);
    expect(page.timeline.map((event) => event.kind)).toEqual(["run.started", "step.started", "task.approved", "step.approved", "step.started", "case.opened", "case.filed", "run.completed"]);
    expect(page.timeline.find((event) => event.kind === "task.approved")).toMatchObject({ actor: "Ada Approver", detail: "Fine.", workflow: "Contract approval" });

    // The step run again (a retried step): no second case, the document stays.
    const { fileIntoCase } = await import("~/features/workflows/workflow-actions.server");
    await testEnv.DB.prepare("update workflow_runs set status = 'running' where id = ?").bind(run.id).run();
    await fileIntoCase(ctx(), run.id, 1, { type: "case", name: "File it", caseTypeId: loose.id });
    expect(await countWhere("select count(*) as n from cases where type_id = ?", loose.id)).toBe(1);
    void type;
  });

  it("starts the type's default workflow on a document of the case file, and the run joins the case's timeline", async () => {
    const person = await signedIn({ tier: "business" });
    const approver = await signedIn({ tier: "free", name: "Rita Reviewer" });
    const workflow = await createWorkflow(ctx(), person.id, { name: "Review", steps: [{ type: "approve", name: "Read it", assignees: [approver.id], mode: "one" }] });
    const type = await createCaseType(ctx(), person.id, { name: "Matter", defaultWorkflowId: workflow.id, folders: ["Drafts"] });
    const opened = await openCase(ctx(), person.id, { typeId: type.id, title: "Acme" });
    const space = await personalSpaceOf(person.id);
    const draft = await createFile({ spaceId: space.spaceId, folderId: opened.folderId!, name: "draft.pdf", content: "%PDF-1.4 d", contentType: "application/pdf", uploadedBy: person.id });
    const outside = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "elsewhere.pdf", content: "%PDF-1.4 e", contentType: "application/pdf", uploadedBy: person.id });
    await expect(startCaseWorkflow(ctx(), person.id, opened.id, { fileId: outside.id })).rejects.toThrow("fileId: Choose a document of the case file.");
    const { runId } = await startCaseWorkflow(ctx(), person.id, opened.id, { fileId: draft.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, runId);
    await expect.poll(async () => (await getCase(ctx(), person.id, opened.id)).timeline.some((event) => event.kind === "step.started")).toBe(true);
    expect((await getCase(ctx(), person.id, opened.id)).defaultWorkflow).toEqual({ id: workflow.id, name: "Review" });
    await decideTask(ctx(), approver.id, (await listMyTasks(ctx(), approver.id))[0]!.id, { decision: "approve" });
    await instance.waitForStatus("complete");
    expect((await getCase(ctx(), person.id, opened.id)).timeline.at(-1)).toMatchObject({ kind: "run.completed", workflow: "Review", runId });
  });
});

describe("the cases API", () => {
  it("answers anonymous 401, a Pro member 403, an outsider 404 with nothing written, a participant what is theirs (reading, commenting), and the owner everything", async () => {
    const { person, type } = await owner();
    const pro = await signedIn({ tier: "pro" });
    const outsider = await signedIn({ tier: "business" });
    const participant = await signedIn({ tier: "business", name: "Paula Part" });
    const anonymous = await newAuthClient();

    expect((await get("/api/cases", anonymous)).status).toBe(401);
    expect((await send(anonymous, "POST", "/api/cases", { typeId: type.id, title: "X" })).status).toBe(401);
    expect((await get("/api/cases", pro.client)).status).toBe(403);
    expect((await send(pro.client, "POST", "/api/case-types", { name: "Mine" })).status).toBe(403);
    expect(await countWhere("select count(*) as n from case_types where created_by = ?", pro.id)).toBe(0);
    expect((await send(person.client, "POST", "/api/cases", "{nope")).status).toBe(400);
    expect((await send(outsider.client, "POST", "/api/cases", { typeId: type.id, title: "Stolen type", values: { policy_number: "1" } })).status).toBe(404);

    const created = await send(person.client, "POST", "/api/cases", { typeId: type.id, title: "Hail", values: { policy_number: "P-1" } });
    expect(created.status, await created.clone().text()).toBe(201);
    const { case: opened } = await created.json<{ case: { id: string } }>();
    for (const [method, path, body] of [
      ["GET", `/api/cases/${opened.id}`, undefined],
      ["POST", `/api/cases/${opened.id}/status`, { status: "closed" }],
      ["POST", `/api/cases/${opened.id}/participants`, { email: outsider.email }],
      ["POST", `/api/cases/${opened.id}/tasks`, { title: "Sneaky" }],
      ["POST", `/api/cases/${opened.id}/comments`, { text: "Sneaky" }],
    ] as const) {
      const response = method === "GET" ? await get(path, outsider.client) : await send(outsider.client, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect(await countWhere("select count(*) as n from case_events where case_id = ?", opened.id)).toBe(1);
    expect((await (await get("/api/cases", outsider.client)).json<{ cases: unknown[] }>()).cases).toEqual([]);

    expect((await send(person.client, "POST", `/api/cases/${opened.id}/participants`, { email: participant.email })).status).toBe(201);
    const seen = await get(`/api/cases/${opened.id}`, participant.client);
    expect(seen.status).toBe(200);
    expect((await seen.json<{ canManage: boolean; case: { folderId: string | null } }>())).toMatchObject({ canManage: false, case: { folderId: null } });
    expect((await send(participant.client, "POST", `/api/cases/${opened.id}/status`, { status: "closed" })).status).toBe(403);
    expect((await send(person.client, "POST", `/api/cases/${opened.id}/status`, { status: "nope" })).status).toBe(400);
    // Comments: anyone who sees the case; an empty one is refused; the timeline shows who said what.
    expect((await send(anonymous, "POST", `/api/cases/${opened.id}/comments`, { text: "Hi" })).status).toBe(401);
    expect((await send(participant.client, "POST", `/api/cases/${opened.id}/comments`, { text: "  " })).status).toBe(400);
    expect((await send(participant.client, "POST", `/api/cases/${opened.id}/comments`, { text: "The adjuster visits on Monday." })).status).toBe(201);
    expect((await send(person.client, "POST", `/api/cases/${opened.id}/comments`, { text: "Thanks, noted." })).status).toBe(201);
    const comments = async () => (await getCase(ctx(), person.id, opened.id)).timeline.filter((event) => event.kind === "case.comment").map((event) => [event.actor, event.detail]);
    expect(await comments()).toEqual([
      ["Paula Part", "The adjuster visits on Monday."],
      ["Olga Owner", "Thanks, noted."],
    ]);
    // Erasing the participant takes their name and their words out of the timeline.
    await casesPersonalData.erase!(ctx(), participant.id);
    expect(await comments()).toEqual([
      [null, null],
      ["Olga Owner", "Thanks, noted."],
    ]);
    expect((await send(person.client, "POST", `/api/cases/${opened.id}/status`, { status: "closed" })).status).toBe(200);
    expect((await (await get(`/api/cases?status=closed`, participant.client)).json<{ cases: { id: string }[] }>()).cases.map((row) => row.id)).toEqual([opened.id]);
  });

  it("exports a member's case types, cases and case tasks", async () => {
    const { person, type } = await owner();
    await openCase(ctx(), person.id, { typeId: type.id, title: "Export me", values: { policy_number: "E-1" } });
    const [record] = await casesPersonalData.export(ctx(), person.id);
    expect(record!.data).toMatchObject({ caseTypes: [{ name: "Insurance claim" }], cases: [{ title: "Export me", values: { policy_number: "E-1" } }] });
  });
});

describe("a receive page that opens cases", () => {
  it("opens one case per submission with its files in the case file and the sender taking part, however often the job runs; refuses a type of others, or a page of a room its owner does not manage", async () => {
    const { person, type } = await owner();
    const intake = await createCaseType(ctx(), person.id, { name: "Claim", folders: ["Evidence"] });
    const inbox = (await personalSpaceOf(person.id)).inboxId;
    const made = await send(person.client, "POST", "/api/receive-pages", { kind: "simple", title: "Send your claim", folderId: inbox, requireName: true, requireEmail: true, caseTypeId: intake.id });
    expect(made.status, await made.clone().text()).toBe(201);
    const { page } = await made.json<{ page: { id: string; path: string; caseTypeId: string } }>();
    expect(page.caseTypeId).toBe(intake.id);

    const submissionId = await sendThroughPage(page.path.slice("/r/".length), { name: "Carl Claimant", email: "Carl@Example.com" }, [{ name: "photo.txt", content: "proof" }]);
    expect(await countWhere("select count(*) as n from jobs where id = ?", `${openCaseFromReceiveJob.type}:${submissionId}`)).toBe(1);
    const jobCtx = { ...testContext(), jobId: "again" };
    await openCaseFromReceiveJob.run(jobCtx, { submissionId });
    await openCaseFromReceiveJob.run(jobCtx, { submissionId });
    await expect.poll(() => countWhere("select count(*) as n from cases where type_id = ?", intake.id)).toBe(1);
    const [opened] = (await listCases(ctx(), person.id, { type: intake.id })).cases;
    const view = await getCase(ctx(), person.id, opened!.id);
    expect(view.case.title).toBe("Carl Claimant: Send your claim");
    expect(view.files.map((file) => file.name)).toEqual(["photo.txt"]);
    expect(view.participants).toEqual([{ email: "carl@example.com", name: "Carl Claimant", isMember: false }]);
    expect(view.timeline.map((event) => event.kind)).toEqual(["case.opened", "case.participant", "case.received"]);
    expect(view.timeline.at(-1)!.detail).toBe("1 file from Carl Claimant through “Send your claim”: photo.txt");

    const stranger = await owner();
    const refused = await send(person.client, "PATCH", `/api/receive-pages/${page.id}`, { caseTypeId: stranger.type.id });
    expect(refused.status).toBe(400);
    // A room where they are a member, not a manager: its page opens no cases.
    const roomOwner = await signedIn({ tier: "business" });
    const room = await createRoom(roomOwner.client, "Claims room");
    await joinRoom(roomOwner, room.id, person, "member");
    const pagesBefore = await countWhere("select count(*) as n from receive_pages");
    const inRoom = await send(person.client, "POST", "/api/receive-pages", { kind: "simple", title: "Room page", folderId: room.rootFolderId, caseTypeId: intake.id });
    expect(inRoom.status).toBe(403);
    expect((await inRoom.json<{ message: string }>()).message).toBe("Only the room's owner and admins open cases in it.");
    expect(await countWhere("select count(*) as n from receive_pages")).toBe(pagesBefore);
    void type;
  });
});

describe("a form that opens cases", () => {
  it("opens one case per submission, its fields taking the answers of the same label, the respondent taking part; a test submission opens nothing", async () => {
    const { person } = await owner();
    const intake = await createCaseType(ctx(), person.id, { name: "Enquiry", fields: [{ label: "Company", type: "text", required: true }, { label: "Budget", type: "number" }] });
    const made = await send(person.client, "POST", "/api/forms", {});
    const { form } = await made.json<{ form: { id: string; revision: number; title: string } }>();
    const fields = [
      { id: "name", type: "short_text", label: "Name", required: true },
      { id: "email", type: "email", label: "E-mail", required: true },
      { id: "company", type: "short_text", label: "Company", required: true },
      { id: "budget", type: "number", label: "Budget", required: false },
    ];
    expect((await send(person.client, "PUT", `/api/forms/${form.id}/draft`, { revision: form.revision, title: "Enquiries", fields, rules: [] })).status).toBe(200);
    expect((await send(person.client, "POST", `/api/forms/${form.id}/publish`)).status).toBe(200);
    const set = await send(person.client, "PATCH", `/api/forms/${form.id}/settings`, { caseTypeId: intake.id });
    expect(set.status, await set.clone().text()).toBe(200);
    expect((await set.json<{ form: { settings: { caseTypeId: string } } }>()).form.settings.caseTypeId).toBe(intake.id);
    const stranger = await owner();
    expect((await send(person.client, "PATCH", `/api/forms/${form.id}/settings`, { caseTypeId: stranger.type.id })).status).toBe(400);

    const visitor = await newAuthClient();
    const answered = await send(visitor, "POST", `/api/forms/${form.id}/submissions`, { answers: { name: "Grace Hopper", email: "grace@example.com", company: "Cobol Capital", budget: 125000 } }, { "cf-connecting-ip": visitor.ip });
    expect(answered.status, await answered.clone().text()).toBe(201);
    const submissionId = (await testEnv.DB.prepare("select id from form_submissions where form_id = ? and is_test = 0").bind(form.id).first<{ id: string }>())!.id;
    expect(await countWhere("select count(*) as n from jobs where id = ?", `${openCaseFromFormJob.type}:${submissionId}`)).toBe(1);
    const jobCtx = { ...testContext(), jobId: "again" };
    await openCaseFromFormJob.run(jobCtx, { submissionId });
    await openCaseFromFormJob.run(jobCtx, { submissionId });
    await expect.poll(() => countWhere("select count(*) as n from cases where type_id = ?", intake.id)).toBe(1);
    const [opened] = (await listCases(ctx(), person.id, { type: intake.id })).cases;
    const view = await getCase(ctx(), person.id, opened!.id);
    expect(view.case.title).toBe("Grace Hopper: Enquiries");
    expect(view.case.fields.map((field) => field.value)).toEqual(["Cobol Capital", 125000]);
    expect(view.participants).toEqual([{ email: "grace@example.com", name: "Grace Hopper", isMember: false }]);
    // Written in the same moment: the order between the two after the opening is not meaningful.
    expect(view.timeline[0]!.kind).toBe("case.opened");
    expect(view.timeline.slice(1).map((event) => event.kind).sort()).toEqual(["case.answered", "case.participant"]);

    const testRun = await send(person.client, "POST", `/api/forms/${form.id}/submissions?test=1`, { answers: { name: "Test", email: "t@example.com", company: "T" } });
    expect([200, 201]).toContain(testRun.status);
    expect(await countWhere("select count(*) as n from cases where type_id = ?", intake.id)).toBe(1);
  });
});

describe("a case in a data room", () => {
  it("keeps its case file at the top of a room its owner manages, and the room's audit log records the case's opening, people, comments and status with the chain intact; a room member who does not manage it, or an outsider, is refused with nothing written", async () => {
    const { person, type } = await owner();
    const { id: roomId, rootFolderId } = await createRoom(person.client, "Harbour claims");
    const opened = await openCase(ctx(), person.id, { typeId: type.id, title: "Pier collapse", values: { policy_number: "P-12" }, roomId });
    const folder = await testEnv.DB.prepare("select space_id as spaceId, parent_id as parentId, label from folders where id = ?").bind(opened.folderId).first<{ spaceId: string; parentId: string; label: string }>();
    expect(folder).toEqual({ spaceId: roomId, parentId: rootFolderId, label: "CASE-0001 Pier collapse" });
    expect(await folderLabels(opened.folderId!)).toEqual(["Correspondence", "Evidence"]);

    await addParticipant(ctx(), person.id, opened.id, { email: "surveyor@example.com", name: "Sue Surveyor" });
    await addCaseComment(ctx(), person.id, opened.id, { text: "The surveyor comes on Monday." });
    await setCaseStatus(ctx(), person.id, opened.id, { status: "waiting" });
    // The room's authority copies its entries to D1 after a short delay: copy what waits, then read.
    const auditOf = async () => {
      await testEnv.DATA_ROOM.getByName(roomId).flushAudit();
      const read = testEnv.DB.prepare("select action, actor_id as actorId, target_type as targetType, target_id as targetId, detail from dataroom_audit_log where dataroom_id = ? and action like 'case.%' order by seq");
      return (await read.bind(roomId).all<{ action: string; actorId: string; targetType: string; targetId: string; detail: string }>()).results;
    };
    expect((await auditOf()).length).toBe(4);
    const audit = await auditOf();
    expect(audit.map((entry) => [entry.action, entry.detail])).toEqual([
      ["case.open", "Insurance claim: CASE-0001 Pier collapse"],
      ["case.change", "Takes part: Sue Surveyor <surveyor@example.com> (no account)"],
      ["case.comment", "The surveyor comes on Monday."],
      ["case.change", "Status: Open → Waiting"],
    ]);
    expect(audit.every((entry) => entry.actorId === person.id && entry.targetType === "case" && entry.targetId === opened.id)).toBe(true);
    expect(await verifyRoomAudit(ctx(), person.id, roomId)).toMatchObject({ ok: true });
    expect((await getCase(ctx(), person.id, opened.id)).case.room).toEqual({ id: roomId, name: "Harbour claims", isCaseFile: false });

    // A member of the room (on Business) does not manage it; an outsider does not see it.
    const member = await signedIn({ tier: "business", name: "Mo Member" });
    await joinRoom(person, roomId, member, "member");
    const outsider = await signedIn({ tier: "business" });
    const before = [await countWhere("select count(*) as n from cases"), await countWhere("select count(*) as n from folders where space_id = ?", roomId)];
    const memberType = await createCaseType(ctx(), member.id, { name: "Member's", fields: [], folders: [] });
    const outsiderType = await createCaseType(ctx(), outsider.id, { name: "Outsider's", fields: [], folders: [] });
    await expect(openCase(ctx(), member.id, { typeId: memberType.id, title: "Mine", roomId })).rejects.toMatchObject({ code: "FORBIDDEN", message: "Only the room's owner and admins open cases in it." });
    await expect(openCase(ctx(), outsider.id, { typeId: outsiderType.id, title: "Mine", roomId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect([await countWhere("select count(*) as n from cases"), await countWhere("select count(*) as n from folders where space_id = ?", roomId)]).toEqual(before);
    // The page offers the rooms the member manages.
    expect(await caseRoomChoicesFor(ctx(), person.id)).toEqual([{ id: roomId, name: "Harbour claims" }]);
    expect(await caseRoomChoicesFor(ctx(), member.id)).toEqual([]);
  });
});

describe("a case in a data room of its own", () => {
  it("makes a room named after the case whose top is the case file with the type's folders, owned by the case's owner, its audit log recording the opening; past the plan's room limit it is refused with no case, room or folder written", async () => {
    const { person, type } = await owner();
    const response = await send(person.client, "POST", "/api/cases", { typeId: type.id, title: "Flooded basement", values: { policy_number: "P-31" }, newRoom: true });
    expect(response.status).toBe(201);
    const { case: opened } = await response.json<{ case: { id: string; folderId: string } }>();
    const room = await testEnv.DB.prepare("select d.id, s.name, d.owner_id as ownerId, f.id as rootId from datarooms d join spaces s on s.id = d.id join folders f on f.space_id = d.id and f.kind = 'root' where f.id = ?").bind(opened.folderId).first<{ id: string; name: string; ownerId: string; rootId: string }>();
    expect(room).toMatchObject({ name: "CASE-0001 Flooded basement", ownerId: person.id });
    expect(await folderLabels(room!.rootId)).toEqual(["Correspondence", "Evidence"]);
    const page = await getCase(ctx(), person.id, opened.id);
    expect(page.case.room).toEqual({ id: room!.id, name: "CASE-0001 Flooded basement", isCaseFile: true });
    await testEnv.DATA_ROOM.getByName(room!.id).flushAudit();
    expect(await countWhere("select count(*) as n from dataroom_audit_log where dataroom_id = ? and action = 'case.open' and target_id = ?", room!.id, opened.id)).toBe(1);
    // The room is the owner's like any other: it lists with their rooms, and they may open it.
    expect((await get(`/api/datarooms/${room!.id}`, person.client)).status).toBe(200);

    // Both places at once is refused; so is a room more than the plan allows, with nothing written.
    await expect(openCase(ctx(), person.id, { typeId: type.id, title: "Both", values: { policy_number: "P" }, newRoom: true, roomId: room!.id })).rejects.toThrow("A case lives in one place");
    const owned = await countWhere("select count(*) as n from datarooms where owner_id = ?", person.id);
    expect(owned).toBe(1);
    const before = [await countWhere("select count(*) as n from cases where owner_id = ?", person.id), owned, await countWhere("select count(*) as n from folders")];
    const limit = await testEnv.DB.prepare("select max_datarooms as n from tiers where name = 'business'").first<{ n: number }>();
    try {
      await testEnv.DB.prepare("update tiers set max_datarooms = ? where name = 'business'").bind(owned).run();
      expect(await newCaseRoomChoiceFor(ctx(), person.id)).toEqual({ allowed: false, left: 0 });
      const refused = await send(person.client, "POST", "/api/cases", { typeId: type.id, title: "One too many", values: { policy_number: "P-32" }, newRoom: true });
      expect(refused.status).toBe(403);
      expect((await refused.json<{ message: string }>()).message).toBe("Your Business plan allows 1 data room. Upgrade your plan or add extra data rooms.");
      expect([await countWhere("select count(*) as n from cases where owner_id = ?", person.id), await countWhere("select count(*) as n from datarooms where owner_id = ?", person.id), await countWhere("select count(*) as n from folders")]).toEqual(before);
    } finally {
      await testEnv.DB.prepare("update tiers set max_datarooms = ? where name = 'business'").bind(limit!.n).run();
    }
  });
});

describe("changing a case", () => {
  it("changes its title, values, assignee and due date, each change one line of the timeline; bad values are refused with nothing changed; a participant is refused, an outsider does not see it", async () => {
    const { person, type } = await owner();
    const opened = await openCase(ctx(), person.id, { typeId: type.id, title: "Water damage", values: { policy_number: "P-77", amount: 1250.5 } });
    const adjuster = await signedIn({ tier: "business", name: "Ada Adjuster" });
    const changed = await send(person.client, "PATCH", `/api/cases/${opened.id}`, { title: "Water damage, kitchen", values: { amount: "1300", severity: "High" }, assignee: adjuster.email, dueDate: "2027-01-31" });
    expect(changed.status, await changed.clone().text()).toBe(200);
    const view = await getCase(ctx(), person.id, opened.id);
    expect(view.case).toMatchObject({ title: "Water damage, kitchen", assignee: { name: "Ada Adjuster" }, due: "2027-01-31T23:59:59.999Z" });
    expect(view.case.fields.map((field) => field.value)).toEqual(["P-77", 1300, null, "High"]);
    expect(view.timeline.find((event) => event.kind === "case.updated")?.detail).toBe("Title: Water damage → Water damage, kitchen; Amount: 1250.5 → 1300; Severity: — → High; Assignee: nobody → Ada Adjuster; Due date: — → 2027-01-31");
    // The same again changes nothing and writes nothing.
    expect(await (await send(person.client, "PATCH", `/api/cases/${opened.id}`, { values: { amount: 1300 } })).json()).toEqual({ changes: [] });

    const entries = await countWhere("select count(*) as n from case_events where case_id = ?", opened.id);
    const bad = await send(adjuster.client, "PATCH", `/api/cases/${opened.id}`, { values: { policy_number: "", amount: "a lot" } });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ message: string }>()).message).toContain("Policy number is required.");
    expect((await send(person.client, "PATCH", `/api/cases/${opened.id}`, { values: { severity: "Medium" } })).status).toBe(400);
    expect((await send(person.client, "PATCH", `/api/cases/${opened.id}`, { dueDate: "31/01/2027" })).status).toBe(400);
    const participant = await signedIn({ tier: "business" });
    await addParticipant(ctx(), person.id, opened.id, { email: participant.email });
    expect((await send(participant.client, "PATCH", `/api/cases/${opened.id}`, { title: "Mine now" })).status).toBe(403);
    const outsider = await signedIn({ tier: "business" });
    expect((await send(outsider.client, "PATCH", `/api/cases/${opened.id}`, { title: "Mine now" })).status).toBe(404);
    expect((await send(await newAuthClient(), "PATCH", `/api/cases/${opened.id}`, { title: "Mine now" })).status).toBe(401);
    expect(await countWhere("select count(*) as n from case_events where case_id = ?", opened.id)).toBe(entries + 1);
    expect((await getCase(ctx(), person.id, opened.id)).case.title).toBe("Water damage, kitchen");
  });
});

describe("changing a case type", () => {
  it("its owner changes the fields, folders and default workflow; open cases keep their values, a renamed field shows nothing, and new case files get the new folders", async () => {
    const { person, type } = await owner();
    const opened = await openCase(ctx(), person.id, { typeId: type.id, title: "Hail", values: { policy_number: "P-1", amount: 900, severity: "Low" } });
    const review = await createWorkflow(ctx(), person.id, { name: "Claim review", steps: [{ type: "tag", name: "Tag", tags: ["claim"] }] });
    const changed = await send(person.client, "PATCH", `/api/case-types/${type.id}`, {
      name: "Home claim",
      description: "Claims on home policies",
      fields: [
        { label: "Policy number", type: "text", required: true },
        { label: "Claimed amount", type: "number" },
        { label: "Severity", type: "select", options: ["Low", "Medium", "High"] },
      ],
      folders: ["Photos", "Evidence"],
      defaultWorkflowId: review.id,
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect((await changed.json<{ caseType: { name: string; folders: string[]; defaultWorkflowId: string } }>()).caseType).toMatchObject({ name: "Home claim", folders: ["Photos", "Evidence"], defaultWorkflowId: review.id });

    // The open case: its values stay, the renamed field ("Amount" → "Claimed amount") starts empty, the new choice is offered.
    const view = await getCase(ctx(), person.id, opened.id);
    expect(view.case.type.name).toBe("Home claim");
    expect(view.case.fields.map((field) => [field.label, field.value])).toEqual([["Policy number", "P-1"], ["Claimed amount", null], ["Severity", "Low"]]);
    expect(view.case.fields[2]!.options).toEqual(["Low", "Medium", "High"]);
    expect(await folderLabels(opened.folderId!)).toEqual(["Correspondence", "Evidence"]);
    // A new case of the type gets the new folders and the new fields' checks.
    const next = await openCase(ctx(), person.id, { typeId: type.id, title: "Storm", values: { policy_number: "P-2", claimed_amount: "1200", severity: "Medium" } });
    expect(await folderLabels(next.folderId!)).toEqual(["Evidence", "Photos"]);
    // Changed back, the stored value comes back with its label.
    expect((await send(person.client, "PATCH", `/api/case-types/${type.id}`, { name: "Home claim", fields: [{ label: "Amount", type: "number" }] })).status).toBe(200);
    expect((await getCase(ctx(), person.id, opened.id)).case.fields.map((field) => [field.label, field.value])).toEqual([["Amount", 900]]);
  });

  it("refuses anonymous (401), a plan without cases (403), someone else's type (404) and a bad type (400), changing nothing", async () => {
    const { person, type } = await owner();
    const stranger = await owner();
    const pro = await signedIn({ tier: "pro" });
    const strangersWorkflow = await createWorkflow(ctx(), stranger.person.id, { name: "Theirs", steps: [{ type: "tag", name: "Tag", tags: ["x"] }] });
    const body = { name: "Renamed", fields: [] };
    const before = await testEnv.DB.prepare("select name, fields, folders, updated_at from case_types where id = ?").bind(type.id).first();
    expect((await send(await newAuthClient(), "PATCH", `/api/case-types/${type.id}`, body)).status).toBe(401);
    expect((await send(pro.client, "PATCH", `/api/case-types/${type.id}`, body)).status).toBe(403);
    expect((await send(stranger.person.client, "PATCH", `/api/case-types/${type.id}`, body)).status).toBe(404);
    const refusals = [
      [{ name: "" }, "name: The case type's name is required."],
      [{ name: "X", fields: [{ label: "A", type: "select", options: ["only"] }] }, "fields.0.options: A choice field needs at least two options."],
      [{ name: "X", fields: [{ label: "Amount", type: "number" }, { label: "amount", type: "text" }] }, "fields: Two fields have the same label. Give each its own."],
      [{ name: "X", defaultWorkflowId: strangersWorkflow.id }, "defaultWorkflowId: Choose one of your workflows."],
    ] as const;
    for (const [input, message] of refusals) {
      const response = await send(person.client, "PATCH", `/api/case-types/${type.id}`, input);
      expect(response.status).toBe(400);
      expect((await response.json<{ message: string }>()).message).toBe(message);
    }
    expect(await testEnv.DB.prepare("select name, fields, folders, updated_at from case_types where id = ?").bind(type.id).first()).toEqual(before);
  });
});

describe("a data room's receive page and form that open cases", () => {
  it("open each submission's case in the room: the case file at the top of the room holds what was sent, the room's audit log records the opening and the arrival; once the page's owner no longer manages the room, a submission opens nothing and its files stay where they arrived", async () => {
    const { person: roomOwner } = await owner();
    const { id: roomId, rootFolderId } = await createRoom(roomOwner.client, "Harbour claims");
    const admin = await signedIn({ tier: "business", name: "Ada Admin" });
    await joinRoom(roomOwner, roomId, admin, "admin");
    const intake = await createCaseType(ctx(), admin.id, { name: "Claim", folders: ["Evidence"] });
    const made = await send(admin.client, "POST", "/api/receive-pages", { kind: "simple", title: "Send your claim", folderId: rootFolderId, requireName: true, requireEmail: true, caseTypeId: intake.id });
    expect(made.status, await made.clone().text()).toBe(201);
    const { page } = await made.json<{ page: { path: string } }>();

    const submissionId = await sendThroughPage(page.path.slice("/r/".length), { name: "Carl Claimant", email: "carl@example.com" }, [{ name: "photo.txt", content: "proof" }]);
    const jobCtx = { ...testContext(), jobId: "again" };
    await openCaseFromReceiveJob.run(jobCtx, { submissionId });
    await openCaseFromReceiveJob.run(jobCtx, { submissionId });
    const opened = await testEnv.DB.prepare("select id, reference, room_id as roomId, folder_id as folderId, owner_id as ownerId from cases where type_id = ?").bind(intake.id).all<{ id: string; reference: string; roomId: string; folderId: string; ownerId: string }>();
    expect(opened.results).toHaveLength(1);
    const [theCase] = opened.results;
    expect(theCase).toMatchObject({ roomId, ownerId: admin.id });
    const caseFile = await testEnv.DB.prepare("select space_id as spaceId, parent_id as parentId, label from folders where id = ?").bind(theCase!.folderId).first();
    expect(caseFile).toEqual({ spaceId: roomId, parentId: rootFolderId, label: `${theCase!.reference} Carl Claimant: Send your claim` });
    expect(await folderLabels(theCase!.folderId)).toEqual(["Evidence"]);
    const view = await getCase(ctx(), admin.id, theCase!.id);
    expect(view.files.map((file) => file.name)).toEqual(["photo.txt"]);
    expect(view.case.room).toEqual({ id: roomId, name: "Harbour claims", isCaseFile: false });
    expect(await countWhere("select count(*) as n from files where folder_id = ? and space_id = ?", theCase!.folderId, roomId)).toBe(1);

    // The room's audit log: the opening and the files' arrival, once each; the chain verifies.
    await testEnv.DATA_ROOM.getByName(roomId).flushAudit();
    const entries = (await testEnv.DB.prepare("select action, detail from dataroom_audit_log where dataroom_id = ? and action like 'case.%' order by seq").bind(roomId).all<{ action: string; detail: string }>()).results;
    expect(entries).toEqual([
      { action: "case.open", detail: `Claim: ${theCase!.reference} Carl Claimant: Send your claim from the receive page “Send your claim”` },
      { action: "case.change", detail: "1 file from Carl Claimant through “Send your claim”: photo.txt" },
    ]);
    expect(await verifyRoomAudit(ctx(), roomOwner.id, roomId)).toMatchObject({ ok: true });

    // A form of the admin's filing into the room opens its cases there too.
    const form = await send(admin.client, "POST", "/api/forms", {});
    const { form: created } = await form.json<{ form: { id: string; revision: number } }>();
    const fields = [{ id: "name", type: "short_text", label: "Name", required: true }];
    expect((await send(admin.client, "PUT", `/api/forms/${created.id}/draft`, { revision: created.revision, title: "Claims", fields, rules: [] })).status).toBe(200);
    expect((await send(admin.client, "POST", `/api/forms/${created.id}/publish`)).status).toBe(200);
    const set = await send(admin.client, "PATCH", `/api/forms/${created.id}/settings`, { fileFolderId: rootFolderId, caseTypeId: intake.id });
    expect(set.status, await set.clone().text()).toBe(200);
    const visitor = await newAuthClient();
    expect((await send(visitor, "POST", `/api/forms/${created.id}/submissions`, { answers: { name: "Dora Diver" } }, { "cf-connecting-ip": visitor.ip })).status).toBe(201);
    const formSubmission = (await testEnv.DB.prepare("select id from form_submissions where form_id = ?").bind(created.id).first<{ id: string }>())!.id;
    await openCaseFromFormJob.run(jobCtx, { submissionId: formSubmission });
    expect(await testEnv.DB.prepare("select room_id as roomId, title from cases where source_ref = ?").bind(formSubmission).first()).toEqual({ roomId, title: "Dora Diver: Claims" });

    // Made a member, the admin's page still delivers into the room but opens no case there.
    expect((await send(roomOwner.client, "PATCH", `/api/datarooms/${roomId}/members/${admin.id}`, { role: "member" })).status).toBe(200);
    const later = await sendThroughPage(page.path.slice("/r/".length), { name: "Lena Late", email: "lena@example.com" }, [{ name: "late.txt", content: "late" }]);
    await openCaseFromReceiveJob.run({ ...testContext(), jobId: "later" }, { submissionId: later });
    expect(await countWhere("select count(*) as n from cases where type_id = ?", intake.id)).toBe(2);
    expect(await countWhere("select count(*) as n from files where name = 'late.txt' and folder_id = ?", rootFolderId)).toBe(1);
  });
});
