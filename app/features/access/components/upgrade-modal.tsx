import { clsx } from "clsx";
import { lazy, Suspense, useCallback, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { Alert } from "~/components/ui/alert";
import type { ModalClose } from "~/components/ui/modal";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClassName } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { request } from "~/lib/http";
import {
  FEATURES,
  LIMIT_LABELS,
  LIMIT_NAMES,
  normalizeTier,
  tierAtLeast,
  TIER_LABELS,
  UNLIMITED,
  type LimitName,
  type Tier,
  type TierLimits,
} from "../access.constants";
import { useUserStore } from "../user-store";
import { SOLD_TIERS, type SoldTier } from "~/features/billing/billing.constants";
import { TRIAL_DAYS, TRIAL_TIERS } from "~/features/billing/trials.constants";

/**
 * The one upgrade modal of the app (spec §2 "Restricted elements", §4/§6 "Denied action"): every
 * plan with its limits and what it unlocks, from GET /api/features/tier-requirements, loaded when
 * it opens. Mounted once in the root App; opened from anywhere with openUpgradeModal(). There is
 * no purchase flow until billing exists: members are told how to reach us instead.
 */

export const TIER_REQUIREMENTS_URL = "/api/features/tier-requirements";

export const upgradeModalMessages = {
  loadFailed: "We couldn't load the plans. Check your connection and try again.",
  contact: "For Enterprise or any question about plans, contact us",
} as const;

// ---- labels shared by the access UI -----------------------------------------------------------------

const FEATURE_LABELS: Partial<Record<string, string>> = {
  dataroom_create: "Data rooms",
  basic_permissions: "Basic permissions",
  advanced_permissions: "Advanced permissions",
  audit_logs: "Audit logs",
  "2fa_requirement": "Two-factor requirement",
  api_access: "API access",
  ip_restrictions: "IP restrictions",
  time_limited_access: "Time-limited access",
  e_signatures: "E-signatures",
  core_access: "Files and sharing",
  basic_viewing: "Secure viewer",
  basic_editing: "Organising",
  advanced_features: "Advanced features",
  secrets: "One-time secrets",
  receive_pages: "Receive pages",
};

/** A member-facing name for a feature ("audit_logs" → "Audit logs"); other permission names as they are. */
export function accessLabel(name: string): string {
  const feature = name.startsWith("feature.") ? name.slice("feature.".length) : name;
  const label = FEATURE_LABELS[feature];
  if (label) return label;
  if (FEATURES.some((candidate) => candidate.name === feature)) {
    const words = feature.replaceAll("_", " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }
  return name;
}

/** "1 GB", "2.5 GB", "512 MB". */
export function formatStorage(megabytes: number): string {
  if (megabytes < 1024) return `${megabytes.toLocaleString("en-US")} MB`;
  const gigabytes = megabytes / 1024;
  return `${Number.isInteger(gigabytes) ? gigabytes.toLocaleString("en-US") : gigabytes.toFixed(1)} GB`;
}

/** A limit in words: "2 data rooms", "1 GB of storage per data room", "Unlimited guests per data room". */
export function describeLimit(name: LimitName, value: number): string {
  if (name === "max_dataroom_storage_mb") {
    return value === UNLIMITED ? "Unlimited storage per data room" : `${formatStorage(value)} of storage per data room`;
  }
  const label = LIMIT_LABELS[name];
  if (value === UNLIMITED) return `Unlimited ${label.many}`;
  return `${value.toLocaleString("en-US")} ${value === 1 ? label.one : label.many}`;
}

// ---- the modal's state ---------------------------------------------------------------------------

export type UpgradeModalState = {
  isOpen: boolean;
  /** The plan that unlocks what was asked for (highlighted), or null to simply compare plans. */
  requiredTier: Tier | null;
  /** What the member tried to use, e.g. "Audit logs". */
  reason: string | null;
};

const closedState: UpgradeModalState = { isOpen: false, requiredTier: null, reason: null };
let modalState: UpgradeModalState = closedState;
const listeners = new Set<() => void>();

function setModalState(next: UpgradeModalState): void {
  modalState = next;
  for (const listener of listeners) listener();
}

export function openUpgradeModal(options: { requiredTier?: Tier | null; reason?: string | null } = {}): void {
  setModalState({ isOpen: true, requiredTier: options.requiredTier ?? null, reason: options.reason ?? null });
}

export function closeUpgradeModal(): void {
  if (modalState.isOpen) setModalState({ ...modalState, isOpen: false });
}

export function getUpgradeModalState(): UpgradeModalState {
  return modalState;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUpgradeModalState(): UpgradeModalState {
  return useSyncExternalStore(subscribe, getUpgradeModalState, () => closedState);
}

/** For tests. */
export function resetUpgradeModalForTests(): void {
  modalState = closedState;
  listeners.clear();
}

// ---- the plans -----------------------------------------------------------------------------------

export type PlanSummary = { tier: Tier; label: string; limits: TierLimits; features: string[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseLimits(value: unknown): TierLimits | null {
  if (!isRecord(value)) return null;
  const entries = LIMIT_NAMES.map((name) => [name, value[name]] as const);
  if (!entries.every(([, limit]) => typeof limit === "number" && Number.isFinite(limit))) return null;
  return Object.fromEntries(entries) as TierLimits;
}

/** The answer of GET /api/features/tier-requirements; malformed entries are skipped. */
export function parseTierRequirements(body: unknown): PlanSummary[] {
  const list = isRecord(body) ? body.tier_requirements : null;
  if (!Array.isArray(list)) return [];
  return list.flatMap((record: unknown): PlanSummary[] => {
    if (!isRecord(record)) return [];
    const tier = normalizeTier(record.tier);
    const limits = parseLimits(record.limits);
    if (!tier || !limits) return [];
    const features = Array.isArray(record.features) ? record.features.filter((item): item is string => typeof item === "string") : [];
    const label = typeof record.label === "string" && record.label !== "" ? record.label : TIER_LABELS[tier];
    return [{ tier, label, limits, features }];
  });
}

type PlansState = { status: "idle" | "loading" | "loaded" | "error"; plans: PlanSummary[] };

function PlanCard({ plan, previous, isCurrent, isRequired }: { plan: PlanSummary; previous: PlanSummary | null; isCurrent: boolean; isRequired: boolean }) {
  const headingId = `plan-${plan.tier}-name`;
  return (
    <li
      aria-labelledby={headingId}
      data-testid={`plan-${plan.tier}`}
      data-current={isCurrent || undefined}
      data-required={isRequired || undefined}
      className={clsx(
        "flex flex-col gap-3 rounded-lg border bg-white p-4",
        isRequired ? "border-brand-600 ring-2 ring-brand-600" : isCurrent ? "border-slate-400" : "border-slate-200",
      )}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-base font-semibold text-slate-900">
          {plan.label}
        </h3>
        {isCurrent ? <Badge variant="neutral">Your plan</Badge> : null}
        {isRequired ? <Badge variant="brand">Needed for this</Badge> : null}
      </div>
      <ul className="space-y-1 text-sm text-slate-700">
        {LIMIT_NAMES.map((name) => (
          <li key={name}>{describeLimit(name, plan.limits[name])}</li>
        ))}
      </ul>
      <div className="text-sm">
        <p className="font-medium text-slate-900">{previous ? `Everything in ${previous.label}, plus:` : "Includes:"}</p>
        {plan.features.length > 0 ? (
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-700">
            {plan.features.map((feature) => (
              <li key={feature}>{accessLabel(feature)}</li>
            ))}
          </ul>
        ) : (
          <p className="mt-1 text-slate-600">Higher limits.</p>
        )}
      </div>
    </li>
  );
}

/**
 * The dialog (Radix) is loaded the first time it is needed, not with every page: the host is
 * mounted on every page, most of which never open it. A locked control preloads it.
 */
const loadModal = () => import("~/components/ui/modal");

export function preloadUpgradeModal(): void {
  loadModal().catch(() => undefined);
}

type UpgradeDialogProps = {
  isOpen: boolean;
  title: string;
  description: string;
  footer: (Close: typeof ModalClose) => ReactNode;
  children: ReactNode;
};

const UpgradeDialog = lazy(async () => {
  const { Modal, ModalClose: Close } = await loadModal();
  function Dialog({ isOpen, title, description, footer, children }: UpgradeDialogProps) {
    return (
      <Modal
        open={isOpen}
        onOpenChange={(open) => {
          if (!open) closeUpgradeModal();
        }}
        size="xl"
        title={title}
        description={description}
        footer={footer(Close)}
      >
        {children}
      </Modal>
    );
  }
  return { default: Dialog };
});

/** Mounted once (root App). */
export function UpgradeModalHost({ contactEmail }: { contactEmail: string }) {
  const modal = useUpgradeModalState();
  const currentTier = useUserStore((state) => state.tier);
  const [plansState, setPlansState] = useState<PlansState>({ status: "idle", plans: [] });
  const [hasOpened, setHasOpened] = useState(false);
  if (modal.isOpen && !hasOpened) setHasOpened(true);
  const loadCount = useRef(0);

  const load = useCallback(() => {
    const attempt = ++loadCount.current;
    setPlansState((previous) => ({ status: "loading", plans: previous.plans }));
    request<unknown>(TIER_REQUIREMENTS_URL, { handleErrors: false })
      .then((body) => {
        const plans = parseTierRequirements(body);
        if (plans.length === 0) throw new Error("No plans in the answer");
        if (attempt === loadCount.current) setPlansState({ status: "loaded", plans });
      })
      .catch(() => {
        if (attempt === loadCount.current) setPlansState((previous) => ({ status: "error", plans: previous.plans }));
      });
  }, []);

  // Loaded each time it opens: limits are edited by operators and may have changed.
  useEffect(() => {
    if (modal.isOpen) load();
  }, [modal.isOpen, load]);

  if (!hasOpened) return null;

  const requiredLabel = modal.requiredTier ? TIER_LABELS[modal.requiredTier] : null;
  const title = modal.reason ? `Upgrade to use ${modal.reason}` : "Compare plans";
  const description = requiredLabel
    ? `${modal.reason ?? "This"} is available on the ${requiredLabel} plan and above.`
    : "What each plan includes.";
  const subject = encodeURIComponent(requiredLabel ? `Change my plan to ${requiredLabel}` : "Change my plan");
  // A free trial of the plan that unlocks it (issue 43): /trial says if the member has had theirs.
  const wanted = modal.requiredTier ?? "business";
  // (The tier is unknown on a page the server refused: the offer shows, and /trial says what applies.)
  const trialTier = (TRIAL_TIERS as readonly string[]).includes(wanted) && !tierAtLeast(normalizeTier(currentTier) ?? "free", wanted) ? (wanted as (typeof TRIAL_TIERS)[number]) : null;
  // Buying it at checkout (Settings: subscription with the plan chosen), for the plans sold there.
  const buyTier = (SOLD_TIERS as readonly string[]).includes(wanted) && !tierAtLeast(normalizeTier(currentTier) ?? "free", wanted) ? (wanted as SoldTier) : null;

  return (
    <Suspense fallback={null}>
      <UpgradeDialog
        isOpen={modal.isOpen}
        title={title}
        description={description}
        footer={(Close) => (
          <>
            {trialTier ? (
              <a href={`/trial?tier=${trialTier}`} className={buttonClassName({ variant: "primary" })} onClick={() => closeUpgradeModal()}>
                Try {TIER_LABELS[trialTier]} free for {TRIAL_DAYS} days
              </a>
            ) : null}
            {buyTier ? (
              <a href={`/settings/subscription?plan=${buyTier}`} className={buttonClassName({ variant: trialTier ? "secondary" : "primary" })} onClick={() => closeUpgradeModal()}>
                Buy {TIER_LABELS[buyTier]}
              </a>
            ) : null}
            <p className="mr-auto self-center text-sm text-slate-700" data-testid="plan-contact">
              {upgradeModalMessages.contact}:{" "}
              <a href={`mailto:${contactEmail}?subject=${subject}`} className="font-medium text-brand-700 underline">
                {contactEmail}
              </a>
            </p>
            <Close className={buttonClassName({ variant: "secondary" })}>Close</Close>
          </>
        )}
      >
        {plansState.status === "error" ? (
          <Alert variant="error" className="mb-4">
            <p>{upgradeModalMessages.loadFailed}</p>
            <Button variant="secondary" size="sm" className="mt-2" onClick={load}>
              Try again
            </Button>
          </Alert>
        ) : null}
        {plansState.status === "loading" && plansState.plans.length === 0 ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading plans" />
          </div>
        ) : null}
        {plansState.plans.length > 0 ? (
          <ul aria-label="Plans" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {plansState.plans.map((plan, index) => (
              <PlanCard
                key={plan.tier}
                plan={plan}
                previous={index > 0 ? (plansState.plans[index - 1] ?? null) : null}
                isCurrent={plan.tier === currentTier}
                isRequired={plan.tier === modal.requiredTier}
              />
            ))}
          </ul>
        ) : null}
      </UpgradeDialog>
    </Suspense>
  );
}
