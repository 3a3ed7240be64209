import { Hono } from "hono";
import { batchMoveBench, fileObjectKeyForBaseline, roomAuthorityBench } from "~/features/system/bench-baselines.server";
import { AppError } from "~/lib/errors";
import type { AppEnv } from "../types";
import { apiServiceContext, requireApiActor } from "./require-actor";

/**
 * Baselines for `npm run bench` (QUALITY G7, G8), development only (404 in production): a route
 * that reads and discards a request body, and a bare R2 pass-through of a file's bytes. They let
 * the benchmark compare the real upload and download paths with the platform doing nothing else.
 */
export const devBenchApi = new Hono<AppEnv>()
  .use(async (c, next) => {
    if (c.env.APP_ENV !== "development") throw new AppError("NOT_FOUND", "There is no such API endpoint.");
    requireApiActor(c);
    await next();
  })
  .put("/discard", async (c) => {
    let bytes = 0;
    const reader = c.req.raw.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
    }
    return c.json({ bytes }, 200);
  })
  // A bare R2 write of the body (no permission layer, no D1): what the local R2 alone costs (G7).
  .put("/r2-put", async (c) => {
    const length = Number(c.req.header("content-length"));
    if (!c.req.raw.body || !Number.isSafeInteger(length) || length <= 0) throw new AppError("VALIDATION_ERROR", "Send a body with a Content-Length.");
    const key = `bench/${crypto.randomUUID()}`;
    const fixed = new FixedLengthStream(length);
    await Promise.all([c.env.FILES.put(key, fixed.readable), c.req.raw.body.pipeTo(fixed.writable)]);
    await c.env.FILES.delete(key);
    return c.json({ bytes: length }, 200);
  })
  .get("/r2/:fileId", async (c) => {
    // No permission layer on purpose: a baseline, development only.
    const key = await fileObjectKeyForBaseline(apiServiceContext(c), c.req.param("fileId"));
    const object = await c.env.FILES.get(key, { range: c.req.raw.headers });
    if (!object) throw new AppError("NOT_FOUND");
    const status = c.req.header("range") ? 206 : 200;
    return new Response(object.body, { status });
  })
  // A batch move of many items to the end in one request, or the one-UPDATE baseline (G9).
  .post("/batch-move", async (c) => {
    const actor = requireApiActor(c);
    const body = (await c.req.json()) as { items: string[]; targetFolderId: string; baseline?: boolean };
    return c.json(await batchMoveBench(apiServiceContext(c), actor.userId, { items: body.items, targetFolderId: body.targetFolderId, baseline: body.baseline === true }), 200);
  })
  // A room authority's counters and decision time (G10).
  .get("/rooms/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await roomAuthorityBench(apiServiceContext(c), actor.userId, c.req.param("id"), { samples: Number(c.req.query("samples") ?? 0), reload: c.req.query("reload") === "1" }), 200);
  });
