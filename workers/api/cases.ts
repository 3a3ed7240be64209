import { sendCaseRequest } from "~/features/cases/case-requests.server";
import { Hono } from "hono";
import { addCaseComment, addCaseTask, addParticipant, completeCaseTask, createCaseType, getCase, listCases, listCaseTypes, openCase, setCaseStatus, startCaseWorkflow, updateCase, updateCaseType } from "~/features/cases/cases.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * Cases (issue 41): /api/case-types (list, create, change) and /api/cases (list with filters, open, one
 * case; its status, people, tasks, comments, forms sent for it, and its default workflow on a document of its case file). A
 * case someone does not take part in is 404; changing it is for its owner and assignee (403).
 */
export const caseTypesApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ caseTypes: await listCaseTypes(apiServiceContext(c), actor.userId) }, 200);
  })
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ caseType: await createCaseType(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  })
  .patch("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ caseType: await updateCaseType(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  });

const fileIdOf = (body: unknown) => (typeof body === "object" && body !== null && "fileId" in body ? body.fileId : undefined);

export const casesApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await listCases(apiServiceContext(c), actor.userId, c.req.query()), 200);
  })
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ case: await openCase(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  })
  .get("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getCase(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .patch("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await updateCase(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  .post("/:id/status", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ status: await setCaseStatus(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .post("/:id/participants", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await addParticipant(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 201);
  })
  .post("/:id/comments", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await addCaseComment(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 201);
  })
  .post("/:id/requests", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await sendCaseRequest(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 201);
  })
  .post("/:id/tasks", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await addCaseTask(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 201);
  })
  .post("/:id/tasks/:taskId/done", async (c) => {
    const actor = requireApiActor(c);
    await completeCaseTask(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("taskId"));
    return c.json({ done: true }, 200);
  })
  .post("/:id/runs", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await startCaseWorkflow(apiServiceContext(c), actor.userId, c.req.param("id"), { fileId: fileIdOf(await readJsonBody(c)) }), 201);
  });
