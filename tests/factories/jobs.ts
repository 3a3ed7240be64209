import type { JobMessage } from "~/features/jobs/jobs.schema";

/** Factories shared by every test layer: plain data, no bindings. */
let sequence = 0;

export function makeJobId(prefix = "job"): string {
  sequence += 1;
  return `${prefix}-${Date.now().toString(36)}-${sequence}`;
}

export function makeJobMessage(overrides: Partial<JobMessage> = {}): JobMessage {
  return {
    jobId: makeJobId(),
    type: "maintenance.prune-jobs",
    version: 1,
    payload: { olderThanDays: 30 },
    ...overrides,
  };
}

export function makeJobRow(
  overrides: Partial<{ id: string; type: string; status: string; updatedAt: number; createdAt: number }> = {},
) {
  const now = Date.now();
  return {
    id: overrides.id ?? makeJobId(),
    type: overrides.type ?? "maintenance.prune-jobs",
    status: overrides.status ?? "completed",
    createdAt: overrides.createdAt ?? now,
    updatedAt: overrides.updatedAt ?? now,
  };
}
