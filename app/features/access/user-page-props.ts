import { createContext } from "react";

/**
 * The page's own access data (root loader), for the server render and until the user store has
 * been initialised in the browser: the first paint already shows the right controls as locked.
 * Its own tiny module so the root can provide it without loading the store on public pages.
 */
export type UserPageProps = {
  user: { id: string } | null;
  tier: string | null;
  permissions: readonly string[];
  features: Readonly<Record<string, boolean>>;
};

export const UserPagePropsContext = createContext<UserPageProps | null>(null);

/** Spec §4 "Application start": authenticated if the props hold a user with an id, or a non-empty tier. */
export function isAuthenticatedPage(props: UserPageProps | null | undefined): boolean {
  return Boolean((typeof props?.user?.id === "string" && props.user.id !== "") || (typeof props?.tier === "string" && props.tier.trim() !== ""));
}

/** The user store's local-storage keys (spec §9), and clearing them at sign-out. */
export const USER_DATA_CACHE_KEY = "user-data-cache";
export const USER_PRELOAD_CACHE_KEY = "user-preload-cache";

export function clearUserDataCaches(): void {
  try {
    localStorage.removeItem(USER_DATA_CACHE_KEY);
    localStorage.removeItem(USER_PRELOAD_CACHE_KEY);
  } catch {
    // Storage unavailable: nothing was cached.
  }
}
