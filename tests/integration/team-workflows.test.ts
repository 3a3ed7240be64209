import { introspectWorkflowInstance } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { teamDriveRoot } from "~/features/teams/team-drive.server";
import { builderOptions, getWorkflow, listWorkflowSummaries } from "~/features/workflows/workflow-builder.server";
import { TEAM_WORKFLOW_REFUSED } from "~/features/workflows/workflow-room.server";
import { cancelRun, createWorkflow, decideTask, listWorkflows } from "~/features/workflows/workflows.server";
import { makeFolder, personalSpaceOf, testContext } from "~tests/factories/files";
import { countWhere, get, send, signedIn } from "./dataroom-helpers";
import { testEnv } from "./helpers";
import { join } from "./team-helpers";
import { tasksOf, uploadAndStart } from "./workflow-helpers";

/**
 * Workflows of a team's workspace (issue 42, ADR 042): a workflow whose trigger folder is in the
 * team's drive works there. The drive's owners (the team's owner and admins) build and share it;
 * its steps stay in the drive; it lists in the team's workspace; it stops when its builder is no
 * longer one of them. Workflows of the team's rooms were already shared by the rooms' managers.
 */

const ctx = () => testContext();
const folderOf = async (fileId: string) => (await testEnv.DB.prepare("select folder_id as folderId from files where id = ?").bind(fileId).first<{ folderId: string }>())?.folderId;

async function teamWithDrive() {
  const owner = await signedIn({ tier: "business", name: "Olga Owner" });
  const created = await send(owner.client, "POST", "/api/teams", { name: "Kestrel team" });
  const teamId = (await created.json<{ team: { id: string } }>()).team.id;
  const admin = await signedIn({ tier: "business", name: "Ada Admin" });
  const member = await signedIn({ tier: "business", name: "Mia Member" });
  await join(owner, teamId, admin, "admin");
  await join(owner, teamId, member);
  const root = await teamDriveRoot(ctx(), teamId);
  const incoming = await makeFolder(teamId, root, "Incoming");
  const approved = await makeFolder(teamId, root, "Approved");
  return { owner, teamId, admin, member, incoming, approved };
}

const contractApproval = (approverId: string, incoming: string, approved: string) => ({
  name: "Team contract approval",
  trigger: { type: "upload", folderId: incoming },
  steps: [
    { type: "approve", name: "Review", assignees: [approverId], mode: "one" },
    { type: "move", name: "File it", folderId: approved },
  ],
});

describe("workflows of a team's drive", () => {
  it("the team's owner builds one on the drive: a member's upload starts one run whose move stays in the drive; the admins share it, members do not see it; it lists in the team's workspace", async () => {
    const { owner, teamId, admin, member, incoming, approved } = await teamWithDrive();
    expect((await builderOptions(ctx(), owner.id)).folders.filter((folder) => folder.isTeam).map((folder) => folder.path)).toEqual(["Kestrel team", "Kestrel team / Approved", "Kestrel team / Incoming"]);
    const workflow = await createWorkflow(ctx(), owner.id, contractApproval(owner.id, incoming, approved));
    expect(workflow.inRoom).toBe(false);

    const { fileId, runId } = await uploadAndStart(member, incoming, "Supplier contract.pdf", workflow.id);
    expect(runId).not.toBeNull();
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, runId!);
    const [task] = await tasksOf(owner.id, runId!);
    await decideTask(ctx(), owner.id, task!.id, { decision: "approve" });
    await instance.waitForStatus("complete");
    expect(await folderOf(fileId)).toBe(approved);
    expect(await countWhere("select count(*) as n from workflow_runs where template_id = ?", workflow.id)).toBe(1);

    // The admins share it; a member (even on Business) does not find it.
    expect((await listWorkflows(ctx(), admin.id)).map((row) => row.name)).toEqual(["Team contract approval"]);
    expect((await getWorkflow(ctx(), admin.id, workflow.id)).workflow.builtBy).toBe("Olga Owner");
    expect(await listWorkflows(ctx(), member.id)).toEqual([]);
    await expect(getWorkflow(ctx(), member.id, workflow.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await get(`/api/workflows/${workflow.id}`, member.client)).status).toBe(404);

    // It is the team workspace's, not the owner's own.
    expect((await listWorkflowSummaries(ctx(), owner.id, null, teamId)).map((row) => row.name)).toEqual(["Team contract approval"]);
    expect(await listWorkflowSummaries(ctx(), owner.id, null, null)).toEqual([]);
    expect((await listWorkflows(ctx(), owner.id, null)).map((row) => row.name)).toEqual([]);
    const listed = await get(`/api/workflows?workspace=${teamId}`, owner.client);
    expect((await listed.json<{ workflows: { name: string }[] }>()).workflows.map((row) => row.name)).toEqual(["Team contract approval"]);
  });

  it("only the drive's owners build on it, its steps stay in it, and a builder who is no longer an admin starts nothing; nothing is written on a refusal", async () => {
    const { owner, teamId, admin, member, incoming, approved } = await teamWithDrive();
    await expect(createWorkflow(ctx(), member.id, contractApproval(member.id, incoming, approved))).rejects.toMatchObject({ code: "FORBIDDEN", message: TEAM_WORKFLOW_REFUSED });
    const outsider = await signedIn({ tier: "business" });
    await expect(createWorkflow(ctx(), outsider.id, contractApproval(outsider.id, incoming, approved))).rejects.toMatchObject({ code: "NOT_FOUND" });
    const own = await personalSpaceOf(admin.id);
    await expect(createWorkflow(ctx(), admin.id, contractApproval(admin.id, incoming, own.rootId))).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      message: "steps: “File it” moves into a folder that is outside the team's files this workflow works in: its documents stay the team's. Choose one of the team's folders.",
    });
    expect(await countWhere("select count(*) as n from workflow_templates where space_id = ?", teamId)).toBe(0);

    // An admin builds one; the owner shares it and cancels its run.
    const workflow = await createWorkflow(ctx(), admin.id, contractApproval(admin.id, incoming, approved));
    const first = await uploadAndStart(member, incoming, "First.pdf", workflow.id);
    await using instance = await introspectWorkflowInstance(testEnv.WORKFLOW_RUNS, first.runId!);
    await tasksOf(admin.id, first.runId!);
    expect((await cancelRun(ctx(), owner.id, first.runId!)).status).toBe("cancelled");
    await instance.waitForStatus("terminated");

    // Made a member, the admin's workflow no longer starts on the drive's uploads, and is no longer theirs to share with the owner.
    expect((await send(owner.client, "PATCH", `/api/teams/${teamId}/members/${admin.id}`, { role: "member" })).status).toBe(200);
    const later = await uploadAndStart(member, incoming, "Later.pdf", workflow.id);
    expect(later.runId).toBeNull();
  });
});
