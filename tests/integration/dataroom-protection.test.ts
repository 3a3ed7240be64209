import { PDFDocument, StandardFonts } from "pdf-lib";
import { hexOf, pageContents } from "./pdf-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { addDataroomMember } from "~tests/factories/datarooms";
import { withExifOrientation } from "~tests/shared/picture-fixtures";
import { createFile } from "~tests/factories/files";
import { getFilePage } from "~/features/files/content.server";
import { renderWatermarkText } from "~/features/datarooms/protection";
import { decodeImage, encodeImage } from "~/features/watermark/image-codecs.server";
import { stampPixels } from "~/features/watermark/image-stamp";
import { purgeWatermarkedCopies } from "~/features/watermark/watermark.server";
import { createServiceContext } from "~/lib/service-context.server";
import { createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv, type ErrorBody } from "./helpers";

/**
 * Watermark, download and print protection (issue 20): held by the room's authority, applied on
 * every request to everyone who cannot manage the room. The watermark is burned into the PDF the
 * server sends (its pages' content names the viewer); download protection leaves previews only.
 */

type Security = { protection: { watermark: { template: string } | null; downloadProtection: boolean; printProtection: boolean } };
type ValidationBody = ErrorBody & { fieldErrors?: Record<string, string[]> };

const WATERMARK = { template: "{{email}} {{date}} {{ip}} {{room}}", opacity: 0.25, fontSize: 16, position: "tiled" };
const MEMBER_IP = "198.51.100.23";

async function makePdf(pages: number): Promise<Uint8Array<ArrayBuffer>> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) document.addPage([595, 842]).drawText(`Board pack page ${i}`, { x: 50, y: 780, size: 18, font });
  return new Uint8Array(await document.save());
}

const setProtection = (person: Person, roomId: string, body: unknown) => send(person.client, "PUT", `/api/datarooms/${roomId}/security/protection`, body);
const fetchAs = (person: Person, path: string, headers: Record<string, string> = {}) => send(person.client, "GET", path, undefined, { "cf-connecting-ip": MEMBER_IP, ...headers });

describe("room protection", () => {
  let owner: Person;
  let member: Person;
  let admin: Person;
  let guest: Person;
  let room: { id: string; rootFolderId: string };
  let pdf: Uint8Array<ArrayBuffer>;
  let pdfId: string;
  let textId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro" });
    [member, admin, guest] = await Promise.all([signedIn({ email: `viewer-${crypto.randomUUID().slice(0, 8)}@example.com` }), signedIn(), signedIn()]);
    room = await createRoom(owner.client, "Falcon diligence");
    await addDataroomMember(room.id, member.id, "member");
    await addDataroomMember(room.id, admin.id, "admin");
    await addDataroomMember(room.id, guest.id, "guest");
    pdf = await makePdf(3);
    pdfId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "board pack.pdf", content: pdf, contentType: "application/pdf" })).id;
    textId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "notes.txt", content: "plain notes" })).id;
  });

  it("answers anonymous 401, an outsider 404 with nothing changed, a member 403, and lets an admin and the owner set it", async () => {
    const body = { watermark: null, downloadProtection: true, printProtection: false };
    const anonymous = await newAuthClient();
    expect((await send(anonymous, "PUT", `/api/datarooms/${room.id}/security/protection`, body)).status).toBe(401);
    const outsider = await signedIn();
    expect((await setProtection(outsider, room.id, body)).status).toBe(404);
    expect((await setProtection(member, room.id, body)).status).toBe(403);
    const row = await testEnv.DB.prepare("select protection from datarooms where id = ?").bind(room.id).first<{ protection: string | null }>();
    expect(row!.protection).toBeNull();
    expect((await setProtection(admin, room.id, body)).status).toBe(200);
    const saved = await setProtection(owner, room.id, { ...body, downloadProtection: false });
    expect(saved.status).toBe(200);
    expect((await saved.json<Security>()).protection).toEqual({ watermark: null, downloadProtection: false, printProtection: false });
  });

  it("explains a watermark it cannot use, on the field", async () => {
    const unknown = await setProtection(owner, room.id, { watermark: { ...WATERMARK, template: "{{email}} {{phone}}" }, downloadProtection: false, printProtection: false });
    expect(unknown.status).toBe(400);
    expect((await unknown.json<ValidationBody>()).fieldErrors?.["watermark.template"]).toEqual(["{{phone}} is not a watermark variable. Use {{email}}, {{date}}, {{time}}, {{ip}}, {{room}}."]);
    const faint = await setProtection(owner, room.id, { watermark: { ...WATERMARK, opacity: 0.01 }, downloadProtection: false, printProtection: false });
    expect((await faint.json<ValidationBody>()).fieldErrors?.["watermark.opacity"]).toEqual(["The opacity must be at least 5%."]);
  });

  it("with download protection, only the room's managers download: members view, zips are refused, and turning it off gives download back", async () => {
    expect((await setProtection(owner, room.id, { watermark: null, downloadProtection: true, printProtection: true })).status).toBe(200);
    for (const path of [`/api/files/${pdfId}/download`, `/api/zip/folders/${room.rootFolderId}`]) {
      const refused = await fetchAs(member, path);
      expect(refused.status, path).toBe(403);
      expect((await refused.json<ErrorBody>()).message).toBe("Downloading is turned off in this data room: you can view its files here, but not download them.");
    }
    const preview = await fetchAs(member, `/api/files/${pdfId}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-disposition")).toMatch(/^inline;/);
    expect(new Uint8Array(await preview.arrayBuffer())).toEqual(pdf);
    expect((await fetchAs(admin, `/api/files/${pdfId}/download`)).status).toBe(200);
    expect((await fetchAs(owner, `/api/zip/folders/${room.rootFolderId}`)).status).toBe(200);

    // The file page offers no Download and says why; print protection hides the preview from print (e2e shows the page).
    const page = await getFilePage(createServiceContext(testEnv, { requestId: "t" }), member.id, pdfId);
    expect(page).toMatchObject({ canDownload: false, protection: { watermarked: false, downloadProtected: true, printProtected: true } });
    const ownerPage = await getFilePage(createServiceContext(testEnv, { requestId: "t" }), owner.id, pdfId);
    expect(ownerPage).toMatchObject({ canDownload: true, protection: { watermarked: false, downloadProtected: false, printProtected: false } });

    expect((await setProtection(owner, room.id, { watermark: null, downloadProtection: false, printProtection: false })).status).toBe(200);
    expect((await fetchAs(member, `/api/files/${pdfId}/download`)).status).toBe(200);
    const log = await (await get(`/api/datarooms/${room.id}/audit?action=access.refused`, owner.client)).json<{ entries: { detail: string }[] }>();
    expect(log.entries.map((entry) => entry.detail)).toContain("Downloading is turned off in this data room: you can view its files here, but not download them.");
  });

  it("burns the viewer's e-mail, address and the room into every PDF page the server sends them, and the owner sees the original", async () => {
    expect((await setProtection(owner, room.id, { watermark: WATERMARK, downloadProtection: false, printProtection: false })).status).toBe(200);
    const head = await send(member.client, "HEAD", `/api/files/${pdfId}/preview`, undefined, { "cf-connecting-ip": MEMBER_IP });
    expect(head.status).toBe(200);
    const size = Number(head.headers.get("content-length"));

    const preview = await fetchAs(member, `/api/files/${pdfId}/preview`);
    expect(preview.status).toBe(200);
    const stamped = new Uint8Array(await preview.arrayBuffer());
    expect(stamped.byteLength).toBe(size);
    expect(stamped).not.toEqual(pdf);
    const pages = await pageContents(stamped);
    expect(pages).toHaveLength(3);
    for (const content of pages) {
      expect(content).toContain(hexOf(member.email));
      expect(content).toContain(hexOf(MEMBER_IP));
      expect(content).toContain(hexOf("Falcon diligence"));
    }
    // pdf.js reads by ranges: every range is a slice of the same stamped copy, made once.
    const range = await fetchAs(member, `/api/files/${pdfId}/preview`, { range: "bytes=100-299" });
    expect(range.status).toBe(206);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(stamped.slice(100, 300));
    const copies = await testEnv.FILES.list({ prefix: `watermarked/${room.id}/` });
    expect(copies.objects).toHaveLength(1);

    // A download the member may make is stamped too; the owner's is the original.
    const download = new Uint8Array(await (await fetchAs(member, `/api/files/${pdfId}/download`)).arrayBuffer());
    expect(download).toEqual(stamped);
    expect(new Uint8Array(await (await fetchAs(owner, `/api/files/${pdfId}/preview`)).arrayBuffer())).toEqual(pdf);

    // Another viewer gets their own copy, naming them.
    const guestPages = await pageContents(new Uint8Array(await (await fetchAs(guest, `/api/files/${pdfId}/preview`)).arrayBuffer()));
    expect(guestPages[0]).toContain(hexOf(guest.email));
    expect(guestPages[0]).not.toContain(hexOf(member.email));

    const log = await (await get(`/api/datarooms/${room.id}/audit?action=file.view`, owner.client)).json<{ entries: { actorEmail: string; detail: string | null }[] }>();
    expect(log.entries.find((entry) => entry.actorEmail === member.email)?.detail).toBe("watermarked copy");
  });

  it("draws the viewer's watermark into the pixels of PNG and JPEG images the server sends them", async () => {
    const white = () => ({ data: new Uint8ClampedArray(240 * 160 * 4).fill(255), width: 240, height: 160, colorSpace: "srgb" }) as ImageData;
    const png = await encodeImage(white(), "image/png");
    const pngId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "site plan.png", content: png, contentType: "image/png" })).id;
    const served = await fetchAs(member, `/api/files/${pngId}/preview`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    const pixels = await decodeImage(new Uint8Array(await served.arrayBuffer()), "image/png");

    // Exactly the member's text, drawn where the layout puts it: PNG is lossless, so every pixel matches.
    const expected = white();
    const text = renderWatermarkText(WATERMARK.template, { email: member.email, date: new Date().toISOString().slice(0, 10), time: "", ip: MEMBER_IP, room: "Falcon diligence" });
    stampPixels(expected, text, { ...WATERMARK, position: "tiled" });
    expect(Buffer.from(pixels.data).equals(Buffer.from(expected.data))).toBe(true);
    const marked = [...pixels.data].filter((value, i) => i % 4 === 0 && value < 255).length;
    expect(marked).toBeGreaterThan(500);
    // The owner gets the original bytes.
    expect(new Uint8Array(await (await fetchAs(owner, `/api/files/${pngId}/preview`)).arrayBuffer())).toEqual(png);

    const jpeg = await encodeImage(white(), "image/jpeg");
    const jpegId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "photo.jpg", content: jpeg, contentType: "image/jpeg" })).id;
    const jpegPixels = await decodeImage(new Uint8Array(await (await fetchAs(member, `/api/files/${jpegId}/preview`)).arrayBuffer()), "image/jpeg");
    expect([...jpegPixels.data].filter((value, i) => i % 4 === 0 && value < 235).length).toBeGreaterThan(500);

    // A phone photo stored sideways (EXIF orientation 6) is stamped as it is shown: upright, 160 × 240.
    const turned = withExifOrientation(await encodeImage(white(), "image/jpeg"), 6);
    const turnedId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "phone.jpg", content: turned, contentType: "image/jpeg" })).id;
    const turnedPixels = await decodeImage(new Uint8Array(await (await fetchAs(member, `/api/files/${turnedId}/preview`)).arrayBuffer()), "image/jpeg");
    expect({ width: turnedPixels.width, height: turnedPixels.height }).toEqual({ width: 160, height: 240 });
  });

  it("while watermarking is on, shows nothing that cannot carry the mark and refuses zips; the original downloads only where download is allowed", async () => {
    const preview = await fetchAs(member, `/api/files/${textId}/preview`);
    expect(preview.status).toBe(403);
    expect((await preview.json<ErrorBody>()).message).toBe(
      "This data room's watermarking is on, and only PDFs, JPEG and PNG images can carry the watermark, so this file cannot be shown here. Download it if your permissions allow it.",
    );
    expect(await (await fetchAs(member, `/api/files/${textId}/download`)).text()).toBe("plain notes");
    expect((await fetchAs(guest, `/api/files/${textId}/download`)).status).toBe(403);
    const zip = await fetchAs(member, `/api/zip/folders/${room.rootFolderId}`);
    expect(zip.status).toBe(403);
    expect((await zip.json<ErrorBody>()).message).toMatch(/^Folder downloads are off while this data room's watermarking is on/);
    expect((await fetchAs(owner, `/api/files/${textId}/preview`)).status).toBe(200);
  });

  it("names the plan that has a setting when the owner's plan lacks it, and turning a setting off is always allowed", async () => {
    const freeOwner = await signedIn();
    const freeRoom = await createRoom(freeOwner.client, "Free room");
    const refused = await setProtection(freeOwner, freeRoom.id, { watermark: WATERMARK, downloadProtection: false, printProtection: false });
    expect(refused.status).toBe(403);
    expect((await refused.json<ErrorBody>()).message).toBe("You don't have the required feature: watermarking. It is part of the Pro plan and above.");
    const download = await setProtection(freeOwner, freeRoom.id, { watermark: null, downloadProtection: true, printProtection: false });
    expect((await download.json<ErrorBody>()).message).toBe("You don't have the required feature: download_protection. It is part of the Basic plan and above.");
    expect((await setProtection(freeOwner, freeRoom.id, { watermark: null, downloadProtection: false, printProtection: false })).status).toBe(200);
  });

  it("the nightly purge deletes watermarked copies older than two days and keeps fresh ones", async () => {
    const before = (await testEnv.FILES.list({ prefix: "watermarked/" })).objects.length;
    expect(before).toBeGreaterThan(0);
    expect(await purgeWatermarkedCopies(createServiceContext(testEnv, { requestId: "t" }))).toBe(0);
    const later = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);
    expect(await purgeWatermarkedCopies(createServiceContext(testEnv, { requestId: "t", now: () => later }))).toBe(before);
    expect((await testEnv.FILES.list({ prefix: "watermarked/" })).objects).toHaveLength(0);
  });
});
