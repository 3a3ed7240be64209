import { clsx } from "clsx";
import { useEffect, useMemo, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";
import { showToast } from "~/components/ui/toast";
import {
  DEFAULT_REQUIRED_TIER,
  TIER_LABELS,
  type AddonType,
  type FeatureName,
  type Permission,
  type Tier,
} from "../access.constants";
import { requirementFor } from "../access-check";
import { featureIn, permissionIn, useUserStore, type UserStoreState } from "../user-store";
import { accessLabel, openUpgradeModal, preloadUpgradeModal } from "./upgrade-modal";

/**
 * Restricted elements (spec §2, §6 "Permission directive", "Denied action"): a control the member
 * may not use is dimmed behind a lock with a tooltip naming the plan that has it; pressing it
 * (click, Enter or Space) does nothing but show the warning toast for 5 s and open the upgrade
 * modal. With hideOnDenied it is not shown at all. Allowed controls are rendered untouched.
 */

export const DENIED_TOAST_TIMEOUT_MS = 5000;

export const restrictedMessages = {
  denied: (name: string) => `You don't have the required permission: ${name}`,
  checkFailed: "Error checking access permissions",
  availableOnPlan: (tierLabel: string) => `Available on the ${tierLabel} plan`,
  availableWithAddon: (addonLabel: string) => `Available with the ${addonLabel} add-on`,
} as const;

export const ADDON_LABELS: Record<AddonType, string> = {
  extra_datarooms: "Extra data rooms",
  extra_storage: "Extra storage",
  e_signatures: "E-signatures",
  dataroom_team: "Data room team",
  dataroom_guests: "Data room guests",
};

type TargetOptions = { scope?: string; requiredTier?: Tier; hideOnDenied?: boolean };
type AnyName<Known extends string> = Known | (string & {});

/** A permission name, or { permission | feature, scope, requiredTier, hideOnDenied } (spec §6). */
export type RestrictedTarget =
  | AnyName<Permission>
  | ({ permission: AnyName<Permission>; feature?: undefined } & TargetOptions)
  | ({ feature: AnyName<FeatureName>; permission?: undefined } & TargetOptions);

type NormalizedTarget = { kind: "permission" | "feature"; name: string } & TargetOptions;

function normalizeTarget(target: RestrictedTarget): NormalizedTarget {
  if (typeof target === "string") return { kind: "permission", name: target };
  if (target.feature !== undefined) return { ...target, kind: "feature", name: target.feature };
  return { ...target, kind: "permission", name: target.permission };
}

export type AccessDecision = { isAllowed: boolean; hasFailed: boolean };

/** The decision for a target; a check that throws is a denial that remembers it failed. */
export function decideAccess(state: UserStoreState, target: RestrictedTarget): AccessDecision {
  try {
    const normalized = normalizeTarget(target);
    const isAllowed =
      normalized.kind === "feature"
        ? featureIn(state, normalized.name, normalized.scope)
        : permissionIn(state, normalized.name, normalized.scope);
    return { isAllowed, hasFailed: false };
  } catch (error) {
    console.error("Access check failed", error);
    return { isAllowed: false, hasFailed: true };
  }
}

/** The plan to offer: the one given, else the lowest that has it, else business (spec §6). */
export function requiredTierFor(target: RestrictedTarget): Tier {
  const normalized = normalizeTarget(target);
  return normalized.requiredTier ?? requirementFor(normalized.name).requiredTier ?? DEFAULT_REQUIRED_TIER;
}

/** The tooltip: "Available on the Pro plan", or the add-on that grants it. */
export function lockedHint(target: RestrictedTarget): string {
  const normalized = normalizeTarget(target);
  if (!normalized.requiredTier) {
    const requirement = requirementFor(normalized.name);
    if (requirement.isAddon && requirement.addonType) return restrictedMessages.availableWithAddon(ADDON_LABELS[requirement.addonType]);
  }
  return restrictedMessages.availableOnPlan(TIER_LABELS[requiredTierFor(target)]);
}

/** Spec §6 "Denied action": the warning toast for 5 s and the upgrade modal; or the check-failure toast. */
export function denyAccess(target: RestrictedTarget, hasFailed = false): void {
  if (hasFailed) {
    showToast(restrictedMessages.checkFailed, { type: "error", id: "access-check-failed" });
    return;
  }
  const normalized = normalizeTarget(target);
  const name = accessLabel(normalized.name);
  showToast(restrictedMessages.denied(name), {
    type: "warning",
    timeout: DENIED_TOAST_TIMEOUT_MS,
    // Pressing a locked control again does not stack a second toast.
    id: `access-denied:${normalized.name}`,
  });
  openUpgradeModal({ requiredTier: requiredTierFor(target), reason: name });
}

/**
 * For actions that are not a single element (a menu command, a keyboard shortcut): `run(target,
 * action)` runs the action if allowed, else handles the denial; `isAllowed(target)` only asks.
 */
export function useRestrictedAction() {
  const snapshot = useUserStore((state) => state);
  return useMemo(
    () => ({
      isAllowed: (target: RestrictedTarget): boolean => decideAccess(snapshot, target).isAllowed,
      run: (target: RestrictedTarget, action?: () => void): boolean => {
        const decision = decideAccess(snapshot, target);
        if (!decision.isAllowed) {
          denyAccess(target, decision.hasFailed);
          return false;
        }
        action?.();
        return true;
      },
    }),
    [snapshot],
  );
}

function LockIcon({ className }: { className?: string }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 20 20" fill="currentColor" className={className}>
      <path
        fillRule="evenodd"
        d="M10 1a4.5 4.5 0 0 0-4.5 4.5V9H5a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2h-.5V5.5A4.5 4.5 0 0 0 10 1Zm3 8V5.5a3 3 0 1 0-6 0V9h6Z"
        clipRule="evenodd"
      />
    </svg>
  );
}

export type RestrictedProps = (
  | { permission: AnyName<Permission>; feature?: undefined }
  | { feature: AnyName<FeatureName>; permission?: undefined }
) & {
  /** The plan to name and offer; by default the lowest plan that has it (else Business). */
  requiredTier?: Tier;
  /** Default: the member's current scope, else global. */
  scope?: string;
  /** Denied: render nothing instead of the locked control. */
  hideOnDenied?: boolean;
  /** What the control does, for screen readers ("Open Audit logs"); the locked wrapper hides the children. */
  label?: string;
  className?: string;
  children: ReactNode;
};

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

export function Restricted({ permission, feature, requiredTier, scope, hideOnDenied, label, className, children }: RestrictedProps) {
  const target: RestrictedTarget =
    feature !== undefined ? { feature, scope, requiredTier } : { permission: permission ?? "", scope, requiredTier };
  const decision = useUserStore((state) => decideAccess(state, target));
  const isLocked = !decision.isAllowed && !hideOnDenied;
  useEffect(() => {
    // Pressing a locked control opens the upgrade modal: have its code ready by then.
    if (isLocked) preloadUpgradeModal();
  }, [isLocked]);
  if (decision.isAllowed) return <>{children}</>;
  if (hideOnDenied) return null;

  const hint = lockedHint(target);
  const announcement = `Locked: ${lowerFirst(hint)}`;
  // Blocked in the capture phase, so neither the children nor anything around them sees the press.
  const onActivate = (event: MouseEvent | KeyboardEvent) => {
    event.preventDefault();
    event.stopPropagation();
    denyAccess(target, decision.hasFailed);
  };
  // The tooltip sits beside the button, not in it: shown on hover, it must not become part of the
  // button's visible text (axe's label-content-name-mismatch compares that text with the name).
  return (
    <span className={clsx("group relative inline-flex", className)}>
      <span
        role="button"
        tabIndex={0}
        aria-label={label ? `${label}. ${announcement}` : announcement}
        data-restricted="locked"
        className={clsx(
          "inline-flex w-full cursor-not-allowed items-center gap-1.5 rounded-md",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
        )}
        onClickCapture={onActivate}
        onKeyDownCapture={(event) => {
          if (event.key === "Enter" || event.key === " ") onActivate(event);
        }}
      >
        {/* Inert and hidden: not focusable, not clickable, not announced; the wrapper speaks for it. */}
        <span inert aria-hidden="true" className="pointer-events-none select-none opacity-50 grayscale">
          {children}
        </span>
        <LockIcon className="h-4 w-4 shrink-0 text-slate-500" />
      </span>
      <span
        aria-hidden="true"
        data-testid="restricted-tooltip"
        className={clsx(
          // Not displayed until hovered or focused: an invisible tooltip would still widen the page
          // (a locked control near the right edge made the plan page scroll sideways).
          "pointer-events-none absolute bottom-full left-1/2 z-20 mb-2 hidden -translate-x-1/2 whitespace-nowrap rounded",
          "bg-slate-900 px-2 py-1 text-xs font-medium text-white shadow",
          "group-hover:block group-focus-within:block",
        )}
      >
        {hint}
      </span>
    </span>
  );
}
