import { createHash } from "node:crypto";
import { createReadStream, mkdtempSync, openSync, closeSync, rmSync, writeSync } from "node:fs";
import { createServer, connect, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tus from "tus-js-client";
import { csrfToken, defaultFolders, newFilesMember } from "./files-helpers";
import { expect, gotoHydrated, test } from "./fixtures";
import { CUTS_UPLOADS } from "./tags";

/**
 * A real tus client (tus-js-client's Node build) against the running app: a 40 MB upload (five
 * parts) is interrupted in the middle of a part (its connection is cut), and a new client given the same
 * upload URL resumes from the server's offset, sends only what is missing, and finishes with the
 * right size and SHA-256.
 */

const MiB = 1024 * 1024;
const SIZE = 40 * MiB;

/** Mirrors partSizeFor (app/features/files/files.constants.ts); the server also names it. */
function partSizeFor(length: number): number {
  const rounded = Math.ceil(Math.ceil(length / 10_000) / MiB) * MiB;
  return Math.min(90 * MiB, Math.max(8 * MiB, rounded));
}

/** Writes `size` deterministic bytes (xorshift32) to `path` and returns their SHA-256. */
function writeDeterministicFile(path: string, size: number): string {
  const hash = createHash("sha256");
  const chunk = Buffer.alloc(MiB);
  let state = 0x9e3779b9;
  const fd = openSync(path, "w");
  try {
    for (let written = 0; written < size; written += chunk.length) {
      for (let offset = 0; offset < chunk.length; offset += 4) {
        state ^= state << 13;
        state >>>= 0;
        state ^= state >>> 17;
        state ^= state << 5;
        state >>>= 0;
        chunk.writeUInt32LE(state, offset);
      }
      writeSync(fd, chunk);
      hash.update(chunk);
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/**
 * A TCP proxy to the app that cuts every connection once `cutAfter` bytes have gone from the
 * client to the app: a network failure in the middle of a request body.
 */
async function cuttingProxy(target: URL, cutAfter: number) {
  let forwarded = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    const cut = () => {
      for (const socket of sockets) socket.destroy();
    };
    client.on("data", (data: Buffer) => {
      forwarded += data.length;
      if (forwarded > cutAfter) cut();
      else upstream.write(data);
    });
    upstream.on("data", (data: Buffer) => client.write(data));
    client.on("error", cut);
    upstream.on("error", cut);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    forwarded: () => forwarded,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("a tus client uploads 40 MB in parts, is interrupted mid-part, and a new client resumes from the server's offset to the end", { tag: CUTS_UPLOADS }, async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const directory = mkdtempSync(join(tmpdir(), "strongroom-tus-"));
  try {
    const path = join(directory, "big.bin");
    const expectedSha = writeDeterministicFile(path, SIZE);

    await newFilesMember(page, "business");
    const { inbox } = await defaultFolders(page);
    await gotoHydrated(page, `/folders/${inbox}`);
    const csrf = await csrfToken(page);
    const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join("; ");
    const headers = { Cookie: cookie, "X-CSRF-TOKEN": csrf, Origin: baseURL!, "X-Requested-With": "XMLHttpRequest" };
    const partSize = partSizeFor(SIZE);
    const metadata = { filename: "resumed-40MB.bin", folderId: inbox };

    // --- the first client: its connection is cut 3 MiB into the part after 16 MiB ---
    const proxy = await cuttingProxy(new URL(baseURL!), 16 * MiB + 3 * MiB);
    let interruption: Error | null = null;
    const first = await new Promise<tus.Upload>((resolve, reject) => {
      const upload: tus.Upload = new tus.Upload(createReadStream(path), {
        endpoint: `${proxy.origin}/api/uploads`,
        chunkSize: partSize,
        retryDelays: null,
        metadata,
        headers: { ...headers, Origin: proxy.origin },
        storeFingerprintForResuming: false,
        onSuccess: () => reject(new Error("The first upload finished although its connection was cut.")),
        onError: (error) => {
          interruption = error;
          resolve(upload);
        },
      });
      upload.start();
    });
    await proxy.close();
    expect(interruption).not.toBeNull();
    const sentBeforeInterruption = proxy.forwarded();
    const uploadPath = new URL(first.url!).pathname;
    expect(uploadPath).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}$/);
    const uploadUrl = `${baseURL}${uploadPath}`;

    // The server kept every whole part it received and nothing of the interrupted one.
    let serverOffset = 0;
    await expect
      .poll(async () => {
        const head = await fetch(uploadUrl, { method: "HEAD", headers: { ...headers, "Tus-Resumable": "1.0.0" } });
        serverOffset = Number(head.headers.get("upload-offset"));
        return head.status;
      })
      .toBe(200);
    expect(serverOffset).toBeGreaterThanOrEqual(16 * MiB - partSize);
    expect(serverOffset).toBeLessThan(sentBeforeInterruption);
    expect(serverOffset % partSize).toBe(0);

    // --- the second client: same upload URL, resumes where the server stands ---
    const patchOffsets: number[] = [];
    const fileId = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(createReadStream(path), {
        uploadUrl,
        chunkSize: partSize,
        retryDelays: [0, 1000, 3000],
        metadata,
        headers,
        storeFingerprintForResuming: false,
        onBeforeRequest: (request) => {
          if (request.getMethod() === "PATCH") patchOffsets.push(Number(request.getHeader("Upload-Offset")));
        },
        onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader("Strongroom-File-Id") ?? ""),
        onError: reject,
      });
      upload.start();
    });
    expect(fileId).toMatch(/^[0-9a-f-]{36}$/);

    // Not one completed part was sent again: the PATCHes start at the server's offset, one part each.
    expect(patchOffsets[0]).toBe(serverOffset);
    const expectedOffsets = [];
    for (let offset = serverOffset; offset < SIZE; offset += partSize) expectedOffsets.push(offset);
    expect(patchOffsets).toEqual(expectedOffsets);

    // The stored file has the full size, and the hash job records the same SHA-256 as the local file.
    const listing = await page.request.get(`/api/folders/${inbox}`);
    const stored = ((await listing.json()) as { files: { id: string; name: string; size: number }[] }).files.find((file) => file.id === fileId);
    expect(stored).toMatchObject({ name: "resumed-40MB.bin", size: SIZE });
    await expect
      .poll(
        async () => {
          // A wait for the hash job, not a check of one answer: an answer that is not the upload's
          // state (once in five runs under load, the local preview proxy lost its connection to
          // workerd and answered with its own error page) is asked again; only the hash decides.
          const state = await fetch(uploadUrl, { headers: { ...headers, Accept: "application/json" } });
          if (!state.ok || !(state.headers.get("content-type") ?? "").includes("application/json")) return `not yet (${state.status})`;
          return ((await state.json()) as { sha256: string | null }).sha256;
        },
        { timeout: 120_000, intervals: [1000, 2000, 3000] },
      )
      .toBe(expectedSha);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
