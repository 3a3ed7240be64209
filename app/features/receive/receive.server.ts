import { z } from "zod";
import { TIER_LABELS } from "~/features/access/access.constants";
import { loadMemberAccess, requireFeature } from "~/features/access/access.server";
import { hashPassword, scryptParamsFor } from "~/features/auth/password.server";
import { decryptSecret, encryptSecret, newLinkToken } from "~/features/auth/secrets.server";
import { defaultFolderId } from "~/features/files/folders.server";
import { listUploadTargets } from "~/features/files/organize.server";
import { requireFolderAccess } from "~/features/files/spaces.server";
import { readConfig } from "~/lib/config.server";
import { requireIntakeCaseType } from "~/features/cases/cases.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { RECEIVE_PAGE_LIMITS } from "./receive.constants";
import { countReceivePages, deleteReceivePageRow, findReceivePageForMember, insertReceivePage, isReceiveSlugTaken, listReceivePagesOf, setReceivePageTeam, updateReceivePageRow, type ReceivePageRow } from "./receive.queries.server";
import { moduleAccess, requireTeamModuleRight, teamModuleRights, teamRightRefused } from "~/features/teams/team-access.server";
import type { ReceivePermission } from "~/features/teams/team-roles.catalog";
import { moveIntoTeamSchema } from "~/features/teams/teams.schema";
import { createReceivePageSchema, updateReceivePageSchema } from "./receive.schema";
import { listSubmissionsOfPage } from "./receive-submissions.queries.server";
import { assertReceiveForm, listReceiveFormChoices, type ReceiveFormChoice } from "~/features/forms/form-receive.server";

/**
 * Receive pages, the member's side (issue 24, docs/receive-pages.md): create, list, change,
 * delete. The destination is a folder where the member may upload (their own files, or a data
 * room's), checked when the page is made; the plan limits how many pages a member keeps.
 */

/** Where a page's logo is served (the key's last part makes each new logo a new address). */
export function receiveLogoPath(pagePath: string, logoKey: string | null): string | null {
  return logoKey ? `${pagePath}/logo?v=${logoKey.slice(-8)}` : null;
}

export const RECEIVE_PAGE_NOT_FOUND = "This receive page does not exist or you don't have access to it.";

export type ReceivePageView = {
  id: string;
  kind: "simple" | "form";
  title: string;
  message: string;
  /** The public address's path (/r/{slug or token}). */
  path: string;
  slug: string | null;
  destination: { spaceId: string; spaceName: string; isRoom: boolean; folderId: string; folderLabel: string | null };
  deadlineAt: string | null;
  hasPassword: boolean;
  allowedTypes: string[];
  maxFileMb: number | null;
  maxFilesPerUploader: number | null;
  perUploaderFolders: boolean;
  requireName: boolean;
  requireEmail: boolean;
  fields: ReceivePageRow["fields"];
  /** The published form whose questions the page asks instead of its own fields, or null. */
  formId: string | null;
  caseTypeId: string | null;
  brandColor: string | null;
  /** The logo's address (changes with each new logo), or null. */
  logoPath: string | null;
  isOpen: boolean;
  status: "open" | "closed" | "past deadline";
  createdAt: string;
  updatedAt: string;
};

type Joined = { page: ReceivePageRow; spaceName: string; spaceKind: string; folderLabel: string | null };

async function toView(ctx: ServiceContext, { page, spaceName, spaceKind, folderLabel }: Joined): Promise<ReceivePageView> {
  const token = await decryptSecret(readConfig(ctx.env).SESSION_SECRET, page.tokenSealed, "receive-page");
  const now = ctx.now().getTime();
  const path = `/r/${page.slug ?? (token ? new TextDecoder().decode(token) : "")}`;
  return {
    id: page.id,
    kind: page.kind,
    title: page.title,
    message: page.message,
    path,
    slug: page.slug,
    destination: { spaceId: page.spaceId, spaceName, isRoom: spaceKind === "dataroom", folderId: page.folderId, folderLabel },
    deadlineAt: page.deadlineAt?.toISOString() ?? null,
    hasPassword: page.passwordHash !== null,
    allowedTypes: page.allowedTypes,
    maxFileMb: page.maxFileMb,
    maxFilesPerUploader: page.maxFilesPerUploader,
    perUploaderFolders: page.perUploaderFolders,
    requireName: page.requireName,
    requireEmail: page.requireEmail,
    fields: page.fields,
    formId: page.formId,
    caseTypeId: page.caseTypeId,
    brandColor: page.brandColor,
    logoPath: receiveLogoPath(path, page.logoKey),
    isOpen: page.isOpen,
    status: !page.isOpen ? "closed" : page.deadlineAt && page.deadlineAt.getTime() <= now ? "past deadline" : "open",
    createdAt: page.createdAt.toISOString(),
    updatedAt: page.updatedAt.toISOString(),
  };
}

async function assertSlugFree(ctx: ServiceContext, slug: string | null | undefined, exceptId: string | null): Promise<void> {
  if (slug && (await isReceiveSlugTaken(ctx.db, slug, exceptId))) {
    throw new AppError("CONFLICT", `The address /r/${slug} is taken. Choose another.`, { fieldErrors: { slug: ["That address is taken."] } });
  }
}

/** POST /api/receive-pages → 201 with the page; with `teamId`, in that team's workspace (receive.edit there; the creator's plan counts it). */
export async function createReceivePage(ctx: ServiceContext, userId: string, input: unknown, options: { teamId?: string } = {}): Promise<ReceivePageView> {
  const data = parseInput(createReceivePageSchema, input);
  if (options.teamId) await requireTeamModuleRight(ctx, userId, options.teamId, "receive", "receive.edit");
  const access = await loadMemberAccess(ctx, userId);
  requireFeature(access, "receive_pages");
  const limit = RECEIVE_PAGE_LIMITS[access.tier];
  if (limit !== -1 && (await countReceivePages(ctx.db, userId)) >= limit) {
    throw new AppError("FORBIDDEN", `Your ${TIER_LABELS[access.tier]} plan allows ${limit} receive page${limit === 1 ? "" : "s"}. Delete one you no longer need, or upgrade your plan for more.`);
  }
  // Files will land there in the member's name: they must be allowed to upload there.
  const folder = await requireFolderAccess(ctx, userId, data.folderId, "files.upload");
  if (data.formId) await assertReceiveForm(ctx, userId, data.formId);
  if (data.caseTypeId) await requireIntakeCaseType(ctx, userId, data.caseTypeId, folder.spaceId);
  await assertSlugFree(ctx, data.slug, null);
  const { token, hash } = newLinkToken();
  const now = ctx.now();
  const id = crypto.randomUUID();
  await insertReceivePage(ctx.db, {
    id,
    userId,
    teamId: options.teamId ?? null,
    tokenHash: hash,
    tokenSealed: await encryptSecret(readConfig(ctx.env).SESSION_SECRET, new TextEncoder().encode(token), "receive-page"),
    slug: data.slug,
    kind: data.kind,
    title: data.title,
    message: data.message,
    spaceId: folder.spaceId,
    folderId: data.folderId,
    deadlineAt: data.deadlineAt ? new Date(data.deadlineAt) : null,
    passwordHash: data.password ? await hashPassword(data.password, scryptParamsFor(ctx.env)) : null,
    allowedTypes: [...new Set(data.allowedTypes)],
    maxFileMb: data.maxFileMb,
    maxFilesPerUploader: data.maxFilesPerUploader,
    perUploaderFolders: data.perUploaderFolders,
    requireName: data.requireName,
    requireEmail: data.requireEmail,
    fields: data.fields,
    formId: data.formId,
    caseTypeId: data.caseTypeId,
    brandColor: data.brandColor,
    isOpen: data.isOpen,
    createdAt: now,
    updatedAt: now,
  });
  ctx.logger.info("receive page created", { userId, pageId: id, kind: data.kind });
  return getReceivePage(ctx, userId, id);
}

/**
 * GET /api/receive-pages and /api/user/receive-pages (spec §7 `pages`): the member's pages.
 * `workspace` narrows them (issue 42): a team's id lists the team's pages (to whoever may see
 * them), null the member's pages of no team; left out, every page they made.
 */
export async function listReceivePages(ctx: ServiceContext, userId: string, options: { workspace?: string | null } = {}): Promise<ReceivePageView[]> {
  if (options.workspace) {
    const rights = await teamModuleRights(ctx, userId, options.workspace, "receive");
    if (!rights.includes("receive.view")) return [];
    return Promise.all((await listReceivePagesOf(ctx.db, userId, { teamId: options.workspace })).map((row) => toView(ctx, row)));
  }
  return Promise.all((await listReceivePagesOf(ctx.db, userId, { personalOnly: options.workspace === null })).map((row) => toView(ctx, row)));
}

/**
 * A page as the caller may use it (issue 42): its maker everything; for a page of a team's
 * workspace, the team's people by their place (owner and admins everything, members see and
 * change, billing nothing, a custom role its Receive pages permissions). Anyone else, and anyone
 * without view, gets 404; a team member without the right 403 naming it.
 */
export async function openReceivePage(ctx: ServiceContext, userId: string, rawId: unknown, permission: ReceivePermission): Promise<Joined> {
  const id = z.uuid().safeParse(rawId);
  const row = id.success ? await findReceivePageForMember(ctx.db, userId, id.data) : undefined;
  if (row && row.page.userId === userId) return row;
  const byTeam = row ? moduleAccess("receive", { role: row.teamRole, customRolePermissions: row.customRolePermissions }, permission) : "not-found";
  if (byTeam === "forbidden") throw teamRightRefused(permission);
  if (byTeam === "not-found") throw new AppError("NOT_FOUND", RECEIVE_PAGE_NOT_FOUND);
  return row!;
}

export async function getReceivePage(ctx: ServiceContext, userId: string, rawId: unknown): Promise<ReceivePageView> {
  return toView(ctx, await openReceivePage(ctx, userId, rawId, "receive.view"));
}

/** PATCH /api/receive-pages/{id}: any option but the destination (`password: null` removes it). */
export async function updateReceivePage(ctx: ServiceContext, userId: string, rawId: unknown, input: unknown): Promise<ReceivePageView> {
  const { page } = await openReceivePage(ctx, userId, rawId, "receive.edit");
  const changes = parseInput(updateReceivePageSchema, input);
  const kind = changes.kind ?? page.kind;
  const fields = changes.fields ?? page.fields;
  if (kind === "simple" && fields.length > 0) throw new AppError("VALIDATION_ERROR", "A simple page has no fields: make it a form page to ask for them.", { fieldErrors: { fields: ["A simple page has no fields."] } });
  const formId = changes.formId !== undefined ? changes.formId : page.formId;
  if (kind === "simple" && formId) throw new AppError("VALIDATION_ERROR", "A simple page asks no questions: make it a form page to use a form.", { fieldErrors: { formId: ["A simple page asks no questions."] } });
  if (formId && fields.length > 0) throw new AppError("VALIDATION_ERROR", "The page asks the form's questions: remove its own fields, or choose no form.", { fieldErrors: { fields: ["Remove the page's own fields."] } });
  if (changes.formId) await assertReceiveForm(ctx, userId, changes.formId);
  if (changes.caseTypeId) await requireIntakeCaseType(ctx, userId, changes.caseTypeId, page.spaceId);
  const perUploader = changes.perUploaderFolders ?? page.perUploaderFolders;
  if (perUploader && !(changes.requireName ?? page.requireName) && !(changes.requireEmail ?? page.requireEmail)) {
    throw new AppError("VALIDATION_ERROR", "Per-person folders are named from the uploader's name or e-mail: ask for one of them.", { fieldErrors: { perUploaderFolders: ["Ask for the name or the e-mail."] } });
  }
  await assertSlugFree(ctx, changes.slug, page.id);
  const { password, deadlineAt, allowedTypes, ...rest } = changes;
  await updateReceivePageRow(ctx.db, page.userId, page.id, {
    ...rest,
    ...(deadlineAt !== undefined ? { deadlineAt: deadlineAt ? new Date(deadlineAt) : null } : {}),
    ...(allowedTypes !== undefined ? { allowedTypes: [...new Set(allowedTypes)] } : {}),
    ...(password !== undefined ? { passwordHash: password ? await hashPassword(password, scryptParamsFor(ctx.env)) : null } : {}),
    updatedAt: ctx.now(),
  });
  return getReceivePage(ctx, userId, page.id);
}

/**
 * POST /api/receive-pages/{id}/team: the maker moves a page of no team into a team's workspace
 * where they may change receive pages (issue 42); its files keep going where they went.
 */
export async function moveReceivePageIntoTeam(ctx: ServiceContext, userId: string, rawId: unknown, input: unknown): Promise<ReceivePageView> {
  const { page } = await openReceivePage(ctx, userId, rawId, "receive.edit");
  const { teamId } = parseInput(moveIntoTeamSchema("page"), input);
  if (page.userId !== userId) throw new AppError("FORBIDDEN", "Only the page's maker moves it into a team.");
  if (page.teamId) throw new AppError("CONFLICT", "This receive page is already in a team's workspace.");
  await requireTeamModuleRight(ctx, userId, teamId, "receive", "receive.edit");
  if (!(await setReceivePageTeam(ctx.db, userId, page.id, teamId, ctx.now()))) throw new AppError("CONFLICT", "This receive page was just moved. Reload the page.");
  return getReceivePage(ctx, userId, page.id);
}

/** DELETE /api/receive-pages/{id}: the page goes (its address stops working); files received stay where they landed. */
export async function deleteReceivePage(ctx: ServiceContext, userId: string, rawId: unknown): Promise<void> {
  const { page } = await openReceivePage(ctx, userId, rawId, "receive.delete");
  await deleteReceivePageRow(ctx.db, page.userId, page.id);
  if (page.logoKey) await ctx.env.FILES.delete(page.logoKey);
  ctx.logger.info("receive page deleted", { userId, pageId: page.id });
}

export type ReceivePageEditor = { destinations: { uid: string; label: string; spaceName: string }[]; defaultFolderId: string; limit: number; count: number; tierLabel: string; formChoices: ReceiveFormChoice[] };

/** What the new page's form offers: the folders the member may upload into (their Inbox first) and the plan's limit. */
export async function getReceivePageEditor(ctx: ServiceContext, userId: string): Promise<ReceivePageEditor> {
  const inbox = await defaultFolderId(ctx, userId, "inbox");
  const [destinations, plan, formChoices] = await Promise.all([listUploadTargets(ctx, userId, inbox), getReceivePagePlan(ctx, userId), listReceiveFormChoices(ctx, userId)]);
  return { destinations, defaultFolderId: inbox, ...plan, formChoices };
}

/** How many pages the plan allows, how many the member has, and the plan's name. */
export async function getReceivePagePlan(ctx: ServiceContext, userId: string): Promise<{ limit: number; count: number; tierLabel: string }> {
  const access = await loadMemberAccess(ctx, userId);
  return { limit: RECEIVE_PAGE_LIMITS[access.tier], count: await countReceivePages(ctx.db, userId), tierLabel: TIER_LABELS[access.tier] };
}

/** What a page received, newest first: who sent how many files when, with their answers. */
export type ReceivedSubmission = {
  id: string;
  createdAt: string;
  name: string | null;
  email: string | null;
  answers: { label: string; value: string }[];
  fileCount: number;
  bytes: number;
  folderLabel: string | null;
  delivered: boolean;
};

export const RECEIVED_LIST_MAX = 100;

/** GET /api/receive-pages/{id}/submissions: the owner's record of what came through the page (the last 100). */
export async function listReceivedSubmissions(ctx: ServiceContext, userId: string, rawId: unknown): Promise<ReceivedSubmission[]> {
  const { page } = await openReceivePage(ctx, userId, rawId, "receive.view");
  const rows = await listSubmissionsOfPage(ctx.db, page.userId, page.id, RECEIVED_LIST_MAX);
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    name: row.uploaderName,
    email: row.uploaderEmail,
    answers: row.answers,
    fileCount: row.fileCount,
    bytes: row.bytes,
    folderLabel: row.folderLabel,
    delivered: row.notifiedAt !== null,
  }));
}
