/**
 * Spec §7: after sign-in and after the second factor, the user store initialises, forced (no
 * cache, fresh from the server). Loaded on demand: the sign-in pages stay light (and
 * apart from user-page-props, which the store itself imports).
 */
export async function initializeUserStoreAfterSignIn(): Promise<void> {
  const store = await import("./user-store");
  await store.initializeUserStore({ force: true });
}
