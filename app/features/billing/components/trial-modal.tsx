import { Form, Link } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Button } from "~/components/ui/button";
import { Modal, ModalClose } from "~/components/ui/modal";
import { buttonClassName } from "~/components/ui/button";
import { FEATURES, TIER_LABELS, tierAtLeast, type Tier } from "~/features/access/access.constants";
import { accessLabel } from "~/features/access/components/upgrade-modal";
import { formatDayUtc } from "~/lib/format-utc";
import { TRIAL_DAYS, type TrialTier } from "../trials.constants";

/** What a tier adds over the member's own: the features it unlocks, with their descriptions. */
export function unlocksOver(tier: TrialTier, current: Tier) {
  return FEATURES.filter((feature) => tierAtLeast(tier, feature.requiredTier as Tier) && !tierAtLeast(current, feature.requiredTier as Tier));
}

/**
 * The trial modal (spec: "A trial modal exists"; issue 43): what the member gets and for how long,
 * then one button that starts it (the /trial page's action). No card, once per member.
 */
export function TrialModal({ tier, current, open, onOpenChange, isStarting }: { tier: TrialTier; current: Tier; open: boolean; onOpenChange: (open: boolean) => void; isStarting: boolean }) {
  const label = TIER_LABELS[tier];
  const endsOn = formatDayUtc(Date.now() + TRIAL_DAYS * 86_400_000);
  const unlocks = unlocksOver(tier, current);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`Try ${label} free for ${TRIAL_DAYS} days`}
      description={`No card needed. Your trial ends on ${endsOn}; then you are on ${TIER_LABELS[current]} again and nothing is deleted. One trial per account.`}
      footer={
        <>
          <ModalClose className={buttonClassName({ variant: "secondary" })}>Not now</ModalClose>
          <Form method="post" action="/trial">
            <CsrfInput />
            <input type="hidden" name="tier" value={tier} />
            <Button type="submit" isLoading={isStarting}>
              Start my free trial
            </Button>
          </Form>
        </>
      }
    >
      <h3 className="text-sm font-semibold text-slate-900">What you get with {label}</h3>
      {unlocks.length === 0 ? (
        <p className="text-sm text-slate-700">{label}'s higher limits for data rooms, storage, members and guests.</p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm text-slate-700" aria-label={`What ${label} adds`}>
          {unlocks.map((feature) => (
            <li key={feature.name}>
              <span className="font-medium text-slate-900">{accessLabel(feature.name)}</span>: {feature.description}
            </li>
          ))}
          <li>Higher limits for data rooms, storage, members and guests.</li>
        </ul>
      )}
      <p className="mt-3 text-sm">
        <Link to="/settings/plan" className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Compare every plan and its limits
        </Link>
      </p>
    </Modal>
  );
}
