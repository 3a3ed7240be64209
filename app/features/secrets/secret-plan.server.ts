import { TIER_LABELS } from "~/features/access/access.constants";
import { loadMemberAccess, requireFeature } from "~/features/access/access.server";
import { encryptedSize } from "~/features/files/encryption-format";
import type { ServiceContext } from "~/lib/service-context.server";
import { fileLimitLabel, SECRET_LIMITS } from "./secrets.constants";

const MB = 1024 * 1024;

/** A member who may make secrets (and requests), with their plan's secret limits. */
export async function secretPlan(ctx: ServiceContext, userId: string) {
  const access = await loadMemberAccess(ctx, userId);
  requireFeature(access, "secrets");
  return { access, limits: SECRET_LIMITS[access.tier] };
}

/** The plan's largest file, as a sealed size. */
export async function maxSealedFileSize(ctx: ServiceContext, userId: string): Promise<{ bytes: number; mb: number; label: string; tierLabel: string }> {
  const access = await loadMemberAccess(ctx, userId);
  const limits = SECRET_LIMITS[access.tier];
  return { bytes: encryptedSize(limits.maxFileMb * MB), mb: limits.maxFileMb, label: fileLimitLabel(limits.maxFileMb), tierLabel: TIER_LABELS[access.tier] };
}

