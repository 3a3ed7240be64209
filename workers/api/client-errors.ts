import { Hono } from "hono";
import { z } from "zod";
import { parseInput } from "~/lib/validation";
import type { AppEnv } from "../types";

/**
 * The browser reports uncaught errors here (after showing its toast), so they reach the same
 * structured logs as server errors. Length-capped; the URL is logged without its query string.
 */
export const clientErrorSchema = z.object({
  message: z.string().trim().min(1, "message is required.").max(1000, "message is at most 1000 characters."),
  url: z.url("url must be an absolute URL.").max(2000),
  stack: z.string().max(8000).optional(),
});

export const clientErrorsApi = new Hono<AppEnv>().post("/", async (c) => {
  const body = parseInput(clientErrorSchema, await c.req.json().catch(() => null));
  const url = new URL(body.url);
  c.get("logger").warn("client error", { clientMessage: body.message, page: url.pathname, stack: body.stack });
  return c.body(null, 204);
});
