import { z } from "zod";
import { checkFeature } from "~/features/access/access-check";
import { loadMemberAccess, requireFeature } from "~/features/access/access.server";
import { hashPassword, scryptParamsFor } from "~/features/auth/password.server";
import { decryptSecret, encryptSecret, newLinkToken } from "~/features/auth/secrets.server";
import { auditRoom } from "~/features/datarooms/audit-record.server";
import { assertRoomWritable, readOnlyReason } from "~/features/datarooms/datarooms.permissions";
import { requireDataroom } from "~/features/datarooms/datarooms.server";
import { ensurePersonalSpace, requireFileAccess, requireFolderAccess } from "~/features/files/spaces.server";
import { findIsDataroomSpace } from "~/features/files/space-role.queries.server";
import { mailOrigin } from "~/features/notifications/notifications.server";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { shareLinkStatus } from "./share-access.server";
import { sharePrivacyOf } from "./share-privacy.server";
import { SHARE_LINKS_PAGE_SIZE, type ShareLinkStatus } from "./sharing.constants";
import { createShareLinkSchema, updateShareLinkSchema, type ShareLinkOptions } from "./sharing.schema";
import { countVisitorsByLink, findShareLink, findTargetName, findTargetNames, insertShareLink, isSlugTaken, listSpaceShareLinks, targetIdsOf, updateShareLinkRow, type ShareLinkInsert, type ShareLinkRow } from "./sharing.queries.server";

/**
 * Share links, managing them (issue 21, step 1): create one for a file, a folder or a whole room
 * (personal files too), list a room's links, change a link's options, revoke it. In a room it
 * takes the `share` permission (and a room that is not archived); in personal files, their owner.
 * Options that belong to a plan are checked against the plan of whoever owns the shared files:
 * an expiry needs `time_limited_access`, a view-only link `download_protection`, the watermark
 * `watermarking`, print protection `print_protection`. Outsiders get 404 for every link.
 */

export type ShareLinkView = {
  id: string;
  name: string;
  url: string;
  slug: string | null;
  target: { type: ShareLinkRow["targetType"]; id: string; name: string };
  spaceId: string;
  hasPassword: boolean;
  expiresAt: string | null;
  maxViews: number | null;
  views: number;
  lastViewedAt: string | null;
  requireEmail: boolean;
  verifyEmail: boolean;
  allowList: string[];
  denyList: string[];
  agreement: string | null;
  allowDownload: boolean;
  downloadMode: ShareLinkRow["downloadMode"];
  printProtection: boolean;
  watermark: boolean;
  presentation: ShareLinkRow["presentation"];
  downloadSize: ShareLinkRow["downloadSize"];
  showExif: boolean;
  allowPrints: boolean;
  status: ShareLinkStatus;
  revokedAt: string | null;
  createdAt: string;
  createdBy: string | null;
};

/** Where a link opens: /s/{key} for documents, /public-gallery/{key} for a gallery (spec §2: a public-gallery segment). */
export function shareLinkPath(presentation: ShareLinkRow["presentation"], key: string): string {
  return `${presentation === "gallery" ? "/public-gallery" : "/s"}/${key}`;
}

export const shareLinkNotFound = () => new AppError("NOT_FOUND", "This share link does not exist or you don't have access to it.");

/** Where the shared thing lives and whose plan decides its options; refuses whoever may not share it. */
async function requireSharable(ctx: ServiceContext, userId: string, target: { type: ShareLinkRow["targetType"]; id: string }) {
  let spaceId: string;
  let role: string;
  let isRoom: boolean;
  let name: string;
  if (target.type === "room") {
    const room = await requireDataroom(ctx, userId, target.id, "view");
    spaceId = room.id;
    role = "room";
    isRoom = true;
    name = room.name;
  } else if (target.type === "file") {
    const found = await requireFileAccess(ctx, userId, target.id, "files.view");
    spaceId = found.file.spaceId;
    role = found.role;
    isRoom = found.roomPermissions !== null;
    name = found.file.name;
  } else {
    const found = await requireFolderAccess(ctx, userId, target.id, "files.view");
    spaceId = found.spaceId;
    role = found.role;
    isRoom = found.roomPermissions !== null;
    name = found.label;
  }
  return { ...(await requireShareRight(ctx, userId, spaceId, isRoom, role)), name };
}

/** The right to share in a space: `share` in a room that is not archived; the owner of personal files. */
async function requireShareRight(ctx: ServiceContext, userId: string, spaceId: string, isRoom: boolean, role: string) {
  if (isRoom) {
    const room = await requireDataroom(ctx, userId, spaceId, "share");
    assertRoomWritable(room);
    return { spaceId, roomId: room.id as string | null, planOwnerId: room.owner.id };
  }
  if (role !== "owner") throw new AppError("FORBIDDEN", "Only the owner of these files can share them.");
  return { spaceId, roomId: null, planOwnerId: userId };
}

/** Options that belong to a plan (the plan of whoever owns the shared files). */
async function requirePlanFor(ctx: ServiceContext, planOwnerId: string, options: Partial<ShareLinkOptions>) {
  const wanted: Parameters<typeof requireFeature>[1][] = [];
  if (options.expiresAt) wanted.push("time_limited_access");
  if (options.allowDownload === false) wanted.push("download_protection");
  if (options.watermark || options.downloadMode === "watermarked") wanted.push("watermarking");
  if (options.printProtection) wanted.push("print_protection");
  if (options.presentation === "gallery") wanted.push("galleries");
  if (wanted.length === 0) return;
  const access = await loadMemberAccess(ctx, planOwnerId);
  for (const feature of wanted) requireFeature(access, feature);
}

async function toView(ctx: ServiceContext, row: ShareLinkRow, targetName: string, creatorName: string | null): Promise<ShareLinkView> {
  const token = new TextDecoder().decode((await decryptSecret(readConfig(ctx.env).SESSION_SECRET, row.tokenSealed, "share-link")) ?? new Uint8Array());
  return {
    id: row.id,
    name: row.name,
    url: `${mailOrigin(ctx)}${shareLinkPath(row.presentation, row.slug ?? token)}`,
    slug: row.slug,
    target: { type: row.targetType, id: row.targetId, name: targetName },
    spaceId: row.spaceId,
    hasPassword: row.passwordHash !== null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    maxViews: row.maxViews,
    views: row.viewCount,
    lastViewedAt: row.lastViewedAt?.toISOString() ?? null,
    requireEmail: row.requireEmail,
    verifyEmail: row.verifyEmail,
    allowList: row.allowList,
    denyList: row.denyList,
    agreement: row.agreement,
    allowDownload: row.allowDownload,
    downloadMode: row.downloadMode,
    printProtection: row.printProtection,
    watermark: row.watermark,
    presentation: row.presentation,
    downloadSize: row.downloadSize,
    showExif: row.showExif,
    allowPrints: row.allowPrints,
    status: shareLinkStatus(row, ctx.now()),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    createdBy: creatorName,
  };
}

function assertCoherent(options: Pick<ShareLinkOptions, "expiresAt" | "verifyEmail" | "requireEmail" | "allowList" | "denyList">, now: Date) {
  if (options.expiresAt && new Date(options.expiresAt).getTime() <= now.getTime()) throw new AppError("VALIDATION_ERROR", "expiresAt: The expiry must be in the future.");
  if ((options.allowList.length > 0 || options.denyList.length > 0 || options.verifyEmail) && !options.requireEmail) {
    throw new AppError("VALIDATION_ERROR", "requireEmail: Allow and deny lists and e-mail verification need visitors to give their e-mail address. Turn on “Ask for e-mail”.");
  }
}

async function assertSlugFree(ctx: ServiceContext, slug: string | null | undefined, exceptId?: string) {
  if (slug && (await isSlugTaken(ctx.db, slug, exceptId))) throw new AppError("CONFLICT", `The custom address “${slug}” is already taken. Choose another.`);
}

/** POST /api/share-links: a new link; its URL (with the token) is in the answer and on the sharing page. */
export async function createShareLink(ctx: ServiceContext, userId: string, input: unknown): Promise<ShareLinkView> {
  const options = parseInput(createShareLinkSchema, input);
  if (options.presentation === "gallery" && options.target.type !== "folder") throw new AppError("VALIDATION_ERROR", "presentation: A public gallery shows the pictures of a folder. Publish it from the folder's gallery.");
  const place = await requireSharable(ctx, userId, options.target);
  assertCoherent(options, ctx.now());
  await requirePlanFor(ctx, place.planOwnerId, options);
  await assertSlugFree(ctx, options.slug);
  const { token, hash } = newLinkToken();
  const now = ctx.now();
  const row: ShareLinkInsert = {
    id: crypto.randomUUID(),
    tokenHash: hash,
    tokenSealed: await encryptSecret(readConfig(ctx.env).SESSION_SECRET, new TextEncoder().encode(token), "share-link"),
    slug: options.slug,
    name: options.name,
    targetType: options.target.type,
    targetId: options.target.type === "room" ? place.spaceId : options.target.id,
    spaceId: place.spaceId,
    createdBy: userId,
    passwordHash: options.password ? await hashPassword(options.password, scryptParamsFor(ctx.env)) : null,
    expiresAt: options.expiresAt ? new Date(options.expiresAt) : null,
    maxViews: options.maxViews,
    requireEmail: options.requireEmail,
    verifyEmail: options.verifyEmail,
    allowList: options.allowList,
    denyList: options.denyList,
    agreement: options.agreement || null,
    allowDownload: options.allowDownload,
    downloadMode: options.downloadMode,
    printProtection: options.printProtection,
    watermark: options.watermark,
    presentation: options.presentation,
    downloadSize: options.downloadSize,
    showExif: options.showExif,
    allowPrints: options.allowPrints,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await insertShareLink(ctx.db, row);
  } catch (error) {
    // Two links asked for the same custom address at the same moment: the unique index decides.
    if (options.slug && error instanceof Error && /UNIQUE/i.test(error.message)) throw new AppError("CONFLICT", `The custom address “${options.slug}” is already taken. Choose another.`);
    throw error;
  }
  if (place.roomId) await auditRoom(ctx, place.roomId, userId, { action: "share.create", target: { type: options.target.type, id: row.targetId, name: place.name }, detail: options.name || null });
  const created = (await findShareLink(ctx.db, row.id))!;
  return toView(ctx, created, place.name, null);
}

/** A link the caller may manage (404 otherwise), and where it lives. */
export async function requireManagedLink(ctx: ServiceContext, userId: string, rawId: unknown) {
  const parsed = z.uuid().safeParse(rawId);
  if (!parsed.success) throw shareLinkNotFound();
  const row = await findShareLink(ctx.db, parsed.data);
  if (!row) throw shareLinkNotFound();
  const isRoom = await findIsDataroomSpace(ctx.db, row.spaceId);
  try {
    if (isRoom) return { row, ...(await requireShareRight(ctx, userId, row.spaceId, true, "room")) };
    // Personal files: only the owner of the space (anyone else has never seen it).
    if (row.createdBy !== userId) throw shareLinkNotFound();
    return { row, spaceId: row.spaceId, roomId: null, planOwnerId: userId };
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") throw shareLinkNotFound();
    throw error;
  }
}

export async function viewOf(ctx: ServiceContext, row: ShareLinkRow, creatorName: string | null = null): Promise<ShareLinkView> {
  return toView(ctx, row, (await findTargetName(ctx.db, row)) ?? "(no longer exists)", creatorName);
}

/** PATCH /api/share-links/{id}: new options for a link that is not revoked. */
export async function updateShareLink(ctx: ServiceContext, userId: string, rawId: unknown, input: unknown): Promise<ShareLinkView> {
  const { row, roomId, planOwnerId } = await requireManagedLink(ctx, userId, rawId);
  if (row.revokedAt) throw new AppError("CONFLICT", "This link was revoked and cannot be changed. Create a new link instead.");
  const changes = parseInput(updateShareLinkSchema, input);
  const merged = {
    expiresAt: changes.expiresAt !== undefined ? changes.expiresAt : (row.expiresAt?.toISOString() ?? null),
    requireEmail: changes.requireEmail ?? row.requireEmail,
    verifyEmail: changes.verifyEmail ?? row.verifyEmail,
    allowList: changes.allowList ?? row.allowList,
    denyList: changes.denyList ?? row.denyList,
  };
  assertCoherent(merged, ctx.now());
  await requirePlanFor(ctx, planOwnerId, changes);
  await assertSlugFree(ctx, changes.slug, row.id);
  const set: Partial<ShareLinkInsert> = { updatedAt: ctx.now() };
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.password !== undefined) set.passwordHash = changes.password ? await hashPassword(changes.password, scryptParamsFor(ctx.env)) : null;
  if (changes.expiresAt !== undefined) set.expiresAt = changes.expiresAt ? new Date(changes.expiresAt) : null;
  if (changes.maxViews !== undefined) set.maxViews = changes.maxViews;
  if (changes.requireEmail !== undefined) set.requireEmail = changes.requireEmail;
  if (changes.verifyEmail !== undefined) set.verifyEmail = changes.verifyEmail;
  if (changes.allowList !== undefined) set.allowList = changes.allowList;
  if (changes.denyList !== undefined) set.denyList = changes.denyList;
  if (changes.agreement !== undefined) set.agreement = changes.agreement || null;
  if (changes.allowDownload !== undefined) set.allowDownload = changes.allowDownload;
  if (changes.downloadMode !== undefined) set.downloadMode = changes.downloadMode;
  if (changes.printProtection !== undefined) set.printProtection = changes.printProtection;
  if (changes.watermark !== undefined) set.watermark = changes.watermark;
  if (changes.slug !== undefined) set.slug = changes.slug;
  if (changes.downloadSize !== undefined) set.downloadSize = changes.downloadSize;
  if (changes.showExif !== undefined) set.showExif = changes.showExif;
  if (changes.allowPrints !== undefined) set.allowPrints = changes.allowPrints;
  await updateShareLinkRow(ctx.db, row.id, set);
  if (roomId) await auditRoom(ctx, roomId, userId, { action: "share.update", target: { type: row.targetType, id: row.targetId, name: row.name || null }, detail: Object.keys(changes).join(", ") });
  return viewOf(ctx, (await findShareLink(ctx.db, row.id))!);
}

/** POST /api/share-links/{id}/revoke: the link stops working on its next request. Twice changes nothing. */
export async function revokeShareLink(ctx: ServiceContext, userId: string, rawId: unknown): Promise<ShareLinkView> {
  const { row, roomId } = await requireManagedLink(ctx, userId, rawId);
  if (!row.revokedAt) {
    await updateShareLinkRow(ctx.db, row.id, { revokedAt: ctx.now(), updatedAt: ctx.now() });
    if (roomId) await auditRoom(ctx, roomId, userId, { action: "share.revoke", target: { type: row.targetType, id: row.targetId, name: row.name || null } });
  }
  return viewOf(ctx, (await findShareLink(ctx.db, row.id))!);
}

/** GET /api/datarooms/{id}/share-links: every link of the room, newest first (people with `share`). */
export async function listRoomShareLinks(ctx: ServiceContext, userId: string, roomId: unknown): Promise<ShareLinkView[]> {
  const room = await requireDataroom(ctx, userId, roomId, "share");
  return linksOfSpace(ctx, room.id);
}

// ---- the pages: create a link, a room's links ----------------------------------------------------

/** The plan features a link's options depend on, as the create and edit forms show them. */
export type ShareLinkFeatures = { expiry: boolean; viewOnly: boolean; watermark: boolean; print: boolean; gallery: boolean };

export type ShareLinkDraft = { target: { type: ShareLinkRow["targetType"]; id: string; name: string }; roomId: string | null; features: ShareLinkFeatures };

export async function featuresFor(ctx: ServiceContext, planOwnerId: string): Promise<ShareLinkFeatures> {
  const access = await loadMemberAccess(ctx, planOwnerId);
  return {
    expiry: checkFeature(access, "time_limited_access"),
    viewOnly: checkFeature(access, "download_protection"),
    watermark: checkFeature(access, "watermarking"),
    print: checkFeature(access, "print_protection"),
    gallery: checkFeature(access, "galleries"),
  };
}

/** /share-links/new?type=&id=: what is about to be shared, if the caller may share it, and which options the plan allows. */
export async function prepareShareLink(ctx: ServiceContext, userId: string, rawTarget: unknown): Promise<ShareLinkDraft> {
  const target = parseInput(createShareLinkSchema.shape.target, rawTarget);
  const place = await requireSharable(ctx, userId, target);
  return { target: { type: target.type, id: target.type === "room" ? place.spaceId : target.id, name: place.name }, roomId: place.roomId, features: await featuresFor(ctx, place.planOwnerId) };
}

async function withVisitors(ctx: ServiceContext, links: ShareLinkView[]) {
  const visitors = await countVisitorsByLink(ctx.db, links.map((link) => link.id));
  return links.map((link) => ({ ...link, visitors: visitors.get(link.id) ?? 0 }));
}

async function linksOfSpace(ctx: ServiceContext, spaceId: string): Promise<ShareLinkView[]> {
  const rows = await listSpaceShareLinks(ctx.db, spaceId, SHARE_LINKS_PAGE_SIZE);
  const names = await findTargetNames(ctx.db, targetIdsOf(rows.map((entry) => entry.link)));
  return Promise.all(rows.map((entry) => toView(ctx, entry.link, names.get(entry.link.targetId) ?? "(no longer exists)", entry.creatorName)));
}

/** /dataroom/{id}/sharing: the room's links with their different visitors, and its visitor privacy (people with `share`; managers change the privacy). */
export async function getRoomSharing(ctx: ServiceContext, userId: string, roomId: unknown) {
  const room = await requireDataroom(ctx, userId, roomId, "share");
  const [links, privacy] = await Promise.all([linksOfSpace(ctx, room.id).then((views) => withVisitors(ctx, views)), sharePrivacyOf(ctx, room.id)]);
  return { room: { id: room.id, name: room.name, archived: room.archived }, links, privacy, canManagePrivacy: room.permissions.manage_settings && !readOnlyReason(room) };
}

/** /share-links: the links of the member's own files, and their visitor privacy. */
export async function getMyShareLinks(ctx: ServiceContext, userId: string) {
  const space = await ensurePersonalSpace(ctx, userId);
  const [links, privacy] = await Promise.all([linksOfSpace(ctx, space.id).then((views) => withVisitors(ctx, views)), sharePrivacyOf(ctx, space.id)]);
  return { links, privacy };
}
