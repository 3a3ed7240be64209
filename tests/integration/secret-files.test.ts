import { beforeAll, describe, expect, it } from "vitest";
import { partSizeFor } from "~/features/files/files.constants";
import { deriveSecretKeys, newLinkKey, parseLinkKey, sealPayload, openPayload } from "~/features/secrets/secret-crypto";
import { exactReader, openSealedFile, sealedFileSize, sealedRange } from "~/features/secrets/secret-files";
import { purgeExpiredSecrets } from "~/features/secrets/secrets.server";
import { createServiceContext } from "~/lib/service-context.server";
import { countWhere, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv } from "./helpers";
import { bytes, call, metadata, patch } from "./tus-helpers";

/**
 * Files in secrets (issue 23): sealed in the browser in segments, sent through the tus path into
 * the secret's own key, revealed in one stream (header, then each sealed file) and opened in the
 * browser; after the last view the objects are gone. The server never holds a plaintext byte.
 */

async function sealedFileSecret(owner: Person, file: Blob, maxViews: number) {
  const linkKey = newLinkKey();
  const keys = await deriveSecretKeys(parseLinkKey(linkKey)!, null);
  const ciphertext = await sealPayload(keys.contentKey, { text: "", files: [{ name: "contract.pdf", size: file.size, type: "application/pdf" }] });
  const response = await send(owner.client, "POST", "/api/secrets", { ciphertext, proof: keys.proof, kdf: null, size: 0, expiresInHours: 24, maxViews, files: [{ storedSize: sealedFileSize(file.size) }] });
  expect(response.status, await response.clone().text()).toBe(201);
  const body = await response.json<{ secret: { id: string }; token: string; files: { id: string }[] }>();
  return { ...body, keys, linkKey };
}

/** The browser's tus upload: creation, then part-sized PATCHes of sealed bytes. */
async function uploadSealed(owner: Person, secretFileId: string, file: Blob, key: CryptoKey) {
  const length = sealedFileSize(file.size);
  const created = await call({ method: "POST", path: "/api/uploads", client: owner.client, headers: { "upload-length": String(length), "upload-metadata": metadata({ filename: "sealed", secretFileId }) } });
  expect(created.status, await created.clone().text()).toBe(201);
  const location = created.headers.get("location")!;
  const partSize = partSizeFor(length);
  for (let offset = 0; offset < length; offset += partSize) {
    const part = await sealedRange(file, key, offset, Math.min(length, offset + partSize));
    const answer = await patch(owner.client, location, offset, part);
    expect(answer.status, await answer.clone().text()).toBe(204);
  }
  return length;
}

async function reveal(token: string, proof: string) {
  return send(await newAuthClient(), "POST", "/api/secret-reveals", { token, proof });
}

describe("files in secrets", () => {
  let owner: Person;
  beforeAll(async () => {
    owner = await signedIn({ tier: "business", name: "Fenna Files" });
  });

  it("carries a sealed multi-part file through tus and the reveal stream; only the link's key opens it, and the last view deletes it", async () => {
    const plain = bytes(12 * 1024 * 1024 + 12_345, 7);
    const file = new Blob([plain]);
    const secret = await sealedFileSecret(owner, file, 1);
    const fileKey = await secret.keys.fileKey(0);
    // Not revealable while the file is still on its way.
    const early = await reveal(secret.token, secret.keys.proof);
    expect(early.status, await early.clone().text()).toBe(409);
    expect(await countWhere("select view_count as n from secrets where id = ?", secret.secret.id)).toBe(0);

    const stored = await uploadSealed(owner, secret.files[0]!.id, file, fileKey);
    expect(await countWhere("select count(*) as n from secret_files where id = ? and status = 'ready'", secret.files[0]!.id)).toBe(1);
    const object = await testEnv.FILES.get(`secrets/${secret.secret.id}/${secret.files[0]!.id}`);
    const raw = new Uint8Array(await object!.arrayBuffer());
    expect(raw.length).toBe(stored);
    expect(Buffer.from(raw).includes(Buffer.from(plain.slice(0, 64)))).toBe(false);

    const answer = await reveal(secret.token, secret.keys.proof);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/vnd.strongroom.secret");
    const read = exactReader(answer.body!);
    const headLength = new DataView((await read(4))!.buffer).getUint32(0);
    const header = JSON.parse(new TextDecoder().decode((await read(headLength))!)) as { ciphertext: string; viewsLeft: number; files: { storedSize: number }[] };
    expect(header.viewsLeft).toBe(0);
    expect(await openPayload(secret.keys.contentKey, header.ciphertext)).toEqual({ text: "", files: [{ name: "contract.pdf", size: plain.length, type: "application/pdf" }] });
    const opened = await openSealedFile(read, header.files[0]!.storedSize, fileKey, "application/pdf");
    expect(new Uint8Array(await opened!.arrayBuffer())).toEqual(plain);
    // The last view's answer took the file with it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await testEnv.FILES.head(`secrets/${secret.secret.id}/${secret.files[0]!.id}`)).toBeNull();
    expect(await countWhere("select count(*) as n from secret_files where secret_id = ?", secret.secret.id)).toBe(0);
  });

  it("refuses files above the plan's largest, uploads of another size or someone else's file, and the purge deletes a burned secret's files", async () => {
    const free = await signedIn({ name: "Fritz Free" });
    const linkKey = newLinkKey();
    const keys = await deriveSecretKeys(parseLinkKey(linkKey)!, null);
    const ciphertext = await sealPayload(keys.contentKey, { text: "big", files: [{ name: "big.bin", size: 11 * 1024 * 1024, type: "" }] });
    const big = await send(free.client, "POST", "/api/secrets", { ciphertext, proof: keys.proof, size: 3, expiresInHours: 24, maxViews: 1, files: [{ storedSize: sealedFileSize(11 * 1024 * 1024) }] });
    expect(big.status).toBe(403);
    expect((await big.json<{ message: string }>()).message).toContain("Your Free plan attaches files of up to 10 MB");

    const file = new Blob([bytes(1000, 3)]);
    const secret = await sealedFileSecret(owner, file, 2);
    const fileId = secret.files[0]!.id;
    const wrongSize = await call({ method: "POST", path: "/api/uploads", client: owner.client, headers: { "upload-length": "999", "upload-metadata": metadata({ filename: "x", secretFileId: fileId }) } });
    expect(wrongSize.status).toBe(400);
    const theirs = await call({ method: "POST", path: "/api/uploads", client: free.client, headers: { "upload-length": String(sealedFileSize(1000)), "upload-metadata": metadata({ filename: "x", secretFileId: fileId }) } });
    expect(theirs.status).toBe(404);

    await uploadSealed(owner, fileId, file, await secret.keys.fileKey(0));
    const key = `secrets/${secret.secret.id}/${fileId}`;
    expect(await testEnv.FILES.head(key)).not.toBeNull();
    expect((await send(owner.client, "POST", `/api/secrets/${secret.secret.id}/burn`)).status).toBe(200);
    expect(await testEnv.FILES.head(key)).toBeNull();
    // The purge is the safety net for files left behind (here: one put back by hand).
    await testEnv.FILES.put(key, new Uint8Array([1, 2, 3]));
    await testEnv.DB.prepare("insert into secret_files (id, secret_id, seq, stored_size, r2_key, status, created_at) values (?, ?, 0, 3, ?, 'ready', ?)").bind(crypto.randomUUID(), secret.secret.id, key, Date.now()).run();
    await purgeExpiredSecrets(createServiceContext(testEnv, { requestId: "test" }));
    expect(await testEnv.FILES.head(key)).toBeNull();
  });
});
