import { useRouteLoaderData } from "react-router";

/**
 * The part of the root loader's data that shared components read. Declared here, not taken from
 * app/root.tsx, because the root imports those components: a component importing the root back
 * would be a cycle. The root loader returns at least this.
 */
export type RootData = { csrfToken: string };

/** The request's CSRF token, as the root loader handed it to the page (ADR 007). */
export function useCsrfToken(): string {
  return useRouteLoaderData<RootData>("root")?.csrfToken ?? "";
}
