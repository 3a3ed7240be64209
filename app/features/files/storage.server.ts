import { TIER_LABELS, UNLIMITED, type Tier } from "~/features/access/access.constants";
import type { SpaceKind } from "~/db/schema";
import { assertWithinLimit, loadMemberAccess, type MemberAccess } from "~/features/access/access.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { formatBytes } from "./files.constants";
import { ensurePersonalSpace } from "./spaces.server";
import { listOwnedSpaces, readSpaceUsage, readUsageByType, type SpaceUsageRow } from "./storage.queries.server";

/**
 * Storage quotas (spec §9 "Plans and addons", QUALITY S13). A space's quota is its OWNER's plan:
 * the tier's max_dataroom_storage_mb plus 1024 MB per extra_storage unit (-1 is unlimited), and
 * the tier's max_dataroom_files. Usage is every byte the space keeps (see storage.queries).
 */

const MB = 1024 * 1024;

export type SpaceUsage = SpaceUsageRow & {
  /** Everything that counts against the quota, reserved uploads included. */
  usedBytes: number;
  /** The quota in bytes, or null when unlimited. */
  quotaBytes: number | null;
  tier: Tier;
  access: MemberAccess;
};

/** The space's usage and its owner's limits (two D1 round trips). */
export async function spaceUsage(ctx: ServiceContext, spaceId: string): Promise<SpaceUsage> {
  const usage = await readSpaceUsage(ctx.db, spaceId);
  if (!usage.ownerId) throw new AppError("NOT_FOUND", "This space does not exist or you don't have access to it.");
  const access = await loadMemberAccess(ctx, usage.ownerId);
  const limitMb = access.limits.max_dataroom_storage_mb;
  return {
    ...usage,
    usedBytes: usage.fileBytes + usage.versionBytes + usage.reservedBytes,
    quotaBytes: limitMb === UNLIMITED ? null : limitMb * MB,
    tier: access.tier,
    access,
  };
}

/** The refusal for an upload that does not fit (413), naming the plan's limit like assertWithinLimit. */
export function storageRefusal(usage: SpaceUsage, name: string, adding: number): AppError {
  const allowed = usage.access.limits.max_dataroom_storage_mb;
  const used = usage.usedBytes;
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    `Not enough storage for "${name}" (${formatBytes(adding)}): ${formatBytes(used)} of ${formatBytes(allowed * MB)} is in use. ` +
      `Your ${TIER_LABELS[usage.tier]} plan allows ${allowed} MB of storage per data room. Upgrade your plan or add extra storage.`,
  );
}

/**
 * Checked before an upload starts: `adding` more bytes fit in the quota, and one more file fits
 * the files limit (in-progress uploads count as files already).
 */
export function assertUploadFits(usage: SpaceUsage, name: string, adding: number, { isNewFile }: { isNewFile: boolean }): void {
  assertFilesFit(usage, name, adding, isNewFile ? 1 : 0);
}

/** `adding` more bytes in `newFiles` more files fit the space's quota and files limit (a copy of many files). */
export function assertFilesFit(usage: SpaceUsage, name: string, adding: number, newFiles: number): void {
  if (usage.quotaBytes !== null && usage.usedBytes + adding > usage.quotaBytes) throw storageRefusal(usage, name, adding);
  if (newFiles > 0) assertWithinLimit(usage.access, "max_dataroom_files", usage.fileCount + usage.activeUploads, newFiles);
}

// ---- the storage settings page ---------------------------------------------------------------

export const STORAGE_CATEGORIES = ["documents", "images", "videos", "audio", "archives", "other"] as const;
export type StorageCategory = (typeof STORAGE_CATEGORIES)[number];

export const STORAGE_CATEGORY_LABELS: Record<StorageCategory | "versions" | "trash" | "uploads", string> = {
  documents: "Documents",
  images: "Images",
  videos: "Videos",
  audio: "Audio",
  archives: "Archives",
  other: "Other files",
  versions: "Earlier versions",
  trash: "Trash",
  uploads: "Uploads in progress",
};

const ARCHIVE_TYPES = new Set([
  "application/zip",
  "application/gzip",
  "application/x-tar",
  "application/x-7z-compressed",
  "application/x-rar-compressed",
  "application/vnd.rar",
  "application/x-bzip2",
  "application/x-xz",
  "application/zstd",
]);

/** The settings page's bucket for a sniffed content type. */
export function categoryOf(contentType: string): StorageCategory {
  if (contentType.startsWith("image/")) return "images";
  if (contentType.startsWith("video/")) return "videos";
  if (contentType.startsWith("audio/")) return "audio";
  if (ARCHIVE_TYPES.has(contentType)) return "archives";
  if (
    contentType === "application/pdf" ||
    contentType.startsWith("text/") ||
    contentType === "application/json" ||
    contentType === "application/rtf" ||
    contentType.startsWith("application/vnd.openxmlformats-officedocument.") ||
    contentType.startsWith("application/vnd.oasis.opendocument.") ||
    contentType === "application/msword" ||
    contentType === "application/vnd.ms-excel" ||
    contentType === "application/vnd.ms-powerpoint" ||
    contentType === "application/epub+zip"
  )
    return "documents";
  return "other";
}

export type StorageBreakdownItem = { key: StorageCategory | "versions" | "trash" | "uploads"; label: string; bytes: number; files: number | null };

export type SpaceStorage = {
  spaceId: string;
  name: string;
  kind: SpaceKind;
  usedBytes: number;
  quotaBytes: number | null;
  fileCount: number;
  fileLimit: number | null;
  breakdown: StorageBreakdownItem[];
};

export type StorageOverview = { tier: Tier; tierLabel: string; extraStorageUnits: number; spaces: SpaceStorage[] };

/** Usage by type against the quota for every space the member owns (their personal space first). */
export async function getStorageOverview(ctx: ServiceContext, userId: string): Promise<StorageOverview> {
  await ensurePersonalSpace(ctx, userId);
  const [owned, access] = await Promise.all([listOwnedSpaces(ctx.db, userId), loadMemberAccess(ctx, userId)]);
  const spaces = await Promise.all(
    owned.map(async (space): Promise<SpaceStorage> => {
      const [usage, byType] = await Promise.all([spaceUsage(ctx, space.id), readUsageByType(ctx.db, space.id)]);
      const totals = new Map<StorageCategory, { bytes: number; files: number }>();
      for (const row of byType) {
        const category = categoryOf(row.contentType);
        const total = totals.get(category) ?? { bytes: 0, files: 0 };
        total.bytes += Number(row.bytes);
        total.files += Number(row.count);
        totals.set(category, total);
      }
      const breakdown: StorageBreakdownItem[] = STORAGE_CATEGORIES.map((key) => ({
        key,
        label: STORAGE_CATEGORY_LABELS[key],
        bytes: totals.get(key)?.bytes ?? 0,
        files: totals.get(key)?.files ?? 0,
      }));
      breakdown.push(
        { key: "versions", label: STORAGE_CATEGORY_LABELS.versions, bytes: usage.versionBytes, files: null },
        { key: "trash", label: STORAGE_CATEGORY_LABELS.trash, bytes: usage.trashedBytes, files: null },
        { key: "uploads", label: STORAGE_CATEGORY_LABELS.uploads, bytes: usage.reservedBytes, files: null },
      );
      const fileLimit = usage.access.limits.max_dataroom_files;
      return {
        spaceId: space.id,
        name: space.name,
        kind: space.kind,
        usedBytes: usage.usedBytes,
        quotaBytes: usage.quotaBytes,
        fileCount: usage.fileCount,
        fileLimit: fileLimit === UNLIMITED ? null : fileLimit,
        breakdown,
      };
    }),
  );
  return { tier: access.tier, tierLabel: TIER_LABELS[access.tier], extraStorageUnits: access.addons.extra_storage ?? 0, spaces };
}
