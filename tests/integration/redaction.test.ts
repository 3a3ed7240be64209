import { describe, expect, it } from "vitest";
import { checkRedaction } from "~/features/redaction/check-redaction.server";
import { redactionEngine } from "~/features/redaction/redaction-engine.server";
import { findMatches, REDACTION_PRESETS, type TextLayerPage } from "~/features/redaction/text-layer";
import { EMAIL_MARK, FIXTURE_LINES, redactionFixture } from "~tests/shared/redaction-fixtures";
import { noisePixels, withExifOrientation } from "~tests/shared/picture-fixtures";
import { jpegOrientation } from "~/lib/picture-header";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, personalSpaceOf } from "~tests/factories/files";
import { countWhere, createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv } from "./helpers";

/**
 * Redaction (issue 39, step 1): the engine Worker reached through the app's service binding, and
 * the app's own check of its result with a second PDF reader.
 */
describe("the redaction engine behind the REDACTOR binding", () => {
  it("returns a PDF whose text under the mark is gone, which the app's own check passes, and the same check catches the original", async () => {
    const original = await redactionFixture({ pages: 3 });
    const result = await redactionEngine(testEnv).redact({ pdf: original, marks: [EMAIL_MARK(2)] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const checked = await checkRedaction(result.bytes, result.rects, result.removedText, result.pageTexts);
    expect(checked).toMatchObject({ passed: true, pagesWithTextUnderMarks: [], stringsFoundInBytes: [] });
    // The marked address is nowhere in the bytes, in any encoding the check knows.
    const raw = new TextDecoder("latin1").decode(result.bytes);
    expect(raw).not.toContain(FIXTURE_LINES.email(3));
    // The check is not blind: the original, with the same marks, fails it on that page.
    const unredacted = await checkRedaction(original, result.rects, result.removedText, result.pageTexts);
    expect(unredacted.passed).toBe(false);
    expect(unredacted.pagesWithTextUnderMarks).toEqual([2]);
    // And the words themselves, hidden in the bytes where no text layer shows them (here as hex in a
    // comment after the end of the file), fail the byte check.
    const hexEmail = [...new TextEncoder().encode(FIXTURE_LINES.email(3))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    const smuggled = new Uint8Array([...result.bytes, ...new TextEncoder().encode(`\n%<${hexEmail}>\n`)]);
    expect((await checkRedaction(smuggled, result.rects, result.removedText, result.pageTexts)).stringsFoundInBytes).toContain(FIXTURE_LINES.email(3));
    // Or inside a compressed stream that follows another one (each stream is inflated and read).
    const deflated = async (text: string) => new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
    const streamObject = async (id: number, text: string) => {
      const body = await deflated(text);
      return [...new TextEncoder().encode(`\n${id} 0 obj\n<< /Length ${body.byteLength} /Filter /FlateDecode >>\nstream\n`), ...body, ...new TextEncoder().encode("\nendstream\nendobj\n")];
    };
    const hidden = new Uint8Array([...result.bytes, ...(await streamObject(90, "BT (nothing here) Tj ET")), ...(await streamObject(91, `BT (${FIXTURE_LINES.email(3)}) Tj ET`))]);
    expect((await checkRedaction(hidden, result.rects, result.removedText, result.pageTexts)).stringsFoundInBytes).toContain(FIXTURE_LINES.email(3));
  });

  it("says which words under a mark are still elsewhere in the document, and answers a file that is not a PDF with the reason", async () => {
    const original = await redactionFixture({ pages: 2 });
    const result = await redactionEngine(testEnv).redact({ pdf: original, marks: [{ page: 0, x: 0.1, y: (792 - 672) / 792, w: 0.5, h: 16 / 792 }] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const checked = await checkRedaction(result.bytes, result.rects, result.removedText, result.pageTexts);
    expect(checked.passed).toBe(true);
    expect(checked.alsoElsewhere).toEqual(expect.arrayContaining(["keep", "sentence", "visible."]));
    expect(await redactionEngine(testEnv).redact({ pdf: new TextEncoder().encode("hello"), marks: [] })).toEqual({ ok: false, reason: "This file could not be read as a PDF, so nothing in it can be redacted." });
  });
});

type Outcome = { file: { id: string; version: number }; report: { marks: number; charactersRemoved: number; marksPerPage: Record<string, number>; check: { passed: boolean } } };

async function pdfFile(owner: Person, spaceId?: string, folderId?: string) {
  const space = spaceId ? { spaceId, rootId: folderId! } : await personalSpaceOf(owner.id);
  return createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "Term sheet.pdf", content: await redactionFixture({ pages: 3 }), contentType: "application/pdf", uploadedBy: owner.id });
}

const versionOf = (fileId: string) => testEnv.DB.prepare("select version, r2_key as r2Key from files where id = ?").bind(fileId).first<{ version: number; r2Key: string }>();

describe("applying redaction to a file", () => {
  it("makes the redacted PDF the file's new version, keeps the original as the previous one, and serves only the redacted one", async () => {
    const owner = await signedIn({ tier: "pro", name: "Rhea Redactor" });
    const file = await pdfFile(owner);
    const response = await send(owner.client, "POST", `/api/files/${file.id}/redact`, { version: 1, marks: [EMAIL_MARK(1), EMAIL_MARK(2)] });
    expect(response.status, await response.clone().text()).toBe(200);
    const outcome = await response.json<Outcome>();
    expect(outcome.file).toMatchObject({ id: file.id, version: 2 });
    expect(outcome.report).toMatchObject({ marks: 2, marksPerPage: { "1": 1, "2": 1 }, check: { passed: true } });
    expect(outcome.report.charactersRemoved).toBeGreaterThan(40);

    const served = new Uint8Array(await (await get(`/api/files/${file.id}/download`, owner.client)).arrayBuffer());
    const { PDF } = await import("@libpdf/core");
    const pages = (await PDF.load(served)).extractText().map((page) => page.text);
    expect(pages[0]).toContain(FIXTURE_LINES.email(1));
    expect(pages[1]).not.toContain(FIXTURE_LINES.email(2));
    expect(pages[2]).not.toContain(FIXTURE_LINES.email(3));
    expect(pages[2]).toContain(FIXTURE_LINES.keep);
    // The original is the previous version (not served by any route), and the report is kept with version 2.
    expect(await countWhere("select count(*) as n from file_versions where file_id = ? and version = 1", file.id)).toBe(1);
    expect(await countWhere("select count(*) as n from file_redactions where file_id = ? and version = 2", file.id)).toBe(1);
    // People who may redact can still download the original, as version 1.
    const earlier = await testEnv.DB.prepare("select id from file_versions where file_id = ? and version = 1").bind(file.id).first<{ id: string }>();
    const original = await get(`/api/files/${file.id}/versions/${earlier!.id}/download`, owner.client);
    expect(original.status).toBe(200);
    expect(original.headers.get("content-disposition")).toContain("Term sheet (version 1).pdf");
    const originalText = (await PDF.load(new Uint8Array(await original.arrayBuffer()))).extractText().map((page) => page.text);
    expect(originalText[1]).toContain(FIXTURE_LINES.email(2));
    expect((await get(`/api/files/${file.id}/versions/${crypto.randomUUID()}/download`, owner.client)).status).toBe(404);
    // Marks made on version 1 are refused now that the file is at version 2.
    const stale = await send(owner.client, "POST", `/api/files/${file.id}/redact`, { version: 1, marks: [EMAIL_MARK(0)] });
    expect(stale.status).toBe(409);
    expect((await stale.json<{ message: string }>()).message).toBe("“Term sheet.pdf” changed since you marked it (it is now version 2). Open it again and mark it again.");
  });

  it("flattens the marked pages to pictures when the member chooses it: no text left on them, the rest kept", async () => {
    const owner = await signedIn({ tier: "pro" });
    const file = await pdfFile(owner);
    const response = await send(owner.client, "POST", `/api/files/${file.id}/redact`, { version: 1, flatten: true, marks: [EMAIL_MARK(1)] });
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await response.json<{ report: { flattenedPages: number[] } }>()).report.flattenedPages).toEqual([1]);
    const { PDF } = await import("@libpdf/core");
    const pages = (await PDF.load(new Uint8Array(await (await get(`/api/files/${file.id}/download`, owner.client)).arrayBuffer()))).extractText().map((page) => page.text.trim());
    expect(pages[1]).toBe("");
    expect(pages[0]).toContain(FIXTURE_LINES.email(1));
    expect(pages[2]).toContain(FIXTURE_LINES.keep);
  });

  it("refuses what it cannot redact with a reason and writes no version: not a PDF, a broken PDF, marks off the page", async () => {
    const owner = await signedIn({ tier: "pro" });
    const space = await personalSpaceOf(owner.id);
    const text = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "notes.txt", content: "secret", contentType: "text/plain", uploadedBy: owner.id });
    expect((await send(owner.client, "POST", `/api/files/${text.id}/redact`, { version: 1, marks: [EMAIL_MARK(0)] })).status).toBe(415);
    const broken = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "broken.pdf", content: "%PDF-1.7 nothing else", contentType: "application/pdf", uploadedBy: owner.id });
    const refused = await send(owner.client, "POST", `/api/files/${broken.id}/redact`, { version: 1, marks: [EMAIL_MARK(0)] });
    expect(refused.status).toBe(422);
    expect((await refused.json<{ message: string }>()).message).toBe("“broken.pdf” could not be redacted: This file could not be read as a PDF, so nothing in it can be redacted.");
    const pdf = await pdfFile(owner);
    const offPage = await send(owner.client, "POST", `/api/files/${pdf.id}/redact`, { version: 1, marks: [{ page: 0, x: 0.9, y: 0.5, w: 0.5, h: 0.1 }] });
    expect(offPage.status).toBe(400);
    expect((await send(owner.client, "POST", `/api/files/${pdf.id}/redact`, { version: 1, marks: [] })).status).toBe(400);
    expect((await send(owner.client, "POST", `/api/files/${pdf.id}/redact`, { version: 1, marks: [EMAIL_MARK(7)] })).status).toBe(422);
    for (const id of [broken.id, pdf.id]) expect(await versionOf(id)).toMatchObject({ version: 1 });
    expect(await countWhere("select count(*) as n from file_versions where file_id in (?, ?)", broken.id, pdf.id)).toBe(0);
  });

  it("answers anonymous 401, an outsider 404 with nothing changed, a room member without the redact permission 403, and the room's owner with an audit entry; the same for the original and the text layer", async () => {
    const owner = await signedIn({ tier: "pro", name: "Room Owner" });
    const member = await signedIn({ name: "Plain Member" });
    const outsider = await signedIn({ name: "Outsider" });
    const room = await createRoom(owner.client, "Redaction room");
    await addDataroomMember(room.id, member.id, "member");
    const file = await pdfFile(owner, room.id, room.rootFolderId);
    const body = { version: 1, marks: [EMAIL_MARK(0)] };
    expect((await send(await newAuthClient(), "POST", `/api/files/${file.id}/redact`, body)).status).toBe(401);
    expect((await send(outsider.client, "POST", `/api/files/${file.id}/redact`, body)).status).toBe(404);
    const forbidden = await send(member.client, "POST", `/api/files/${file.id}/redact`, body);
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json<{ message: string }>()).message).toBe("You don't have permission to redact documents in this data room.");
    expect(await versionOf(file.id)).toMatchObject({ version: 1, r2Key: file.r2Key });
    expect((await send(owner.client, "POST", `/api/files/${file.id}/redact`, body)).status).toBe(200);
    // The original (version 1) is for people who may redact: the member without it gets 403, an outsider 404.
    const earlier = await testEnv.DB.prepare("select id from file_versions where file_id = ? and version = 1").bind(file.id).first<{ id: string }>();
    const versionPath = `/api/files/${file.id}/versions/${earlier!.id}/download`;
    expect((await get(versionPath, member.client)).status).toBe(403);
    expect((await get(versionPath, outsider.client)).status).toBe(404);
    expect((await get(versionPath)).status).toBe(401);
    expect((await get(versionPath, owner.client)).status).toBe(200);
    // The text layer the marking page searches: the same people only.
    const layerPath = `/api/files/${file.id}/text-layer`;
    expect((await get(layerPath)).status).toBe(401);
    expect((await get(layerPath, outsider.client)).status).toBe(404);
    expect((await get(layerPath, member.client)).status).toBe(403);
    const layer = await get(layerPath, owner.client);
    expect(layer.status).toBe(200);
    expect((await layer.json<{ version: number; pages: { text: string }[] }>()).pages[1]!.text).toContain(FIXTURE_LINES.email(2));
    await testEnv.DATA_ROOM.getByName(room.id).flushAudit();
    expect(await countWhere("select count(*) as n from dataroom_audit_log where dataroom_id = ? and action = 'file.redact'", room.id)).toBe(1);
  });
});

describe("redacting a picture", () => {
  const pictureIn = async (bytes: Uint8Array, format: "image/png" | "image/webp") => {
    const result = await testEnv.IMAGES.input(new Blob([bytes.slice()]).stream()).output({ format });
    return new Uint8Array(await new Response(result.image()).arrayBuffer());
  };

  it("paints each mark black into a JPEG's pixels as a new version, leaves the rest, and keeps marks on page 1", async () => {
    const owner = await signedIn({ tier: "pro" });
    const space = await personalSpaceOf(owner.id);
    const { decodeImage, encodeImage } = await import("~/features/watermark/image-codecs.server");
    const photo = await encodeImage(noisePixels(160, 120), "image/jpeg");
    const file = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "passport.jpg", content: photo, contentType: "image/jpeg", uploadedBy: owner.id });
    // The left half, on the picture's only page.
    const response = await send(owner.client, "POST", `/api/files/${file.id}/redact`, { version: 1, marks: [{ page: 0, x: 0, y: 0, w: 0.5, h: 1 }] });
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await response.json<{ report: { pixelsCleared: number } }>()).report.pixelsCleared).toBe(80 * 120);
    const served = new Uint8Array(await (await get(`/api/files/${file.id}/download`, owner.client)).arrayBuffer());
    const image = await decodeImage(served, "image/jpeg");
    const channel = (x: number, y: number) => image.data[(y * 160 + x) * 4]!;
    // Inside the mark (away from its edge, where JPEG's 8-pixel blocks blend): black.
    for (let y = 0; y < 120; y += 1) for (let x = 0; x < 72; x += 1) expect(channel(x, y)).toBeLessThan(12);
    const outside = new Set<number>();
    for (let y = 0; y < 120; y += 1) for (let x = 88; x < 160; x += 1) outside.add(channel(x, y));
    expect(outside.size).toBeGreaterThan(50);
    expect(await versionOf(file.id)).toMatchObject({ version: 2 });
    const secondPage = await send(owner.client, "POST", `/api/files/${file.id}/redact`, { version: 2, marks: [{ page: 1, x: 0, y: 0, w: 0.5, h: 0.5 }] });
    expect(secondPage.status).toBe(400);
  });

  it("marks a phone photo where it is shown: a JPEG whose EXIF says it is turned is redacted upright and saved upright, without the EXIF", async () => {
    const owner = await signedIn({ tier: "pro" });
    const space = await personalSpaceOf(owner.id);
    const { decodeImage, encodeImage } = await import("~/features/watermark/image-codecs.server");
    // Stored 160 wide and 120 high; orientation 6 tells the browser to turn it a quarter clockwise (120 × 160).
    const stored = withExifOrientation(await encodeImage(noisePixels(160, 120), "image/jpeg"), 6);
    const file = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "phone.jpg", content: stored, contentType: "image/jpeg", uploadedBy: owner.id });
    // The top half of the picture as shown.
    const response = await send(owner.client, "POST", `/api/files/${file.id}/redact`, { version: 1, marks: [{ page: 0, x: 0, y: 0, w: 1, h: 0.5 }] });
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await response.json<{ report: { pixelsCleared: number } }>()).report.pixelsCleared).toBe(120 * 80);
    const served = new Uint8Array(await (await get(`/api/files/${file.id}/download`, owner.client)).arrayBuffer());
    expect(jpegOrientation(served)).toBe(1);
    const image = await decodeImage(served, "image/jpeg");
    expect({ width: image.width, height: image.height }).toEqual({ width: 120, height: 160 });
    const channel = (x: number, y: number) => image.data[(y * 120 + x) * 4]!;
    for (let y = 0; y < 72; y += 1) for (let x = 0; x < 120; x += 1) expect(channel(x, y)).toBeLessThan(12);
    const below = new Set<number>();
    for (let y = 88; y < 160; y += 1) for (let x = 0; x < 120; x += 1) below.add(channel(x, y));
    expect(below.size).toBeGreaterThan(50);
  });

  it("redacts a WebP and keeps it a WebP, refuses an animated one and one that is not a picture, and writes no version for either", async () => {
    const owner = await signedIn({ tier: "pro" });
    const space = await personalSpaceOf(owner.id);
    const { decodeImage, encodeImage } = await import("~/features/watermark/image-codecs.server");
    const webpBytes = await pictureIn(await encodeImage(noisePixels(160, 120), "image/png"), "image/webp");
    const file = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "scan.webp", content: webpBytes, contentType: "image/webp", uploadedBy: owner.id });
    const response = await send(owner.client, "POST", `/api/files/${file.id}/redact`, { version: 1, marks: [{ page: 0, x: 0.25, y: 0.25, w: 0.5, h: 0.5 }] });
    expect(response.status, await response.clone().text()).toBe(200);
    const download = await get(`/api/files/${file.id}/download`, owner.client);
    const served = new Uint8Array(await download.arrayBuffer());
    expect(new TextDecoder().decode(served.subarray(8, 12))).toBe("WEBP");
    const image = await decodeImage(await pictureIn(served, "image/png"), "image/png");
    const brightest = (left: number, top: number, right: number, bottom: number) => {
      let max = 0;
      for (let y = top; y < bottom; y += 1) for (let x = left; x < right; x += 1) max = Math.max(max, image.data[(y * 160 + x) * 4]!);
      return max;
    };
    // Under the mark (2 px in from its edge): dark, whatever WebP's codec did at the edge. Outside: the noise.
    expect(brightest(42, 32, 118, 88)).toBeLessThanOrEqual(48);
    expect(brightest(0, 0, 160, 24)).toBeGreaterThan(200);
    expect(await versionOf(file.id)).toMatchObject({ version: 2 });

    const animatedHeader = new Uint8Array([...new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8X"), 10, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const animated = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "wave.webp", content: animatedHeader, contentType: "image/webp", uploadedBy: owner.id });
    const refused = await send(owner.client, "POST", `/api/files/${animated.id}/redact`, { version: 1, marks: [{ page: 0, x: 0, y: 0, w: 0.5, h: 0.5 }] });
    expect(refused.status).toBe(415);
    expect((await refused.json<{ message: string }>()).message).toBe("“wave.webp” is an animated WebP; only still pictures can be redacted. Save the frame you need as PNG or JPEG and upload that.");
    const broken = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "broken.webp", content: "RIFF....WEBP", contentType: "image/webp", uploadedBy: owner.id });
    const unreadable = await send(owner.client, "POST", `/api/files/${broken.id}/redact`, { version: 1, marks: [{ page: 0, x: 0, y: 0, w: 0.5, h: 0.5 }] });
    expect(unreadable.status).toBe(422);
    expect((await unreadable.json<{ message: string }>()).message).toBe("“broken.webp” could not be read as a picture, so nothing in it can be redacted.");
    for (const id of [animated.id, broken.id]) expect(await versionOf(id)).toMatchObject({ version: 1 });
  });
});

describe("marks from the search on turned and cropped pages", () => {
  for (const rotation of [0, 90, 180, 270]) {
    it(`finds an address on a page turned ${rotation}° with a crop box, and the mark made from the match removes it`, async () => {
      const owner = await signedIn({ tier: "pro" });
      const space = await personalSpaceOf(owner.id);
      const { PDFDocument, StandardFonts, degrees } = await import("pdf-lib");
      const document = await PDFDocument.create();
      const font = await document.embedFont(StandardFonts.Helvetica);
      const page = document.addPage([612, 792]);
      page.drawText("Write to turned@example.com now", { x: 100, y: 600, size: 12, font });
      page.drawText("This line stays.", { x: 100, y: 300, size: 12, font });
      page.setCropBox(36, 36, 540, 720);
      page.setRotation(degrees(rotation));
      const file = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: `turned ${rotation}.pdf`, content: new Uint8Array(await document.save()), contentType: "application/pdf", uploadedBy: owner.id });
      const { pages } = await (await get(`/api/files/${file.id}/text-layer`, owner.client)).json<{ pages: TextLayerPage[] }>();
      const [match] = findMatches(pages, new RegExp(REDACTION_PRESETS.email.pattern, "gu"));
      expect(match?.text).toBe("turned@example.com");
      const response = await send(owner.client, "POST", `/api/files/${file.id}/redact`, { version: 1, marks: match!.rects });
      expect(response.status, await response.clone().text()).toBe(200);
      const { PDF } = await import("@libpdf/core");
      const [text] = (await PDF.load(new Uint8Array(await (await get(`/api/files/${file.id}/download`, owner.client)).arrayBuffer()))).extractText().map((one) => one.text);
      expect(text).not.toContain("turned@example.com");
      expect(text).toContain("This line stays.");
      expect(text).toContain("Write to");
    });
  }
});
