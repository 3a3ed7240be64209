import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { createDb } from "~/db/client.server";
import { AppError } from "~/lib/errors";
import type { AppEnv } from "../types";

/** Liveness plus a D1 round trip, for uptime checks and the deploy smoke test. */
export const healthApi = new Hono<AppEnv>().get("/", async (c) => {
  try {
    await createDb(c.env.DB).get(sql`select 1`);
  } catch (error) {
    throw new AppError("SERVICE_UNAVAILABLE", "The database is not reachable.", { cause: error });
  }
  return c.json({ ok: true, db: true }, 200);
});
