import { beforeAll, describe, expect, it } from "vitest";
import { revealKeys, sealNewSecret, type NewSecretInput } from "~/features/secrets/secret-client";
import { secretsPersonalData } from "~/features/secrets/personal-data.server";
import { SECRET_FAILED_ATTEMPTS_MAX } from "~/features/secrets/secrets.constants";
import { getSecretPage, getSecretReceipt, purgeExpiredSecrets } from "~/features/secrets/secrets.server";
import { createServiceContext } from "~/lib/service-context.server";
import { countWhere, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv } from "./helpers";

/**
 * One-time secrets (issue 23): the server never holds a key or plaintext, concurrent reveals give
 * one ciphertext, wrong passphrases are counted and burn, expiry and the purge, plan limits, and
 * the authorization matrix on the management routes.
 */

type Created = { secret: { id: string; status: string; viewsLeft: number }; token: string };

async function create(person: Person, input: Partial<NewSecretInput> = {}) {
  const sealed = await sealNewSecret({ text: "the vault code is 4711-0815", passphrase: "", expiresInHours: 24, maxViews: 1, label: "Vault code", ...input });
  const response = await send(person.client, "POST", "/api/secrets", sealed.body);
  return { response, sealed, body: response.status === 201 ? await response.json<Created>() : null };
}

async function reveal(token: string, proof: string, client?: Awaited<ReturnType<typeof newAuthClient>>) {
  return send(client ?? (await newAuthClient()), "POST", "/api/secret-reveals", { token, proof });
}

/** Every row of every table, as text: where a leaked key or plaintext would show. */
async function everyStoredByte(): Promise<string> {
  const { results: tables } = await testEnv.DB.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name <> 'd1_migrations'").all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of tables) parts.push(JSON.stringify((await testEnv.DB.prepare(`select * from "${name}"`).all()).results));
  return parts.join("\n");
}

describe("secrets", () => {
  let owner: Person;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Sam Secret" });
  });

  it("stores only what it cannot read: no key, no plaintext, no passphrase in any request or any table", async () => {
    const text = "launch code: ZEBRA-CASCADE-9931";
    const passphrase = "correct horse battery staple";
    const { response, sealed, body } = await create(owner, { text, passphrase, maxViews: 2 });
    expect(response.status).toBe(201);
    const sent = JSON.stringify(sealed.body);
    for (const needle of [sealed.linkKey, text, passphrase, "ZEBRA"]) expect(sent).not.toContain(needle);
    const stored = await everyStoredByte();
    for (const needle of [sealed.linkKey, text, passphrase, "ZEBRA", body!.token]) expect(stored).not.toContain(needle);

    // The visitor's browser: the proof from the link's key and the passphrase opens it.
    const keys = await revealKeys(`#${sealed.linkKey}`, passphrase, sealed.body.kdf);
    expect(JSON.stringify({ token: body!.token, proof: keys!.proof })).not.toContain(sealed.linkKey);
    const opened = await reveal(body!.token, keys!.proof);
    expect(opened.status).toBe(200);
    const { ciphertext, viewsLeft } = await opened.json<{ ciphertext: string; viewsLeft: number }>();
    expect(viewsLeft).toBe(1);
    expect(await keys!.open(ciphertext)).toEqual({ text });
  });

  it("gives exactly one ciphertext to two concurrent reveals of a one-view secret, and deletes it in the same step", async () => {
    const { sealed, body } = await create(owner);
    const keys = await revealKeys(sealed.linkKey, "", null);
    const answers = await Promise.all([reveal(body!.token, keys!.proof), reveal(body!.token, keys!.proof), reveal(body!.token, keys!.proof)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410, 410]);
    const gone = await answers.find((answer) => answer.status === 410)!.json<{ message: string }>();
    expect(gone.message).toBe("This secret has already been viewed and was deleted.");
    expect(await countWhere("select count(*) as n from secrets where id = ? and ciphertext is null and view_count = 1", body!.secret.id)).toBe(1);
    expect(await countWhere("select count(*) as n from secret_events where secret_id = ? and kind = 'viewed'", body!.secret.id)).toBe(1);
    // The page before revealing says it has been viewed (its loader's state; it never carries content).
    expect(await getSecretPage(createServiceContext(testEnv, { requestId: "test" }), body!.token)).toEqual({ state: "viewed" });
  });

  it("refuses a wrong passphrase without using a view, says how many attempts are left, and burns the secret at the limit", async () => {
    const { sealed, body } = await create(owner, { passphrase: "right one", maxViews: 3 });
    const wrong = await revealKeys(sealed.linkKey, "wrong one", sealed.body.kdf);
    const first = await reveal(body!.token, wrong!.proof);
    expect(first.status).toBe(403);
    expect((await first.json<{ message: string }>()).message).toBe(`The passphrase is wrong. ${SECRET_FAILED_ATTEMPTS_MAX - 1} attempts left before the secret is burned.`);
    expect(await countWhere("select view_count as n from secrets where id = ?", body!.secret.id)).toBe(0);
    for (let attempt = 2; attempt < SECRET_FAILED_ATTEMPTS_MAX; attempt++) expect((await reveal(body!.token, wrong!.proof)).status).toBe(403);
    const last = await reveal(body!.token, wrong!.proof);
    expect(last.status).toBe(410);
    expect((await last.json<{ message: string }>()).message).toContain("the secret was burned");
    // Even the right passphrase is too late now; the content is gone.
    const right = await revealKeys(sealed.linkKey, "right one", sealed.body.kdf);
    expect((await reveal(body!.token, right!.proof)).status).toBe(410);
    expect(await countWhere("select count(*) as n from secrets where id = ? and ciphertext is null and burn_reason = 'attempts'", body!.secret.id)).toBe(1);
  });

  it("expires: past its time the reveal answers 410, and the nightly purge removes the content, then the receipt", async () => {
    const { sealed, body } = await create(owner, { maxViews: 5 });
    await testEnv.DB.prepare("update secrets set expires_at = ? where id = ?").bind(Date.now() - 1000, body!.secret.id).run();
    const keys = await revealKeys(sealed.linkKey, "", null);
    const late = await reveal(body!.token, keys!.proof);
    expect(late.status).toBe(410);
    expect((await late.json<{ message: string }>()).message).toBe("This secret has expired and was deleted.");
    const ctx = createServiceContext(testEnv, { requestId: "test" });
    expect((await purgeExpiredSecrets(ctx)).expired).toBeGreaterThanOrEqual(1);
    expect(await countWhere("select count(*) as n from secrets where id = ? and ciphertext is null", body!.secret.id)).toBe(1);
    expect(await countWhere("select count(*) as n from secret_events where secret_id = ? and kind = 'expired'", body!.secret.id)).toBe(1);
    // A second run changes nothing; 31 days on, the receipt goes.
    await purgeExpiredSecrets(ctx);
    expect(await countWhere("select count(*) as n from secret_events where secret_id = ? and kind = 'expired'", body!.secret.id)).toBe(1);
    const later = createServiceContext(testEnv, { requestId: "test", now: () => new Date(Date.now() + 31 * 86_400_000) });
    await purgeExpiredSecrets(later);
    expect(await countWhere("select count(*) as n from secrets where id = ?", body!.secret.id)).toBe(0);
  });

  it("lets the owner change the expiry and views left, and burn it; the receipt shows what happened and never content", async () => {
    const { sealed, body } = await create(owner, { maxViews: 1 });
    const id = body!.secret.id;
    const changed = await send(owner.client, "PATCH", `/api/secrets/${id}`, { viewsLeft: 3, expiresInHours: 72 });
    expect(changed.status).toBe(200);
    expect((await changed.json<{ secret: { viewsLeft: number } }>()).secret.viewsLeft).toBe(3);
    const keys = await revealKeys(sealed.linkKey, "", null);
    expect((await reveal(body!.token, keys!.proof)).status).toBe(200);
    const burned = await send(owner.client, "POST", `/api/secrets/${id}/burn`);
    expect(burned.status).toBe(200);
    const receipt = await burned.json<{ secret: { status: string; viewCount: number }; events: { kind: string }[] }>();
    expect(receipt.secret).toMatchObject({ status: "burned", viewCount: 1 });
    expect(receipt.events.map((event) => event.kind)).toEqual(["burned", "viewed", "changed", "created"]);
    expect(JSON.stringify(receipt)).not.toContain("ciphertext");
    expect((await reveal(body!.token, keys!.proof)).status).toBe(410);
    expect((await send(owner.client, "POST", `/api/secrets/${id}/burn`)).status).toBe(409);
  });

  it("holds the plan's limits on the server: expiry beyond the plan and too many live secrets are refused with the upgrade", async () => {
    const free = await signedIn({ name: "Fay Free" });
    const long = await create(free, { expiresInHours: 30 * 24 });
    expect(long.response.status).toBe(403);
    expect((await long.response.json<{ message: string }>()).message).toContain("Your Free plan keeps secrets for at most 7 days");
    for (let index = 0; index < 10; index++) expect((await create(free)).response.status).toBe(201);
    const eleventh = await create(free);
    expect(eleventh.response.status).toBe(403);
    expect((await eleventh.response.json<{ message: string }>()).message).toContain("allows 10 secrets waiting to be read at a time");
    const bad = await send(free.client, "POST", "/api/secrets", { ciphertext: "plain text", proof: "x" });
    expect(bad.status).toBe(400);
  });

  it("lists a member's secrets in their data export without content or tokens, and erases them with the account's data", async () => {
    const member = await signedIn({ name: "Pia Private" });
    const { body } = await create(member, { label: "Bank PIN" });
    const ctx = createServiceContext(testEnv, { requestId: "test" });
    const [record] = await secretsPersonalData.export(ctx, member.id);
    expect(record!.path).toBe("secrets/secrets.json");
    expect(record!.data).toEqual([expect.objectContaining({ id: body!.secret.id, label: "Bank PIN", views: 0, maxViews: 1 })]);
    expect(JSON.stringify(record)).not.toContain("v1.");
    expect(JSON.stringify(record)).not.toContain(body!.token);
    await secretsPersonalData.erase(ctx, member.id);
    expect(await countWhere("select count(*) as n from secrets where user_id = ?", member.id)).toBe(0);
    expect(await countWhere("select count(*) as n from secret_events where user_id = ?", member.id)).toBe(0);
  });

  it("answers anonymous 401, an outsider 404 with nothing changed, and the owner 200 on the management routes", async () => {
    const { body } = await create(owner, { maxViews: 2 });
    const id = body!.secret.id;
    const outsider = await signedIn();
    const anonymous = await newAuthClient();
    expect((await get(`/api/secrets/${id}`)).status).toBe(401);
    expect((await send(anonymous, "POST", `/api/secrets/${id}/burn`)).status).toBe(401);
    expect((await get(`/api/secrets/${id}`, outsider.client)).status).toBe(404);
    expect((await send(outsider.client, "PATCH", `/api/secrets/${id}`, { viewsLeft: 50 })).status).toBe(404);
    expect((await send(outsider.client, "POST", `/api/secrets/${id}/burn`)).status).toBe(404);
    expect(await countWhere("select count(*) as n from secrets where id = ? and max_views = 2 and burned_at is null", id)).toBe(1);
    const list = await get("/api/secrets", outsider.client);
    expect((await list.json<{ secrets: unknown[] }>()).secrets).toEqual([]);
    expect((await get(`/api/secrets/${id}`, owner.client)).status).toBe(200);
    // The receipt page's loader uses the same service.
    await expect(getSecretReceipt(createServiceContext(testEnv, { requestId: "test" }), outsider.id, id)).rejects.toMatchObject({ status: 404 });
  });
});
