import { useEffect, useRef, useState } from "react";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { ProgressBar } from "~/components/ui/progress-bar";
import type { BatchStatus, ManagedOperation } from "../batch-manager";
import { batchManager } from "../batch-transport";

const STATUS: Record<BatchStatus, { label: string; variant: BadgeVariant }> = {
  pending: { label: "Waiting", variant: "neutral" },
  processing: { label: "Running", variant: "info" },
  paused: { label: "Paused", variant: "warning" },
  completed: { label: "Done", variant: "success" },
  failed: { label: "Failed", variant: "danger" },
  cancelled: { label: "Cancelled", variant: "neutral" },
};

function timeLeft(ms: number | null): string | null {
  if (ms === null) return null;
  const seconds = Math.ceil(ms / 1000);
  return seconds < 60 ? `about ${seconds} s left` : `about ${Math.ceil(seconds / 60)} min left`;
}

/**
 * The member's batch operations on this page (issue 22): each with its progress bar, speed and
 * time left, the items that were refused and why, and Pause, Resume and Cancel. `onFinished`
 * runs when one ends (the page reloads its list).
 */
export function OperationsPanel({ onFinished }: { onFinished?: () => void }) {
  const [operations, setOperations] = useState<ManagedOperation[]>([]);
  const statuses = useRef(new Map<string, BatchStatus>());
  const finished = useRef(onFinished);
  finished.current = onFinished;

  useEffect(() => {
    const manager = batchManager();
    const seen = (list: ManagedOperation[]) => {
      let ended = false;
      for (const operation of list) {
        const before = statuses.current.get(operation.id);
        if (before !== operation.status && (operation.status === "completed" || operation.status === "failed" || operation.status === "cancelled") && before !== undefined) ended = true;
        statuses.current.set(operation.id, operation.status);
      }
      setOperations(list);
      if (ended) finished.current?.();
    };
    seen(manager.list());
    return manager.subscribe(seen);
  }, []);

  if (operations.length === 0) return null;
  const manager = batchManager();
  const act = (run: () => void) => () => {
    try {
      run();
    } catch {
      // The state changed in the meantime (finished, or already paused): the panel shows it now.
    }
  };
  return (
    <section aria-labelledby="operations-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="operations-panel">
      <h2 id="operations-heading" className="text-base font-semibold text-slate-900">
        Operations
      </h2>
      <ul className="space-y-4">
        {[...operations].reverse().map((operation) => {
          const status = STATUS[operation.status];
          const label = typeof operation.metadata.label === "string" ? operation.metadata.label : `${operation.type} of ${operation.items.length} items`;
          const names = new Map(operation.items.map((item) => [item.id, item.displayName]));
          const facts = [
            `${operation.progress.current} of ${operation.progress.total}`,
            operation.status === "processing" && operation.progress.speed > 0 ? `${operation.progress.speed.toFixed(1)} items/s` : null,
            operation.status === "processing" ? timeLeft(operation.progress.remainingTime) : null,
            operation.failureCount > 0 ? `${operation.failureCount} refused` : null,
          ].filter(Boolean);
          return (
            <li key={operation.id} className="space-y-2" data-testid="operation" data-status={operation.status}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="flex items-center gap-2 text-sm font-medium text-slate-900">
                  {label} <Badge variant={status.variant}>{status.label}</Badge>
                </p>
                <div className="flex gap-2">
                  {operation.status === "processing" ? (
                    <Button size="sm" variant="secondary" onClick={act(() => manager.pause(operation.id))}>
                      Pause
                    </Button>
                  ) : null}
                  {operation.status === "paused" ? (
                    <Button size="sm" variant="secondary" onClick={act(() => manager.resume(operation.id))}>
                      Resume
                    </Button>
                  ) : null}
                  {operation.status === "pending" || operation.status === "processing" || operation.status === "paused" ? (
                    <Button size="sm" variant="ghost" onClick={act(() => manager.cancel(operation.id))}>
                      Cancel
                    </Button>
                  ) : null}
                </div>
              </div>
              <ProgressBar value={operation.progress.percentage} label={`Progress of ${label}`} showValue size="sm" />
              <p className="text-xs text-slate-700" data-testid="operation-facts">
                {facts.join(" · ")}
              </p>
              {operation.status === "completed" && typeof operation.metadata.linksPage === "string" ? (
                <a href={operation.metadata.linksPage} className="text-sm font-medium text-brand-700 underline">
                  See the links
                </a>
              ) : null}
              {operation.lastError && operation.status === "failed" ? <p className="text-sm text-red-700">{operation.lastError}</p> : null}
              {operation.errors.length > 0 ? (
                <ul className="space-y-1 text-sm text-red-700" aria-label={`Refused items of ${label}`}>
                  {operation.errors.slice(0, 20).map((error) => (
                    <li key={error.itemId}>
                      {names.get(error.itemId) ?? error.itemId}: {error.message}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
