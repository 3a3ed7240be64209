import { Hono } from "hono";
import { checkHealth } from "~/features/system/health.server";
import type { AppEnv } from "../types";
import { apiServiceContext } from "./require-actor";

/** Liveness plus a D1 round trip, for uptime checks and the deploy smoke test. */
export const healthApi = new Hono<AppEnv>().get("/", async (c) => c.json(await checkHealth(apiServiceContext(c)), 200));
