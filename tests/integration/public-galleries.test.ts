import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { derivedKey } from "~/features/files/derived-objects";
import { derivativesJob } from "~/features/galleries/galleries.jobs";
import { getGalleryFigures, setGalleryFavourite, viewPublicGallery, passPublicGalleryGate, type PublicGalleryPage } from "~/features/galleries/public-gallery.server";
import { openShareLink } from "~/features/sharing/share-access.server";
import { encodeImage } from "~/features/watermark/image-codecs.server";
import { createServiceContext } from "~/lib/service-context.server";
import { createFile, makeFolder, personalSpaceOf, testContext } from "~tests/factories/files";
import { noisePixels, withExif } from "~tests/shared/picture-fixtures";
import { addDataroomMember } from "~tests/factories/datarooms";
import { countWhere, createRoom, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, origin, postJson, testEnv } from "./helpers";

/**
 * Public galleries (issue 40): a share link of a folder shown as a gallery at /public-gallery/{key}.
 * A visitor reads only the pictures and videos directly in that folder, under the gallery's own
 * settings (password, expiry, view limit, downloads off / web size / originals, EXIF shown or not,
 * a watermark naming the visitor), marks favourites, and the owner sees each visitor's selection.
 */

type Link = { id: string; url: string };
type Open = Extract<PublicGalleryPage, { state: "open" }>;
const keyOf = (link: Link) => link.url.split("/public-gallery/")[1]!;

async function photo(name: string, takenAt: string) {
  const jpeg = await encodeImage(noisePixels(64, 48), "image/jpeg");
  return withExif(jpeg, { orientation: 1, make: "Canon", model: "Canon EOS R6", takenAt, latitude: 48.8584, longitude: 2.2945 });
}

async function addPhoto(spaceId: string, folderId: string, name: string, takenAt: string) {
  const file = await createFile({ spaceId, folderId, name, content: await photo(name, takenAt), contentType: "image/jpeg" });
  await derivativesJob.run({ ...createServiceContext(testEnv, { requestId: "public-galleries" }), jobId: `galleries.derivatives:${file.r2Key}` }, { fileId: file.id, sourceKey: file.r2Key });
  return file;
}

/** A visitor's visit once past the gates and counted by the gallery's page, as its cookie keeps it. */
async function visit(key: string, gates: unknown[] = [], ip = "203.0.113.9"): Promise<{ cookie: string; page: Open }> {
  const ctx = () => createServiceContext(testEnv, { requestId: "visitor", client: { ip, userAgent: "test" } });
  let cookie: string | null = null;
  for (const gate of gates) cookie = (await passPublicGalleryGate(ctx(), key, cookie, gate)).cookie ?? cookie;
  const result = await viewPublicGallery(ctx(), key, cookie);
  expect(result.page.state).toBe("open");
  return { cookie: result.cookie!, page: result.page as Open };
}

function fetchMedia(key: string, fileId: string, kind: "thumb" | "screen" | "video" | "download", cookie: string | null, headers: Record<string, string> = {}) {
  return exports.default.fetch(`${origin}/public-gallery/${key}/files/${fileId}/${kind}`, { headers: { ...(cookie ? { cookie: `share_visit=${cookie}` } : {}), ...headers } });
}

describe("public galleries", () => {
  let owner: Person;
  let space: { spaceId: string; rootId: string };
  let wedding: string;
  let older: { id: string; r2Key: string };
  let newer: { id: string; r2Key: string };
  let clip: { id: string };
  let outside: { id: string };
  let nested: { id: string };
  const publish = async (options: Record<string, unknown> = {}, person = owner) => {
    const response = await send(person.client, "POST", "/api/share-links", { target: { type: "folder", id: wedding }, presentation: "gallery", ...options });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json<{ link: Link }>()).link;
  };

  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Pia Photographer" });
    space = await personalSpaceOf(owner.id);
    wedding = await makeFolder(space.spaceId, space.rootId, "Wedding");
    older = await addPhoto(space.spaceId, wedding, "ceremony.jpg", "2026:05:14 09:30:00");
    newer = await addPhoto(space.spaceId, wedding, "dance.jpg", "2026:05:14 22:10:00");
    clip = await createFile({ spaceId: space.spaceId, folderId: wedding, name: "toast.mp4", content: new Uint8Array(2048).fill(7), contentType: "video/mp4" });
    const privateFolder = await makeFolder(space.spaceId, space.rootId, "Private");
    outside = await addPhoto(space.spaceId, privateFolder, "passport.jpg", "2026:01:01 10:00:00");
    const inner = await makeFolder(space.spaceId, wedding, "Outtakes");
    nested = await addPhoto(space.spaceId, inner, "blurry.jpg", "2026:05:14 10:00:00");
    await createFile({ spaceId: space.spaceId, folderId: wedding, name: "invoice.txt", content: "not a picture" });
  });

  it("is published from a folder only, by a plan with galleries, and opens at /public-gallery/ but not at /s/", async () => {
    const file = await send(owner.client, "POST", "/api/share-links", { target: { type: "file", id: older.id }, presentation: "gallery" });
    expect(file.status).toBe(400);
    expect((await file.json<{ message: string }>()).message).toContain("A public gallery shows the pictures of a folder");
    const free = await signedIn({ tier: "free" });
    const freeSpace = await personalSpaceOf(free.id);
    const freeFolder = await makeFolder(freeSpace.spaceId, freeSpace.rootId, "Holiday");
    const refused = await send(free.client, "POST", "/api/share-links", { target: { type: "folder", id: freeFolder }, presentation: "gallery" });
    expect(refused.status).toBe(403);
    expect(await countWhere("select count(*) as n from share_links where target_id = ?", freeFolder)).toBe(0);

    const link = await publish();
    expect(link.url).toMatch(/\/public-gallery\/[A-Za-z0-9_-]{43}$/);
    expect((await openShareLink(testContext(), keyOf(link), null)).state).toBe("missing");
    expect((await openShareLink(testContext(), keyOf(link), null, "gallery")).state).toBe("open");
  });

  it("shows the folder's own pictures and videos, newest first, and serves nothing outside the gallery", async () => {
    const key = keyOf(await publish());
    const { cookie, page } = await visit(key);
    // By the date taken, else uploaded (the video, today), newest first; the text file is not shown.
    expect(page.items.map((item) => item.name)).toEqual(["toast.mp4", "dance.jpg", "ceremony.jpg"]);
    const dance = page.items.find((item) => item.id === newer.id)!;
    expect(dance).toMatchObject({ kind: "image", thumb: `/public-gallery/${key}/files/${newer.id}/thumb?v=1`, screen: `/public-gallery/${key}/files/${newer.id}/screen?v=1`, download: `/public-gallery/${key}/files/${newer.id}/download`, facts: null });

    const thumb = await fetchMedia(key, newer.id, "thumb", cookie);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/jpeg");
    expect(thumb.headers.get("cache-control")).toBe("private, max-age=300");
    expect(new Uint8Array(await thumb.arrayBuffer())).toEqual(new Uint8Array(await (await testEnv.FILES.get(derivedKey(newer.r2Key, "thumb")))!.arrayBuffer()));
    expect((await fetchMedia(key, clip.id, "video", cookie)).status).toBe(200);

    for (const elsewhere of [outside.id, nested.id, "not-an-id"]) {
      const answer = await fetchMedia(key, elsewhere, "screen", cookie);
      expect(answer.status).toBe(404);
      expect((await answer.json<{ message: string }>()).message).toBe("This picture is not part of this gallery.");
    }
    // Without a counted visit nothing is served; a visit of gallery A opens nothing of gallery B.
    expect((await fetchMedia(key, newer.id, "thumb", null)).status).toBe(403);
    const other = keyOf(await publish({ name: "Second" }));
    expect((await fetchMedia(other, newer.id, "thumb", cookie)).status).toBe(403);
  });

  it("gives downloads as the gallery says: none, the screen size as a JPEG, or the original", async () => {
    const off = keyOf(await publish({ allowDownload: false }));
    const offVisit = await visit(off);
    expect(offVisit.page.downloads).toBe("off");
    expect(offVisit.page.items.every((item) => item.download === null)).toBe(true);
    const refused = await fetchMedia(off, older.id, "download", offVisit.cookie);
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toBe("Downloading is turned off for this gallery: you can view the pictures here, but not download them.");

    const web = keyOf(await publish({ downloadSize: "web" }));
    const webVisit = await visit(web);
    expect(webVisit.page.items.find((item) => item.id === clip.id)?.download).toBeNull();
    const small = await fetchMedia(web, older.id, "download", webVisit.cookie);
    expect(small.status).toBe(200);
    expect(small.headers.get("content-disposition")).toContain('attachment; filename="ceremony.jpg"');
    expect(new Uint8Array(await small.arrayBuffer())).toEqual(new Uint8Array(await (await testEnv.FILES.get(derivedKey(older.r2Key, "screen")))!.arrayBuffer()));

    const originals = keyOf(await publish());
    const originalVisit = await visit(originals);
    const whole = await fetchMedia(originals, older.id, "download", originalVisit.cookie);
    expect(whole.status).toBe(200);
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(new Uint8Array(await (await testEnv.FILES.get(older.r2Key))!.arrayBuffer()));
  });

  it("shows what the pictures' EXIF says only when the owner allows it", async () => {
    const shown = await visit(keyOf(await publish({ showExif: true })));
    expect(shown.page.items.find((item) => item.id === older.id)?.facts).toEqual({ takenAt: "2026-05-14 09:30", camera: "Canon EOS R6", place: "48.8584, 2.2945" });
    expect(shown.page.items.find((item) => item.id === clip.id)?.facts).toBeNull();
    const hidden = await visit(keyOf(await publish({ showExif: false })));
    expect(hidden.page.items.every((item) => item.facts === null)).toBe(true);
  });

  it("burns a watermark naming the visitor into every picture served, and leaves videos out", async () => {
    const key = keyOf(await publish({ watermark: true, requireEmail: true, downloadSize: "original" }));
    const { cookie, page } = await visit(key, [{ gate: "email", email: "guest@example.com" }]);
    expect(page).toMatchObject({ watermarked: true, visitorEmail: "guest@example.com" });
    expect(page.items.some((item) => item.kind === "video")).toBe(false);
    const plain = new Uint8Array(await (await testEnv.FILES.get(derivedKey(older.r2Key, "screen")))!.arrayBuffer());
    const stamped = await fetchMedia(key, older.id, "screen", cookie);
    expect(stamped.status).toBe(200);
    const guestBytes = new Uint8Array(await stamped.arrayBuffer());
    expect(guestBytes).not.toEqual(plain);
    // The mark names the visitor: another address gets other pixels of the same picture.
    const other = await visit(key, [{ gate: "email", email: "someone.else@example.com" }], "203.0.113.12");
    expect(new Uint8Array(await (await fetchMedia(key, older.id, "screen", other.cookie)).arrayBuffer())).not.toEqual(guestBytes);
    // Downloads are the stamped screen size: an original never leaves unmarked.
    const download = await fetchMedia(key, older.id, "download", cookie);
    expect(download.headers.get("content-type")).toBe("image/jpeg");
    expect(new Uint8Array(await download.arrayBuffer())).not.toEqual(new Uint8Array(await (await testEnv.FILES.get(older.r2Key))!.arrayBuffer()));
    expect((await fetchMedia(key, clip.id, "video", cookie)).status).toBe(403);
  });

  it("asks for the password, stops at the view limit, and shows the expired page from the request after revoking", async () => {
    const link = await publish({ password: "first dance", maxViews: 1 });
    const key = keyOf(link);
    const gate = await viewPublicGallery(testContext(), key, null);
    expect(gate.page).toMatchObject({ state: "gate", gate: "password", targetName: "Wedding" });
    await expect(passPublicGalleryGate(testContext(), key, null, { gate: "password", password: "wrong" })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const { cookie } = await visit(key, [{ gate: "password", password: "first dance" }]);
    // The one view is used: a second visitor is refused, the first keeps looking.
    const second = await viewPublicGallery(testContext(), key, null);
    expect(second.page).toMatchObject({ state: "expired", reason: "View limit reached" });
    expect((await fetchMedia(key, older.id, "screen", cookie)).status).toBe(200);

    expect((await send(owner.client, "POST", `/api/share-links/${link.id}/revoke`)).status).toBe(200);
    expect((await viewPublicGallery(testContext(), key, cookie)).page).toMatchObject({ state: "expired", reason: "Revoked" });
    const after = await fetchMedia(key, older.id, "screen", cookie);
    expect(after.status).toBe(404);
    expect((await after.json<{ message: string }>()).message).toBe("The preview link has expired. Please try refreshing the page.");
  });

  it("keeps each visitor's favourites, and shows the owner every selection with views and downloads per picture", async () => {
    const link = await publish({ requireEmail: true });
    const key = keyOf(link);
    const ana = await visit(key, [{ gate: "email", email: "ana@example.com" }], "203.0.113.10");
    const ben = await visit(key, [{ gate: "email", email: "ben@example.com" }], "203.0.113.11");
    // Through the route, as the page's heart button sends it.
    const client = await newAuthClient();
    const marked = await postJson(client, `/public-gallery/${key}/files/${older.id}/favourite`, { favourite: true }, { cookie: `${client.jar.header()}; share_visit=${ana.cookie}` });
    expect(marked.status, await marked.clone().text()).toBe(200);
    expect(await marked.json()).toEqual({ favourite: true });
    const visitorCtx = testContext();
    await setGalleryFavourite(visitorCtx, key, ana.cookie, { fileId: newer.id, favourite: true });
    await setGalleryFavourite(visitorCtx, key, ana.cookie, { fileId: newer.id, favourite: true });
    await setGalleryFavourite(visitorCtx, key, ben.cookie, { fileId: newer.id, favourite: true });
    await setGalleryFavourite(visitorCtx, key, ben.cookie, { fileId: newer.id, favourite: false });
    await setGalleryFavourite(visitorCtx, key, ben.cookie, { fileId: older.id, favourite: true });
    await expect(setGalleryFavourite(visitorCtx, key, ben.cookie, { fileId: outside.id, favourite: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(setGalleryFavourite(visitorCtx, key, ben.cookie, { fileId: older.id, favourite: "yes" })).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    // The visitor's page remembers their hearts.
    const again = await viewPublicGallery(testContext(), key, ana.cookie);
    expect((again.page as Open).items.filter((item) => item.favourite).map((item) => item.name).sort()).toEqual(["ceremony.jpg", "dance.jpg"]);

    await fetchMedia(key, older.id, "screen", ana.cookie);
    await fetchMedia(key, older.id, "screen", ben.cookie);
    await fetchMedia(key, older.id, "thumb", ben.cookie);
    await fetchMedia(key, older.id, "download", ben.cookie);
    const figures = (await getGalleryFigures(testContext(), owner.id, link.id))!;
    expect(figures.selections.map((selection) => [selection.email, selection.favourites.map((mark) => mark.name).sort()]).sort()).toEqual([
      ["ana@example.com", ["ceremony.jpg", "dance.jpg"]],
      ["ben@example.com", ["ceremony.jpg"]],
    ]);
    expect(figures.photos.find((entry) => entry.id === older.id)).toEqual({ id: older.id, name: "ceremony.jpg", views: 2, downloads: 1, favourites: 2 });
    // Whoever does not manage the link sees none of it.
    const outsider = await signedIn({ tier: "pro" });
    await expect(getGalleryFigures(testContext(), outsider.id, link.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("applies every setting together: the password, then the address, the watermark, web-size downloads and EXIF; an expiry that passes ends it at the next request", async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const link = await publish({ password: "vows", requireEmail: true, watermark: true, downloadSize: "web", showExif: true, maxViews: 5, expiresAt, slug: `wedding-${Date.now()}` });
    expect(link.url).toMatch(/\/public-gallery\/wedding-\d+$/);
    const key = keyOf(link);
    const first = await viewPublicGallery(testContext(), key, null);
    expect(first.page).toMatchObject({ state: "gate", gate: "password" });
    const { cookie, page } = await visit(key, [{ gate: "password", password: "vows" }, { gate: "email", email: "aunt@example.com" }]);
    expect(page).toMatchObject({ downloads: "web", watermarked: true, visitorEmail: "aunt@example.com" });
    expect(page.items.map((item) => item.name)).toEqual(["dance.jpg", "ceremony.jpg"]);
    expect(page.items[1]!.facts).toMatchObject({ camera: "Canon EOS R6" });
    const download = await fetchMedia(key, older.id, "download", cookie);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).not.toEqual(new Uint8Array(await (await testEnv.FILES.get(derivedKey(older.r2Key, "screen")))!.arrayBuffer()));
    // Two hours later the link has expired: the page and its pictures say so.
    const later = () => new Date(Date.now() + 2 * 3_600_000);
    expect((await viewPublicGallery(testContext(later), key, cookie)).page).toMatchObject({ state: "expired", reason: "Expired" });
  });

  it("is not available while its folder is in the trash, and is again once the folder is restored", async () => {
    const party = await makeFolder(space.spaceId, space.rootId, "After party");
    await addPhoto(space.spaceId, party, "cake.jpg", "2026:05:15 01:00:00");
    const response = await send(owner.client, "POST", "/api/share-links", { target: { type: "folder", id: party }, presentation: "gallery" });
    const key = keyOf((await response.json<{ link: Link }>()).link);
    expect((await visit(key)).page.items).toHaveLength(1);
    expect((await send(owner.client, "POST", "/api/items/delete", { items: [{ type: "folder", id: party }] })).status).toBe(200);
    await expect(viewPublicGallery(testContext(), key, null)).rejects.toMatchObject({ code: "NOT_FOUND", message: "This gallery is not available: its folder was deleted. Ask the person who shared it." });
    expect((await send(owner.client, "POST", "/api/items/restore", { items: [{ type: "folder", id: party }] })).status).toBe(200);
    expect((await visit(key)).page.items).toHaveLength(1);
  });

  it("lists a large gallery 48 at a time, the next page through GET …/items for the counted visit only", async () => {
    const big = await makeFolder(space.spaceId, space.rootId, "Big day");
    for (let index = 0; index < 50; index += 1) await createFile({ spaceId: space.spaceId, folderId: big, name: `frame-${String(index).padStart(2, "0")}.jpg`, content: `frame ${index}`, contentType: "image/jpeg", createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)) });
    const response = await send(owner.client, "POST", "/api/share-links", { target: { type: "folder", id: big }, presentation: "gallery" });
    const key = keyOf((await response.json<{ link: Link }>()).link);
    const { cookie, page } = await visit(key);
    expect(page.items).toHaveLength(48);
    expect(page.items[0]!.name).toBe("frame-49.jpg");
    // Not made yet: the addresses ask for them without a version (the grid tries again after 1 s).
    expect(page.items[0]!.thumb).toMatch(/\/thumb$/);
    const rest = await exports.default.fetch(`${origin}/public-gallery/${key}/items?cursor=${encodeURIComponent(page.nextCursor!)}`, { headers: { cookie: `share_visit=${cookie}` } });
    expect(rest.status).toBe(200);
    expect(rest.headers.get("cache-control")).toBe("no-store");
    const next = await rest.json<{ items: { name: string }[]; nextCursor: string | null }>();
    expect(next).toEqual({ items: [expect.objectContaining({ name: "frame-01.jpg" }), expect.objectContaining({ name: "frame-00.jpg" })], nextCursor: null });
    expect((await exports.default.fetch(`${origin}/public-gallery/${key}/items`)).status).toBe(403);
  });
});

describe("a public gallery of a data room's folder", () => {
  it("is published by whoever may share there (anonymous 401, outsider 404, a guest without share 403), follows the room's protection, and logs each view", async () => {
    const owner = await signedIn({ tier: "pro", name: "Rhea Roomowner" });
    const guest = await signedIn({ tier: "pro" });
    const outsider = await signedIn({ tier: "pro" });
    const room = await createRoom(owner.client, "Site visit");
    const photos = await makeFolder(room.id, room.rootFolderId, "Photos");
    const picture = await addPhoto(room.id, photos, "facade.jpg", "2026:03:01 12:00:00");
    await addDataroomMember(room.id, guest.id, "guest");
    const body = { target: { type: "folder", id: photos }, presentation: "gallery", name: "For the architects" };
    const before = await countWhere("select count(*) as n from share_links");
    expect((await send(await newAuthClient(), "POST", "/api/share-links", body)).status).toBe(401);
    expect((await send(outsider.client, "POST", "/api/share-links", body)).status).toBe(404);
    expect((await send(guest.client, "POST", "/api/share-links", body)).status).toBe(403);
    expect(await countWhere("select count(*) as n from share_links")).toBe(before);
    const created = await send(owner.client, "POST", "/api/share-links", body);
    expect(created.status).toBe(201);
    const link = (await created.json<{ link: Link }>()).link;
    await expect(getGalleryFigures(testContext(), guest.id, link.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(getGalleryFigures(testContext(), outsider.id, link.id)).rejects.toMatchObject({ code: "NOT_FOUND" });

    const key = keyOf(link);
    const { cookie, page } = await visit(key);
    expect(page.downloads).toBe("original");
    expect((await fetchMedia(key, picture.id, "screen", cookie)).status).toBe(200);
    await testEnv.DATA_ROOM.getByName(room.id).flushAudit();
    const { entries } = await (await send(owner.client, "GET", `/api/datarooms/${room.id}/audit?action=file.view`)).json<{ entries: { actorEmail: string | null; detail: string | null; targetName: string }[] }>();
    expect(entries[0]).toMatchObject({ actorEmail: null, targetName: "facade.jpg", detail: "public gallery “For the architects”" });

    // The room's download protection wins over the gallery's downloads, from the next request.
    expect((await send(owner.client, "PUT", `/api/datarooms/${room.id}/security/protection`, { watermark: null, downloadProtection: true, printProtection: false })).status).toBe(200);
    expect((await viewPublicGallery(testContext(), key, cookie)).page).toMatchObject({ downloads: "off" });
    expect((await fetchMedia(key, picture.id, "download", cookie)).status).toBe(403);
  });
});

