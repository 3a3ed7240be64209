import { Hono } from "hono";
import { cancelRun, createWorkflow, decideTask, getRun, listMyTasks, listWorkflows, startRun } from "~/features/workflows/workflows.server";
import { workspaceQuery } from "~/features/teams/workspace.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * Workflows (issue 41, ADR 035): /api/workflows (list, create, start a run on a document),
 * /api/workflow-runs/{id} (where it stands, its timeline; cancel), /api/workflow-tasks (my open
 * tasks; decide one). Anyone a workflow, run or task is not for gets 404.
 */
export const workflowsApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ workflows: await listWorkflows(apiServiceContext(c), actor.userId, workspaceQuery(c.req.query("workspace"))) }, 200);
  })
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ workflow: await createWorkflow(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  })
  .post("/:id/runs", async (c) => {
    const actor = requireApiActor(c);
    const body = await readJsonBody(c);
    const fileId = typeof body === "object" && body !== null && "fileId" in body ? body.fileId : undefined;
    return c.json({ run: await startRun(apiServiceContext(c), actor.userId, c.req.param("id"), { fileId }) }, 201);
  });

export const workflowRunsApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getRun(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .post("/:id/cancel", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ run: await cancelRun(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  });

export const workflowTasksApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ tasks: await listMyTasks(apiServiceContext(c), actor.userId) }, 200);
  })
  .post("/:id/decision", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await decideTask(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  });
