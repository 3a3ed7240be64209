import { introspectWorkflowInstance } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { builderOptions, getWorkflow, listWorkflowSummaries } from "~/features/workflows/workflow-builder.server";
import { startSubmissionRunsJob } from "~/features/workflows/workflows.jobs";
import { createCaseType } from "~/features/cases/cases.server";
import { verifyRoomAudit } from "~/features/datarooms/audit.server";
import { cancelRun, createWorkflow, decideTask, getRun, listMyTasks, listWorkflows, startRun } from "~/features/workflows/workflows.server";
import { ROOM_SOURCE_REFUSED, ROOM_WORKFLOW_REFUSED } from "~/features/workflows/workflow-room.server";
import { makeFolder, personalSpaceOf, testContext } from "~tests/factories/files";
import { countWhere, createRoom, joinRoom, send, signedIn } from "./dataroom-helpers";
import { testEnv } from "./helpers";
import { sendThroughPage } from "./receive-helpers";
import { bytes, upload } from "./tus-helpers";
import { tasksOf, uploadAndStart } from "./workflow-helpers";

/**
 * Workflows of a data room (issue 41): a workflow whose trigger folder is in a room works in the
 * room. Its builder must manage the room; its steps stay in the room; an approval step may name
 * room roles (everyone with the role when the step starts); the room's audit log records its runs.
 */

const ctx = () => testContext();
const folderOf = async (fileId: string) => (await testEnv.DB.prepare("select folder_id as folderId from files where id = ?").bind(fileId).first<{ folderId: string }>())?.folderId;

async function room() {
  const owner = await signedIn({ tier: "business", name: "Olga Owner" });
  const { id, rootFolderId } = await createRoom(owner.client, "Falcon diligence");
  const incoming = await makeFolder(id, rootFolderId, "Incoming");
  const approved = await makeFolder(id, rootFolderId, "Approved");
  const [first, second, guest] = await Promise.all([signedIn({ tier: "free", name: "Mia Member" }), signedIn({ tier: "free", name: "Max Member" }), signedIn({ tier: "free", name: "Gus Guest" })]);
  await joinRoom(owner, id, first!, "member");
  await joinRoom(owner, id, second!, "member");
  await joinRoom(owner, id, guest!, "guest");
  return { owner, roomId: id, rootFolderId, incoming, approved, members: [first!, second!], guest: guest! };
}

/** The room's workflow entries, once its authority has copied what waits to D1 (it does so after a short delay). */
async function auditOf(roomId: string) {
  await testEnv.DATA_ROOM.getByName(roomId).flushAudit();
  const read = testEnv.DB.prepare("select action, actor_id as actorId, target_id as targetId, detail from dataroom_audit_log where dataroom_id = ? and action like 'workflow.%' order by seq");
  return (await read.bind(roomId).all<{ action: string; actorId: string | null; targetId: string | null; detail: string }>()).results;
}

describe("a data room's workflows", () => {
  it("an upload into a room folder starts a run whose approvers are the room's members by role; they see the document, the guest gets no task, and the room's audit log records the start, each decision and the end", async () => {
    const { owner, roomId, incoming, approved, members, guest } = await room();
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Room review",
      trigger: { type: "upload", folderId: incoming },
      steps: [
        { type: "approve", name: "Members review", assignees: [], roles: ["member"], mode: "all" },
        { type: "move", name: "File it", folderId: approved },
      ],
    });
    expect(workflow.steps[0]).toMatchObject({ roles: ["member"], assignees: [] });
    expect((await getWorkflow(ctx(), owner.id, workflow.id)).steps[0]!.summary).toBe("All of the room's members approve");
    expect((await getWorkflow(ctx(), owner.id, workflow.id)).workflow.trigger).toBe("A file uploaded into Falcon diligence / Incoming");

    // A member uploads: the run works on the room's document.
    const { fileId, runId } = await uploadAndStart(members[0]!, incoming, "Term sheet.pdf", workflow.id);
    expect(runId).not.toBeNull();
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, runId!);
    const [firstTask] = await tasksOf(members[0]!.id, runId!);
    const [secondTask] = await tasksOf(members[1]!.id, runId!);
    expect(firstTask).toMatchObject({ workflow: "Room review", step: "Members review" });
    expect(await listMyTasks(ctx(), guest.id)).toEqual([]);
    expect(await countWhere("select count(*) as n from workflow_tasks where run_id = ?", runId)).toBe(2);
    // Approvers in the room see the document the room lets them see.
    expect((await getRun(ctx(), members[1]!.id, runId!)).document).toMatchObject({ id: fileId, name: "Term sheet.pdf" });

    await decideTask(ctx(), members[0]!.id, firstTask!.id, { decision: "approve", comment: "Numbers check out." });
    await decideTask(ctx(), members[1]!.id, secondTask!.id, { decision: "approve" });
    await instance.waitForStatus("complete");
    expect(await folderOf(fileId)).toBe(approved);

    await expect.poll(async () => (await auditOf(roomId)).map((entry) => entry.action)).toEqual(["workflow.start", "workflow.decide", "workflow.decide", "workflow.end"]);
    const audit = await auditOf(roomId);
    expect(audit[0]).toMatchObject({ actorId: members[0]!.id, targetId: fileId, detail: "Room review (uploaded into its folder)" });
    expect(audit[1]).toMatchObject({ actorId: members[0]!.id, detail: "Room review: Members review approved: Numbers check out." });
    expect(audit[3]).toMatchObject({ actorId: null, detail: "Room review: completed" });
    // The chain still verifies with the workflow's entries in it.
    expect(await verifyRoomAudit(ctx(), owner.id, roomId)).toMatchObject({ ok: true });
  });

  it("a role with nobody in it hands the task to the builder and says so; a builder who no longer manages the room starts nothing", async () => {
    const { owner, roomId, incoming, members } = await room();
    const admin = await signedIn({ tier: "business", name: "Ada Admin" });
    await joinRoom(owner, roomId, admin, "admin");
    const workflow = await createWorkflow(ctx(), admin.id, { name: "Guest check", trigger: { type: "upload", folderId: incoming }, steps: [{ type: "approve", name: "Guests look", assignees: [], roles: ["guest"], mode: "one" }] });
    // The guest left before the upload.
    await testEnv.DB.prepare("delete from dataroom_members where dataroom_id = ? and role = 'guest'").bind(roomId).run();
    const { runId } = await uploadAndStart(members[0]!, incoming, "Plan.pdf", workflow.id);
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, runId!);
    const [task] = await tasksOf(admin.id, runId!);
    expect((await getRun(ctx(), admin.id, runId!)).timeline.find((event) => event.kind === "step.started")?.detail).toBe("Guests look (nobody in the room is a guest, so the workflow's builder decides)");
    await decideTask(ctx(), admin.id, task!.id, { decision: "reject" });
    await instance.waitForStatus("complete");

    // The admin is made a member: their workflow no longer starts on the room's uploads.
    expect((await send(owner.client, "PATCH", `/api/datarooms/${roomId}/members/${admin.id}`, { role: "member" })).status).toBe(200);
    const later = await uploadAndStart(members[1]!, incoming, "Later.pdf", workflow.id);
    expect(later.runId).toBeNull();
  });

  it("only those who manage the room build its workflows; its steps stay in the room; room roles need a room; nothing is written on a refusal", async () => {
    const { owner, rootFolderId, incoming, members } = await room();
    const outsider = await signedIn({ tier: "business" });
    await testEnv.DB.prepare("update users set tier = 'business' where id = ?").bind(members[0]!.id).run();
    const before = await countWhere("select count(*) as n from workflow_templates");
    const build = (userId: string, steps: unknown[], folderId = incoming) => createWorkflow(ctx(), userId, { name: "Room flow", trigger: { type: "upload", folderId }, steps });
    const approve = { type: "approve", name: "Review", assignees: [], roles: ["member"], mode: "one" };
    // A member of the room (even on Business) may not; an outsider does not see the folder.
    await expect(build(members[0]!.id, [approve])).rejects.toMatchObject({ code: "FORBIDDEN", message: ROOM_WORKFLOW_REFUSED });
    await expect(build(outsider.id, [approve])).rejects.toMatchObject({ code: "NOT_FOUND" });
    // A move out of the room, into the builder's own files.
    const own = await personalSpaceOf(owner.id);
    await expect(build(owner.id, [approve, { type: "move", name: "Take it home", folderId: own.rootId }])).rejects.toMatchObject({ code: "VALIDATION_ERROR", message: expect.stringContaining("is outside the data room this workflow works in") });
    // Filing into a case type of someone else's.
    const type = await createCaseType(ctx(), outsider.id, { name: "Deal", fields: [], folders: [] });
    await expect(build(owner.id, [approve, { type: "case", name: "File", caseTypeId: type.id }])).rejects.toMatchObject({ code: "VALIDATION_ERROR", message: expect.stringContaining("files into a case type that is not yours") });
    // Room roles in a workflow of the builder's own files.
    await expect(build(owner.id, [approve], own.rootId)).rejects.toMatchObject({ code: "VALIDATION_ERROR", message: expect.stringContaining("does not work in a data room") });
    // An approval with neither people nor roles.
    await expect(build(owner.id, [{ ...approve, roles: [] }])).rejects.toMatchObject({ code: "VALIDATION_ERROR", message: expect.stringContaining("needs at least one person to approve") });
    expect(await countWhere("select count(*) as n from workflow_templates")).toBe(before);

    // A move inside the room is fine; the builder's page offers the room's folders to its owner, not to a member.
    const inside = await build(owner.id, [approve, { type: "move", name: "Back to the top", folderId: rootFolderId }]);
    expect(inside.steps).toHaveLength(2);
    expect((await builderOptions(ctx(), owner.id)).folders.filter((folder) => folder.isRoom).map((folder) => folder.path)).toEqual(["Falcon diligence", "Falcon diligence / Approved", "Falcon diligence / Incoming"]);
    expect((await builderOptions(ctx(), members[0]!.id)).folders.some((folder) => folder.isRoom)).toBe(false);
  });

  it("a room's workflow files the document into a case opened in the room: the case file is at the top of the room, the document never leaves it, and the room's audit log records the case and the filing", async () => {
    const { owner, roomId, rootFolderId, incoming, members } = await room();
    const type = await createCaseType(ctx(), owner.id, { name: "Deal", fields: [], folders: ["Correspondence"] });
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Deal intake",
      trigger: { type: "upload", folderId: incoming },
      steps: [
        { type: "approve", name: "Members review", assignees: [], roles: ["member"], mode: "one" },
        { type: "case", name: "Open the deal", caseTypeId: type.id, when: "approved" },
      ],
    });
    expect((await getWorkflow(ctx(), owner.id, workflow.id)).steps[1]!.summary).toBe("If approved: File the document into a new case: Deal");

    const { fileId, runId } = await uploadAndStart(members[0]!, incoming, "Letter of intent.pdf", workflow.id);
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, runId!);
    const [task] = await tasksOf(members[1]!.id, runId!);
    await decideTask(ctx(), members[1]!.id, task!.id, { decision: "approve" });
    await instance.waitForStatus("complete");

    // The case lives in the room, its case file is a folder at the top of the room with the type's folders, and the document is in it.
    const opened = await testEnv.DB.prepare("select id, reference, title, room_id as roomId, folder_id as folderId, owner_id as ownerId from cases where source_ref like ?").bind(`${runId}%`).first<{ id: string; reference: string; title: string; roomId: string; folderId: string; ownerId: string }>();
    expect(opened).toMatchObject({ title: "Letter of intent", roomId, ownerId: owner.id });
    const caseFile = await testEnv.DB.prepare("select label, space_id as spaceId, parent_id as parentId from folders where id = ?").bind(opened!.folderId).first<{ label: string; spaceId: string; parentId: string }>();
    expect(caseFile).toEqual({ label: `${opened!.reference} Letter of intent`, spaceId: roomId, parentId: rootFolderId });
    expect(await countWhere("select count(*) as n from folders where parent_id = ? and label = 'Correspondence'", opened!.folderId)).toBe(1);
    expect(await folderOf(fileId)).toBe(opened!.folderId);
    expect(await countWhere("select count(*) as n from files where space_id = ? and id = ?", roomId, fileId)).toBe(1);

    // The room's audit log names the case: opened by the workflow, then the document filed; the chain verifies.
    await testEnv.DATA_ROOM.getByName(roomId).flushAudit();
    const caseEntries = (await testEnv.DB.prepare("select action, detail from dataroom_audit_log where dataroom_id = ? and action like 'case.%' order by seq").bind(roomId).all<{ action: string; detail: string }>()).results;
    expect(caseEntries).toEqual([
      { action: "case.open", detail: `Deal: ${opened!.reference} Letter of intent by the workflow “Deal intake”` },
      { action: "case.change", detail: "“Letter of intent.pdf” filed by the workflow “Deal intake”" },
    ]);
    expect(await verifyRoomAudit(ctx(), owner.id, roomId)).toMatchObject({ ok: true });
  });

  it("the room's other admins share its workflows: they see them with their builder (on /workflows and the room's Workflows page), start one by hand on a room document and cancel its run; a member, an outsider and a former admin get 404 and start nothing", async () => {
    const { owner, roomId, rootFolderId, incoming, approved, members } = await room();
    const [admin, outsider] = await Promise.all([signedIn({ tier: "business", name: "Ada Admin" }), signedIn({ tier: "business" })]);
    await joinRoom(owner, roomId, admin, "admin");
    await testEnv.DB.prepare("update users set tier = 'business' where id = ?").bind(members[0]!.id).run();
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Room review",
      trigger: { type: "upload", folderId: incoming },
      steps: [
        { type: "approve", name: "Members review", assignees: [], roles: ["member"], mode: "one" },
        { type: "move", name: "File it", folderId: approved },
      ],
    });

    // The admin sees it among their workflows, with who built it; it is not theirs to make a case type's default.
    const listed = (await listWorkflowSummaries(ctx(), admin.id)).find((entry) => entry.id === workflow.id);
    expect(listed).toMatchObject({ name: "Room review", builtBy: "Olga Owner", trigger: "A file uploaded into Falcon diligence / Incoming" });
    expect((await listWorkflows(ctx(), admin.id)).find((entry) => entry.id === workflow.id)).toMatchObject({ mine: false, inRoom: true });
    expect((await listWorkflowSummaries(ctx(), owner.id)).find((entry) => entry.id === workflow.id)?.builtBy).toBeNull();
    expect((await getWorkflow(ctx(), admin.id, workflow.id)).workflow).toMatchObject({ builtBy: "Olga Owner", inRoom: true });
    // The room's Workflows page lists the room's own, for those who manage it.
    const ownFlow = await createWorkflow(ctx(), admin.id, { name: "Admin's own", steps: [{ type: "approve", name: "Look", assignees: [owner.id], mode: "one" }] });
    expect((await listWorkflowSummaries(ctx(), admin.id, roomId)).map((entry) => entry.name)).toEqual(["Room review"]);
    expect((await listWorkflowSummaries(ctx(), admin.id)).map((entry) => entry.id)).toEqual(expect.arrayContaining([workflow.id, ownFlow.id]));

    // A member of the room (on Business) and an outsider neither see nor start it.
    const document = await upload(admin.client, rootFolderId, "Board minutes.pdf", bytes(1_500));
    const runsBefore = await countWhere("select count(*) as n from workflow_runs");
    await expect(listWorkflowSummaries(ctx(), members[0]!.id, roomId)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listWorkflowSummaries(ctx(), outsider.id, roomId)).rejects.toMatchObject({ code: "NOT_FOUND" });
    for (const person of [members[0]!, outsider]) {
      expect((await listWorkflowSummaries(ctx(), person.id)).some((entry) => entry.id === workflow.id)).toBe(false);
      await expect(getWorkflow(ctx(), person.id, workflow.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(startRun(ctx(), person.id, workflow.id, { fileId: document })).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
    // The admin's own document is not the room's.
    const own = await personalSpaceOf(admin.id);
    const personal = await upload(admin.client, own.rootId, "Notes.pdf", bytes(800));
    await expect(startRun(ctx(), admin.id, workflow.id, { fileId: personal })).rejects.toMatchObject({ code: "VALIDATION_ERROR", message: "fileId: This workflow runs on documents in its data room." });
    expect(await countWhere("select count(*) as n from workflow_runs")).toBe(runsBefore);

    // The admin starts it on a room document; a member of the room is asked; the admin cancels it.
    const run = await startRun(ctx(), admin.id, workflow.id, { fileId: document });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [task] = await tasksOf(members[1]!.id, run.id);
    expect(task).toMatchObject({ workflow: "Room review", step: "Members review" });
    expect((await getRun(ctx(), owner.id, run.id)).canCancel).toBe(true);
    await expect(cancelRun(ctx(), members[1]!.id, run.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await cancelRun(ctx(), admin.id, run.id)).toMatchObject({ status: "cancelled" });
    await instance.waitForStatus("terminated");
    await expect.poll(async () => (await auditOf(roomId)).map((entry) => [entry.action, entry.actorId])).toEqual([
      ["workflow.start", admin.id],
      ["workflow.end", admin.id],
    ]);

    // Made a member, the former admin no longer sees it nor its runs.
    expect((await send(owner.client, "PATCH", `/api/datarooms/${roomId}/members/${admin.id}`, { role: "member" })).status).toBe(200);
    expect((await listWorkflowSummaries(ctx(), admin.id)).some((entry) => entry.id === workflow.id)).toBe(false);
    await expect(getWorkflow(ctx(), admin.id, workflow.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(startRun(ctx(), admin.id, workflow.id, { fileId: document })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("a receive page delivering into the room starts a workflow of the room: the run works on the files sent into the room, the room's members approve, the document is filed inside the room and the audit log records it; a member of the room may not build one on their page", async () => {
    const { owner, roomId, incoming, approved, members } = await room();
    const made = await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "Send the contract", folderId: incoming, requireName: true });
    expect(made.status, await made.clone().text()).toBe(201);
    const { page } = await made.json<{ page: { id: string; path: string } }>();
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Contract intake",
      trigger: { type: "receive", pageId: page.id },
      steps: [
        { type: "approve", name: "Members review", assignees: [], roles: ["member"], mode: "one" },
        { type: "move", name: "File it", folderId: approved },
      ],
    });
    expect(workflow.inRoom).toBe(true);
    expect(await countWhere("select count(*) as n from workflow_templates where id = ? and space_id = ?", workflow.id, roomId)).toBe(1);

    const submissionId = await sendThroughPage(page.path.slice("/r/".length), { name: "Vera Vendor" }, [{ name: "contract.txt", content: "terms" }]);
    await startSubmissionRunsJob.run({ ...testContext(), jobId: "receive" }, { kind: "receive", submissionId });
    const run = (await testEnv.DB.prepare("select id, subject_file_id as fileId from workflow_runs where template_id = ?").bind(workflow.id).first<{ id: string; fileId: string }>())!;
    expect(await countWhere("select count(*) as n from files where id = ? and space_id = ? and name = 'contract.txt'", run.fileId, roomId)).toBe(1);
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [task] = await tasksOf(members[1]!.id, run.id);
    await decideTask(ctx(), members[1]!.id, task!.id, { decision: "approve" });
    await instance.waitForStatus("complete");
    expect(await folderOf(run.fileId)).toBe(approved);
    await expect.poll(async () => (await auditOf(roomId)).map((entry) => entry.action)).toEqual(["workflow.start", "workflow.decide", "workflow.end"]);
    expect((await auditOf(roomId))[0]).toMatchObject({ actorId: null, targetId: run.fileId, detail: "Contract intake" });

    // A member of the room on Business has a page into the room, and may not build the room's workflow on it; nothing is written.
    await testEnv.DB.prepare("update users set tier = 'business' where id = ?").bind(members[0]!.id).run();
    const theirs = await send(members[0]!.client, "POST", "/api/receive-pages", { kind: "simple", title: "Member page", folderId: incoming });
    expect(theirs.status, await theirs.clone().text()).toBe(201);
    const { page: memberPage } = await theirs.json<{ page: { id: string } }>();
    const before = await countWhere("select count(*) as n from workflow_templates");
    await expect(createWorkflow(ctx(), members[0]!.id, { name: "Mine", trigger: { type: "receive", pageId: memberPage.id }, steps: [{ type: "approve", name: "Look", assignees: [members[1]!.id], mode: "one" }] })).rejects.toMatchObject({ code: "FORBIDDEN", message: ROOM_SOURCE_REFUSED });
    expect(await countWhere("select count(*) as n from workflow_templates")).toBe(before);
  });
});
