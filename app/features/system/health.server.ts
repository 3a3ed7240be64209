import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { pingDatabase } from "./system.queries.server";

/** Liveness plus a D1 round trip, for uptime checks and the deploy smoke test (GET /api/health). */
export async function checkHealth(ctx: ServiceContext): Promise<{ ok: true; db: true }> {
  try {
    await pingDatabase(ctx.db);
  } catch (error) {
    throw new AppError("SERVICE_UNAVAILABLE", "The database is not reachable.", { cause: error });
  }
  return { ok: true, db: true };
}
