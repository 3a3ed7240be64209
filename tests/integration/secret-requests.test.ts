import { beforeAll, describe, expect, it } from "vitest";
import { newRequestKeys, sealAnswer, unlockRequest } from "~/features/secrets/request-crypto";
import { getRequestPage } from "~/features/secrets/secret-requests.server";
import { partSizeFor } from "~/features/files/files.constants";
import { exactReader, openSealedFile, sealedFileSize, sealedRange } from "~/features/secrets/secret-files";
import { bytes, call, metadata, patch } from "./tus-helpers";
import { createServiceContext } from "~/lib/service-context.server";
import { countWhere, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv } from "./helpers";

/**
 * Requests for secrets (issue 23): the member's browser makes the key pair and wraps the private
 * key with a passphrase; a visitor's answer is sealed to the public key; only the passphrase opens
 * it. The server holds neither the passphrase, the private key in the clear nor any answer's text.
 */

type Created = { request: { id: string; status: string }; path: string };
type Page = { request: { status: string; responseCount: number }; path: string; keys: Parameters<typeof unlockRequest>[1]; answers: { ephemeralKey: string; ciphertext: string }[] };

async function everyStoredByte(): Promise<string> {
  const { results: tables } = await testEnv.DB.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name <> 'd1_migrations'").all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of tables) parts.push(JSON.stringify((await testEnv.DB.prepare(`select * from "${name}"`).all()).results));
  return parts.join("\n");
}

describe("requests for secrets", () => {
  let owner: Person;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Rita Request" });
  });

  async function createRequest(passphrase: string, maxResponses = 1) {
    const keys = await newRequestKeys(passphrase);
    const response = await send(owner.client, "POST", "/api/secret-requests", { message: "Please send the staging database password.", label: "Staging DB", ...keys, expiresInHours: 24, maxResponses });
    expect(response.status).toBe(201);
    return response.json<Created>();
  }

  it("takes a visitor's sealed answer that only the member's passphrase opens, tells the member, and stores no passphrase, private key or text", async () => {
    const passphrase = "orchid lantern 2026";
    const created = await createRequest(passphrase);
    const token = created.path.split("/").at(-1)!;
    const page = await getRequestPage(createServiceContext(testEnv, { requestId: "test" }), token);
    expect(page).toMatchObject({ state: "open", message: "Please send the staging database password.", requester: "Rita Request" });
    if (page.state !== "open") throw new Error("not open");

    const text = "pg://admin:MARMALADE-77@staging";
    const answer = await sealAnswer(page.publicKey, { text });
    expect(JSON.stringify(answer)).not.toContain("MARMALADE");
    const visitor = await newAuthClient();
    const sent = await send(visitor, "POST", "/api/secret-request-answers", { token, ...answer });
    expect(sent.status).toBe(201);
    expect(await countWhere("select count(*) as n from notifications where user_id = ? and kind = 'secret.received'", owner.id)).toBe(1);

    const stored = await everyStoredByte();
    for (const needle of [passphrase, "MARMALADE", token]) expect(stored).not.toContain(needle);

    const view = await (await get(`/api/secret-requests/${created.request.id}`, owner.client)).json<Page>();
    expect(view.request).toMatchObject({ status: "full", responseCount: 1 });
    expect(await unlockRequest("wrong passphrase", view.keys)).toBeNull();
    const open = await unlockRequest(passphrase, view.keys);
    expect(await open!(view.answers[0]!)).toMatchObject({ text });

    // Full: a second answer is refused, and nothing is stored.
    const again = await send(visitor, "POST", "/api/secret-request-answers", { token, ...(await sealAnswer(page.publicKey, { text: "late" })) });
    expect(again.status).toBe(410);
    expect((await again.json<{ message: string }>()).message).toBe("This request already has all the answers it asked for.");
    expect(await countWhere("select count(*) as n from secret_request_responses where request_id = ?", created.request.id)).toBe(1);
  });

  it("refuses answers once closed, and deleting removes the request with its answers", async () => {
    const created = await createRequest("closing time 2026", 5);
    const token = created.path.split("/").at(-1)!;
    const page = await getRequestPage(createServiceContext(testEnv, { requestId: "test" }), token);
    if (page.state !== "open") throw new Error("not open");
    expect((await send(await newAuthClient(), "POST", "/api/secret-request-answers", { token, ...(await sealAnswer(page.publicKey, { text: "one" })) })).status).toBe(201);
    expect((await send(owner.client, "POST", `/api/secret-requests/${created.request.id}/close`)).status).toBe(200);
    const late = await send(await newAuthClient(), "POST", "/api/secret-request-answers", { token, ...(await sealAnswer(page.publicKey, { text: "two" })) });
    expect(late.status).toBe(410);
    expect(await getRequestPage(createServiceContext(testEnv, { requestId: "test" }), token)).toEqual({ state: "closed" });
    expect((await send(owner.client, "DELETE", `/api/secret-requests/${created.request.id}`)).status).toBe(204);
    expect(await countWhere("select count(*) as n from secret_request_responses where request_id = ?", created.request.id)).toBe(0);
  });

  it("answers anonymous 401, an outsider 404 with nothing changed, and the owner 200; bad answers get a 400", async () => {
    const created = await createRequest("matrix check 2026", 2);
    const id = created.request.id;
    const outsider = await signedIn();
    expect((await get(`/api/secret-requests/${id}`)).status).toBe(401);
    expect((await get(`/api/secret-requests/${id}`, outsider.client)).status).toBe(404);
    expect((await send(outsider.client, "POST", `/api/secret-requests/${id}/close`)).status).toBe(404);
    expect((await send(outsider.client, "DELETE", `/api/secret-requests/${id}`)).status).toBe(404);
    expect(await countWhere("select count(*) as n from secret_requests where id = ? and closed_at is null", id)).toBe(1);
    expect((await get(`/api/secret-requests/${id}`, owner.client)).status).toBe(200);
    const token = created.path.split("/").at(-1)!;
    const bad = await send(await newAuthClient(), "POST", "/api/secret-request-answers", { token, ephemeralKey: "x", ciphertext: "plain words", size: 3 });
    expect(bad.status).toBe(400);
    expect(await countWhere("select response_count as n from secret_requests where id = ?", id)).toBe(0);
  });

  it("takes an answer's file from a visitor without an account through the tus path with a grant for that file only, and only the passphrase opens it", async () => {
    const passphrase = "harbour files 2026";
    const created = await createRequest(passphrase, 2);
    const token = created.path.split("/").at(-1)!;
    const page = await getRequestPage(createServiceContext(testEnv, { requestId: "test" }), token);
    if (page.state !== "open") throw new Error("not open");
    const plain = bytes(9 * 1024 * 1024 + 77, 11);
    const file = new Blob([plain]);
    const answer = await sealAnswer(page.publicKey, { text: "the scan", files: [{ name: "passport.jpg", size: file.size, type: "image/jpeg" }] });
    const visitor = await newAuthClient();
    const sent = await send(visitor, "POST", "/api/secret-request-answers", { token, ephemeralKey: answer.ephemeralKey, ciphertext: answer.ciphertext, size: answer.size, files: [{ storedSize: sealedFileSize(file.size) }] });
    expect(sent.status, await sent.clone().text()).toBe(201);
    const { files } = await sent.json<{ files: { id: string; uploadToken: string }[] }>();
    // Not told yet: the file is still on its way.
    expect(await countWhere("select count(*) as n from notifications where user_id = ? and kind = 'secret.received' and link like ?", owner.id, `%${created.request.id}`)).toBe(0);

    const length = sealedFileSize(file.size);
    const grant = { "strongroom-upload-grant": files[0]!.uploadToken };
    // No session and no grant: refused. A grant names its own file only.
    const bare = await call({ method: "POST", path: "/api/uploads", client: visitor, headers: { "upload-length": String(length), "upload-metadata": metadata({ filename: "x", secretFileId: files[0]!.id }) } });
    expect(bare.status).toBe(401);
    const other = await call({ method: "POST", path: "/api/uploads", client: visitor, headers: { ...grant, "upload-length": String(length), "upload-metadata": metadata({ filename: "x", secretFileId: crypto.randomUUID() }) } });
    expect(other.status).toBe(404);
    const made = await call({ method: "POST", path: "/api/uploads", client: visitor, headers: { ...grant, "upload-length": String(length), "upload-metadata": metadata({ filename: "x", secretFileId: files[0]!.id }) } });
    expect(made.status, await made.clone().text()).toBe(201);
    const location = made.headers.get("location")!;
    const key = await answer.fileKey(0);
    const partSize = partSizeFor(length);
    for (let offset = 0; offset < length; offset += partSize) {
      const part = await sealedRange(file, key, offset, Math.min(length, offset + partSize));
      const patched = await patch(visitor, location, offset, part, grant);
      expect(patched.status, await patched.clone().text()).toBe(204);
    }
    expect(await countWhere("select count(*) as n from notifications where user_id = ? and kind = 'secret.received' and link like ?", owner.id, `%${created.request.id}`)).toBe(1);
    // Stored sealed: no plaintext run in the object.
    const stored = new Uint8Array(await (await testEnv.FILES.get(`secret-requests/${created.request.id}/${files[0]!.id}`))!.arrayBuffer());
    expect(Buffer.from(stored).includes(Buffer.from(plain.slice(1000, 1064)))).toBe(false);

    // The owner downloads the sealed bytes and opens them with the passphrase.
    const view = await (await get(`/api/secret-requests/${created.request.id}`, owner.client)).json<Page & { answers: { files: { id: string; storedSize: number; isReady: boolean }[] }[] }>();
    expect(view.answers[0]!.files).toEqual([{ id: files[0]!.id, storedSize: length, isReady: true }]);
    expect((await get(`/api/secret-requests/${created.request.id}/files/${files[0]!.id}`, (await signedIn()).client)).status).toBe(404);
    const download = await get(`/api/secret-requests/${created.request.id}/files/${files[0]!.id}`, owner.client);
    expect(download.status).toBe(200);
    const opened = await (await unlockRequest(passphrase, view.keys))!(view.answers[0]!);
    expect(opened).toMatchObject({ text: "the scan", files: [{ name: "passport.jpg", size: file.size, type: "image/jpeg" }] });
    const blob = await openSealedFile(exactReader(download.body!), length, await opened!.fileKey(0), "image/jpeg");
    expect(new Uint8Array(await blob!.arrayBuffer())).toEqual(plain);
    // Deleting the request deletes the file's object.
    expect((await send(owner.client, "DELETE", `/api/secret-requests/${created.request.id}`)).status).toBe(204);
    expect(await testEnv.FILES.head(`secret-requests/${created.request.id}/${files[0]!.id}`)).toBeNull();
  });
});
