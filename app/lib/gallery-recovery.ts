/**
 * Spec §4 "Gallery recovery": after a gallery-related global error (the global handlers in
 * http.ts toast 'Gallery temporarily unavailable. Refreshing...'), this event fires 1 s later and
 * gallery pages draw their gallery again. A module of its own so gallery pages can listen without
 * loading the HTTP client up front (G5).
 */
export const GALLERY_RECOVER_EVENT = "strongroom:gallery-recover";
export const GALLERY_RECOVERY_DELAY_MS = 1_000;
