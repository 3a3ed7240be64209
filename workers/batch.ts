import { Hono } from "hono";
import { cancelBatchOperation, getBatchOperation, pauseBatchOperation, resumeBatchOperation, startBatchOperation } from "~/features/batch/batch.server";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./api/require-actor";
import type { AppEnv } from "./types";

/**
 * Batch operations (issue 22, spec §7): POST /dataroom/{id}/batch/{op} at the spec's path (a
 * room's items), POST /api/batch/{op} for the member's own files; both answer 202 with the
 * operation. GET /api/batch-operations/{id} and …/pause, …/resume, …/cancel for its owner.
 */
export const roomBatch = new Hono<AppEnv>().post("/:id/batch/:op", noStore, async (c) => {
  const actor = requireApiActor(c);
  return c.json({ operation: await startBatchOperation(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("op"), await readJsonBody(c)) }, 202);
});

// Mounted at /api's root: no middleware of its own, so nothing here touches the other endpoints.
export const batchApi = new Hono<AppEnv>()
  .post("/batch/:op", noStore, async (c) => {
    const actor = requireApiActor(c);
    return c.json({ operation: await startBatchOperation(apiServiceContext(c), actor.userId, null, c.req.param("op"), await readJsonBody(c)) }, 202);
  })
  .get("/batch-operations/:id", noStore, async (c) => {
    const actor = requireApiActor(c);
    return c.json({ operation: await getBatchOperation(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .post("/batch-operations/:id/pause", noStore, async (c) => {
    const actor = requireApiActor(c);
    return c.json({ operation: await pauseBatchOperation(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .post("/batch-operations/:id/resume", noStore, async (c) => {
    const actor = requireApiActor(c);
    return c.json({ operation: await resumeBatchOperation(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .post("/batch-operations/:id/cancel", noStore, async (c) => {
    const actor = requireApiActor(c);
    return c.json({ operation: await cancelBatchOperation(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  });
