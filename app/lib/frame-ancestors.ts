/**
 * A page meant to be shown in a frame on other sites (a form's embedded submission view) names
 * them in this response header (space-separated https origins); the security headers middleware
 * (workers/middleware/security-headers.ts) turns it into the CSP's frame-ancestors and removes it.
 * Every other response may be framed by nobody.
 */
export const FRAME_ANCESTORS_HEADER = "X-Strongroom-Frame-Ancestors";

/** What the header may hold: https origins, space-separated. */
export const FRAME_ORIGIN_LIST = /^(https:\/\/[a-z0-9.-]+(:\d{1,5})?)( https:\/\/[a-z0-9.-]+(:\d{1,5})?)*$/;
