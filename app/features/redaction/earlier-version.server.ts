import { auditRoom } from "~/features/datarooms/audit-record.server";
import { contentDisposition } from "~/features/files/content-headers";
import { readStoredObject } from "~/features/files/encryption.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { isUuidShape } from "~/lib/uuid-shape";
import { requireRedactable } from "./apply-redaction.server";
import { findFileVersion } from "./redaction.queries.server";

/**
 * GET /api/files/{id}/versions/{versionId}/download (issue 39): an earlier version of a file (the
 * original of a redacted one), for people who may redact it only: `files.edit`, and in a data
 * room its `redact` permission. Previews, share links and everyone else get the current version.
 */
export async function downloadEarlierVersion(ctx: ServiceContext, userId: string, fileId: string, versionId: string): Promise<{ body: ReadableStream<Uint8Array>; headers: Record<string, string> }> {
  const { file, roomPermissions } = await requireRedactable(ctx, userId, fileId);
  const version = isUuidShape(versionId) ? await findFileVersion(ctx.db, file.id, versionId) : undefined;
  if (!version) throw new AppError("NOT_FOUND", "This version of the file does not exist.");
  const body = await readStoredObject(ctx, version.r2Key, version.size);
  if (!body) throw new AppError("CONFLICT", `The content of version ${version.version} is missing.`);
  const dot = file.name.lastIndexOf(".");
  const name = dot > 0 ? `${file.name.slice(0, dot)} (version ${version.version})${file.name.slice(dot)}` : `${file.name} (version ${version.version})`;
  if (roomPermissions) await auditRoom(ctx, file.spaceId, userId, { action: "file.download", target: { type: "file", id: file.id, name: file.name }, detail: `Version ${version.version} (an earlier version, for people who may redact)` });
  return {
    body,
    headers: { "Content-Type": version.contentType, "Content-Length": String(version.size), "Content-Disposition": contentDisposition("attachment", name), "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" },
  };
}
