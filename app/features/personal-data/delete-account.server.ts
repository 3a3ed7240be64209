import { z } from "zod";
import { assertPassword, type Member } from "~/features/auth/account.server";
import type { AuthCall } from "~/features/auth/auth-context.server";
import { consumeAttempt } from "~/features/auth/attempt-limits.server";
import { enqueueJob } from "~/features/jobs/enqueue-job.server";
import { sendMail } from "~/features/mail/mailer.server";
import { AppError } from "~/lib/errors";
import { chunkObjectKeys, deleteObjectsJob } from "./personal-data.jobs";
import { DELETE_CONFIRMATION } from "./personal-data.schema";
import { accountSource, personalDataSources } from "./registry.server";

const CONFIRMATION_MESSAGE = `Type ${DELETE_CONFIRMATION} in capital letters to confirm.`;

const confirmationSchema = z.string().trim();

/**
 * Deletes the member's account and everything it owns (right to erasure). Order matters:
 * 1. the typed confirmation, then the password (wrong ones count against the re-auth limit), then
 *    every source's `assertErasable` (a team the member owns must be handed over first);
 * 2. every module's source erases its rows and hands back its R2 keys;
 * 3. the keys go to `personal-data.delete-objects` jobs (≤ 100 keys a message);
 * 4. the goodbye mail is recorded while the users row still exists (its user_id is then set
 *    null by the foreign key, the record of the mail stays);
 * 5. the accounts source deletes the users row: sessions, tokens, recovery codes and activity
 *    go with it by cascade, so every session ends at once (S3).
 */
export async function deleteAccount(
  call: AuthCall,
  member: Member,
  input: { password: unknown; confirmation: unknown },
): Promise<{ deletedObjects: number }> {
  const { user } = member;
  const confirmation = confirmationSchema.safeParse(input.confirmation);
  if (!confirmation.success || confirmation.data !== DELETE_CONFIRMATION) {
    throw new AppError("VALIDATION_ERROR", CONFIRMATION_MESSAGE, { fieldErrors: { confirmation: [CONFIRMATION_MESSAGE] } });
  }
  await consumeAttempt(call.ctx.env, "delete-account", { account: user.id });
  await assertPassword(call, user, input.password);

  // Nothing is erased while something others depend on still needs the account (a team it owns).
  for (const source of personalDataSources) await source.assertErasable?.(call.ctx, user.id);

  // Jobs and mails outlive the account: they are recorded without the member as actor.
  const ctx = { ...call.ctx, actor: null };
  const r2Keys: string[] = [];
  for (const source of personalDataSources) {
    if (source === accountSource) continue;
    const erased = await source.erase(ctx, user.id);
    r2Keys.push(...erased.r2Keys);
    ctx.logger.info("personal data erased", { userId: user.id, source: source.name, r2Keys: erased.r2Keys.length });
  }

  const chunks = chunkObjectKeys(r2Keys);
  for (const keys of chunks) {
    await enqueueJob(ctx, { definition: deleteObjectsJob, payload: { keys }, totalItems: keys.length });
  }

  await sendMail(ctx, { to: user.email, userId: user.id, template: { kind: "account-deleted", name: user.name } });
  await accountSource.erase(ctx, user.id);
  const deletedObjects = chunks.reduce((total, keys) => total + keys.length, 0);
  ctx.logger.info("account deleted", { userId: user.id, r2Keys: deletedObjects, jobs: chunks.length });
  return { deletedObjects };
}
