import { describe, expect, it } from "vitest";
import { derivedKey } from "~/features/files/derived-objects";
import { encryptedSize, isEncryptedKey } from "~/features/files/encryption-format";
import { removeObjects } from "~/features/files/trash.server";
import { getFolderGallery } from "~/features/galleries/folder-gallery.server";
import { derivativesJob } from "~/features/galleries/galleries.jobs";
import { decodeImage, encodeImage } from "~/features/watermark/image-codecs.server";
import { createServiceContext } from "~/lib/service-context.server";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, personalSpaceOf } from "~tests/factories/files";
import { noisePixels, withExif } from "~tests/shared/picture-fixtures";
import { countWhere, createRoom, get, send, signedIn } from "./dataroom-helpers";
import { testEnv } from "./helpers";
import { upload } from "./tus-helpers";

/**
 * Galleries, step 1 (issue 40): a picture's thumbnail and screen size made by a job through
 * Cloudflare Images (upright, never enlarged, once per stored object), its EXIF kept, served to
 * who may view the file, stamped where a room's watermark applies, and deleted with the picture.
 */
const runJob = (fileId: string, sourceKey: string) => derivativesJob.run({ ...createServiceContext(testEnv, { requestId: "galleries" }), jobId: `galleries.derivatives:${sourceKey}` }, { fileId, sourceKey });
const mediaItem = (sourceKey: string) => testEnv.DB.prepare("select * from media_items where source_key = ?").bind(sourceKey).first<Record<string, unknown>>();
const fileRow = (id: string) => testEnv.DB.prepare("select r2_key as r2Key, version from files where id = ?").bind(id).first<{ r2Key: string; version: number }>();

async function phonePhoto(): Promise<Uint8Array<ArrayBuffer>> {
  // Stored 640 × 480, shown turned a quarter (480 × 640), as a phone writes it.
  const jpeg = await encodeImage(noisePixels(640, 480), "image/jpeg");
  return withExif(jpeg, { orientation: 6, make: "Canon", model: "Canon EOS R6", takenAt: "2026:05:14 09:30:00", latitude: 48.8584, longitude: 2.2945 });
}

describe("a picture's derivatives", () => {
  it("are made once after the upload, upright and never enlarged, with the picture's date, camera and place, however often the job is delivered", async () => {
    const owner = await signedIn({ tier: "pro" });
    const space = await personalSpaceOf(owner.id);
    const fileId = await upload(owner.client, space.rootId, "tower.jpg", await phonePhoto());
    const { r2Key } = (await fileRow(fileId))!;
    // The upload asked for them, once.
    expect(await countWhere("select count(*) as n from jobs where id = ?", `galleries.derivatives:${r2Key}`)).toBe(1);

    expect(await runJob(fileId, r2Key)).toMatchObject({ successCount: 1, failureCount: 0 });
    const first = await testEnv.FILES.head(derivedKey(r2Key, "thumb"));
    expect(await runJob(fileId, r2Key)).toMatchObject({ successCount: 1, failureCount: 0 });
    expect((await testEnv.FILES.head(derivedKey(r2Key, "thumb")))?.uploaded.getTime()).toBe(first?.uploaded.getTime());
    expect(await countWhere("select count(*) as n from media_items where file_id = ?", fileId)).toBe(1);

    const item = (await mediaItem(r2Key))!;
    expect(item).toMatchObject({ status: "ready", width: 480, height: 640, camera: "Canon EOS R6", taken_at: "2026:05:14 09:30:00", taken_at_ms: Date.UTC(2026, 4, 14, 9, 30, 0) });
    expect(item.latitude as number).toBeCloseTo(48.8584, 3);
    expect(item.longitude as number).toBeCloseTo(2.2945, 3);
    const thumb = new Uint8Array(await (await testEnv.FILES.get(derivedKey(r2Key, "thumb")))!.arrayBuffer());
    const shown = await decodeImage(thumb, "image/jpeg");
    expect({ width: shown.width, height: shown.height }).toEqual({ width: 360, height: 480 });
    expect(item.thumb_bytes).toBe(thumb.byteLength);
  });

  it("are not made for what is not a picture, and a picture that cannot be read is kept as failed with the reason", async () => {
    const owner = await signedIn({ tier: "pro" });
    const space = await personalSpaceOf(owner.id);
    const notes = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "notes.txt", uploadedBy: owner.id });
    expect(await runJob(notes.id, notes.r2Key)).toMatchObject({ successCount: 1 });
    expect(await mediaItem(notes.r2Key)).toBeNull();
    const broken = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "broken.jpg", content: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), contentType: "image/jpeg", uploadedBy: owner.id });
    expect(await runJob(broken.id, broken.r2Key)).toMatchObject({ successCount: 0, failureCount: 1 });
    expect(await mediaItem(broken.r2Key)).toMatchObject({ status: "failed" });
    const answer = await get(`/api/files/${broken.id}/image/thumb`, owner.client);
    expect(answer.status).toBe(422);
    expect((await answer.json<{ message: string }>()).message).toMatch(/^No thumbnail could be made of “broken\.jpg”: /);
    expect(await testEnv.FILES.head(derivedKey(broken.r2Key, "thumb"))).toBeNull();
  });
});

describe("GET /api/files/{id}/image/{size}", () => {
  it("answers anonymous 401 and an outsider 404, asks for missing derivatives, and gives the owner a picture cacheable for a year at its version", async () => {
    const owner = await signedIn({ tier: "pro" });
    const outsider = await signedIn({ tier: "pro" });
    const space = await personalSpaceOf(owner.id);
    const photo = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "tower.jpg", content: await phonePhoto(), contentType: "image/jpeg", uploadedBy: owner.id });
    const path = `/api/files/${photo.id}/image/thumb`;
    expect((await get(path)).status).toBe(401);
    expect((await get(path, outsider.client)).status).toBe(404);
    expect(await countWhere("select count(*) as n from jobs where id = ?", `galleries.derivatives:${photo.r2Key}`)).toBe(0);

    // Made nowhere yet (a copy, a file from before galleries): the owner's request asks for them.
    const early = await get(path, owner.client);
    expect(early.status).toBe(404);
    expect((await early.json<{ message: string }>()).message).toBe("The thumbnail of “tower.jpg” is still being made. Try again in a moment.");
    expect(await countWhere("select count(*) as n from jobs where id = ?", `galleries.derivatives:${photo.r2Key}`)).toBe(1);
    await runJob(photo.id, photo.r2Key);

    const answer = await get(`${path}?v=1`, owner.client);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("image/jpeg");
    expect(answer.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect(bytes.byteLength).toBe(Number(answer.headers.get("content-length")));
    // Without the version (or with an old one) it is revalidated by its ETag.
    const plain = await get(path, owner.client);
    expect(plain.headers.get("cache-control")).toBe("private, no-cache");
    const again = await send(owner.client, "GET", path, undefined, { "if-none-match": plain.headers.get("etag")! });
    expect(again.status).toBe(304);
    const screen = await get(`/api/files/${photo.id}/image/screen?v=1`, owner.client);
    expect(screen.status).toBe(200);
    expect(Number(screen.headers.get("content-length"))).toBeGreaterThan(bytes.byteLength);
    expect((await get(`/api/files/${photo.id}/image/huge`, owner.client)).status).toBe(404);

    const notes = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "notes.txt", uploadedBy: owner.id });
    expect((await get(`/api/files/${notes.id}/image/thumb`, owner.client)).status).toBe(415);
  });

  it("in a data room: a member without the view permission 403, a guest their own watermarked copy, and the derivatives go with the picture", async () => {
    const owner = await signedIn({ tier: "business" });
    const guest = await signedIn({ tier: "free", email: `guest-${crypto.randomUUID().slice(0, 8)}@example.com` });
    const blind = await signedIn({ tier: "free" });
    const room = await createRoom(owner.client, "Site photos");
    await addDataroomMember(room.id, guest.id, "guest");
    await addDataroomMember(room.id, blind.id, "member", { view: false });
    // A room's files are sealed in R2 (ADR 021), and so are their derivatives.
    const photoId = await upload(owner.client, room.rootFolderId, "site.jpg", await phonePhoto());
    const photo = { id: photoId, r2Key: (await fileRow(photoId))!.r2Key };
    expect(isEncryptedKey(photo.r2Key)).toBe(true);
    await runJob(photo.id, photo.r2Key);
    const path = `/api/files/${photo.id}/image/thumb`;
    expect((await get(path, blind.client)).status).toBe(403);
    const plain = new Uint8Array(await (await get(path, guest.client)).arrayBuffer());
    expect((await decodeImage(plain, "image/jpeg")).width).toBe(360);
    const stored = (await testEnv.FILES.head(derivedKey(photo.r2Key, "thumb")))!;
    expect(stored.size).toBe(encryptedSize(plain.byteLength));

    const watermark = await send(owner.client, "PUT", `/api/datarooms/${room.id}/security/protection`, { watermark: { template: "{{email}}", opacity: 0.5, fontSize: 24, position: "tiled" }, downloadProtection: false, printProtection: false });
    expect(watermark.status, await watermark.clone().text()).toBe(200);
    const stamped = await get(path, guest.client);
    expect(stamped.status).toBe(200);
    const stampedBytes = new Uint8Array(await stamped.arrayBuffer());
    expect(stampedBytes).not.toEqual(plain);
    expect((await decodeImage(stampedBytes, "image/jpeg")).width).toBe(360);

    // Deleting the picture's object (the trash's purge, an erased account) deletes what was made of it.
    await testEnv.DB.prepare("delete from files where id = ?").bind(photo.id).run();
    await removeObjects(createServiceContext(testEnv, { requestId: "purge" }), [photo.r2Key]);
    for (const key of [photo.r2Key, derivedKey(photo.r2Key, "thumb"), derivedKey(photo.r2Key, "screen")]) expect(await testEnv.FILES.head(key)).toBeNull();
    expect(await mediaItem(photo.r2Key)).toBeNull();
  });
});

describe("the folder gallery", () => {
  it("lists the folder's pictures and videos by the date taken (else uploaded), with their thumbnails' addresses (versioned once made, to be made, none when unreadable) and refuses an outsider", async () => {
    const owner = await signedIn({ tier: "pro" });
    const outsider = await signedIn({ tier: "pro" });
    const space = await personalSpaceOf(owner.id);
    const ctx = createServiceContext(testEnv, { requestId: "gallery" });
    // Uploaded last, but taken in May (its EXIF): the gallery's date order puts it after the others.
    const made = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "made.jpg", content: await phonePhoto(), contentType: "image/jpeg", uploadedBy: owner.id, createdAt: new Date(Date.now() + 1000) });
    await runJob(made.id, made.r2Key);
    const pending = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "pending.jpg", content: await phonePhoto(), contentType: "image/jpeg", uploadedBy: owner.id, createdAt: new Date(Date.now() - 2000) });
    const broken = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "broken.png", content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2]), contentType: "image/png", uploadedBy: owner.id, createdAt: new Date(Date.now() - 1000) });
    await runJob(broken.id, broken.r2Key);
    await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "clip.mp4", content: new Uint8Array(16), contentType: "video/mp4", uploadedBy: owner.id });
    await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "notes.txt", uploadedBy: owner.id });

    const page = await getFolderGallery(ctx, owner.id, space.rootId, undefined);
    expect(page.items.map((item) => [item.name, item.kind, item.thumb, item.width, item.height])).toEqual([
      ["clip.mp4", "video", null, null, null],
      ["broken.png", "image", null, null, null],
      ["pending.jpg", "image", `/api/files/${pending.id}/image/thumb`, null, null],
      ["made.jpg", "image", `/api/files/${made.id}/image/thumb?v=1`, 480, 640],
    ]);
    expect(page.items.find((item) => item.name === "made.jpg")?.takenAt).toBe("2026:05:14 09:30:00");
    await expect(getFolderGallery(ctx, outsider.id, space.rootId, undefined)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
