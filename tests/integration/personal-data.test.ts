import { describe, expect, it } from "vitest";
import type { Member } from "~/features/auth/account.server";
import type { AuthCall } from "~/features/auth/auth-context.server";
import { findUserById } from "~/features/auth/auth.queries.server";
import { createSession } from "~/features/auth/session.server";
import { deleteAccount } from "~/features/personal-data/delete-account.server";
import { exportPersonalData } from "~/features/personal-data/export.server";
import { chunkObjectKeys, deleteObjectsJob } from "~/features/personal-data/personal-data.jobs";
import { accountSource, personalDataSources } from "~/features/personal-data/registry.server";
import { findJobDefinition } from "~/features/jobs/registry.server";
import { AppError } from "~/lib/errors";
import { createServiceContext } from "~/lib/service-context.server";
import { createUser, type TestUser } from "~tests/factories/users";
import { origin, testEnv, uniqueIp } from "./helpers";

const LINK_TOKEN = "live-link-token-that-must-never-leave-the-outbox-0001";

function authCall(ip = uniqueIp()): AuthCall {
  return {
    ctx: createServiceContext(testEnv, { requestId: "t" }),
    meta: { ipAddress: ip, userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36" },
    origin,
  };
}

/** A member with a TOTP key, a session, an account event and two recorded mails. */
async function seedMember(): Promise<{ testUser: TestUser; member: Member; passwordHash: string; totpSecret: string }> {
  const testUser = await createUser({ totp: true, name: "Ada Lovelace" });
  const call = authCall();
  const user = (await findUserById(call.ctx.db, testUser.id))!;
  const { session } = await createSession(call.ctx.db, { user, pendingSecondFactor: null, meta: call.meta, now: new Date() });
  await testEnv.DB.prepare(
    "insert into auth_events (id, user_id, type, ip_address, user_agent, detail, created_at) values (?, ?, 'sign_in', '10.0.0.1', 'test-agent', null, ?)",
  )
    .bind(crypto.randomUUID(), testUser.id, Date.now())
    .run();
  const insertMail = testEnv.DB.prepare(
    `insert into mail_outbox (id, to_address, user_id, template, subject, text_body, html_body, status, created_at)
     values (?, ?, ?, ?, ?, ?, ?, 'stored', ?)`,
  );
  await testEnv.DB.batch([
    insertMail.bind(
      crypto.randomUUID(),
      testUser.email,
      testUser.id,
      "reset-password",
      "Reset your password",
      `Choose a new password: ${origin}/reset-password?token=${LINK_TOKEN}`,
      `<a href="${origin}/reset-password?token=${LINK_TOKEN}">Reset</a>`,
      Date.now(),
    ),
    insertMail.bind(
      crypto.randomUUID(),
      testUser.email,
      testUser.id,
      "email-2fa-code",
      "Your Strongroom sign-in code: 493817",
      "Use this code: 493817",
      "<p>493817</p>",
      Date.now() + 1,
    ),
  ]);
  return { testUser, member: { user, session }, passwordHash: user.passwordHash, totpSecret: user.totpSecret! };
}

// ---- a minimal zip reader: client-zip stores entries uncompressed, so reading is slicing ----------

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Reads the central directory (sizes live there; local headers defer them to data descriptors). */
function unzip(bytes: Uint8Array): Map<string, string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error("no end of central directory record");
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  const files = new Map<string, string>();
  for (let index = 0; index < count; index += 1) {
    expect(view.getUint32(offset, true)).toBe(0x02014b50);
    const method = view.getUint16(offset + 10, true);
    const size = view.getUint32(offset + 20, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const localOffset = view.getUint32(offset + 42, true);
    const name = decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    expect(method).toBe(0);
    const localNameLength = view.getUint16(localOffset + 26, true);
    const localExtraLength = view.getUint16(localOffset + 28, true);
    const start = localOffset + 30 + localNameLength + localExtraLength;
    files.set(name, decoder.decode(bytes.subarray(start, start + size)));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

async function rowCount(sql: string, ...values: unknown[]): Promise<number> {
  const row = await testEnv.DB.prepare(sql).bind(...values).first<{ n: number }>();
  return row?.n ?? 0;
}

async function countsFor(userId: string) {
  return {
    users: await rowCount("select count(*) as n from users where id = ?", userId),
    sessions: await rowCount("select count(*) as n from sessions where user_id = ?", userId),
    events: await rowCount("select count(*) as n from auth_events where user_id = ?", userId),
    mails: await rowCount("select count(*) as n from mail_outbox where user_id = ?", userId),
  };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("the personal data registry", () => {
  it("gives every registered source a unique name", () => {
    const names = personalDataSources.map((source) => source.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
  });

  it("erases the account last, after every other module", () => {
    expect(personalDataSources.at(-1)).toBe(accountSource);
    expect(personalDataSources.filter((source) => source === accountSource)).toHaveLength(1);
  });

  it("registers the R2 deletion job with the queue consumer", () => {
    expect(findJobDefinition("personal-data.delete-objects")?.version).toBe(deleteObjectsJob.version);
  });
});

describe("exporting personal data", () => {
  it("streams a zip with a README and the account files, and never a secret", async () => {
    const { testUser, member, passwordHash, totpSecret } = await seedMember();
    const call = authCall();

    const { stream, fileName } = await exportPersonalData(call, member);
    const bytes = await readAll(stream);
    const files = unzip(bytes);

    expect(fileName).toMatch(/^strongroom-data-\d{4}-\d{2}-\d{2}\.zip$/);
    expect([...files.keys()]).toEqual(["README.txt", "plan.json", "print-orders.json", "profile.json", "sessions.json", "activity.json", "mail.json"]);
    for (const name of ["plan.json", "print-orders.json", "profile.json", "sessions.json", "activity.json", "mail.json"]) {
      expect(files.get("README.txt")).toContain(name);
    }
    expect(JSON.parse(files.get("plan.json")!)).toMatchObject({
      tier: "free",
      plan: "Free",
      limits: { max_datarooms: 2 },
      permissions: ["core_access", "feature.core_access", "feature.basic_viewing"],
    });

    const profile = JSON.parse(files.get("profile.json")!);
    expect(profile).toMatchObject({
      id: testUser.id,
      email: testUser.email,
      name: "Ada Lovelace",
      emailVerified: true,
      tier: "free",
      twoFactor: { authenticatorApp: true, emailCodes: false, required: false },
    });
    const sessions = JSON.parse(files.get("sessions.json")!);
    expect(sessions).toEqual([expect.objectContaining({ device: "Chrome on Linux", ipAddress: expect.any(String) })]);
    expect(sessions[0]).not.toHaveProperty("id");
    const activity = JSON.parse(files.get("activity.json")!);
    expect(activity).toEqual([expect.objectContaining({ type: "sign_in", ipAddress: "10.0.0.1" })]);
    const mails = JSON.parse(files.get("mail.json")!);
    expect(mails.map((mail: { template: string }) => mail.template)).toEqual(["reset-password", "email-2fa-code"]);
    expect(mails[1].subject).toBe("Your Strongroom sign-in code: [code removed]");

    const text = new TextDecoder().decode(bytes);
    for (const secret of [passwordHash, totpSecret, member.session.id, LINK_TOKEN, "493817"]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/scrypt|password_?hash|totp_?secret/i);
  });

  it("records the export in the member's activity", async () => {
    const { member } = await seedMember();
    await readAll((await exportPersonalData(authCall(), member)).stream);
    expect(await rowCount("select count(*) as n from auth_events where user_id = ? and type = 'data_exported'", member.user.id)).toBe(1);
  });

  it("allows five exports an hour and refuses the sixth with 429", async () => {
    const { member } = await seedMember();
    for (let index = 0; index < 5; index += 1) {
      await readAll((await exportPersonalData(authCall(), member)).stream);
    }
    const error = await refusal(exportPersonalData(authCall(), member));
    expect(error.status).toBe(429);
    expect(error.message).toMatch(/5 times an hour/);
  });
});

describe("deleting an account", () => {
  it("refuses a wrong password with 400 and deletes nothing", async () => {
    const { testUser, member } = await seedMember();
    const before = await countsFor(testUser.id);

    const error = await refusal(deleteAccount(authCall(), member, { password: "not-the-password-123", confirmation: "DELETE" }));

    expect(error.status).toBe(400);
    expect(error.fieldErrors?.password).toEqual(["That password is not correct."]);
    expect(await countsFor(testUser.id)).toEqual(before);
    expect(before).toMatchObject({ users: 1, sessions: 1, events: 1, mails: 2 });
  });

  it("refuses without the typed DELETE confirmation and deletes nothing", async () => {
    const { testUser, member } = await seedMember();
    const before = await countsFor(testUser.id);

    for (const confirmation of [null, "", "delete", "DELETE IT"]) {
      const error = await refusal(deleteAccount(authCall(), member, { password: testUser.password, confirmation }));
      expect(error.status).toBe(400);
      expect(error.fieldErrors?.confirmation).toEqual(["Type DELETE in capital letters to confirm."]);
    }
    expect(await countsFor(testUser.id)).toEqual(before);
  });

  it("deletes the member, ends their sessions and activity, keeps the mail record unlinked and says goodbye", async () => {
    const { testUser, member } = await seedMember();
    const jobsBefore = await rowCount("select count(*) as n from jobs where type = 'personal-data.delete-objects'");

    const result = await deleteAccount(authCall(), member, { password: testUser.password, confirmation: " DELETE " });

    expect(result).toEqual({ deletedObjects: 0 });
    expect(await countsFor(testUser.id)).toEqual({ users: 0, sessions: 0, events: 0, mails: 0 });
    expect(await rowCount("select count(*) as n from sessions where id = ?", member.session.id)).toBe(0);
    const { results: mails } = await testEnv.DB.prepare("select template, user_id as userId from mail_outbox where to_address = ? order by created_at")
      .bind(testUser.email)
      .all<{ template: string; userId: string | null }>();
    // Past mail records are erased with the account; only the goodbye message waits for delivery.
    expect(mails).toEqual([{ template: "account-deleted", userId: null }]);
    // No R2 keys, so no deletion job.
    expect(await rowCount("select count(*) as n from jobs where type = 'personal-data.delete-objects'")).toBe(jobsBefore);
  });
});

describe("the R2 deletion job", () => {
  it("deletes the listed objects and can run again without failing", async () => {
    const keys = [`erase-test/${crypto.randomUUID()}`, `erase-test/${crypto.randomUUID()}`];
    await Promise.all(keys.map((key) => testEnv.FILES.put(key, "member file")));
    const untouched = `erase-test/keep-${crypto.randomUUID()}`;
    await testEnv.FILES.put(untouched, "someone else's file");
    const ctx = { ...createServiceContext(testEnv, { requestId: "t" }), jobId: "job-1" };
    const payload = deleteObjectsJob.payloadSchema.parse({ keys });

    expect(await deleteObjectsJob.run(ctx, payload)).toEqual({ processedItems: 2, successCount: 2, failureCount: 0 });
    for (const key of keys) expect(await testEnv.FILES.head(key)).toBeNull();
    expect(await testEnv.FILES.head(untouched)).not.toBeNull();

    await expect(deleteObjectsJob.run(ctx, payload)).resolves.toMatchObject({ failureCount: 0 });
  });

  it("accepts at most 100 keys a message", () => {
    const keys = Array.from({ length: 101 }, (_, index) => `k/${index}`);
    expect(deleteObjectsJob.payloadSchema.safeParse({ keys }).success).toBe(false);
    expect(deleteObjectsJob.payloadSchema.safeParse({ keys: keys.slice(0, 100) }).success).toBe(true);
    expect(deleteObjectsJob.payloadSchema.safeParse({ keys: [] }).success).toBe(false);
  });

  it("splits keys into messages of at most 100 keys and well under 128 KB", () => {
    const keys = Array.from({ length: 250 }, (_, index) => `files/${index}`);
    expect(chunkObjectKeys(keys).map((chunk) => chunk.length)).toEqual([100, 100, 50]);
    expect(chunkObjectKeys([])).toEqual([]);

    const longKeys = Array.from({ length: 100 }, (_, index) => `${index}-${"\u0001".repeat(1000)}`);
    for (const chunk of chunkObjectKeys(longKeys)) {
      expect(new TextEncoder().encode(JSON.stringify({ keys: chunk })).byteLength).toBeLessThan(128 * 1024);
    }
  });
});
