import { expect } from "vitest";
import { startUploadRunsJob } from "~/features/workflows/workflows.jobs";
import { listMyTasks } from "~/features/workflows/workflows.server";
import { testContext } from "~tests/factories/files";
import type { Person } from "./dataroom-helpers";
import { testEnv } from "./helpers";
import { bytes, upload } from "./tus-helpers";

/** Workflow helpers shared by the room and team workflow tests. */

const ctx = () => testContext();

/** Uploads a file into the folder as the person and delivers the job its upload queued; the run it started. */
export async function uploadAndStart(person: Person, folderId: string, name: string, templateId: string) {
  const fileId = await upload(person.client, folderId, name, bytes(2_000));
  const uploadId = (await testEnv.DB.prepare("select id from uploads where file_id = ?").bind(fileId).first<{ id: string }>())!.id;
  await startUploadRunsJob.run({ ...testContext(), jobId: `${startUploadRunsJob.type}:${uploadId}` }, { uploadId, fileId, folderId, uploadedBy: person.id });
  const run = await testEnv.DB.prepare("select id from workflow_runs where template_id = ? and subject_file_id = ?").bind(templateId, fileId).first<{ id: string }>();
  return { fileId, runId: run?.id ?? null };
}

/** The person's open tasks of the run, once it has made them. */
export async function tasksOf(userId: string, runId: string) {
  await expect.poll(async () => (await listMyTasks(ctx(), userId)).filter((task) => task.runId === runId).length, { timeout: 5_000 }).toBeGreaterThan(0);
  return (await listMyTasks(ctx(), userId)).filter((task) => task.runId === runId);
}

