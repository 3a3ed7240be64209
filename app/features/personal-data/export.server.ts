import { makeZip } from "client-zip";
import type { Member } from "~/features/auth/account.server";
import { recordAuthEvent } from "~/features/auth/activity.server";
import type { AuthCall } from "~/features/auth/auth-context.server";
import { RateLimitError, type LimitedAction } from "~/features/auth/attempt-limits.server";
import type { AttemptWindow } from "~durable-objects/attempt-limiter";
import type { PersonalDataRecord } from "./personal-data-source";
import { EXPORTS_PER_HOUR } from "./personal-data.schema";
import { personalDataSources } from "./registry.server";

/**
 * At most 5 exports an hour per member (S28). `consumeAttempt` knows only the 10-per-15-minutes
 * window, so this uses the same limiter objects with its own window under the "export" key;
 * `consume` counts and checks in one step inside the object, so racing exports cannot exceed it.
 */
export const EXPORT_WINDOW: AttemptWindow = { limit: EXPORTS_PER_HOUR, windowMs: 60 * 60 * 1000 };
const EXPORT_ACTION: LimitedAction = "export";

async function consumeExportAttempt(env: Env, userId: string): Promise<void> {
  const status = await env.ATTEMPT_LIMITER.getByName(`${EXPORT_ACTION}:account:${userId}`).consume(EXPORT_WINDOW);
  if (!status.allowed) {
    const minutes = Math.max(1, Math.ceil(status.retryAfterSeconds / 60));
    throw new RateLimitError(
      status.retryAfterSeconds,
      `You can download your data ${EXPORT_WINDOW.limit} times an hour. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    );
  }
}

const SAFE_PATH = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
const README = "README.txt";

/** A source returning an unsafe or repeated path is a programming error, never user input. */
function assertPaths(records: PersonalDataRecord[]): void {
  const seen = new Set<string>([README]);
  for (const record of records) {
    if (!SAFE_PATH.test(record.path) || record.path.includes("..")) throw new Error(`Unsafe export path: ${record.path}`);
    if (seen.has(record.path)) throw new Error(`Duplicate export path: ${record.path}`);
    seen.add(record.path);
  }
}

function readme(member: Member, records: PersonalDataRecord[], now: Date): string {
  const width = Math.max(...records.map((record) => record.path.length));
  return [
    "Your Strongroom data",
    "====================",
    "",
    `Exported on ${now.toISOString()} for ${member.user.email}.`,
    "",
    "Every file is JSON (UTF-8); dates are ISO 8601 in UTC. The files:",
    "",
    ...records.map((record) => `  ${record.path.padEnd(width)}  ${record.description ?? "Data this part of Strongroom holds about you."}`),
    "",
    "Left out on purpose, because they are secrets that protect your account: your password",
    "(we only store a hash of it), your authenticator-app key, your recovery codes, the ids of",
    "your sessions and the links or codes in e-mails we sent you.",
    "",
    "Questions, or something missing? Reply to any e-mail from us or see the Privacy Policy.",
    "",
  ].join("\r\n");
}

export function exportFileName(now: Date): string {
  return `strongroom-data-${now.toISOString().slice(0, 10)}.zip`;
}

/**
 * The member's data from every registered source, as a zip streamed to the browser: README.txt
 * and profile.json at the root, the other files beside them. Sources are read before the first
 * byte is sent, so a failure becomes an error page rather than a broken download.
 */
export async function exportPersonalData(
  call: AuthCall,
  member: Member,
): Promise<{ stream: ReadableStream<Uint8Array>; fileName: string }> {
  const { ctx } = call;
  const userId = member.user.id;
  await consumeExportAttempt(ctx.env, userId);

  const records: PersonalDataRecord[] = [];
  for (const source of personalDataSources) {
    records.push(...(await source.export(ctx, userId)));
  }
  assertPaths(records);

  await recordAuthEvent(ctx, { userId, type: "data_exported", meta: call.meta });
  ctx.logger.info("personal data exported", { userId, files: records.length });

  const now = ctx.now();
  const entries = [
    { name: README, input: readme(member, records, now), lastModified: now },
    ...records.map((record) => ({ name: record.path, input: `${JSON.stringify(record.data, null, 2)}\n`, lastModified: now })),
  ];
  return { stream: makeZip(entries, { buffersAreUTF8: true }), fileName: exportFileName(now) };
}
