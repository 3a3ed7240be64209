import { introspectWorkflow, introspectWorkflowInstance } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sendForSignature } from "~/features/workflows/workflow-engine.server";
import { callWebhook, copyDocuments, emailAbout, moveSubject, shareDocument, tagDocuments } from "~/features/workflows/workflow-actions.server";
import { webhookSignature } from "~/lib/webhooks.server";
import { workflowsPersonalData } from "~/features/workflows/personal-data.server";
import { builderOptions, documentsByIds, getWorkflow, listWorkflowSummaries } from "~/features/workflows/workflow-builder.server";
import { startEnvelopeRunsJob, startScheduledRunsJob, startSubmissionRunsJob, startUploadRunsJob } from "~/features/workflows/workflows.jobs";
import { sendRunEventJob } from "~/features/workflows/run-events.jobs";
import { createCaseType, getCase, listCases } from "~/features/cases/cases.server";
import { cancelRun, createWorkflow, decideTask, getRun, listMyTasks, startRun, startRunsOnSelection } from "~/features/workflows/workflows.server";
import { createFile, makeFolder, personalSpaceOf, testContext } from "~tests/factories/files";
import { countWhere, get, send, signedIn } from "./dataroom-helpers";
import { mailsTo, newAuthClient, testEnv } from "./helpers";
import { address, linkTokenFor, pdfInPersonalSpace, sealNow, signAs } from "./signature-helpers";
import { bytes, upload } from "./tus-helpers";
import { sendThroughPage } from "./receive-helpers";

/**
 * Workflows on Cloudflare Workflows (issue 41, step 1): templates of approval and move steps, runs
 * driven by the engine, decisions sent to it as events, cancelling mid-wait, and a step that runs
 * again doing its effect once. The engine runs for real (the vitest plugin's local Workflows);
 * `introspectWorkflowInstance` waits for where it stands.
 */

const ctx = () => testContext();
const runStatus = async (runId: string) => (await testEnv.DB.prepare("select status from workflow_runs where id = ?").bind(runId).first<{ status: string }>())?.status;
const folderOf = async (fileId: string) => (await testEnv.DB.prepare("select folder_id as folderId from files where id = ?").bind(fileId).first<{ folderId: string }>())?.folderId;

async function setting(approvers = 3) {
  const owner = await signedIn({ tier: "business", name: "Olga Owner" });
  const people = await Promise.all(Array.from({ length: approvers }, (_, index) => signedIn({ tier: "free", name: `Approver ${index + 1}` })));
  const space = await personalSpaceOf(owner.id);
  const signed = await makeFolder(space.spaceId, space.rootId, "Signed contracts");
  const contract = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "contract.pdf", content: "%PDF-1.4 contract", contentType: "application/pdf", uploadedBy: owner.id });
  return { owner, people, space, signed, contract };
}

/** Waits until the run's step has opened its tasks (the engine runs beside the test). */
async function tasksOf(userId: string, runId: string) {
  await expect.poll(async () => (await listMyTasks(ctx(), userId)).filter((task) => task.runId === runId).length, { timeout: 5_000 }).toBeGreaterThan(0);
  return (await listMyTasks(ctx(), userId)).filter((task) => task.runId === runId);
}

describe("workflows", () => {
  it("approve by one: the first decision decides, the others' tasks close, and the document is filed", async () => {
    const { owner, people, signed, contract } = await setting();
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Contract approval",
      steps: [
        { type: "approve", name: "Legal review", assignees: people.map((person) => person.id), mode: "one" },
        { type: "move", name: "File it", folderId: signed },
      ],
    });
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [task] = await tasksOf(people[1]!.id, run.id);
    expect(task).toMatchObject({ workflow: "Contract approval", step: "Legal review" });
    await decideTask(ctx(), people[1]!.id, task!.id, { decision: "approve", comment: "Fine by me." });
    await instance.waitForStatus("complete");
    expect(await runStatus(run.id)).toBe("completed");
    expect(await folderOf(contract.id)).toBe(signed);
    expect(await listMyTasks(ctx(), people[0]!.id)).toEqual([]);
    const { timeline } = await getRun(ctx(), owner.id, run.id);
    expect(timeline.map((event) => event.kind)).toEqual(["run.started", "step.started", "task.approved", "step.approved", "step.started", "file.moved", "run.completed"]);
    expect(timeline.find((event) => event.kind === "task.approved")).toMatchObject({ actor: "Approver 2", detail: "Fine by me." });
  });

  it("approve by all: every approval is needed, and one rejection ends the run as rejected without moving the document", async () => {
    const { owner, people, signed, contract } = await setting(2);
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Board sign-off", steps: [{ type: "approve", name: "Board", assignees: people.map((p) => p.id), mode: "all" }, { type: "move", name: "File it", folderId: signed }] });
    const approved = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using first = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, approved.id);
    await decideTask(ctx(), people[0]!.id, (await tasksOf(people[0]!.id, approved.id))[0]!.id, { decision: "approve" });
    await expect.poll(async () => (await getRun(ctx(), owner.id, approved.id)).timeline.some((event) => event.kind === "task.approved")).toBe(true);
    expect(await runStatus(approved.id)).toBe("running");
    await decideTask(ctx(), people[1]!.id, (await tasksOf(people[1]!.id, approved.id))[0]!.id, { decision: "approve" });
    await first.waitForStatus("complete");
    expect(await runStatus(approved.id)).toBe("completed");

    const other = await createFile({ spaceId: (await personalSpaceOf(owner.id)).spaceId, folderId: (await personalSpaceOf(owner.id)).rootId, name: "other.pdf", content: "%PDF-1.4 other", contentType: "application/pdf" });
    const rejected = await startRun(ctx(), owner.id, workflow.id, { fileId: other.id });
    await using second = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, rejected.id);
    await decideTask(ctx(), people[1]!.id, (await tasksOf(people[1]!.id, rejected.id))[0]!.id, { decision: "reject", comment: "Clause 7." });
    await second.waitForStatus("complete");
    expect(await runStatus(rejected.id)).toBe("rejected");
    expect(await folderOf(other.id)).not.toBe(signed);
    // The step ended: the other approver's task closed, and deciding it now is refused.
    expect(await listMyTasks(ctx(), people[0]!.id)).toEqual([]);
  });

  it("approve by quorum: 2 of 3 at 60 % approve the step", async () => {
    const { owner, people, contract } = await setting(3);
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Committee", steps: [{ type: "approve", name: "Committee vote", assignees: people.map((p) => p.id), mode: "quorum", quorumPercent: 60 }] });
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    await decideTask(ctx(), people[0]!.id, (await tasksOf(people[0]!.id, run.id))[0]!.id, { decision: "approve" });
    await decideTask(ctx(), people[2]!.id, (await tasksOf(people[2]!.id, run.id))[0]!.id, { decision: "approve" });
    await instance.waitForStatus("complete");
    expect(await runStatus(run.id)).toBe("completed");
    expect((await getRun(ctx(), owner.id, run.id)).timeline.find((event) => event.kind === "step.approved")?.detail).toBe("Committee vote: 2 of 3 approved");
  });

  it("a run cancelled while it waits for people stops, and its tasks close", async () => {
    const { owner, people, contract } = await setting(1);
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Review", steps: [{ type: "approve", name: "Review", assignees: [people[0]!.id], mode: "one" }] });
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [task] = await tasksOf(people[0]!.id, run.id);
    // Only whoever started it (or built the workflow) may cancel it.
    await expect(cancelRun(ctx(), people[0]!.id, run.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await cancelRun(ctx(), owner.id, run.id)).toMatchObject({ status: "cancelled" });
    await instance.waitForStatus("terminated");
    expect(await listMyTasks(ctx(), people[0]!.id)).toEqual([]);
    await expect(decideTask(ctx(), people[0]!.id, task!.id, { decision: "approve" })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("a decision the engine does not take at once is still recorded for the approver, and a job delivers it: the run goes on", async () => {
    const { owner, people, signed, contract } = await setting(1);
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Busy engine", steps: [{ type: "approve", name: "OK", assignees: [people[0]!.id], mode: "one" }, { type: "move", name: "File it", folderId: signed }] });
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [task] = await tasksOf(people[0]!.id, run.id);
    // The engine refuses the event (busy, restarting): the approver's decision stands all the same.
    const busy = { ...testContext(), env: { ...testEnv, WORKFLOW_RUNS: { get: async () => ({ sendEvent: async () => Promise.reject(new Error("engine busy")) }) } } } as unknown as ReturnType<typeof testContext>;
    expect(await decideTask(busy, people[0]!.id, task!.id, { decision: "approve" })).toEqual({ status: "approved" });
    const jobId = `${sendRunEventJob.type}:${run.id}:task-decided:${task!.id}`;
    expect(await countWhere("select count(*) as n from jobs where id = ?", jobId)).toBe(1);
    expect(await runStatus(run.id)).toBe("running");
    // The job (delivered twice) wakes the run, which reads the decision and goes on.
    const payload = { runId: run.id, type: "task-decided" as const, payload: { taskId: task!.id } };
    await sendRunEventJob.run({ ...testContext(), jobId }, payload);
    await instance.waitForStatus("complete");
    expect(await folderOf(contract.id)).toBe(signed);
    expect(await sendRunEventJob.run({ ...testContext(), jobId }, payload)).toMatchObject({ successCount: 0 });
  });

  it("a move step that runs again moves the document once", async () => {
    const { owner, people, signed, contract } = await setting(1);
    const workflow = await createWorkflow(ctx(), owner.id, { name: "File", steps: [{ type: "approve", name: "OK", assignees: [people[0]!.id], mode: "one" }, { type: "move", name: "File it", folderId: signed }] });
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    await tasksOf(people[0]!.id, run.id);
    const step = { type: "move" as const, name: "File it", folderId: signed };
    await moveSubject(ctx(), run.id, 1, step);
    await moveSubject(ctx(), run.id, 1, step);
    expect(await folderOf(contract.id)).toBe(signed);
    expect(await countWhere("select count(*) as n from files where folder_id = ? and name = 'contract.pdf'", signed)).toBe(1);
    expect(await countWhere("select count(*) as n from workflow_events where run_id = ? and kind = 'file.moved'", run.id)).toBe(1);
    await cancelRun(ctx(), owner.id, run.id);
    await instance.waitForStatus("terminated");
  });

  it("is for the Business plan, refuses what a person cannot act on, and keeps runs and tasks to the people in them", async () => {
    const { owner, people, contract } = await setting(1);
    const pro = await signedIn({ tier: "pro" });
    await expect(createWorkflow(ctx(), pro.id, { name: "Mine", steps: [{ type: "approve", name: "OK", assignees: [people[0]!.id], mode: "one" }] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(createWorkflow(ctx(), owner.id, { name: "Bad", steps: [{ type: "approve", name: "OK", assignees: ["no-such-person"], mode: "one" }] })).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    await expect(createWorkflow(ctx(), owner.id, { name: "Bad", steps: [{ type: "approve", name: "OK", assignees: [people[0]!.id], mode: "quorum" }] })).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    await expect(createWorkflow(ctx(), owner.id, { name: "Bad", steps: [] })).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    const elsewhere = await personalSpaceOf(pro.id);
    await expect(createWorkflow(ctx(), owner.id, { name: "Theirs", steps: [{ type: "move", name: "Move", folderId: elsewhere.rootId }] })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await countWhere("select count(*) as n from workflow_templates where created_by = ?", pro.id)).toBe(0);

    const workflow = await createWorkflow(ctx(), owner.id, { name: "Review", steps: [{ type: "approve", name: "Review", assignees: [people[0]!.id], mode: "one" }] });
    // Someone else's workflow, or a document outside its space, starts nothing.
    await expect(startRun(ctx(), pro.id, workflow.id, { fileId: contract.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const foreign = await createFile({ spaceId: elsewhere.spaceId, folderId: elsewhere.rootId, name: "theirs.pdf" });
    await expect(startRun(ctx(), owner.id, workflow.id, { fileId: foreign.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await countWhere("select count(*) as n from workflow_runs where template_id = ?", workflow.id)).toBe(0);

    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [task] = await tasksOf(people[0]!.id, run.id);
    // A task is its assignee's: anyone else 404, and the run is not theirs to see.
    await expect(decideTask(ctx(), pro.id, task!.id, { decision: "approve" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getRun(ctx(), pro.id, run.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(decideTask(ctx(), people[0]!.id, task!.id, { decision: "maybe" })).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await getRun(ctx(), people[0]!.id, run.id)).run.status).toBe("running");
    await decideTask(ctx(), people[0]!.id, task!.id, { decision: "approve" });
    await expect(decideTask(ctx(), people[0]!.id, task!.id, { decision: "approve" })).rejects.toMatchObject({ code: "CONFLICT" });
    await instance.waitForStatus("complete");
  });
});

describe("the workflows API", () => {
  it("answers anonymous 401, a plan without workflows 403, an outsider 404 with nothing written, and the people of a run what is theirs", async () => {
    const { owner, people, contract } = await setting(1);
    const outsider = await signedIn({ tier: "business" });
    const pro = await signedIn({ tier: "pro" });
    const body = { name: "Review", steps: [{ type: "approve", name: "Review", assignees: [people[0]!.id], mode: "one" }] };

    const anonymous = await newAuthClient();
    expect((await get("/api/workflows")).status).toBe(401);
    expect((await send(anonymous, "POST", "/api/workflows", body)).status).toBe(401);
    expect((await get("/api/workflow-tasks")).status).toBe(401);
    expect((await get("/api/workflow-runs/anything")).status).toBe(401);

    expect((await get("/api/workflows", pro.client)).status).toBe(403);
    const refused = await send(pro.client, "POST", "/api/workflows", body);
    expect(refused.status).toBe(403);
    expect(await countWhere("select count(*) as n from workflow_templates where created_by = ?", pro.id)).toBe(0);
    const malformed = await send(owner.client, "POST", "/api/workflows", "{not json");
    expect(malformed.status).toBe(400);

    const created = await send(owner.client, "POST", "/api/workflows", body);
    expect(created.status).toBe(201);
    const { workflow } = await created.json<{ workflow: { id: string } }>();
    expect((await (await get("/api/workflows", owner.client)).json<{ workflows: { id: string }[] }>()).workflows.map((entry) => entry.id)).toContain(workflow.id);

    expect((await send(outsider.client, "POST", `/api/workflows/${workflow.id}/runs`, { fileId: contract.id })).status).toBe(404);
    expect(await countWhere("select count(*) as n from workflow_runs where template_id = ?", workflow.id)).toBe(0);
    const started = await send(owner.client, "POST", `/api/workflows/${workflow.id}/runs`, { fileId: contract.id });
    expect(started.status).toBe(201);
    const { run } = await started.json<{ run: { id: string; status: string } }>();
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [task] = await tasksOf(people[0]!.id, run.id);

    expect((await get(`/api/workflow-runs/${run.id}`, outsider.client)).status).toBe(404);
    expect((await send(outsider.client, "POST", `/api/workflow-runs/${run.id}/cancel`)).status).toBe(404);
    expect((await send(outsider.client, "POST", `/api/workflow-tasks/${task!.id}/decision`, { decision: "approve" })).status).toBe(404);
    expect((await (await get("/api/workflow-tasks", outsider.client)).json<{ tasks: unknown[] }>()).tasks).toEqual([]);
    expect(await runStatus(run.id)).toBe("running");

    const mine = await (await get("/api/workflow-tasks", people[0]!.client)).json<{ tasks: { id: string }[] }>();
    expect(mine.tasks.map((entry) => entry.id)).toEqual([task!.id]);
    expect((await get(`/api/workflow-runs/${run.id}`, people[0]!.client)).status).toBe(200);
    const decided = await send(people[0]!.client, "POST", `/api/workflow-tasks/${task!.id}/decision`, { decision: "approve", comment: "Yes." });
    expect(decided.status).toBe(200);
    expect(await decided.json()).toEqual({ status: "approved" });
    await instance.waitForStatus("complete");
    const page = await (await get(`/api/workflow-runs/${run.id}`, owner.client)).json<{ run: { status: string }; timeline: { kind: string }[] }>();
    expect(page.run.status).toBe("completed");
    expect(page.timeline.at(-1)?.kind).toBe("run.completed");
  });
});

describe("workflows in personal data", () => {
  it("exports what a member built, started and decided, and erasing an approver takes their name and comments out of the timeline", async () => {
    const { owner, people, contract } = await setting(1);
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Review", steps: [{ type: "approve", name: "Review", assignees: [people[0]!.id], mode: "one" }] });
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [task] = await tasksOf(people[0]!.id, run.id);
    await decideTask(ctx(), people[0]!.id, task!.id, { decision: "approve", comment: "Signed off by Ana." });
    await instance.waitForStatus("complete");

    const [ownerRecord] = await workflowsPersonalData.export(ctx(), owner.id);
    expect(ownerRecord!.data).toMatchObject({ workflows: [{ id: workflow.id, name: "Review" }], runs: [{ id: run.id, status: "completed" }], tasks: [] });
    const [approverRecord] = await workflowsPersonalData.export(ctx(), people[0]!.id);
    expect(approverRecord!.data).toMatchObject({ workflows: [], runs: [], tasks: [{ workflow: "Review", status: "approved", comment: "Signed off by Ana." }] });

    await workflowsPersonalData.erase(ctx(), people[0]!.id);
    const decided = (await getRun(ctx(), owner.id, run.id)).timeline.find((event) => event.kind === "task.approved");
    expect(decided).toMatchObject({ actor: null, detail: null });
  });
});


describe("workflow triggers and notices", () => {
  it("a file uploaded into the trigger folder starts exactly one run, however often its job is delivered", async () => {
    const { owner, people, space, signed } = await setting(1);
    const incoming = await makeFolder(space.spaceId, space.rootId, "Incoming contracts");
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Contract approval",
      trigger: { type: "upload", folderId: incoming },
      steps: [{ type: "approve", name: "Legal review", assignees: [people[0]!.email], mode: "one" }, { type: "move", name: "File it", folderId: signed }],
    });
    expect(workflow.trigger).toEqual({ type: "upload", folderId: incoming });
    expect(workflow.steps[0]).toMatchObject({ assignees: [people[0]!.id] });

    const fileId = await upload(owner.client, incoming, "Supply contract.pdf", bytes(2_000));
    const uploadId = (await testEnv.DB.prepare("select id from uploads where file_id = ?").bind(fileId).first<{ id: string }>())!.id;
    // The upload queued the job that starts it.
    expect(await countWhere("select count(*) as n from jobs where id = ?", `${startUploadRunsJob.type}:${uploadId}`)).toBe(1);
    const payload = { uploadId, fileId, folderId: incoming, uploadedBy: owner.id };
    const jobCtx = { ...testContext(), jobId: `${startUploadRunsJob.type}:${uploadId}` };
    // Delivered twice (and perhaps by the queue as well): one run.
    await startUploadRunsJob.run(jobCtx, payload);
    await startUploadRunsJob.run(jobCtx, payload);
    await expect.poll(() => countWhere("select count(*) as n from workflow_runs where template_id = ?", workflow.id)).toBe(1);
    const run = (await testEnv.DB.prepare("select id, trigger_kind as triggerKind, subject_file_id as subjectFileId from workflow_runs where template_id = ?").bind(workflow.id).first<{ id: string; triggerKind: string; subjectFileId: string }>())!;
    expect(run).toMatchObject({ triggerKind: "upload", subjectFileId: fileId });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [task] = await tasksOf(people[0]!.id, run.id);
    await decideTask(ctx(), people[0]!.id, task!.id, { decision: "approve" });
    await instance.waitForStatus("complete");
    expect(await folderOf(fileId)).toBe(signed);
    expect((await getRun(ctx(), owner.id, run.id)).timeline[0]).toMatchObject({ kind: "run.started", detail: "Contract approval on “Supply contract.pdf” (uploaded into its folder)" });
  });

  it("an upload into any other folder, or into the folder of a builder who lost the plan, starts nothing", async () => {
    const { owner, people, space } = await setting(1);
    const incoming = await makeFolder(space.spaceId, space.rootId, "Incoming");
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Review", trigger: { type: "upload", folderId: incoming }, steps: [{ type: "approve", name: "Review", assignees: [people[0]!.id], mode: "one" }] });
    const elsewhere = await upload(owner.client, space.rootId, "elsewhere.pdf", bytes(500));
    const elsewhereUpload = (await testEnv.DB.prepare("select id from uploads where file_id = ?").bind(elsewhere).first<{ id: string }>())!.id;
    expect(await countWhere("select count(*) as n from jobs where id = ?", `${startUploadRunsJob.type}:${elsewhereUpload}`)).toBe(0);
    await testEnv.DB.prepare("update users set tier = 'pro' where id = ?").bind(owner.id).run();
    const fileId = await upload(owner.client, incoming, "later.pdf", bytes(500));
    const uploadId = (await testEnv.DB.prepare("select id from uploads where file_id = ?").bind(fileId).first<{ id: string }>())!.id;
    expect(await startUploadRunsJob.run({ ...testContext(), jobId: "x" }, { uploadId, fileId, folderId: incoming, uploadedBy: owner.id })).toMatchObject({ successCount: 0 });
    expect(await countWhere("select count(*) as n from workflow_runs where template_id = ?", workflow.id)).toBe(0);
  });

  it("the builder names approvers by e-mail, and an address without an account or a trigger folder of someone else is refused with nothing written", async () => {
    const { owner, people } = await setting(1);
    const stranger = await signedIn({ tier: "business" });
    const strangerSpace = await personalSpaceOf(stranger.id);
    await expect(createWorkflow(ctx(), owner.id, { name: "Review", steps: [{ type: "approve", name: "Review", assignees: ["nobody@example.test"], mode: "one" }] })).rejects.toThrow(
      "nobody@example.test is not a Strongroom member yet. Invite them first, then ask them to approve.",
    );
    await expect(
      createWorkflow(ctx(), owner.id, { name: "Review", trigger: { type: "upload", folderId: strangerSpace.rootId }, steps: [{ type: "approve", name: "Review", assignees: [people[0]!.email.toUpperCase()], mode: "one" }] }),
    ).rejects.toThrow("This folder does not exist or you don't have access to it.");
    await expect(createWorkflow(ctx(), owner.id, { name: "Review", trigger: { type: "upload" }, steps: [{ type: "approve", name: "Review", assignees: [people[0]!.id], mode: "one" }] })).rejects.toThrow("An upload trigger names its folder (folderId).");
    expect(await countWhere("select count(*) as n from workflow_templates where created_by = ?", owner.id)).toBe(0);
  });

  it("an approver hears of a new task in their notifications, live and by e-mail, without the document's name", async () => {
    const { owner, people, contract } = await setting(1);
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Contract approval", steps: [{ type: "approve", name: "Legal review", assignees: [people[0]!.id], mode: "one" }] });
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    await tasksOf(people[0]!.id, run.id);
    await expect.poll(() => countWhere("select count(*) as n from notifications where user_id = ? and kind = 'workflow.task'", people[0]!.id)).toBe(1);
    const notice = await testEnv.DB.prepare("select title, link from notifications where user_id = ? and kind = 'workflow.task'").bind(people[0]!.id).first<{ title: string; link: string }>();
    expect(notice).toEqual({ title: "Task waiting: Legal review: Contract approval", link: `/workflow-runs/${run.id}` });
    await expect.poll(async () => (await mailsTo(people[0]!.email)).some((mail) => mail.subject.includes("Task waiting: Legal review"))).toBe(true);
    expect((await mailsTo(people[0]!.email)).some((mail) => mail.textBody.includes("contract.pdf"))).toBe(false);
    await cancelRun(ctx(), owner.id, run.id);
    await instance.waitForStatus("terminated");
  });
});

describe("the builder's pages and a run's document", () => {
  it("an approver without access to the document sees neither its link nor its name; the builder sees both", async () => {
    const { owner, people, contract } = await setting(1);
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Contract approval", steps: [{ type: "approve", name: "Legal review", assignees: [people[0]!.id], mode: "one" }] });
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    await tasksOf(people[0]!.id, run.id);
    const seen = await getRun(ctx(), people[0]!.id, run.id);
    expect(seen.document).toBeNull();
    expect(JSON.stringify(seen)).not.toContain("contract.pdf");
    expect(seen.myTask).toMatchObject({ step: "Legal review" });
    expect((await get(`/api/files/${contract.id}`, people[0]!.client)).status).toBe(404);
    const built = await getRun(ctx(), owner.id, run.id);
    expect(built.document).toEqual({ id: contract.id, name: "contract.pdf" });
    expect(built.timeline[0]!.detail).toBe("Contract approval on “contract.pdf”");
    await cancelRun(ctx(), owner.id, run.id);
    await instance.waitForStatus("terminated");
  });

  it("lists the builder's workflows with how they start and their runs, shows one in words, and refuses a Pro member (403) and anyone else's workflow (404)", async () => {
    const { owner, people, space, signed, contract } = await setting(2);
    const incoming = await makeFolder(space.spaceId, space.rootId, "Incoming");
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Contract approval",
      trigger: { type: "upload", folderId: incoming },
      steps: [{ type: "approve", name: "Board", assignees: people.map((person) => person.id), mode: "quorum", quorumPercent: 50 }, { type: "move", name: "File it", folderId: signed }],
    });
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [summary] = await listWorkflowSummaries(ctx(), owner.id);
    expect(summary).toMatchObject({ name: "Contract approval", steps: 2, trigger: "A file uploaded into My files / Incoming", runs: 1, running: 1 });
    const page = await getWorkflow(ctx(), owner.id, workflow.id);
    expect(page.steps.map((step) => step.summary)).toEqual([`50 % of Approver 1 (${people[0]!.email}), Approver 2 (${people[1]!.email}) approve`, "Move the document into My files / Signed contracts"]);
    expect(page.runs).toMatchObject([{ id: run.id, status: "running", document: "contract.pdf", byUpload: false }]);
    expect(page.documents.map((document) => document.name)).toContain("contract.pdf");
    expect((await builderOptions(ctx(), owner.id)).folders.map((folder) => folder.path)).toEqual(expect.arrayContaining(["My files", "My files / Incoming", "My files / Signed contracts"]));

    const pro = await signedIn({ tier: "pro" });
    await expect(listWorkflowSummaries(ctx(), pro.id)).rejects.toMatchObject({ status: 403 });
    await expect(builderOptions(ctx(), pro.id)).rejects.toMatchObject({ status: 403 });
    const otherBusiness = await signedIn({ tier: "business" });
    await expect(getWorkflow(ctx(), otherBusiness.id, workflow.id)).rejects.toMatchObject({ status: 404 });
    await expect(getWorkflow(ctx(), people[0]!.id, workflow.id)).rejects.toMatchObject({ status: 403 });
    expect(await listWorkflowSummaries(ctx(), otherBusiness.id)).toEqual([]);
    await cancelRun(ctx(), owner.id, run.id);
    await instance.waitForStatus("terminated");
  });
});

/** Every run started from here on finds its first wait for people timed out (an approval's decision, a form's answer): the step is overdue at once. */
async function overdueAtOnce(wait = "step 1: decision 1") {
  const introspector = await introspectWorkflow(testEnv.WORKFLOW_RUNS);
  await introspector.modifyAll(async (m) => {
    await m.forceEventTimeout({ name: wait });
  });
  return introspector;
}

describe("due dates and escalations", () => {
  it("an overdue step whose escalation rejects takes the reject path: the run ends rejected, the task closes, nothing moves", async () => {
    const { owner, people, signed, contract } = await setting(1);
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Contract approval",
      steps: [{ type: "approve", name: "Legal review", assignees: [people[0]!.id], mode: "one", dueInHours: 24, escalation: { action: "reject" } }, { type: "move", name: "File it", folderId: signed }],
    });
    await using introspector = await overdueAtOnce();
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    const [instance] = await introspector.get();
    await instance!.waitForStatus("complete");
    expect(await runStatus(run.id)).toBe("rejected");
    expect(await folderOf(contract.id)).not.toBe(signed);
    expect(await listMyTasks(ctx(), people[0]!.id)).toEqual([]);
    const { timeline } = await getRun(ctx(), owner.id, run.id);
    expect(timeline.map((event) => event.kind)).toEqual(["run.started", "step.started", "step.escalated", "step.rejected", "run.rejected"]);
    expect(timeline[1]!.detail).toBe("Legal review (due in 1 day)");
    expect(timeline[2]!.detail).toBe("Legal review: no decision after 1 day, rejected as the workflow says");
  });

  it("an overdue step handed to someone else closes the first approver's task, tells the new one, and their approval moves the run on", async () => {
    const { owner, people, signed, contract } = await setting(2);
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Contract approval",
      steps: [{ type: "approve", name: "Legal review", assignees: [people[0]!.id], mode: "all", dueInHours: 48, escalation: { action: "reassign", to: people[1]!.email } }, { type: "move", name: "File it", folderId: signed }],
    });
    expect(workflow.steps[0]).toMatchObject({ escalation: { action: "reassign", to: people[1]!.id } });
    expect((await getWorkflow(ctx(), owner.id, workflow.id)).steps[0]!.summary).toBe(`All of Approver 1 (${people[0]!.email}) approve; due in 2 days, then it goes to Approver 2 (${people[1]!.email})`);
    await using introspector = await overdueAtOnce();
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    const [task] = await tasksOf(people[1]!.id, run.id);
    expect(await listMyTasks(ctx(), people[0]!.id)).toEqual([]);
    expect(await countWhere("select count(*) as n from notifications where user_id = ? and title = 'Task handed to you: Legal review: Contract approval'", people[1]!.id)).toBe(1);
    await decideTask(ctx(), people[1]!.id, task!.id, { decision: "approve" });
    const [instance] = await introspector.get();
    await instance!.waitForStatus("complete");
    expect(await runStatus(run.id)).toBe("completed");
    expect(await folderOf(contract.id)).toBe(signed);
    expect((await getRun(ctx(), owner.id, run.id)).timeline.find((event) => event.kind === "step.escalated")?.detail).toBe("Legal review: no decision after 2 days, handed to Approver 2");
  });

  it("an overdue step with a due time and no escalation chosen reminds its people once and keeps waiting for them", async () => {
    const { owner, people, contract } = await setting(1);
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Review", steps: [{ type: "approve", name: "Read it", assignees: [people[0]!.id], mode: "one", dueInHours: 3 }] });
    expect(workflow.steps[0]).toMatchObject({ dueInHours: 3, escalation: { action: "remind" } });
    await using introspector = await overdueAtOnce();
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await expect.poll(() => countWhere("select count(*) as n from notifications where user_id = ? and title = 'Overdue: Read it: Review'", people[0]!.id)).toBe(1);
    expect(await runStatus(run.id)).toBe("running");
    const [task] = await tasksOf(people[0]!.id, run.id);
    expect(task!.due).not.toBeNull();
    await decideTask(ctx(), people[0]!.id, task!.id, { decision: "approve" });
    const [instance] = await introspector.get();
    await instance!.waitForStatus("complete");
    expect(await runStatus(run.id)).toBe("completed");
    expect((await getRun(ctx(), owner.id, run.id)).timeline.find((event) => event.kind === "step.escalated")?.detail).toBe("Read it: no decision after 3 hours, 1 person reminded");
  });

  it("refuses an escalation without a due time, a due time out of range, and a reassignment to someone without an account", async () => {
    const { owner, people } = await setting(1);
    const step = { type: "approve", name: "Review", assignees: [people[0]!.id], mode: "one" };
    await expect(createWorkflow(ctx(), owner.id, { name: "R", steps: [{ ...step, escalation: { action: "reject" } }] })).rejects.toThrow("An escalation happens when a step is overdue: give it a due time (dueInHours).");
    await expect(createWorkflow(ctx(), owner.id, { name: "R", steps: [{ ...step, dueInHours: 0 }] })).rejects.toThrow("A step is due in 1 to 8736 hours.");
    await expect(createWorkflow(ctx(), owner.id, { name: "R", steps: [{ ...step, dueInHours: 5, escalation: { action: "reassign", to: "ghost@example.test" } }] })).rejects.toThrow("ghost@example.test is not a Strongroom member yet.");
    expect(await countWhere("select count(*) as n from workflow_templates where created_by = ?", owner.id)).toBe(0);
  });
});

describe("a sign step", () => {
  it("sends the approved contract for signature once, waits for the signer, and files the signed copy", async () => {
    const { owner, people, signed } = await setting(1);
    const { file: contract } = await pdfInPersonalSpace(owner, 2, "Supply contract.pdf");
    const signer = address("signer");
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Contract approval",
      steps: [
        { type: "approve", name: "Legal review", assignees: [people[0]!.id], mode: "one" },
        { type: "sign", name: "Signature", signers: [{ name: "Sam Signer", email: signer }] },
        { type: "move", name: "File it", folderId: signed },
      ],
    });
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    await decideTask(ctx(), people[0]!.id, (await tasksOf(people[0]!.id, run.id))[0]!.id, { decision: "approve" });

    // One envelope, from the builder, with a signature box for the signer on the last page.
    await expect.poll(() => countWhere("select count(*) as n from workflow_links where run_id = ?", run.id), { timeout: 5_000 }).toBe(1);
    const envelopeId = (await testEnv.DB.prepare("select ref_id as id from workflow_links where run_id = ?").bind(run.id).first<{ id: string }>())!.id;
    const envelope = (await testEnv.DB.prepare("select user_id as userId, status, title, fields from signature_envelopes where id = ?").bind(envelopeId).first<{ userId: string; status: string; title: string; fields: string }>())!;
    expect(envelope).toMatchObject({ userId: owner.id, status: "sent", title: "Contract approval: Signature" });
    expect(JSON.parse(envelope.fields)).toMatchObject([{ type: "signature", roleId: "signer-1", page: 1 }]);
    // Run again, the step finds the envelope it sent.
    expect(await sendForSignature(ctx(), run.id, 1, workflow.steps[1] as never)).toBe(envelopeId);
    expect(await countWhere("select count(*) as n from signature_envelopes where source_file_id = ?", contract.id)).toBe(1);

    const token = await linkTokenFor(signer);
    const signing = await signAs(await newAuthClient(), token, "", { consent: true, values: { "workflow-signature-1": "typed:Sam Signer" } });
    expect(signing.status, await signing.clone().text()).toBe(200);
    await sealNow(envelopeId);
    await instance.waitForStatus("complete");
    expect(await runStatus(run.id)).toBe("completed");
    const sealedFileId = (await testEnv.DB.prepare("select sealed_file_id as id from signature_envelopes where id = ?").bind(envelopeId).first<{ id: string }>())!.id;
    expect(await folderOf(sealedFileId)).toBe(signed);
    const { timeline, document } = await getRun(ctx(), owner.id, run.id);
    expect(document?.name).toBe("Supply contract (signed).pdf");
    expect(timeline.map((event) => event.kind)).toEqual(["run.started", "step.started", "task.approved", "step.approved", "step.started", "signature.sent", "signature.completed", "step.started", "file.moved", "run.completed"]);
  });

  it("an overdue signature reminds whoever has not signed, once, and waits on; their signature then moves the run on", async () => {
    const { owner, signed } = await setting(0);
    const { file: pdf } = await pdfInPersonalSpace(owner, 1, "Lease.pdf");
    const signer = address("late-signer");
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Lease", steps: [{ type: "sign", name: "Tenant signs", signers: [{ name: "Tina Tenant", email: signer }], dueInHours: 72 }, { type: "move", name: "File it", folderId: signed }] });
    expect(workflow.steps[0]).toMatchObject({ dueInHours: 72, escalation: { action: "remind" } });
    expect((await getWorkflow(ctx(), owner.id, workflow.id)).steps[0]!.summary).toBe(`Send for signature to Tina Tenant (${signer}); the signed copy goes on; due in 3 days, then they are reminded`);
    await using introspector = await overdueAtOnce("step 1: envelope 1");
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: pdf.id });
    const [instance] = await introspector.get();
    const escalated = async () => (await getRun(ctx(), owner.id, run.id)).timeline.find((event) => event.kind === "step.escalated")?.detail;
    await expect.poll(escalated, { timeout: 5_000 }).toBe("Tenant signs: not signed after 3 days, 1 signer reminded");
    // The signer got the signing e-mail, then one reminder; the envelope's history says why.
    expect((await mailsTo(signer)).filter((mail) => mail.template === "signature-request")).toHaveLength(2);
    const envelopeId = (await testEnv.DB.prepare("select ref_id as id from workflow_links where run_id = ?").bind(run.id).first<{ id: string }>())!.id;
    expect(await countWhere("select count(*) as n from signature_events where envelope_id = ? and type = 'reminded' and detail = ?", envelopeId, `Reminder to ${signer} (overdue in a workflow)`)).toBe(1);
    expect(await runStatus(run.id)).toBe("running");

    const signing = await signAs(await newAuthClient(), await linkTokenFor(signer), "", { consent: true, values: { "workflow-signature-1": "typed:Tina Tenant" } });
    expect(signing.status, await signing.clone().text()).toBe(200);
    await sealNow(envelopeId);
    await instance!.waitForStatus("complete");
    expect(await runStatus(run.id)).toBe("completed");
    const sealedFileId = (await testEnv.DB.prepare("select sealed_file_id as id from signature_envelopes where id = ?").bind(envelopeId).first<{ id: string }>())!.id;
    expect(await folderOf(sealedFileId)).toBe(signed);
  });

  it("an overdue signature whose escalation rejects voids the document, tells its signer, and ends the run rejected; a signature is not handed on or assumed", async () => {
    const { owner, signed } = await setting(0);
    const { file: pdf } = await pdfInPersonalSpace(owner, 1, "Offer.pdf");
    const signer = address("slow-signer");
    const sign = { type: "sign", name: "Candidate signs", signers: [{ name: "Cara Candidate", email: signer }], dueInHours: 24 };
    const before = await countWhere("select count(*) as n from workflow_templates");
    await expect(createWorkflow(ctx(), owner.id, { name: "Offer", steps: [{ ...sign, escalation: { action: "reassign", to: "x@example.com" } }] })).rejects.toMatchObject({ code: "VALIDATION_ERROR", message: expect.stringContaining("A sign step, when overdue, reminds its signers or ends rejected") });
    await expect(createWorkflow(ctx(), owner.id, { name: "Offer", steps: [{ ...sign, escalation: { action: "approve" } }] })).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    await expect(createWorkflow(ctx(), owner.id, { name: "Offer", steps: [{ ...sign, dueInHours: null, escalation: { action: "reject" } }] })).rejects.toMatchObject({ code: "VALIDATION_ERROR", message: expect.stringContaining("give it a due time") });
    expect(await countWhere("select count(*) as n from workflow_templates")).toBe(before);

    const workflow = await createWorkflow(ctx(), owner.id, { name: "Offer", steps: [{ ...sign, escalation: { action: "reject" } }, { type: "move", name: "File it", folderId: signed }] });
    expect((await getWorkflow(ctx(), owner.id, workflow.id)).steps[0]!.summary).toContain("; due in 1 day, then it is voided and rejected");
    await using introspector = await overdueAtOnce("step 1: envelope 1");
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: pdf.id });
    const [instance] = await introspector.get();
    await instance!.waitForStatus("complete");
    expect(await runStatus(run.id)).toBe("rejected");
    expect(await folderOf(pdf.id)).not.toBe(signed);
    const envelopeId = (await testEnv.DB.prepare("select ref_id as id from workflow_links where run_id = ?").bind(run.id).first<{ id: string }>())!.id;
    expect(await testEnv.DB.prepare("select status, void_reason as reason from signature_envelopes where id = ?").bind(envelopeId).first()).toEqual({ status: "voided", reason: "Not signed in time: the workflow that sent it ended it." });
    expect((await mailsTo(signer)).map((mail) => mail.template)).toEqual(["signature-request", "signature-voided"]);
    const { timeline } = await getRun(ctx(), owner.id, run.id);
    expect(timeline.map((event) => event.kind)).toEqual(["run.started", "step.started", "signature.sent", "step.escalated", "step.rejected", "run.rejected"]);
    expect(timeline[1]!.detail).toBe("Candidate signs (due in 1 day)");
    expect(timeline[3]!.detail).toBe("Candidate signs: not signed after 1 day, voided and rejected as the workflow says");
  });

  it("a declined signature ends the run rejected; a document that is not a PDF fails it with the reason; a sign step needs the e-signature feature", async () => {
    const { owner, space } = await setting(0);
    const { file: pdf } = await pdfInPersonalSpace(owner, 1, "Lease.pdf");
    const notes = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "notes.txt", content: "Notes", contentType: "text/plain", uploadedBy: owner.id });
    const signer = address("decliner");
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Lease", steps: [{ type: "sign", name: "Tenant signs", signers: [{ name: "Tina Tenant", email: signer }] }] });
    const declined = await startRun(ctx(), owner.id, workflow.id, { fileId: pdf.id });
    await using first = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, declined.id);
    await expect.poll(() => countWhere("select count(*) as n from workflow_links where run_id = ?", declined.id), { timeout: 5_000 }).toBe(1);
    const refusal = await signAs(await newAuthClient(), await linkTokenFor(signer), "/decline", { reason: "The rent is wrong." });
    expect(refusal.status, await refusal.clone().text()).toBe(200);
    await first.waitForStatus("complete");
    expect(await runStatus(declined.id)).toBe("rejected");
    expect((await getRun(ctx(), owner.id, declined.id)).timeline.find((event) => event.kind === "signature.ended")?.detail).toBe("Tenant signs: declined");

    const failed = await startRun(ctx(), owner.id, workflow.id, { fileId: notes.id });
    await using second = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, failed.id);
    await second.waitForStatus("errored");
    expect(await runStatus(failed.id)).toBe("failed");
    expect((await getRun(ctx(), owner.id, failed.id)).timeline.at(-1)?.detail).toBe("“notes.txt” is not a PDF: only a PDF can be sent for signature.");

    const proWithWorkflows = await signedIn({ tier: "business" });
    await testEnv.DB.prepare("update users set tier = 'pro' where id = ?").bind(proWithWorkflows.id).run();
    await expect(createWorkflow(ctx(), proWithWorkflows.id, { name: "X", steps: [{ type: "sign", name: "S", signers: [{ name: "A", email: "a@example.com" }] }] })).rejects.toMatchObject({ status: 403 });
  });
});

describe("a workflow started by a completed envelope", () => {
  it("starts one run on the signed copy when a document the builder sent is signed by everyone, however often its job runs; a workflow's own envelope starts nothing", async () => {
    const { owner, people } = await setting(1);
    const { file: lease } = await pdfInPersonalSpace(owner, 1, "Lease.pdf");
    const filing = await createWorkflow(ctx(), owner.id, { name: "File signed leases", trigger: { type: "envelope" }, steps: [{ type: "approve", name: "Check", assignees: [people[0]!.id], mode: "one" }] });
    expect(filing.trigger).toEqual({ type: "envelope" });
    const tenant = address("tenant");
    const sent = await send(owner.client, "POST", "/api/signatures", {
      title: "Lease",
      recipients: [{ roleId: "tenant", name: "Tina Tenant", email: tenant }],
      fields: [{ id: "t1", type: "signature", roleId: "tenant", page: 0, x: 0.1, y: 0.8, w: 0.3, h: 0.07 }],
      fileId: lease.id,
      send: true,
    });
    expect(sent.status, await sent.clone().text()).toBe(201);
    const envelopeId = (await sent.json<{ envelope: { id: string } }>()).envelope.id;
    const signing = await signAs(await newAuthClient(), await linkTokenFor(tenant), "", { consent: true, values: { t1: "typed:Tina Tenant" } });
    expect(signing.status, await signing.clone().text()).toBe(200);
    await sealNow(envelopeId);
    expect(await countWhere("select count(*) as n from jobs where id = ?", `${startEnvelopeRunsJob.type}:${envelopeId}`)).toBe(1);
    const jobCtx = { ...testContext(), jobId: "again" };
    await startEnvelopeRunsJob.run(jobCtx, { envelopeId });
    await startEnvelopeRunsJob.run(jobCtx, { envelopeId });
    await expect.poll(() => countWhere("select count(*) as n from workflow_runs where template_id = ?", filing.id)).toBe(1);
    const run = (await testEnv.DB.prepare("select id, subject_file_id as fileId, trigger_kind as kind from workflow_runs where template_id = ?").bind(filing.id).first<{ id: string; fileId: string; kind: string }>())!;
    const sealed = (await testEnv.DB.prepare("select sealed_file_id as id from signature_envelopes where id = ?").bind(envelopeId).first<{ id: string }>())!.id;
    expect(run).toMatchObject({ fileId: sealed, kind: "envelope" });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    await tasksOf(people[0]!.id, run.id);
    await cancelRun(ctx(), owner.id, run.id);
    await instance.waitForStatus("terminated");

    // An envelope a workflow's sign step sent is that workflow's business: no run starts from it.
    const signing2 = address("signer2");
    const sender = await createWorkflow(ctx(), owner.id, { name: "Send it", steps: [{ type: "sign", name: "Sign", signers: [{ name: "S", email: signing2 }] }] });
    const { file: other } = await pdfInPersonalSpace(owner, 1, "Other.pdf");
    const senderRun = await startRun(ctx(), owner.id, sender.id, { fileId: other.id });
    await using second = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, senderRun.id);
    await expect.poll(() => countWhere("select count(*) as n from workflow_links where run_id = ?", senderRun.id), { timeout: 5_000 }).toBe(1);
    const ownEnvelope = (await testEnv.DB.prepare("select ref_id as id from workflow_links where run_id = ?").bind(senderRun.id).first<{ id: string }>())!.id;
    await signAs(await newAuthClient(), await linkTokenFor(signing2), "", { consent: true, values: { "workflow-signature-1": "typed:S" } });
    await sealNow(ownEnvelope);
    await second.waitForStatus("complete");
    expect(await startEnvelopeRunsJob.run(jobCtx, { envelopeId: ownEnvelope })).toMatchObject({ successCount: 0 });
    expect(await countWhere("select count(*) as n from workflow_runs where template_id = ?", filing.id)).toBe(1);
  });
});

describe("starting a workflow on a selection", () => {
  it("starts one run per chosen document, and pressing Start again with the same page starts nothing more", async () => {
    const { owner, people, space, contract } = await setting(1);
    const second = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "second.pdf", content: "%PDF-1.4 s", contentType: "application/pdf", uploadedBy: owner.id });
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Review", steps: [{ type: "approve", name: "Read", assignees: [people[0]!.id], mode: "one" }] });
    const key = crypto.randomUUID();
    expect(await startRunsOnSelection(ctx(), owner.id, workflow.id, { fileIds: [contract.id, second.id, contract.id], key })).toEqual({ started: 2, workflowId: workflow.id });
    await startRunsOnSelection(ctx(), owner.id, workflow.id, { fileIds: [contract.id, second.id], key });
    expect(await countWhere("select count(*) as n from workflow_runs where template_id = ?", workflow.id)).toBe(2);
    expect(await documentsByIds(ctx(), owner.id, [contract.id, "nope", second.id])).toEqual([{ id: contract.id, name: "contract.pdf" }, { id: second.id, name: "second.pdf" }]);

    const stranger = await signedIn({ tier: "business" });
    const theirs = await createFile({ spaceId: (await personalSpaceOf(stranger.id)).spaceId, folderId: (await personalSpaceOf(stranger.id)).rootId, name: "theirs.pdf", content: "%PDF-1.4 t", contentType: "application/pdf", uploadedBy: stranger.id });
    await expect(startRunsOnSelection(ctx(), owner.id, workflow.id, { fileIds: [contract.id, theirs.id], key: crypto.randomUUID() })).rejects.toMatchObject({ status: 404 });
    await expect(startRunsOnSelection(ctx(), owner.id, workflow.id, { fileIds: [], key: crypto.randomUUID() })).rejects.toThrow("fileIds: Choose at least one document.");
    await expect(startRunsOnSelection(ctx(), stranger.id, workflow.id, { fileIds: [theirs.id], key: crypto.randomUUID() })).rejects.toMatchObject({ status: 404 });
    expect(await countWhere("select count(*) as n from workflow_runs where template_id = ?", workflow.id)).toBe(2);
    expect(await documentsByIds(ctx(), owner.id, [theirs.id])).toEqual([]);
    for (const runId of (await testEnv.DB.prepare("select id from workflow_runs where template_id = ?").bind(workflow.id).all<{ id: string }>()).results.map((row) => row.id)) {
      await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, runId);
      await tasksOf(people[0]!.id, runId);
      await cancelRun(ctx(), owner.id, runId);
      await instance.waitForStatus("terminated");
    }
  });
});

describe("workflows started by a submission", () => {
  it("files arriving through a receive page start exactly one run about the submission, whose documents are all its files; the approver does not see who sent them", async () => {
    const { owner, people, space, signed } = await setting(1);
    const made = await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "Send your claim", folderId: space.inboxId, requireName: true });
    expect(made.status, await made.clone().text()).toBe(201);
    const { page } = await made.json<{ page: { id: string; path: string } }>();
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Claim review",
      trigger: { type: "receive", pageId: page.id },
      steps: [{ type: "approve", name: "Check the claim", assignees: [people[0]!.id], mode: "one" }, { type: "move", name: "File it", folderId: signed }],
    });
    expect(workflow.trigger).toEqual({ type: "receive", pageId: page.id });

    const started = { submissionId: await sendThroughPage(page.path.slice("/r/".length), { name: "Carl Claimant" }, [{ name: "photo.txt", content: "proof" }, { name: "receipt.txt", content: "receipt" }]) };
    // Once both files are in, the job that starts it is queued; delivered twice, one run.
    expect(await countWhere("select count(*) as n from jobs where id = ?", `${startSubmissionRunsJob.type}:${started.submissionId}`)).toBe(1);
    const jobCtx = { ...testContext(), jobId: "again" };
    await startSubmissionRunsJob.run(jobCtx, { kind: "receive", submissionId: started.submissionId });
    await startSubmissionRunsJob.run(jobCtx, { kind: "receive", submissionId: started.submissionId });
    await expect.poll(() => countWhere("select count(*) as n from workflow_runs where template_id = ?", workflow.id)).toBe(1);
    const run = (await testEnv.DB.prepare("select id, trigger_kind as triggerKind, subject_submission_id as submissionId from workflow_runs where template_id = ?").bind(workflow.id).first<{ id: string; triggerKind: string; submissionId: string }>())!;
    expect(run).toMatchObject({ triggerKind: "receive", submissionId: started.submissionId });

    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [task] = await tasksOf(people[0]!.id, run.id);
    const seenByApprover = await getRun(ctx(), people[0]!.id, run.id);
    expect(seenByApprover).toMatchObject({ isAboutSubmission: true, submission: null, document: null });
    expect(JSON.stringify(seenByApprover.timeline)).not.toContain("Carl");
    await decideTask(ctx(), people[0]!.id, task!.id, { decision: "approve" });
    await instance.waitForStatus("complete");
    const filed = (await testEnv.DB.prepare("select name from files where folder_id = ? and trashed_at is null order by name").bind(signed).all<{ name: string }>()).results.map((row) => row.name);
    expect(filed).toEqual(["photo.txt", "receipt.txt"]);
    const seenByOwner = await getRun(ctx(), owner.id, run.id);
    expect(seenByOwner.submission).toEqual({ label: "The files Carl Claimant sent through “Send your claim”", link: `/receive-pages/${page.id}` });
    expect(seenByOwner.timeline.find((event) => event.kind === "file.moved")!.detail).toBe("File it (2 documents)");
  });

  it("a form submission starts exactly one run that files it into a new case with the answers in its fields; a test submission starts nothing; another's form is refused", async () => {
    const owner = await signedIn({ tier: "business", name: "Olga Owner" });
    const enquiry = await createCaseType(ctx(), owner.id, { name: "Enquiry", fields: [{ label: "Company", type: "text", required: true }] });
    const { form } = await (await send(owner.client, "POST", "/api/forms", {})).json<{ form: { id: string; revision: number } }>();
    const fields = [
      { id: "name", type: "short_text", label: "Name", required: true },
      { id: "company", type: "short_text", label: "Company", required: true },
    ];
    expect((await send(owner.client, "PUT", `/api/forms/${form.id}/draft`, { revision: form.revision, title: "Enquiries", fields, rules: [] })).status).toBe(200);
    expect((await send(owner.client, "POST", `/api/forms/${form.id}/publish`)).status).toBe(200);
    const stranger = await signedIn({ tier: "business" });
    const theirType = await createCaseType(ctx(), stranger.id, { name: "Theirs" });
    await expect(createWorkflow(ctx(), stranger.id, { name: "Theirs", trigger: { type: "form", formId: form.id }, steps: [{ type: "case", name: "Open a case", caseTypeId: theirType.id }] })).rejects.toMatchObject({ status: 400, message: "trigger: Choose one of your forms." });
    const workflow = await createWorkflow(ctx(), owner.id, { name: "Enquiry intake", trigger: { type: "form", formId: form.id }, steps: [{ type: "case", name: "Open a case", caseTypeId: enquiry.id }] });

    const tested = await send(owner.client, "POST", `/api/forms/${form.id}/submissions?test=1`, { answers: { name: "Test", company: "T" } });
    expect([200, 201]).toContain(tested.status);
    const visitor = await newAuthClient();
    const answered = await send(visitor, "POST", `/api/forms/${form.id}/submissions`, { answers: { name: "Grace Hopper", company: "Cobol Capital" } }, { "cf-connecting-ip": visitor.ip });
    expect(answered.status, await answered.clone().text()).toBe(201);
    const submissions = (await testEnv.DB.prepare("select id, is_test as isTest from form_submissions where form_id = ?").bind(form.id).all<{ id: string; isTest: number }>()).results;
    const real = submissions.find((row) => !row.isTest)!.id;
    const test = submissions.find((row) => row.isTest)!.id;
    expect(await countWhere("select count(*) as n from jobs where id = ?", `${startSubmissionRunsJob.type}:${real}`)).toBe(1);
    const jobCtx = { ...testContext(), jobId: "again" };
    await startSubmissionRunsJob.run(jobCtx, { kind: "form", submissionId: real });
    await startSubmissionRunsJob.run(jobCtx, { kind: "form", submissionId: real });
    await startSubmissionRunsJob.run(jobCtx, { kind: "form", submissionId: test });
    await expect.poll(() => countWhere("select count(*) as n from workflow_runs where template_id = ?", workflow.id)).toBe(1);
    const runId = (await testEnv.DB.prepare("select id from workflow_runs where template_id = ?").bind(workflow.id).first<{ id: string }>())!.id;
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, runId);
    await instance.waitForStatus("complete");
    const [opened] = (await listCases(ctx(), owner.id, { type: enquiry.id })).cases;
    const view = await getCase(ctx(), owner.id, opened!.id);
    expect(view.case.title).toBe("Grace Hopper: Enquiries");
    expect(view.case.fields.map((field) => field.value)).toEqual(["Cobol Capital"]);
    const seen = await getRun(ctx(), owner.id, runId);
    expect(seen.submission).toEqual({ label: "Grace Hopper's answers to “Enquiries”", link: `/forms/${form.id}/submissions/${real}` });
    expect(seen.timeline.map((event) => event.kind)).toContain("case.filed");
  });
});

describe("automatic steps", () => {
  it("copies, tags, sets metadata, e-mails and shares the document, and each does it once when it runs again", async () => {
    const { owner, space, signed, contract } = await setting(0);
    await testEnv.DB.prepare("insert into file_tags (file_id, space_id, tag, created_at) values (?, ?, 'draft', 0)").bind(contract.id, space.spaceId).run();
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Contract filing",
      steps: [
        { type: "copy", name: "Keep a copy", folderId: signed },
        { type: "tag", name: "Tag it", tags: ["Contract", "q4"] },
        { type: "metadata", name: "Mark it", entries: [{ key: "Status", value: "Approved" }] },
        { type: "email", name: "Tell finance", to: ["Finance@Example.com"], subject: "A contract was filed", message: "Please book it." },
        { type: "share", name: "Send to the client", to: ["client@example.com"], expiresInDays: 7, allowDownload: true, message: "Your copy." },
      ],
    });
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    await instance.waitForStatus("complete");

    const copies = () => testEnv.DB.prepare("select name from files where folder_id = ? and trashed_at is null").bind(signed).all<{ name: string }>();
    expect((await copies()).results.map((row) => row.name)).toEqual(["contract.pdf"]);
    const tags = (await testEnv.DB.prepare("select tag from file_tags where file_id = ? order by tag").bind(contract.id).all<{ tag: string }>()).results.map((row) => row.tag);
    expect(tags).toEqual(["contract", "draft", "q4"]);
    const metadata = await testEnv.DB.prepare("select key, value from file_metadata where file_id = ?").bind(contract.id).all<{ key: string; value: string }>();
    expect(metadata.results).toEqual([{ key: "Status", value: "Approved" }]);
    const [finance] = await mailsTo("finance@example.com");
    expect(finance).toMatchObject({ template: "workflow-message", subject: "A contract was filed" });
    expect(finance!.textBody).toContain("Olga Owner sends you this through their workflow \"Contract filing\", about \"contract.pdf\".");
    expect(finance!.textBody).toContain("Please book it.");
    const [client] = await mailsTo("client@example.com");
    expect(client!.subject).toBe("Olga Owner shared “contract.pdf” with you");
    const link = (await testEnv.DB.prepare("select id, allow_list as allowList, verify_email as verifyEmail, allow_download as allowDownload, expires_at as expiresAt from share_links where target_id = ?").bind(contract.id).first<{ id: string; allowList: string; verifyEmail: number; allowDownload: number; expiresAt: number }>())!;
    expect(JSON.parse(link.allowList)).toEqual(["client@example.com"]);
    expect(link).toMatchObject({ verifyEmail: 1, allowDownload: 1 });
    expect(link.expiresAt).toBeGreaterThan(Date.now() + 6 * 24 * 3_600_000);
    expect(client!.textBody).toMatch(/Open the document: http\S+\/s\/\S+/);
    const { timeline } = await getRun(ctx(), owner.id, run.id);
    expect(timeline.map((event) => event.kind)).toEqual(expect.arrayContaining(["file.copied", "file.tagged", "file.metadata", "email.sent", "share.created", "run.completed"]));

    // Delivered again (a retry, a restart): nothing more happens. The run is reopened to let the steps act.
    await testEnv.DB.prepare("update workflow_runs set status = 'running' where id = ?").bind(run.id).run();
    const steps = (await testEnv.DB.prepare("select definition from workflow_templates where id = ?").bind(workflow.id).first<{ definition: string }>())!;
    const definition = JSON.parse(steps.definition) as { steps: Parameters<typeof copyDocuments>[3][] };
    await copyDocuments(ctx(), run.id, 0, definition.steps[0] as never);
    await tagDocuments(ctx(), run.id, 1, definition.steps[1] as never);
    await emailAbout(ctx(), run.id, 3, definition.steps[3] as never);
    await shareDocument(ctx(), run.id, 4, definition.steps[4] as never);
    expect((await copies()).results).toHaveLength(1);
    expect(await countWhere("select count(*) as n from file_tags where file_id = ?", contract.id)).toBe(3);
    expect(await mailsTo("finance@example.com")).toHaveLength(1);
    expect(await mailsTo("client@example.com")).toHaveLength(1);
    expect(await countWhere("select count(*) as n from share_links where target_id = ?", contract.id)).toBe(1);
  });

  it("a webhook step posts the run's event signed with the secret its builder sees, and a receiver's error is thrown for the engine to retry", async () => {
    const { owner, people, contract } = await setting(1);
    await expect(createWorkflow(ctx(), owner.id, { name: "Local", steps: [{ type: "webhook", name: "Hook", url: "http://localhost/hook" }] })).rejects.toMatchObject({ status: 400 });
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Notify the CRM",
      steps: [
        { type: "approve", name: "Review", assignees: [people[0]!.id], mode: "one" },
        { type: "webhook", name: "Tell the CRM", url: "https://crm.example.com/hooks/strongroom" },
      ],
    });
    expect(JSON.stringify(workflow)).not.toContain("secretSealed");
    const page = await getWorkflow(ctx(), owner.id, workflow.id);
    const secret = page.steps[1]!.secret!;
    expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    expect(page.steps[1]!.summary).toBe("Call https://crm.example.com/hooks/strongroom (signed)");

    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    await tasksOf(people[0]!.id, run.id);
    const step = (JSON.parse((await testEnv.DB.prepare("select definition from workflow_templates where id = ?").bind(workflow.id).first<{ definition: string }>())!.definition) as { steps: never[] }).steps[1]!;
    const seen: { url: string; headers: Headers; body: string }[] = [];
    const answering = (status: number) => (async (url: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url: String(url), headers: new Headers(init?.headers), body: String(init?.body) });
      return new Response(null, { status });
    }) as typeof fetch;
    await expect(callWebhook(ctx(), run.id, 1, step, answering(503))).rejects.toThrow("Tell the CRM: crm.example.com answered 503");
    expect(await callWebhook(ctx(), run.id, 1, step, answering(204))).toBe(204);
    const [first, second] = seen;
    expect(first!.url).toBe("https://crm.example.com/hooks/strongroom");
    expect(first!.headers.get("strongroom-event-id")).toBe(second!.headers.get("strongroom-event-id"));
    const body = JSON.parse(second!.body) as { type: string; workflow: { name: string }; step: { name: string }; documents: { name: string }[] };
    expect(body).toMatchObject({ type: "workflow.step", workflow: { name: "Notify the CRM" }, step: { name: "Tell the CRM" }, documents: [{ name: "contract.pdf" }] });
    const timestamp = Number(/t=(\d+)/.exec(second!.headers.get("strongroom-signature")!)![1]);
    expect(second!.headers.get("strongroom-signature")).toBe(await webhookSignature(secret, timestamp, second!.body));
    await cancelRun(ctx(), owner.id, run.id);
    await instance.waitForStatus("terminated");
  });
});

describe("branching", () => {
  async function branching() {
    const { owner, people, space, signed, contract } = await setting(1);
    const declined = await makeFolder(space.spaceId, space.rootId, "Declined");
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Contract decision",
      steps: [
        { type: "approve", name: "Decide", assignees: [people[0]!.id], mode: "one" },
        { type: "move", name: "File as signed", folderId: signed, when: "approved" },
        { type: "move", name: "File as declined", folderId: declined, when: "rejected" },
        { type: "email", name: "Tell sales", to: ["sales@example.com"], subject: "A contract was decided" },
      ],
    });
    return { owner, people, signed, declined, contract, workflow };
  }

  it("a rejection takes the rejected path instead of ending the run: the other path's step is skipped, the steps for every path still run, and the run ends rejected", async () => {
    const { owner, people, declined, contract, workflow } = await branching();
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [task] = await tasksOf(people[0]!.id, run.id);
    await decideTask(ctx(), people[0]!.id, task!.id, { decision: "reject", comment: "Not this quarter." });
    await instance.waitForStatus("complete");
    expect(await runStatus(run.id)).toBe("rejected");
    expect(await folderOf(contract.id)).toBe(declined);
    expect(await mailsTo("sales@example.com")).toHaveLength(1);
    const { timeline } = await getRun(ctx(), owner.id, run.id);
    expect(timeline.find((event) => event.kind === "step.skipped")!.detail).toBe("File as signed: only when approved, and the run was rejected");
    expect(timeline.at(-1)!.kind).toBe("run.rejected");
  });

  it("an approval takes the approved path and skips the rejected one; a step for a path with no decision before it is refused", async () => {
    const { owner, people, signed, contract, workflow } = await branching();
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [task] = await tasksOf(people[0]!.id, run.id);
    await decideTask(ctx(), people[0]!.id, task!.id, { decision: "approve" });
    await instance.waitForStatus("complete");
    expect(await runStatus(run.id)).toBe("completed");
    expect(await folderOf(contract.id)).toBe(signed);
    expect((await getWorkflow(ctx(), owner.id, workflow.id)).steps.map((step) => step.summary.split(":")[0])).toEqual(["Any one of Approver 1 (" + people[0]!.email + ") approve", "If approved", "If rejected", "E-mail “A contract was decided” to sales@example.com"]);
    await expect(createWorkflow(ctx(), owner.id, { name: "No decision", steps: [{ type: "move", name: "File", folderId: signed, when: "rejected" }] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("“File” runs only when rejected, but no step before it decides"),
    });
  });
});

describe("a loop (send back)", () => {
  async function looping() {
    const { owner, people, signed, contract } = await setting(1);
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Contract revision",
      steps: [
        { type: "approve", name: "Legal review", assignees: [people[0]!.id], mode: "one" },
        { type: "move", name: "File it", folderId: signed, when: "approved" },
        { type: "back", name: "Revise", to: 1, times: 1, when: "rejected" },
      ],
    });
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    return { owner, reviewer: people[0]!, signed, contract, workflow, run };
  }

  it("a rejection sends the run back to the review: the second round asks again with a new task, the run's page says round 2, and an approval then files the document", async () => {
    const { owner, reviewer, signed, contract, workflow, run } = await looping();
    expect((await getWorkflow(ctx(), owner.id, workflow.id)).steps[2]!.summary).toBe("If rejected: Send it back to step 1, at most 1 time; then the run goes on");
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    const [first] = await tasksOf(reviewer.id, run.id);
    await decideTask(ctx(), reviewer.id, first!.id, { decision: "reject", comment: "Clause 4 is wrong." });
    const [second] = await tasksOf(reviewer.id, run.id);
    expect(second!.id).not.toBe(first!.id);
    expect((await getRun(ctx(), owner.id, run.id)).run).toMatchObject({ status: "running", stepIndex: 0, round: 2 });
    await decideTask(ctx(), reviewer.id, second!.id, { decision: "approve" });
    await instance.waitForStatus("complete");
    expect(await runStatus(run.id)).toBe("completed");
    expect(await folderOf(contract.id)).toBe(signed);
    const { timeline } = await getRun(ctx(), owner.id, run.id);
    expect(timeline.map((event) => event.kind)).toEqual(["run.started", "step.started", "task.rejected", "step.rejected", "step.skipped", "step.sent_back", "step.started", "task.approved", "step.approved", "step.started", "file.moved", "step.skipped", "run.completed"]);
    expect(timeline.find((event) => event.kind === "step.sent_back")!.detail).toBe("Revise: back to “Legal review” (round 2 of 2)");
    // Both rounds' decisions stay: two tasks of the one step.
    expect(await countWhere("select count(*) as n from workflow_tasks where run_id = ?", run.id)).toBe(2);
  });

  it("rejected again once the rounds are used up, the run goes on past the send-back and ends rejected; a send-back forward or round no decision is refused", async () => {
    const { owner, reviewer, signed, contract, run } = await looping();
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    await decideTask(ctx(), reviewer.id, (await tasksOf(reviewer.id, run.id))[0]!.id, { decision: "reject" });
    await decideTask(ctx(), reviewer.id, (await tasksOf(reviewer.id, run.id))[0]!.id, { decision: "reject" });
    await instance.waitForStatus("complete");
    expect(await runStatus(run.id)).toBe("rejected");
    expect(await folderOf(contract.id)).not.toBe(signed);
    const { timeline } = await getRun(ctx(), owner.id, run.id);
    expect(timeline.filter((event) => event.kind === "step.sent_back")).toHaveLength(1);
    expect(timeline.find((event) => event.kind === "step.rounds_used")!.detail).toBe("Revise: sent back once already, so the run goes on");

    const before = await countWhere("select count(*) as n from workflow_templates");
    const review = { type: "approve", name: "Review", assignees: [reviewer.id], mode: "one" };
    await expect(createWorkflow(ctx(), owner.id, { name: "Forward", steps: [review, { type: "back", name: "Ahead", to: 3, times: 1, when: "rejected" }, { type: "move", name: "File", folderId: signed }] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("“Ahead” goes back to step 3: choose a step before it (1 to 1)."),
    });
    await expect(createWorkflow(ctx(), owner.id, { name: "Idle loop", steps: [review, { type: "move", name: "File", folderId: signed }, { type: "back", name: "Again", to: 2, times: 2, when: "rejected" }] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("“Again” would go round without anyone deciding"),
    });
    await expect(createWorkflow(ctx(), owner.id, { name: "Many", steps: [review, { type: "back", name: "Again", to: 1, times: 6, when: "rejected" }] })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("1 to 5 times") });
    expect(await countWhere("select count(*) as n from workflow_templates")).toBe(before);
  });
});

describe("a scheduled workflow", () => {
  it("starts one run on each document of its folder on the days it is due, however often the morning's job runs, and none on a document whose last run is still going", async () => {
    const { owner, people, space } = await setting(1);
    const policies = await makeFolder(space.spaceId, space.rootId, "Policies");
    const archive = await makeFolder(space.spaceId, policies, "Archive");
    await createFile({ spaceId: space.spaceId, folderId: policies, name: "Travel policy.pdf", content: "%PDF-1.4 travel", contentType: "application/pdf", uploadedBy: owner.id });
    await createFile({ spaceId: space.spaceId, folderId: policies, name: "Expenses policy.pdf", content: "%PDF-1.4 expenses", contentType: "application/pdf", uploadedBy: owner.id });
    await createFile({ spaceId: space.spaceId, folderId: archive, name: "Old policy.pdf", content: "%PDF-1.4 old", contentType: "application/pdf", uploadedBy: owner.id });
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Policy review",
      trigger: { type: "schedule", folderId: policies, everyDays: 7 },
      steps: [{ type: "approve", name: "Still current?", assignees: [people[0]!.id], mode: "one" }],
    });
    expect(workflow.trigger).toEqual({ type: "schedule", folderId: policies, everyDays: 7 });
    expect((await listWorkflowSummaries(ctx(), owner.id))[0]!.trigger).toBe("Every 7 days (07:00 UTC), on each document in My files / Policies");
    const created = new Date(workflow.createdAt);
    const dayAfter = (days: number) => new Date(Date.UTC(created.getUTCFullYear(), created.getUTCMonth(), created.getUTCDate() + days)).toISOString().slice(0, 10);
    const runs = () => countWhere("select count(*) as n from workflow_runs where template_id = ?", workflow.id);
    const jobCtx = { ...testContext(), jobId: "again" };

    await startScheduledRunsJob.run(jobCtx, { day: dayAfter(3) });
    expect(await runs()).toBe(0);
    await startScheduledRunsJob.run(jobCtx, { day: dayAfter(7) });
    await startScheduledRunsJob.run(jobCtx, { day: dayAfter(7) });
    expect(await runs()).toBe(2);
    const started = (await testEnv.DB.prepare("select r.id, f.name from workflow_runs r join files f on f.id = r.subject_file_id where r.template_id = ? order by f.name").bind(workflow.id).all<{ id: string; name: string }>()).results;
    expect(started.map((run) => run.name)).toEqual(["Expenses policy.pdf", "Travel policy.pdf"]);
    // A week later both are still waiting for the reviewer: nothing new starts.
    await startScheduledRunsJob.run(jobCtx, { day: dayAfter(14) });
    expect(await runs()).toBe(2);
    for (const run of started) {
      await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
      await tasksOf(people[0]!.id, run.id);
      await cancelRun(ctx(), owner.id, run.id);
      await instance.waitForStatus("terminated");
    }
    await startScheduledRunsJob.run(jobCtx, { day: dayAfter(21) });
    expect(await runs()).toBe(4);
    await expect(createWorkflow(ctx(), owner.id, { name: "Too often", trigger: { type: "schedule", folderId: policies, everyDays: 0 }, steps: [{ type: "tag", name: "Tag", tags: ["x"] }] })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("every 1 to 365 days") });
  });
});

describe("a form step", () => {
  /** A published form of the owner's asking a name and an IBAN. */
  const makeForm = async (owner: Awaited<ReturnType<typeof setting>>["owner"], title: string) => {
    const { form } = await (await send(owner.client, "POST", "/api/forms", {})).json<{ form: { id: string; revision: number } }>();
    const fields = [{ id: "name", type: "short_text", label: "Name", required: true }, { id: "iban", type: "short_text", label: "IBAN", required: true }];
    expect((await send(owner.client, "PUT", `/api/forms/${form.id}/draft`, { revision: form.revision, title, fields, rules: [] })).status).toBe(200);
    expect((await send(owner.client, "POST", `/api/forms/${form.id}/publish`)).status).toBe(200);
    return form.id;
  };
  /** The step's ticket in the newest workflow e-mail to an address. */
  const ticketIn = async (email: string, subject: string) => {
    await expect.poll(async () => (await mailsTo(email)).filter((mail) => mail.subject === subject).length, { timeout: 5_000 }).toBe(1);
    const mail = (await mailsTo(email)).find((item) => item.subject === subject)!;
    return new URL(/Fill in the form: (\S+)/.exec(mail.textBody)![1]!).searchParams.get("task")!;
  };
  const answerWith = async (formId: string, ticket: string) => {
    const visitor = await newAuthClient();
    return send(visitor, "POST", `/api/forms/${formId}/submissions`, { answers: { name: "Vera Vendor", iban: "DE89 3704 0044 0532 0130 00", _task: ticket } }, { "cf-connecting-ip": visitor.ip });
  };

  it("e-mails its person the form's link with the step's ticket, waits for their answer, and goes on; an answer without the ticket, or to another form, moves nothing", async () => {
    const { owner, signed, contract } = await setting(0);
    const details = await makeForm(owner, "Supplier details");
    const other = await makeForm(owner, "Feedback");
    const stranger = await signedIn({ tier: "business" });
    await expect(createWorkflow(ctx(), stranger.id, { name: "Theirs", steps: [{ type: "form", name: "Details", formId: details, to: "x@example.com" }] })).rejects.toMatchObject({ status: 400 });
    const workflow = await createWorkflow(ctx(), owner.id, {
      name: "Supplier onboarding",
      steps: [
        { type: "form", name: "Bank details", formId: details, to: "Vendor@Example.com" },
        { type: "move", name: "File it", folderId: signed },
      ],
    });
    expect((await getWorkflow(ctx(), owner.id, workflow.id)).steps[0]!.summary).toBe("vendor@example.com fills in the form “Supplier details”");
    const run = await startRun(ctx(), owner.id, workflow.id, { fileId: contract.id });
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, run.id);
    await expect.poll(async () => (await mailsTo("vendor@example.com")).length, { timeout: 5_000 }).toBe(1);
    const [mail] = await mailsTo("vendor@example.com");
    expect(mail!.subject).toBe("Olga Owner asks you to fill in a form: Bank details");
    const link = /Fill in the form: (\S+)/.exec(mail!.textBody)![1]!;
    expect(link).toContain(`/forms/${details}/view?task=`);
    const ticket = new URL(link).searchParams.get("task")!;

    const visitor = await newAuthClient();
    const answer = (formId: string, extra: Record<string, string>) => send(visitor, "POST", `/api/forms/${formId}/submissions`, { answers: { name: "Vera Vendor", iban: "DE89 3704 0044 0532 0130 00", ...extra } }, { "cf-connecting-ip": visitor.ip });
    expect((await answer(details, {})).status).toBe(201);
    expect((await answer(other, { _task: ticket })).status).toBe(201);
    expect((await answer(details, { _task: "x".repeat(43) })).status).toBe(201);
    // Recorded at once when it counts: none of these did.
    expect(await countWhere("select count(*) as n from workflow_events where run_id = ? and kind = 'form.answered'", run.id)).toBe(0);
    expect(await runStatus(run.id)).toBe("running");

    expect((await answer(details, { _task: ticket })).status).toBe(201);
    await instance.waitForStatus("complete");
    expect(await folderOf(contract.id)).toBe(signed);
    const { timeline } = await getRun(ctx(), owner.id, run.id);
    expect(timeline.filter((event) => event.kind.startsWith("form.")).map((event) => event.detail)).toEqual(["Bank details: asked vendor@example.com", "Bank details: answered by Vera Vendor"]);
  });


  it("overdue, it goes on without the answer or ends the run rejected, as the workflow says, and the timeline says why", async () => {
    const { owner, signed, contract, space } = await setting(0);
    const details = await makeForm(owner, "Supplier details");
    const onward = await createWorkflow(ctx(), owner.id, {
      name: "Onboarding, onward",
      steps: [
        { type: "form", name: "Bank details", formId: details, to: "late@example.com", dueInHours: 48, escalation: { action: "approve" } },
        { type: "move", name: "File it", folderId: signed },
      ],
    });
    expect((await getWorkflow(ctx(), owner.id, onward.id)).steps[0]!.summary).toBe("late@example.com fills in the form “Supplier details”; due in 2 days, then the workflow goes on without it");
    const strict = await createWorkflow(ctx(), owner.id, {
      name: "Onboarding, strict",
      steps: [{ type: "form", name: "Bank details", formId: details, to: "late@example.com", dueInHours: 24, escalation: { action: "reject" } }, { type: "move", name: "File it", folderId: signed }],
    });
    const other = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "other.pdf", content: "%PDF-1.4 other", contentType: "application/pdf", uploadedBy: owner.id });
    await using introspector = await overdueAtOnce("step 1: answer 1");
    const goesOn = await startRun(ctx(), owner.id, onward.id, { fileId: contract.id });
    const ends = await startRun(ctx(), owner.id, strict.id, { fileId: other.id });
    for (const instance of await introspector.get()) await instance.waitForStatus("complete");
    expect(await runStatus(goesOn.id)).toBe("completed");
    expect(await folderOf(contract.id)).toBe(signed);
    const onwardTimeline = (await getRun(ctx(), owner.id, goesOn.id)).timeline;
    expect(onwardTimeline.find((event) => event.kind === "step.started")?.detail).toBe("Bank details (due in 2 days)");
    expect(onwardTimeline.find((event) => event.kind === "step.escalated")?.detail).toBe("Bank details: no answer after 2 days, the workflow goes on without it");
    expect(await runStatus(ends.id)).toBe("rejected");
    expect(await folderOf(other.id)).not.toBe(signed);
    const strictTimeline = (await getRun(ctx(), owner.id, ends.id)).timeline;
    expect(strictTimeline.find((event) => event.kind === "step.escalated")?.detail).toBe("Bank details: no answer after 1 day, rejected as the workflow says");
    expect(strictTimeline.at(-1)).toMatchObject({ kind: "run.rejected", detail: "The form was not answered in time." });
  });

  it("overdue, it reminds its person once, or asks someone else with the same link, and the first answer with it moves the run on", async () => {
    const { owner, signed, contract, space } = await setting(0);
    const details = await makeForm(owner, "Supplier details");
    const remind = await createWorkflow(ctx(), owner.id, { name: "Remind", steps: [{ type: "form", name: "Bank details", formId: details, to: "slow@example.com", dueInHours: 5 }, { type: "move", name: "File it", folderId: signed }] });
    expect(remind.steps[0]).toMatchObject({ dueInHours: 5, escalation: { action: "remind" } });
    const instead = await createWorkflow(ctx(), owner.id, {
      name: "Instead",
      steps: [{ type: "form", name: "Bank details", formId: details, to: "away@example.com", dueInHours: 24, escalation: { action: "reassign", to: "Deputy@Example.com" } }, { type: "move", name: "File it", folderId: signed }],
    });
    expect((await getWorkflow(ctx(), owner.id, instead.id)).steps[0]!.summary).toBe("away@example.com fills in the form “Supplier details”; due in 1 day, then it goes to deputy@example.com");
    const other = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "other.pdf", content: "%PDF-1.4 other", contentType: "application/pdf", uploadedBy: owner.id });
    await using introspector = await overdueAtOnce("step 1: answer 1");
    const reminded = await startRun(ctx(), owner.id, remind.id, { fileId: contract.id });
    const handed = await startRun(ctx(), owner.id, instead.id, { fileId: other.id });

    const again = await ticketIn("slow@example.com", "Reminder: Olga Owner asks you to fill in a form: Bank details");
    expect(again).toBe(await ticketIn("slow@example.com", "Olga Owner asks you to fill in a form: Bank details"));
    const deputy = await ticketIn("deputy@example.com", "Olga Owner asks you to fill in a form: Bank details");
    expect(deputy).toBe(await ticketIn("away@example.com", "Olga Owner asks you to fill in a form: Bank details"));
    expect(await runStatus(reminded.id)).toBe("running");
    expect(await runStatus(handed.id)).toBe("running");

    expect((await answerWith(details, again)).status).toBe(201);
    expect((await answerWith(details, deputy)).status).toBe(201);
    for (const instance of await introspector.get()) await instance.waitForStatus("complete");
    expect([await runStatus(reminded.id), await runStatus(handed.id)]).toEqual(["completed", "completed"]);
    expect((await getRun(ctx(), owner.id, reminded.id)).timeline.find((event) => event.kind === "step.escalated")?.detail).toBe("Bank details: no answer after 5 hours, slow@example.com reminded");
    expect((await getRun(ctx(), owner.id, handed.id)).timeline.find((event) => event.kind === "step.escalated")?.detail).toBe("Bank details: no answer after 1 day, deputy@example.com asked instead");
  });

  it("refuses a form step's escalation without a due time and a reassignment to something that is not an address, writing nothing", async () => {
    const { owner } = await setting(0);
    const details = await makeForm(owner, "Supplier details");
    const step = { type: "form", name: "Bank details", formId: details, to: "v@example.com" };
    await expect(createWorkflow(ctx(), owner.id, { name: "F", steps: [{ ...step, escalation: { action: "approve" } }] })).rejects.toThrow("An escalation happens when a step is overdue: give it a due time (dueInHours).");
    await expect(createWorkflow(ctx(), owner.id, { name: "F", steps: [{ ...step, dueInHours: 5, escalation: { action: "reassign", to: "someone" } }] })).rejects.toThrow("Enter the address of the person who is asked instead, like name@example.com.");
    expect(await countWhere("select count(*) as n from workflow_templates where created_by = ?", owner.id)).toBe(0);
  });
});
