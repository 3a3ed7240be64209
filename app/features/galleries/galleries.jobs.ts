import { z } from "zod";
import { enqueueJob } from "~/features/jobs/enqueue-job.server";
import { defineJob } from "~/features/jobs/job-definition";
import type { ServiceContext } from "~/lib/service-context.server";
import { makeDerivatives } from "./derivatives.server";
import { isGalleryImage } from "./media.constants";

/** A picture's thumbnail, screen size and EXIF, once per stored object (issue 40, ADR 033). */
export const derivativesJob = defineJob({
  type: "galleries.derivatives",
  version: 1,
  payloadSchema: z.object({ fileId: z.uuid(), sourceKey: z.string().min(1).max(1024) }),
  async run(ctx, payload) {
    const outcome = await makeDerivatives(ctx, payload.fileId, payload.sourceKey);
    return { processedItems: 1, successCount: outcome === "failed" ? 0 : 1, failureCount: outcome === "failed" ? 1 : 0 };
  },
});

/** After an upload or a new version of a picture: its derivatives are made by a job (once per object). */
export async function requestDerivatives(ctx: ServiceContext, file: { id: string; contentType: string }, sourceKey: string): Promise<void> {
  if (!isGalleryImage(file.contentType)) return;
  await enqueueJob(ctx, { definition: derivativesJob, payload: { fileId: file.id, sourceKey }, jobId: `galleries.derivatives:${sourceKey}`, priority: "low" });
}
