import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { findFileObjectKeyUnchecked } from "./system.queries.server";

/**
 * The R2 key behind a file for `npm run bench`'s bare R2 baseline (QUALITY G8). No permission
 * layer on purpose, so it exists only in development; the API route also requires a member.
 */
export async function fileObjectKeyForBaseline(ctx: ServiceContext, fileId: string): Promise<string> {
  if (ctx.env.APP_ENV !== "development") throw new AppError("NOT_FOUND", "There is no such API endpoint.");
  const key = await findFileObjectKeyUnchecked(ctx.db, fileId);
  if (!key) throw new AppError("NOT_FOUND");
  return key;
}
