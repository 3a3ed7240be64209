import { Link } from "react-router";
import { TIER_LABELS, type Tier } from "~/features/access/access.constants";

/** The shell's countdown of a running free trial (issue 43): how many days are left, leading to /trial. */
export function TrialCountdown({ trial }: { trial: { tier: Tier; daysLeft: number } | null }) {
  if (!trial) return null;
  const days = `${trial.daysLeft} day${trial.daysLeft === 1 ? "" : "s"} left`;
  return (
    <Link
      to="/trial"
      data-testid="trial-countdown"
      className="hidden rounded-full border border-amber-300 bg-amber-50 px-3 py-1 text-xs font-medium text-amber-900 hover:bg-amber-100 sm:inline-block"
      aria-label={`${TIER_LABELS[trial.tier]} trial: ${days}. See your trial`}
    >
      {TIER_LABELS[trial.tier]} trial · {days}
    </Link>
  );
}
