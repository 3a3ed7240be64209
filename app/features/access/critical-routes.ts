import type { FeatureName, Permission } from "./access.constants";

/**
 * Spec §2 "Permission-critical routes": /workflows, /cases and /datarooms are checked on the
 * server before anything renders, whatever page later lives there. The root loader applies this
 * table to every page request; each page still checks its own objects.
 */
export type CriticalRequirement = { feature: FeatureName } | { permission: Permission };

const criticalRoutes: ReadonlyArray<{ prefix: string; requirement: CriticalRequirement }> = [
  { prefix: "/workflows", requirement: { feature: "workflows" } },
  { prefix: "/cases", requirement: { feature: "workflows" } },
  { prefix: "/datarooms", requirement: { permission: "core_access" } },
];

export function criticalRequirement(pathname: string): CriticalRequirement | null {
  const match = criticalRoutes.find((route) => pathname === route.prefix || pathname.startsWith(`${route.prefix}/`));
  return match?.requirement ?? null;
}
