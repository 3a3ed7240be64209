import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { requireDataroom } from "~/features/datarooms/datarooms.server";
import { roomAuthority } from "~/features/datarooms/room-authority.server";
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

/**
 * The counters of a room's authority (QUALITY G10), and the time one decision takes seen from the
 * Worker (`n` decisions for `userId` in a row, average ms). Development only; the caller must be in
 * the room.
 */
export async function roomAuthorityBench(ctx: ServiceContext, userId: string, roomId: string, options: { samples: number; reload: boolean }) {
  if (ctx.env.APP_ENV !== "development") throw new AppError("NOT_FOUND", "There is no such API endpoint.");
  const room = await requireDataroom(ctx, userId, roomId);
  const stub = roomAuthority(ctx, room.id);
  if (options.reload) await stub.reload(room.id);
  const samples = options.samples;
  const n = Math.min(Math.max(Math.trunc(samples) || 0, 0), 1000);
  const started = performance.now();
  for (let i = 0; i < n; i++) await stub.decide(room.id, userId);
  const elapsed = performance.now() - started;
  let inside: { members: number; msPerDecision: number } | null = null;
  if (n > 0) {
    const timed = async (count: number) => {
      const begun = performance.now();
      const result = await stub.decideMany(room.id, userId, count);
      return { ms: performance.now() - begun, members: result.members };
    };
    const many = 20 * n;
    const empty = await timed(0);
    const full = await timed(many);
    inside = { members: full.members, msPerDecision: Math.max(0, full.ms - empty.ms) / many };
  }
  return { stats: await stub.stats(), decisions: n, msPerDecision: n > 0 ? elapsed / n : null, inside };
}
