import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { forgetCaseActor, loadCaseDataOf } from "./cases.queries.server";

/**
 * Cases in a member's export: the case types they built, the cases they own (with their values),
 * the cases they take part in and the case tasks given to them. Erasure takes their name off what
 * they did in others' cases; their own cases and types go with their account, their participation
 * and tasks' assignment too.
 */
export const casesPersonalData = definePersonalDataSource({
  name: "cases",
  async export(ctx, userId) {
    const { types, owned, takingPart, tasks } = await loadCaseDataOf(ctx.db, userId);
    if (types.length + owned.length + takingPart.length + tasks.length === 0) return [];
    return [
      {
        path: "cases/cases.json",
        description: "The case types you built, the cases you own with their values, the cases you take part in, and the case tasks given to you.",
        data: {
          caseTypes: types.map((type) => ({ id: type.id, name: type.name, fields: type.fields, folders: type.folders })),
          cases: owned.map((row) => ({ id: row.id, reference: row.reference, title: row.title, status: row.status, values: row.values, dueAt: row.dueAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() })),
          takingPart: takingPart.map((row) => ({ caseId: row.caseId, as: `${row.name} <${row.email}>`, since: row.addedAt.toISOString() })),
          tasks: tasks.map((task) => ({ id: task.id, caseId: task.caseId, kind: task.kind, title: task.title, dueAt: task.dueAt?.toISOString() ?? null, doneAt: task.doneAt?.toISOString() ?? null })),
        },
      },
    ];
  },
  async erase(ctx, userId) {
    await forgetCaseActor(ctx.db, userId);
    return { r2Keys: [] };
  },
});
