import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { forgetWorkflowActor, loadWorkflowDataOf } from "./workflows.queries.server";
import { stepsShown } from "./workflows.server";
import { stepIndexOfSlot } from "./workflows.schema";

/**
 * Workflows a member built, runs they started and their tasks (with their decisions and comments)
 * in the export. Erasure takes their name and comments out of others' run timelines; their own
 * workflows and runs go with their files' space, their tasks with their account.
 */
export const workflowsPersonalData = definePersonalDataSource({
  name: "workflows",
  async export(ctx, userId) {
    const { templates, runs, tasks } = await loadWorkflowDataOf(ctx.db, userId);
    if (templates.length + runs.length + tasks.length === 0) return [];
    return [
      {
        path: "workflows/workflows.json",
        description: "The workflows you built (their steps), the runs you started, and the tasks given to you with your decisions and comments.",
        data: {
          workflows: templates.map((template) => ({ id: template.id, name: template.name, steps: stepsShown(template.definition.steps), createdAt: template.createdAt.toISOString() })),
          runs: runs.map((run) => ({ id: run.id, workflowId: run.templateId, documentId: run.subjectFileId, status: run.status, startedAt: run.startedAt.toISOString(), endedAt: run.endedAt?.toISOString() ?? null })),
          tasks: tasks.map((task) => ({ id: task.id, workflow: task.workflow, runId: task.runId, step: stepIndexOfSlot(task.stepIndex) + 1, status: task.status, comment: task.comment, createdAt: task.createdAt.toISOString(), decidedAt: task.decidedAt?.toISOString() ?? null })),
        },
      },
    ];
  },
  async erase(ctx, userId) {
    await forgetWorkflowActor(ctx.db, userId);
    return { r2Keys: [] };
  },
});
