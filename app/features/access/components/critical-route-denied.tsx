import { useEffect } from "react";
import type { CriticalRequirement } from "../critical-routes";
import { denyAccess } from "./restricted";
import { UpgradeModalHost } from "./upgrade-modal";

/**
 * A permission-critical page (spec §2: /workflows, /cases, /datarooms) the member's plan does not
 * include: beside the "Access denied" page, the spec's denied action (§4, §6) — the warning toast
 * for 5 s and the upgrade modal naming the plan that has it. Loaded only on that error page.
 */
export default function CriticalRouteDenied({ requirement, contactEmail }: { requirement: CriticalRequirement; contactEmail: string }) {
  useEffect(() => {
    denyAccess("feature" in requirement ? { feature: requirement.feature } : { permission: requirement.permission });
  }, [requirement]);
  return <UpgradeModalHost contactEmail={contactEmail} />;
}
