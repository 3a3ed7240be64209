import { clsx } from "clsx";
import { Link } from "react-router";
import type { WelcomeStep } from "../welcome.server";

/** The welcome checklist's steps: done ones ticked, the others each with the page that does them. */
export function WelcomeSteps({ steps, isCompact = false }: { steps: WelcomeStep[]; isCompact?: boolean }) {
  return (
    <ol className={clsx("space-y-2", isCompact && "space-y-1")} aria-label="First steps">
      {steps.map((step) => (
        <li key={step.id} data-testid="welcome-step" data-step={step.id} data-done={step.isDone ? "true" : "false"} className="flex items-start gap-3">
          <span
            aria-hidden="true"
            className={clsx(
              "mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-bold",
              step.isDone ? "bg-green-600 text-white" : "border-2 border-slate-300",
            )}
          >
            {step.isDone ? "✓" : ""}
          </span>
          <span className="min-w-0">
            {step.isDone ? (
              <span className="text-slate-700 line-through decoration-slate-400">{step.label}</span>
            ) : (
              <Link to={step.href} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                {step.label}
              </Link>
            )}
            <span className="sr-only">{step.isDone ? " (done)" : " (to do)"}</span>
            {!isCompact && !step.isDone ? <span className="block text-sm text-slate-700">{step.hint}</span> : null}
          </span>
        </li>
      ))}
    </ol>
  );
}
