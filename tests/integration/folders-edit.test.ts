import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { COLOR_FORMAT_MESSAGE } from "~/features/files/folder-color";
import { addSpaceMember, personalSpaceOf } from "~tests/factories/files";
import { createUser } from "~tests/factories/users";
import { loginJson, newAuthClient, origin, testEnv, type AuthClient, type ErrorBody } from "./helpers";

/**
 * Spec §7 "Folders": PATCH /folder/{uid} { label, color, icon }, DELETE /folder/{uid}/delete-icon,
 * and POST /api/folders (new folder). The authorization matrix (S6) with the database unchanged
 * after every refusal, the validation messages, colours stored as canonical hex, and the folder limit.
 */

type Member = { id: string; client: AuthClient; space: Awaited<ReturnType<typeof personalSpaceOf>> };
type FolderBody = { message: string; folder: { uid: string; label: string; color: string | null; icon: string | null; kind: string } };
type ValidationBody = ErrorBody & { fieldErrors?: Record<string, string[]> };
type FolderRow = { id: string; label: string; color: string | null; icon: string | null; kind: string; updated_at: number };

async function member(): Promise<Member> {
  const user = await createUser();
  const { response, client } = await loginJson(user.email, user.password);
  expect(response.status).toBe(200);
  return { id: user.id, client, space: await personalSpaceOf(user.id) };
}

/** A request the way the app's HTTP client sends it; `null` is a signed-out visitor (with a CSRF token). */
async function call(client: AuthClient | null, method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Response> {
  const sender = client ?? (await newAuthClient());
  const headers: Record<string, string> = {
    accept: "application/json",
    "x-requested-with": "XMLHttpRequest",
    cookie: sender.jar.header(),
    origin,
    "x-csrf-token": sender.csrfToken,
    "cf-connecting-ip": sender.ip,
    ...extra,
  };
  if (body !== undefined) headers["content-type"] = "application/json";
  return exports.default.fetch(`${origin}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function json<T>(response: Response, status: number): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return response.json<T>();
}

async function folderRow(id: string): Promise<FolderRow | null> {
  return testEnv.DB.prepare("select id, label, color, icon, kind, updated_at from folders where id = ?").bind(id).first<FolderRow>();
}

async function folderCount(): Promise<number> {
  return (await testEnv.DB.prepare("select count(*) as n from folders").first<{ n: number }>())?.n ?? 0;
}

async function createFolderAs(owner: Member, input: Record<string, unknown>): Promise<FolderBody["folder"]> {
  const body = await json<{ folder: FolderBody["folder"] }>(await call(owner.client, "POST", "/api/folders", { parentId: owner.space.rootId, ...input }), 201);
  return body.folder;
}

const patch = (client: AuthClient | null, uid: string, body: unknown) => call(client, "PATCH", `/folder/${uid}`, body);
const deleteIcon = (client: AuthClient | null, uid: string) => call(client, "DELETE", `/folder/${uid}/delete-icon`);

let owner: Member;
let outsider: Member;
let viewer: Member;
let editor: Member;

beforeAll(async () => {
  [owner, outsider, viewer, editor] = await Promise.all([member(), member(), member(), member()]);
  await addSpaceMember(owner.space.spaceId, viewer.id, "viewer");
  await addSpaceMember(owner.space.spaceId, editor.id, "editor");
});

describe("PATCH /folder/{uid}: who may edit a folder", () => {
  it("refuses a signed-out visitor with 401 and changes nothing", async () => {
    const folder = await createFolderAs(owner, { label: "Anonymous target", color: "#123456", icon: "star" });
    const before = await folderRow(folder.uid);
    const body = await json<ErrorBody>(await patch(null, folder.uid, { label: "Hacked", color: null, icon: null }), 401);
    expect(body.code).toBe("UNAUTHENTICATED");
    expect(await folderRow(folder.uid)).toEqual(before);
  });

  it("answers an outsider 404, exactly as for a folder that does not exist, and changes nothing", async () => {
    const folder = await createFolderAs(owner, { label: "Private", color: "#123456", icon: "star" });
    const before = await folderRow(folder.uid);
    const refused = await json<ErrorBody>(await patch(outsider.client, folder.uid, { label: "Mine now", color: "#ffffff", icon: null }), 404);
    const missing = await json<ErrorBody>(await patch(outsider.client, crypto.randomUUID(), { label: "Mine now" }), 404);
    expect(refused).toEqual(missing);
    expect(refused.message).toBe("This folder does not exist or you don't have access to it.");
    expect(await folderRow(folder.uid)).toEqual(before);
  });

  it("answers an outsider 404 before looking at the body, so bad input reveals nothing either", async () => {
    const folder = await createFolderAs(owner, { label: "Still private" });
    const before = await folderRow(folder.uid);
    await json<ErrorBody>(await patch(outsider.client, folder.uid, { label: "", color: "not a colour" }), 404);
    expect(await folderRow(folder.uid)).toEqual(before);
  });

  it("refuses a viewer of the space with 403 and changes nothing", async () => {
    const folder = await createFolderAs(owner, { label: "Shared", color: "#123456", icon: "star" });
    const before = await folderRow(folder.uid);
    const body = await json<ErrorBody>(await patch(viewer.client, folder.uid, { label: "Viewer edit", color: null, icon: null }), 403);
    expect(body.message).toBe("You don't have permission to change these files and folders.");
    expect(await folderRow(folder.uid)).toEqual(before);
  });

  it("lets the owner, and an editor of the space, save label, colour and icon", async () => {
    const folder = await createFolderAs(owner, { label: "Drafts" });
    const saved = await json<FolderBody>(await patch(owner.client, folder.uid, { label: "  Final drafts  ", color: "#abc", icon: "folder_special" }), 200);
    expect(saved).toEqual({
      message: "Folder updated successfully",
      folder: { uid: folder.uid, label: "Final drafts", color: "#aabbcc", icon: "folder_special", kind: "regular" },
    });
    expect(await folderRow(folder.uid)).toMatchObject({ label: "Final drafts", color: "#aabbcc", icon: "folder_special" });

    const byEditor = await json<FolderBody>(await patch(editor.client, folder.uid, { label: "Reviewed", color: "rgb(0, 0, 0)", icon: "star" }), 200);
    expect(byEditor.folder).toMatchObject({ label: "Reviewed", color: "#000000", icon: "star" });
  });

  it("refuses a request without the CSRF token with 419 and changes nothing", async () => {
    const folder = await createFolderAs(owner, { label: "Guarded" });
    const before = await folderRow(folder.uid);
    const response = await call(owner.client, "PATCH", `/folder/${folder.uid}`, { label: "Forged" }, { "x-csrf-token": "" });
    expect(response.status).toBe(419);
    const crossSite = await call(owner.client, "PATCH", `/folder/${folder.uid}`, { label: "Forged" }, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(419);
    expect(await folderRow(folder.uid)).toEqual(before);
  });

  it("refuses to edit the hidden top folder of a space", async () => {
    const before = await folderRow(owner.space.rootId);
    const body = await json<ErrorBody>(await patch(owner.client, owner.space.rootId, { label: "Renamed root", color: "#000", icon: "star" }), 403);
    expect(body.message).toBe("The top of a space cannot be renamed.");
    expect(await folderRow(owner.space.rootId)).toEqual(before);
  });

  it("answers 404 for an id that is not a folder id and for a folder in the trash", async () => {
    await json<ErrorBody>(await patch(owner.client, "not-a-uuid", { label: "x" }), 404);
    const folder = await createFolderAs(owner, { label: "Binned" });
    await testEnv.DB.prepare("update folders set trashed_at = ?, trash_root_id = id where id = ?").bind(Date.now(), folder.uid).run();
    const before = await folderRow(folder.uid);
    await json<ErrorBody>(await patch(owner.client, folder.uid, { label: "Revived" }), 404);
    expect(await folderRow(folder.uid)).toEqual(before);
  });
});

describe("PATCH /folder/{uid}: what is accepted", () => {
  let uid: string;
  let before: FolderRow | null;

  beforeAll(async () => {
    uid = (await createFolderAs(owner, { label: "Validated", color: "#112233", icon: "star" })).uid;
    before = await folderRow(uid);
  });

  it("requires a label: an empty one is a 400 'Label is required.' and changes nothing", async () => {
    for (const label of ["", "   ", undefined]) {
      const body = await json<ValidationBody>(await patch(owner.client, uid, { label, color: "#000", icon: null }), 400);
      expect(body.code).toBe("VALIDATION_ERROR");
      expect(body.fieldErrors?.label).toEqual(["Label is required."]);
      expect(body.message).toBe("label: Label is required.");
    }
    expect(await folderRow(uid)).toEqual(before);
  });

  it("refuses a colour that is not one of the accepted formats with the format message", async () => {
    for (const color of ["red", "#abcde", "rgb(1, 2)", "hsv(10, 20%, 30%)", "#".padEnd(80, "a"), 42, { r: 1 }]) {
      const body = await json<ValidationBody>(await patch(owner.client, uid, { label: "Validated", color, icon: null }), 400);
      expect(body.fieldErrors?.color).toEqual([COLOR_FORMAT_MESSAGE]);
    }
    expect(await folderRow(uid)).toEqual(before);
  });

  it("refuses an icon that is not a Material icon name", async () => {
    for (const icon of ["not_an_icon", "<script>", "x".repeat(500), 7]) {
      const body = await json<ValidationBody>(await patch(owner.client, uid, { label: "Validated", color: null, icon }), 400);
      expect(body.fieldErrors?.icon).toEqual(["Choose an icon from the list."]);
    }
    expect(await folderRow(uid)).toEqual(before);
  });

  it("refuses a label with a slash, an overlong label and a body that is not a JSON object, never with a 500", async () => {
    const cases: unknown[] = [{ label: "a/b" }, { label: "x".repeat(121) }, "null", "[1, 2]", "{ not json", '"just text"'];
    for (const body of cases) {
      const response = await patch(owner.client, uid, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json<ErrorBody>()).message).toEqual(expect.any(String));
    }
    expect(await folderRow(uid)).toEqual(before);
  });

  const formats: [string, string][] = [
    ["#abc", "#aabbcc"],
    ["#abcd", "#aabbccdd"],
    ["#1e90ff", "#1e90ff"],
    ["#1e90ff80", "#1e90ff80"],
    ["1E90FF", "#1e90ff"],
    ["rgb(30, 144, 255)", "#1e90ff"],
    ["rgba(30, 144, 255, 0.5)", "#1e90ff80"],
    ["rgb(30 144 255 / 25%)", "#1e90ff40"],
    ["hsl(120, 100%, 50%)", "#00ff00"],
    ["hsla(120, 100%, 50%, 0.5)", "#00ff0080"],
    ["hwb(240 20% 30%)", "#3333b3"],
    ["hwb(0 0% 0% / 0.5)", "#ff000080"],
  ];
  for (const [color, hex] of formats) {
    it(`stores ${color} as the canonical hex ${hex}`, async () => {
      const body = await json<FolderBody>(await patch(owner.client, uid, { label: "Coloured", color, icon: "star" }), 200);
      expect(body.folder.color).toBe(hex);
      expect((await folderRow(uid))?.color).toBe(hex);
    });
  }

  it("clears the colour with null or an empty text, and keeps colour and icon when they are left out", async () => {
    await json<FolderBody>(await patch(owner.client, uid, { label: "Kept", color: "#445566", icon: "star" }), 200);
    const partial = await json<FolderBody>(await patch(owner.client, uid, { label: "Renamed only" }), 200);
    expect(partial.folder).toMatchObject({ label: "Renamed only", color: "#445566", icon: "star" });
    expect(await folderRow(uid)).toMatchObject({ label: "Renamed only", color: "#445566", icon: "star" });

    await json<FolderBody>(await patch(owner.client, uid, { label: "Plain", color: "", icon: null }), 200);
    expect(await folderRow(uid)).toMatchObject({ label: "Plain", color: null, icon: null });
  });
});

describe("DELETE /folder/{uid}/delete-icon", () => {
  it("removes the icon for the owner and keeps label and colour", async () => {
    const folder = await createFolderAs(owner, { label: "With icon", color: "#0f0", icon: "star" });
    const body = await json<FolderBody>(await deleteIcon(owner.client, folder.uid), 200);
    expect(body).toEqual({
      message: "Icon removed successfully",
      folder: { uid: folder.uid, label: "With icon", color: "#00ff00", icon: null, kind: "regular" },
    });
    expect(await folderRow(folder.uid)).toMatchObject({ label: "With icon", color: "#00ff00", icon: null });
  });

  it("refuses anonymous (401), outsider (404) and viewer (403) callers, leaving the icon in place", async () => {
    const folder = await createFolderAs(owner, { label: "Iconic", icon: "star" });
    const before = await folderRow(folder.uid);
    expect((await deleteIcon(null, folder.uid)).status).toBe(401);
    expect((await deleteIcon(outsider.client, folder.uid)).status).toBe(404);
    expect((await deleteIcon(viewer.client, folder.uid)).status).toBe(403);
    expect((await call(owner.client, "DELETE", `/folder/${folder.uid}/delete-icon`, undefined, { "x-csrf-token": "" })).status).toBe(419);
    expect(await folderRow(folder.uid)).toEqual(before);
  });

  it("answers 404 for a folder that does not exist", async () => {
    expect((await deleteIcon(owner.client, crypto.randomUUID())).status).toBe(404);
  });
});

describe("POST /api/folders", () => {
  it("creates a folder or a gallery with canonical colour and icon for the owner", async () => {
    const created = await json<{ folder: FolderBody["folder"] }>(
      await call(owner.client, "POST", "/api/folders", { parentId: owner.space.rootId, label: "Photos", color: "hsl(0 100% 50%)", icon: "photo_camera", kind: "gallery" }),
      201,
    );
    expect(created.folder).toMatchObject({ label: "Photos", color: "#ff0000", icon: "photo_camera", kind: "gallery" });
    expect(await folderRow(created.folder.uid)).toMatchObject({ label: "Photos", color: "#ff0000", icon: "photo_camera", kind: "gallery" });
    const inside = await createFolderAs(owner, { parentId: created.folder.uid, label: "Summer" });
    expect(inside.kind).toBe("regular");
  });

  it("refuses anonymous (401), outsider (404) and viewer (403) callers without adding a folder", async () => {
    const count = await folderCount();
    const input = { parentId: owner.space.rootId, label: "Intruder" };
    expect((await call(null, "POST", "/api/folders", input)).status).toBe(401);
    expect(await json<ErrorBody>(await call(outsider.client, "POST", "/api/folders", input), 404)).toMatchObject({
      message: "This folder does not exist or you don't have access to it.",
    });
    expect((await call(viewer.client, "POST", "/api/folders", input)).status).toBe(403);
    expect(await folderCount()).toBe(count);
  });

  it("validates the label, colour, icon, kind and parent with 4xx messages", async () => {
    const count = await folderCount();
    const cases: [Record<string, unknown>, string, number][] = [
      [{ label: "" }, "label", 400],
      [{ label: "Ok", color: "blue" }, "color", 400],
      [{ label: "Ok", icon: "nope_nope" }, "icon", 400],
      [{ label: "Ok", kind: "inbox" }, "kind", 400],
      [{ label: "Ok", parentId: "not-a-uuid" }, "parentId", 400],
    ];
    for (const [input, field, status] of cases) {
      const body = await json<ValidationBody>(await call(owner.client, "POST", "/api/folders", { parentId: owner.space.rootId, ...input }), status);
      expect(Object.keys(body.fieldErrors ?? {}), JSON.stringify(input)).toContain(field);
    }
    expect((await call(owner.client, "POST", "/api/folders", { parentId: crypto.randomUUID(), label: "Orphan" })).status).toBe(404);
    expect(await folderCount()).toBe(count);
  });

  it("refuses a new folder once the space holds max_dataroom_folders folders, and allows it again below the limit", async () => {
    const someone = await member();
    const used = (await testEnv.DB.prepare("select count(*) as n from folders where space_id = ? and kind != 'root'").bind(someone.space.spaceId).first<{ n: number }>())!.n;
    await testEnv.DB.prepare("update tiers set max_dataroom_folders = ? where name = 'free'").bind(used + 1).run();
    try {
      await createFolderAs(someone, { label: "The last one" });
      const count = await folderCount();
      const body = await json<ErrorBody>(await call(someone.client, "POST", "/api/folders", { parentId: someone.space.rootId, label: "One too many" }), 403);
      expect(body.message).toBe(`Your Free plan allows ${used + 1} folders per data room. Upgrade your plan to raise it.`);
      expect(await folderCount()).toBe(count);
    } finally {
      await testEnv.DB.prepare("update tiers set max_dataroom_folders = 50 where name = 'free'").run();
    }
    await createFolderAs(someone, { label: "Room again" });
  });
});
