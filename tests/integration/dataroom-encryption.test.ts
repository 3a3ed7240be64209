import { beforeAll, describe, expect, it } from "vitest";
import { encryptedSize, isEncryptedKey, SEGMENT_SIZE } from "~/features/files/encryption-format";
import { putStoredObject, readStoredObject, rewrapSpaceKeys } from "~/features/files/encryption.server";
import { createServiceContext } from "~/lib/service-context.server";
import { createFile, personalSpaceOf } from "~tests/factories/files";
import { createRoom, send, signedIn, type Person } from "./dataroom-helpers";
import { testEnv } from "./helpers";
import { bytes, sha256Hex, upload } from "./tus-helpers";

/**
 * Encryption at rest (issue 20, ADR 021): a data room's files are sealed before they reach R2 (a
 * key per room, wrapped by the environment's key; 64 KiB AES-GCM segments), while every reader
 * (downloads, ranges, previews, zips, hashing, sniffing) gets the plaintext. Personal files stay as
 * they are. Rotating the key-encryption key re-wraps room keys without touching a file.
 */

const KEY_A = btoa(String.fromCharCode(...new Uint8Array(32).fill(1)));
const KEY_B = btoa(String.fromCharCode(...new Uint8Array(32).fill(2)));

async function rawObject(r2Key: string): Promise<Uint8Array> {
  const object = await testEnv.FILES.get(r2Key);
  return new Uint8Array(await object!.arrayBuffer());
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

const fileRow = (id: string) => testEnv.DB.prepare("select r2_key as r2Key, size, sha256, content_type as type from files where id = ?").bind(id).first<{ r2Key: string; size: number; sha256: string | null; type: string }>();

describe("encryption at rest", () => {
  let owner: Person;
  let room: { id: string; rootFolderId: string };
  const text = new TextEncoder().encode(`Falcon term sheet: the price is 42 million.\n${"confidential line\n".repeat(5000)}`);
  let textId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro" });
    room = await createRoom(owner.client, "Sealed room");
    textId = await upload(owner.client, room.rootFolderId, "term sheet.txt", new Uint8Array(text));
  });

  it("stores a room's upload sealed, not as its plaintext, and gives every reader the plaintext", async () => {
    const row = (await fileRow(textId))!;
    expect(isEncryptedKey(row.r2Key)).toBe(true);
    expect(row.size).toBe(text.byteLength);
    // The type was sniffed from the opened bytes, and the digest is of the plaintext.
    expect(row.type).toBe("text/plain");
    expect(row.sha256).toBe(await sha256Hex(new Uint8Array(text)));
    const stored = await rawObject(row.r2Key);
    expect(stored.byteLength).toBe(encryptedSize(text.byteLength));
    expect(contains(stored, new TextEncoder().encode("Falcon term sheet"))).toBe(false);
    expect(contains(stored, new TextEncoder().encode("confidential line"))).toBe(false);

    const download = await send(owner.client, "GET", `/api/files/${textId}/download`);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(text);
    const zip = await send(owner.client, "GET", `/api/zip/folders/${room.rootFolderId}`);
    expect(zip.status).toBe(200);
    expect(contains(new Uint8Array(await zip.arrayBuffer()), new TextEncoder().encode("Falcon term sheet"))).toBe(true);
  });

  it("answers byte ranges inside a segment, across a segment border and at the end with the right plaintext", async () => {
    for (const [from, to] of [
      [0, 10],
      [SEGMENT_SIZE - 5, SEGMENT_SIZE + 20],
      [SEGMENT_SIZE * 1 + 100, SEGMENT_SIZE * 1 + 100],
      [text.byteLength - 30, text.byteLength - 1],
    ] as const) {
      const response = await send(owner.client, "GET", `/api/files/${textId}/preview`, undefined, { range: `bytes=${from}-${to}` });
      expect(response.status, `${from}-${to}`).toBe(206);
      expect(response.headers.get("content-range")).toBe(`bytes ${from}-${to}/${text.byteLength}`);
      expect(new Uint8Array(await response.arrayBuffer()), `${from}-${to}`).toEqual(text.slice(from, to + 1));
    }
  });

  it("seals a multi-part upload part by part, and its hash job reads the plaintext", async () => {
    const content = bytes(8 * 1024 * 1024 + 70_000, 7);
    const fileId = await upload(owner.client, room.rootFolderId, "data room export.bin", content);
    const row = (await fileRow(fileId))!;
    expect(isEncryptedKey(row.r2Key)).toBe(true);
    expect((await testEnv.FILES.head(row.r2Key))!.size).toBe(encryptedSize(content.byteLength));
    const border = 8 * 1024 * 1024;
    const range = await send(owner.client, "GET", `/api/files/${fileId}/download`, undefined, { range: `bytes=${border - 10}-${border + 10}` });
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(content.slice(border - 10, border + 11));
    const { hashFileJob } = await import("~/features/files/files.jobs");
    await hashFileJob.run({ ...createServiceContext(testEnv, { requestId: "t" }), jobId: "t" }, { fileId, r2Key: row.r2Key });
    expect((await fileRow(fileId))!.sha256).toBe(await sha256Hex(content));
  });

  it("refuses a changed object instead of delivering altered bytes", async () => {
    const row = (await fileRow(textId))!;
    const stored = await rawObject(row.r2Key);
    const tampered = stored.slice();
    tampered[100] = tampered[100]! ^ 0xff;
    await testEnv.FILES.put(row.r2Key, tampered);
    const download = await send(owner.client, "GET", `/api/files/${textId}/download`);
    await expect(download.arrayBuffer()).rejects.toThrow();
    await testEnv.FILES.put(row.r2Key, stored);
  });

  it("says on the security page that new files are encrypted, and counts the files stored before", async () => {
    const status = async () => (await (await send(owner.client, "GET", `/api/datarooms/${room.id}/security`)).json<{ encryption: unknown }>()).encryption;
    expect(await status()).toEqual({ sealsNewFiles: true, unsealedFiles: 0 });
    await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "from before.txt" });
    expect(await status()).toEqual({ sealsNewFiles: true, unsealedFiles: 1 });
  });

  it("leaves personal files as they are", async () => {
    const space = await personalSpaceOf(owner.id);
    const fileId = await upload(owner.client, space.inboxId, "my notes.txt", new Uint8Array(new TextEncoder().encode("just mine")));
    const row = (await fileRow(fileId))!;
    expect(isEncryptedKey(row.r2Key)).toBe(false);
    expect(new TextDecoder().decode(await rawObject(row.r2Key))).toBe("just mine");
  });

  it("keeps each room's key only wrapped, and a key rotation re-wraps it without re-encrypting any file", async () => {
    const withA = createServiceContext({ ...testEnv, FILES_ENCRYPTION_KEY: KEY_A } as Env, { requestId: "t" });
    const rotated = createServiceContext({ ...testEnv, FILES_ENCRYPTION_KEY: KEY_B, FILES_ENCRYPTION_KEY_PREVIOUS: KEY_A } as Env, { requestId: "t" });
    const withB = createServiceContext({ ...testEnv, FILES_ENCRYPTION_KEY: KEY_B } as Env, { requestId: "t" });
    const other = await createRoom(owner.client, "Rotation room");
    const key = `files/${other.id}/e1-${crypto.randomUUID()}`;
    const plain = new Uint8Array(new TextEncoder().encode("sealed under key A"));
    await putStoredObject(withA, key, plain);
    const before = await testEnv.DB.prepare("select wrapped_key as wrapped, kek_id as kekId from space_keys where space_id = ?").bind(other.id).first<{ wrapped: string; kekId: string }>();
    expect(before!.wrapped.length).toBeGreaterThan(40);
    const storedBefore = await rawObject(key);

    // A deployment without key A cannot open the room's key at all.
    await expect(readStoredObject(withB, key, plain.byteLength)).rejects.toThrow(/not configured/);
    const result = await rewrapSpaceKeys(rotated);
    expect(result.rewrapped).toBeGreaterThanOrEqual(1);
    const after = await testEnv.DB.prepare("select wrapped_key as wrapped, kek_id as kekId from space_keys where space_id = ?").bind(other.id).first<{ wrapped: string; kekId: string }>();
    expect(after!.kekId).not.toBe(before!.kekId);
    expect(await rawObject(key)).toEqual(storedBefore);
    expect(new Uint8Array(await new Response(await readStoredObject(withB, key, plain.byteLength)).arrayBuffer())).toEqual(plain);
    // Running it again changes nothing.
    expect((await rewrapSpaceKeys(rotated)).rewrapped).toBe(0);
  });
});
