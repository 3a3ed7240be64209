import { env } from "cloudflare:workers";
import { createDb } from "~/db/client.server";
import { files, spaceMembers, type SpaceRole } from "~/db/schema";
import { ensurePersonalSpace } from "~/features/files/spaces.server";
import { createServiceContext } from "~/lib/service-context.server";
import { findRootFolder, listKindFolders } from "~/features/files/folders.queries.server";

/**
 * Spaces, folders and files inserted straight into D1 and R2 for the workerd tests (the upload
 * path has its own tests). Every file gets a generated R2 key, as the real upload path does.
 */
const testEnv = env as Env;

export function testContext(now?: () => Date) {
  return createServiceContext(testEnv, { requestId: "test", now });
}

/** The member's personal space with its root, inbox and outbox folder ids. */
export async function personalSpaceOf(userId: string) {
  const ctx = testContext();
  const space = await ensurePersonalSpace(ctx, userId);
  const root = await findRootFolder(ctx.db, space.id);
  const inbox = (await listKindFolders(ctx.db, userId, "inbox")).find((folder) => folder.spaceId === space.id);
  const outbox = (await listKindFolders(ctx.db, userId, "outbox")).find((folder) => folder.spaceId === space.id);
  return { spaceId: space.id, rootId: root!.id, inboxId: inbox!.id, outboxId: outbox!.id };
}

/** Adds another member to a space with a role (a viewer has no upload/edit/delete rights). */
export async function addSpaceMember(spaceId: string, userId: string, role: SpaceRole) {
  await createDb(testEnv.DB).insert(spaceMembers).values({ spaceId, userId, role, createdAt: new Date() }).run();
}

/** A regular folder straight into D1. */
export async function makeFolder(spaceId: string, parentId: string, label: string): Promise<string> {
  const id = crypto.randomUUID();
  const now = Date.now();
  await testEnv.DB.prepare("insert into folders (id, space_id, parent_id, kind, label, created_at, updated_at) values (?, ?, ?, 'regular', ?, ?, ?)")
    .bind(id, spaceId, parentId, label, now, now)
    .run();
  return id;
}

export type TestFileOptions = {
  spaceId: string;
  folderId: string;
  name?: string;
  content?: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
  uploadedBy?: string | null;
  createdAt?: Date;
  sha256?: string | null;
};

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A file row plus its R2 object. */
export async function createFile(options: TestFileOptions) {
  const content = typeof options.content === "string" || options.content === undefined ? new TextEncoder().encode(options.content ?? "hello") : options.content;
  const id = crypto.randomUUID();
  const r2Key = `files/${options.spaceId}/${crypto.randomUUID()}`;
  const now = options.createdAt ?? new Date();
  await testEnv.FILES.put(r2Key, content);
  const row = {
    id,
    spaceId: options.spaceId,
    folderId: options.folderId,
    name: options.name ?? `file-${id.slice(0, 8)}.txt`,
    size: content.byteLength,
    contentType: options.contentType ?? "text/plain",
    sha256: options.sha256 === undefined ? await sha256Hex(content) : options.sha256,
    r2Key,
    uploadedBy: options.uploadedBy ?? null,
    createdAt: now,
    updatedAt: now,
  };
  await createDb(testEnv.DB).insert(files).values(row).run();
  return row;
}
