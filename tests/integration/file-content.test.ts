import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { files } from "~/db/schema";
import { assertWithinZipCaps, prepareFolderZip } from "~/features/files/content.server";
import { ZIP_MAX_ENTRIES } from "~/features/files/files.constants";
import { insertFolder } from "~/features/files/folders.queries.server";
import { AppError } from "~/lib/errors";
import { addSpaceMember, createFile, personalSpaceOf, testContext } from "~tests/factories/files";
import { createUser } from "~tests/factories/users";
import { loginJson, origin, testEnv, type AuthClient } from "./helpers";

/**
 * File content (S15, S16, G8): downloads and previews with ranges, validators and safe headers,
 * and folder zips with caps and clean paths, through the real Worker entry.
 */

type Member = { id: string; client: AuthClient };

async function signedInMember(): Promise<Member> {
  const user = await createUser();
  const { response, client } = await loginJson(user.email, user.password);
  expect(response.status).toBe(200);
  return { id: user.id, client };
}

async function get(path: string, member: Member | null, headers: Record<string, string> = {}, method = "GET"): Promise<Response> {
  return exports.default.fetch(`${origin}${path}`, {
    method,
    headers: { ...(member ? { cookie: member.client.jar.header() } : {}), ...headers },
  });
}

async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/**
 * Every table's rows, except the session rows the session middleware refreshes on any request and
 * what background jobs write (the job rows and the search index: an earlier file's uploads may be
 * read by the queue consumer while this file runs).
 */
async function snapshotDatabase(): Promise<string> {
  const { results: tables } = await testEnv.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name not like 'search_%' and name not in ('d1_migrations', 'sessions', 'jobs') order by name",
  ).all<{ name: string }>();
  const dump: Record<string, unknown[]> = {};
  for (const { name } of tables) {
    dump[name] = (await testEnv.DB.prepare(`select * from "${name}" order by rowid`).all()).results;
  }
  return JSON.stringify(dump);
}

const CONTENT = "0123456789abcdefghij"; // 20 bytes

describe("who may read a file's bytes and a folder zip", () => {
  let owner: Member;
  let viewer: Member;
  let outsider: Member;
  let fileId: string;
  let folderId: string;

  beforeAll(async () => {
    [owner, viewer, outsider] = await Promise.all([signedInMember(), signedInMember(), signedInMember()]);
    const space = await personalSpaceOf(owner.id);
    await addSpaceMember(space.spaceId, viewer.id, "viewer");
    folderId = space.inboxId;
    fileId = (await createFile({ spaceId: space.spaceId, folderId, name: "notes.txt", content: CONTENT, uploadedBy: owner.id })).id;
  });

  const routes = () => [`/api/files/${fileId}/download`, `/api/files/${fileId}/preview`, `/api/zip/folders/${folderId}`];

  it("asks an anonymous visitor to sign in (401 JSON) and changes nothing", async () => {
    const before = await snapshotDatabase();
    for (const path of routes()) {
      const response = await get(path, null);
      expect(response.status, path).toBe(401);
      expect(await response.json()).toMatchObject({ code: "UNAUTHENTICATED" });
    }
    expect(await snapshotDatabase()).toBe(before);
  });

  it("answers a member of another space 404, as if nothing were there, and changes nothing", async () => {
    const before = await snapshotDatabase();
    for (const path of routes()) {
      const response = await get(path, outsider);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ code: "NOT_FOUND" });
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
    for (const method of ["HEAD"]) {
      expect((await get(routes()[0]!, outsider, {}, method)).status).toBe(404);
    }
    expect(await snapshotDatabase()).toBe(before);
  });

  it("answers 404 for a file or folder id that does not exist", async () => {
    for (const path of ["/api/files/nope/download", "/api/files/nope/preview", "/api/zip/folders/nope"]) {
      expect((await get(path, owner)).status, path).toBe(404);
    }
  });

  it("lets a viewer of the space view and download (both are viewer rights)", async () => {
    for (const path of routes()) {
      const response = await get(path, viewer);
      expect(response.status, path).toBe(200);
      await response.arrayBuffer();
    }
  });

  it("lets the owner view, download and zip", async () => {
    for (const path of routes()) {
      const response = await get(path, owner);
      expect(response.status, path).toBe(200);
      await response.arrayBuffer();
    }
  });

  it("no longer serves a file once it is in the trash", async () => {
    const space = await personalSpaceOf(owner.id);
    const trashed = await createFile({ spaceId: space.spaceId, folderId, content: "gone" });
    await testEnv.DB.prepare("update files set trashed_at = ? where id = ?").bind(Date.now(), trashed.id).run();
    expect((await get(`/api/files/${trashed.id}/download`, owner)).status).toBe(404);
    expect((await get(`/api/files/${trashed.id}/preview`, owner)).status).toBe(404);
  });
});

describe("downloading a file", () => {
  let owner: Member;
  let spaceId: string;
  let folderId: string;
  let fileId: string;

  beforeAll(async () => {
    owner = await signedInMember();
    const space = await personalSpaceOf(owner.id);
    spaceId = space.spaceId;
    folderId = space.inboxId;
    fileId = (await createFile({ spaceId, folderId, name: "digits.txt", content: CONTENT, contentType: "text/plain" })).id;
  });

  const download = () => `/api/files/${fileId}/download`;

  it("streams the whole file as an attachment with validators, nosniff and no caching", async () => {
    const response = await get(download(), owner);
    expect(response.status).toBe(200);
    expect(text(await bytesOf(response))).toBe(CONTENT);
    const headers = response.headers;
    expect(headers.get("content-disposition")).toBe(`attachment; filename="digits.txt"; filename*=UTF-8''digits.txt`);
    expect(headers.get("content-type")).toBe("text/plain");
    expect(headers.get("content-length")).toBe("20");
    expect(headers.get("accept-ranges")).toBe("bytes");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("cache-control")).toBe("private, no-store");
    expect(headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
    expect(new Date(headers.get("last-modified")!).getTime()).not.toBeNaN();
    expect(headers.get("content-security-policy")).toMatch(/^sandbox;/);
  });

  it("answers one byte range with 206 and its Content-Range", async () => {
    const response = await get(download(), owner, { Range: "bytes=2-5" });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe("bytes 2-5/20");
    expect(response.headers.get("content-length")).toBe("4");
    expect(text(await bytesOf(response))).toBe("2345");
  });

  it("answers an open-ended range with the rest of the file, clamping an end past the file", async () => {
    const open = await get(download(), owner, { Range: "bytes=15-" });
    expect(open.status).toBe(206);
    expect(open.headers.get("content-range")).toBe("bytes 15-19/20");
    expect(text(await bytesOf(open))).toBe("fghij");

    const clamped = await get(download(), owner, { Range: "bytes=18-1000" });
    expect(clamped.status).toBe(206);
    expect(clamped.headers.get("content-range")).toBe("bytes 18-19/20");
    expect(text(await bytesOf(clamped))).toBe("ij");
  });

  it("answers a suffix range with the last bytes, and the whole file when the suffix is longer", async () => {
    const suffix = await get(download(), owner, { Range: "bytes=-3" });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get("content-range")).toBe("bytes 17-19/20");
    expect(text(await bytesOf(suffix))).toBe("hij");

    const longer = await get(download(), owner, { Range: "bytes=-500" });
    expect(longer.status).toBe(206);
    expect(longer.headers.get("content-range")).toBe("bytes 0-19/20");
    expect(text(await bytesOf(longer))).toBe(CONTENT);
  });

  it("answers 416 with the file's size for a range that starts past the end or is empty", async () => {
    for (const range of ["bytes=20-", "bytes=100-200", "bytes=-0"]) {
      const response = await get(download(), owner, { Range: range });
      expect(response.status, range).toBe(416);
      expect(response.headers.get("content-range")).toBe("bytes */20");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await response.json()).toMatchObject({ code: "RANGE_NOT_SATISFIABLE" });
    }
  });

  it("serves the whole file (200) for several ranges or a Range header it cannot read", async () => {
    for (const range of ["bytes=0-1,4-5", "bytes=5-2", "items=0-3", "bytes=abc"]) {
      const response = await get(download(), owner, { Range: range });
      expect(response.status, range).toBe(200);
      expect(response.headers.get("content-range")).toBeNull();
      expect(text(await bytesOf(response))).toBe(CONTENT);
    }
  });

  it("answers 304 without a body when the client's copy is current (If-None-Match)", async () => {
    const etag = (await get(download(), owner, {}, "HEAD")).headers.get("etag")!;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const response = await get(download(), owner, { "If-None-Match": header });
      expect(response.status, header).toBe(304);
      expect(response.headers.get("etag")).toBe(etag);
      expect(await response.text()).toBe("");
    }
    expect((await get(download(), owner, { "If-None-Match": '"something-else"' })).status).toBe(200);
  });

  it("honours a range only while If-Range still names the current file", async () => {
    const etag = (await get(download(), owner, {}, "HEAD")).headers.get("etag")!;
    expect((await get(download(), owner, { Range: "bytes=0-1", "If-Range": etag })).status).toBe(206);
    const stale = await get(download(), owner, { Range: "bytes=0-1", "If-Range": '"stale"' });
    expect(stale.status).toBe(200);
    expect(text(await bytesOf(stale))).toBe(CONTENT);
  });

  it("answers HEAD with the headers and length of the whole file, without a body", async () => {
    const response = await get(download(), owner, {}, "HEAD");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe("20");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(await response.text()).toBe("");
  });

  it("names a file with accents and curly quotes in filename* (RFC 6266) with a safe ASCII fallback", async () => {
    const file = await createFile({ spaceId, folderId, name: "Résumé “final”.pdf", content: "%PDF-1.4", contentType: "application/pdf" });
    const response = await get(`/api/files/${file.id}/download`, owner);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="Resume _final_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%E2%80%9Cfinal%E2%80%9D.pdf`,
    );
    expect(response.headers.get("content-type")).toBe("application/pdf");
    await response.arrayBuffer();
  });

  it("keeps quotes, backslashes and line breaks of a name out of the header", async () => {
    const file = await createFile({ spaceId, folderId, name: 'evil"\\name\r\nX-Injected: 1.txt', content: "x" });
    const response = await get(`/api/files/${file.id}/download`, owner);
    const disposition = response.headers.get("content-disposition")!;
    expect(disposition).toBe(`attachment; filename="evilnameX-Injected: 1.txt"; filename*=UTF-8''evil%22%5CnameX-Injected%3A%201.txt`);
    expect(response.headers.get("x-injected")).toBeNull();
    await response.arrayBuffer();
  });

  it("streams a large file in ranges without changing a byte", async () => {
    const big = new Uint8Array(3 * 1024 * 1024 + 17);
    for (let index = 0; index < big.length; index++) big[index] = (index * 31 + 7) % 251;
    const file = await createFile({ spaceId, folderId, name: "big.bin", content: big, contentType: "application/octet-stream" });
    const start = 1024 * 1024 - 5;
    const response = await get(`/api/files/${file.id}/download`, owner, { Range: `bytes=${start}-${start + 1024 * 1024 - 1}` });
    expect(response.status).toBe(206);
    const body = await bytesOf(response);
    expect(body.length).toBe(1024 * 1024);
    expect(body).toEqual(big.subarray(start, start + 1024 * 1024));
    const whole = await bytesOf(await get(`/api/files/${file.id}/download`, owner));
    expect(whole).toEqual(big);
  });
});

describe("previews never run an uploaded file as a page", () => {
  let owner: Member;
  let spaceId: string;
  let folderId: string;

  beforeAll(async () => {
    owner = await signedInMember();
    const space = await personalSpaceOf(owner.id);
    spaceId = space.spaceId;
    folderId = space.inboxId;
  });

  async function preview(name: string, content: string, contentType: string, headers: Record<string, string> = {}) {
    const file = await createFile({ spaceId, folderId, name, content, contentType });
    return get(`/api/files/${file.id}/preview`, owner, headers);
  }

  function expectSandboxed(response: Response) {
    const policy = response.headers.get("content-security-policy")!;
    expect(policy.split(";").map((directive) => directive.trim())).toEqual(
      expect.arrayContaining(["sandbox", "default-src 'none'", "img-src 'self' data:", "media-src 'self'", "style-src 'unsafe-inline'"]),
    );
    expect(policy).not.toContain("allow-scripts");
    expect(policy).not.toMatch(/script-src/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
  }

  it("serves an SVG with a script as an inline image under the sandbox policy", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script><circle r="5"/></svg>`;
    const response = await preview("drawing.svg", svg, "image/svg+xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("content-disposition")).toMatch(/^inline; filename="drawing.svg"; filename\*=UTF-8''drawing.svg$/);
    expectSandboxed(response);
    expect(await response.text()).toBe(svg);
  });

  it("serves an HTML file as plain text under the sandbox policy, never as text/html", async () => {
    const html = `<!doctype html><html><body><script>fetch('/api/user')</script></body></html>`;
    const response = await preview("page.html", html, "text/html");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expectSandboxed(response);
    expect(await response.text()).toBe(html);
  });

  it("serves XHTML, XML, JavaScript and unknown types as plain text too", async () => {
    for (const type of ["application/xhtml+xml", "application/xml", "text/xml", "text/javascript", "application/octet-stream", "application/x-unknown"]) {
      const response = await preview("thing", "<x/>", type);
      expect(response.status, type).toBe(200);
      const served = response.headers.get("content-type")!;
      expect(served, type).not.toMatch(/html|xml|javascript/);
      expectSandboxed(response);
      await response.arrayBuffer();
    }
  });

  it("keeps the type of PDFs, images, video and audio, and sends text formats as UTF-8", async () => {
    const cases: [string, string][] = [
      ["application/pdf", "application/pdf"],
      ["image/png", "image/png"],
      ["video/mp4", "video/mp4"],
      ["audio/mpeg", "audio/mpeg"],
      ["text/plain", "text/plain; charset=utf-8"],
      ["text/csv", "text/csv; charset=utf-8"],
      ["text/markdown", "text/markdown; charset=utf-8"],
    ];
    for (const [sniffed, served] of cases) {
      const response = await preview("file", "data", sniffed);
      expect(response.headers.get("content-type"), sniffed).toBe(served);
      expectSandboxed(response);
      await response.arrayBuffer();
    }
  });

  it("answers ranges on previews as on downloads (what pdf.js reads page by page)", async () => {
    const response = await preview("doc.pdf", "%PDF-1.7 0123456789", "application/pdf", { Range: "bytes=0-7" });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe("bytes 0-7/19");
    expect(await response.text()).toBe("%PDF-1.7");
  });

  it("keeps the app's own policy on its other API answers", async () => {
    const response = await get("/api/health", null);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("content-security-policy")).not.toContain("sandbox");
  });
});

// ---- folder zips ----------------------------------------------------------------------------------

/** The entry names of a zip's central directory (client-zip writes Zip64 only for huge files). */
function centralDirectoryNames(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error("no end of central directory record");
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const names: string[] = [];
  for (let index = 0; index < count; index++) {
    expect(view.getUint32(offset, true)).toBe(0x02014b50);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    names.push(new TextDecoder().decode(bytes.subarray(offset + 46, offset + 46 + nameLength)));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** The stored (uncompressed) content of one entry, found through its local header. */
function entryContent(bytes: Uint8Array, wanted: string): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (view.getUint32(end, true) !== 0x06054b50) end -= 1;
  let offset = view.getUint32(end + 16, true);
  for (let index = 0; index < view.getUint16(end + 10, true); index++) {
    const size = view.getUint32(offset + 20, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const localOffset = view.getUint32(offset + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    if (name === wanted) {
      const start = localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
      return new TextDecoder().decode(bytes.subarray(start, start + size));
    }
    offset += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`no entry ${wanted}`);
}

async function newFolder(spaceId: string, parentId: string, label: string, userId: string): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date();
  await insertFolder(createDb(testEnv.DB), { id, spaceId, parentId, label, color: null, icon: null, kind: "regular", userId, now });
  return id;
}

describe("downloading a folder as a zip", () => {
  let owner: Member;
  let spaceId: string;
  let rootId: string;

  beforeAll(async () => {
    owner = await signedInMember();
    const space = await personalSpaceOf(owner.id);
    spaceId = space.spaceId;
    rootId = space.rootId;
  });

  it("streams the folder's live files and subfolders with clean, unique paths (no zip-slip)", async () => {
    const reports = await newFolder(spaceId, rootId, "Reports 2026", owner.id);
    const sneaky = await newFolder(spaceId, reports, "../../etc", owner.id);
    const dots = await newFolder(spaceId, reports, "..", owner.id);
    await newFolder(spaceId, reports, "Empty", owner.id);
    const twinA = await newFolder(spaceId, reports, "Twin", owner.id);
    const twinB = await newFolder(spaceId, reports, "twin", owner.id);
    const add = (folderId: string, name: string, content = name) => createFile({ spaceId, folderId, name, content });
    await add(reports, "summary.txt", "the summary");
    await add(reports, "summary.txt", "a second summary");
    await add(reports, "/etc/passwd");
    await add(reports, "..\\..\\evil.bat");
    await add(reports, "bell\u0007\u0000name.txt");
    await add(sneaky, "inside.txt");
    await add(dots, "..");
    await add(twinA, "a.txt");
    await add(twinB, "b.txt");
    const trashed = await add(reports, "deleted.txt");
    await testEnv.DB.prepare("update files set trashed_at = ? where id = ?").bind(Date.now(), trashed.id).run();
    const trashedFolder = await newFolder(spaceId, reports, "Old", owner.id);
    await add(trashedFolder, "old.txt");
    await testEnv.DB.prepare("update folders set trashed_at = ? where id = ?").bind(Date.now(), trashedFolder).run();

    const response = await get(`/api/zip/folders/${reports}`, owner);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="Reports 2026.zip"; filename*=UTF-8''Reports%202026.zip`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = await bytesOf(response);
    expect(response.headers.get("content-length")).toBe(String(bytes.length));

    const names = centralDirectoryNames(bytes);
    expect([...names].sort()).toEqual(
      [
        "_/",
        "_/_",
        ".._.._etc/",
        ".._.._etc/inside.txt",
        "_etc_passwd",
        ".._.._evil.bat",
        "bellname.txt",
        "Empty/",
        "summary.txt",
        "summary (2).txt",
        "Twin/",
        "Twin/a.txt",
        "twin (2)/",
        "twin (2)/b.txt",
      ].sort(),
    );
    for (const name of names) {
      expect(name.startsWith("/")).toBe(false);
      expect(name.split("/")).not.toContain("..");
      expect(name).not.toMatch(/[\u0000-\u001f\\]/);
    }
    expect([entryContent(bytes, "summary.txt"), entryContent(bytes, "summary (2).txt")].sort()).toEqual(["a second summary", "the summary"]);
    expect(entryContent(bytes, ".._.._etc/inside.txt")).toBe("inside.txt");
  });

  it("refuses a folder with more entries than the cap with 413 naming it, before streaming, and changes nothing", async () => {
    const crowded = await newFolder(spaceId, rootId, "Crowded", owner.id);
    const db = createDb(testEnv.DB);
    const now = new Date();
    const rows = Array.from({ length: ZIP_MAX_ENTRIES + 1 }, (_, index) => ({
      id: crypto.randomUUID(),
      spaceId,
      folderId: crowded,
      name: `row-${index}.txt`,
      size: 1,
      contentType: "text/plain",
      r2Key: `files/${spaceId}/${crypto.randomUUID()}`,
      createdAt: now,
      updatedAt: now,
    }));
    const perStatement = 8; // 100 bound parameters per D1 statement
    const statements = [];
    for (let index = 0; index < rows.length; index += perStatement) statements.push(db.insert(files).values(rows.slice(index, index + perStatement)));
    await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);

    const before = await snapshotDatabase();
    const response = await get(`/api/zip/folders/${crowded}`, owner);
    expect(response.status).toBe(413);
    const body = await response.json<{ code: string; message: string }>();
    expect(body.code).toBe("PAYLOAD_TOO_LARGE");
    expect(body.message).toContain(`at most ${ZIP_MAX_ENTRIES.toLocaleString("en-US")}`);
    expect(await snapshotDatabase()).toBe(before);
  });

  it("refuses a folder larger than the byte cap with 413 naming it", async () => {
    const huge = await newFolder(spaceId, rootId, "Huge", owner.id);
    const now = new Date();
    await createDb(testEnv.DB)
      .insert(files)
      .values({ id: crypto.randomUUID(), spaceId, folderId: huge, name: "disk.img", size: 5 * 1024 ** 3, contentType: "application/octet-stream", r2Key: `files/${spaceId}/${crypto.randomUUID()}`, createdAt: now, updatedAt: now })
      .run();
    const response = await get(`/api/zip/folders/${huge}`, owner);
    expect(response.status).toBe(413);
    expect((await response.json<{ message: string }>()).message).toBe(
      "This folder holds 5.0 GB; a zip download holds at most 4.0 GB. Download its subfolders one at a time.",
    );
  });

  it("checks both caps exactly at their limits", () => {
    const caps = { maxEntries: 3, maxBytes: 100 };
    expect(() => assertWithinZipCaps(3, 100, caps)).not.toThrow();
    expect(() => assertWithinZipCaps(4, 10, caps)).toThrow(/at most 3/);
    expect(() => assertWithinZipCaps(1, 101, caps)).toThrow(/at most 100 B/);
  });

  it("counts subfolders as entries when the service is given lower caps", async () => {
    const parent = await newFolder(spaceId, rootId, "Parent", owner.id);
    await newFolder(spaceId, parent, "One", owner.id);
    await newFolder(spaceId, parent, "Two", owner.id);
    await createFile({ spaceId, folderId: parent, name: "f.txt", content: "12345" });
    const ctx = testContext();
    await expect(prepareFolderZip(ctx, owner.id, parent, { maxEntries: 3, maxBytes: 5 })).resolves.toMatchObject({ fileName: "Parent.zip" });
    const refused = await prepareFolderZip(ctx, owner.id, parent, { maxEntries: 2, maxBytes: 5 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(413);
    await expect(prepareFolderZip(ctx, owner.id, parent, { maxEntries: 3, maxBytes: 4 })).rejects.toThrow(/at most 4 B/);
  });
});

describe("downloading chosen files of a folder as a zip", () => {
  it("zips only the chosen live files with clean names, refuses ids of another folder, malformed or too many, and answers outsiders 404", async () => {
    const owner = await signedInMember();
    const outsider = await signedInMember();
    const { spaceId, rootId } = await personalSpaceOf(owner.id);
    const photos = await newFolder(spaceId, rootId, "Site photos", owner.id);
    const add = (folderId: string, name: string) => createFile({ spaceId, folderId, name, content: name });
    const lobby = await add(photos, "lobby.jpg");
    const roof = await add(photos, "../../roof.jpg");
    await add(photos, "not chosen.jpg");
    const elsewhere = await add(rootId, "elsewhere.jpg");

    const path = (ids: string[]) => `/api/zip/folders/${photos}?files=${ids.join(",")}`;
    const response = await get(path([lobby.id, roof.id]), owner);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="Site photos (2 files).zip"; filename*=UTF-8''Site%20photos%20%282%20files%29.zip`);
    const bytes = await bytesOf(response);
    expect(response.headers.get("content-length")).toBe(String(bytes.length));
    expect([...centralDirectoryNames(bytes)].sort()).toEqual([".._.._roof.jpg", "lobby.jpg"]);
    expect(entryContent(bytes, "lobby.jpg")).toBe("lobby.jpg");

    // A file of another folder, even the member's own, is not taken in through this one.
    const mixed = await get(path([lobby.id, elsewhere.id]), owner);
    expect(mixed.status).toBe(404);
    expect((await mixed.json<{ message: string }>()).message).toBe("Some of the chosen files are no longer in this folder. Reload the page and choose again.");
    expect((await get(path(["not-an-id"]), owner)).status).toBe(400);
    expect((await get(path(Array.from({ length: 501 }, () => crypto.randomUUID())), owner)).status).toBe(400);
    expect((await get(`/api/zip/folders/${photos}?files=`, owner)).status).toBe(400);
    expect((await get(path([lobby.id]), outsider)).status).toBe(404);
    expect((await get(path([lobby.id]), null)).status).toBe(401);
  });
});
