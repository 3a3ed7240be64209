/** Browser-safe constants shared by the "Your data" page and the services. */

/** What the member types to confirm account deletion (case-sensitive). */
export const DELETE_CONFIRMATION = "DELETE";

/** How many data exports a member may download per hour. */
export const EXPORTS_PER_HOUR = 5;
