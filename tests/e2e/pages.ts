/**
 * The app's pages, for the specs that visit every one (axe, the fresh `npm start` check).
 * Placeholders: {inbox} is the member's inbox, {file} a file of theirs, {room} a data room they own.
 */
export const PUBLIC_PAGES = ["/", "/privacy-policy", "/ui", "/login", "/register", "/forgot-password", "/no-such-page"] as const;

export const MEMBER_PAGES = [
  "/settings",
  "/settings/account",
  "/settings/plan",
  "/settings/2fa",
  "/settings/security",
  "/settings/security-level",
  "/settings/storage",
  "/profile",
  "/profile/activity",
  "/profile/data",
  "/confirm-password?redirectTo=%2Fsettings%2F2fa",
  "/folders",
  "/folders/new",
  "/folders/inbox",
  "/folders/outbox",
  "/folders/global-inbox",
  "/folders/global-outbox",
  "/folders/{inbox}",
  "/folders/{inbox}/gallery",
  "/files/{file}",
  "/files/recent",
  "/files/duplicates",
  "/files/tags",
  "/favorites",
  "/templates",
  "/trash",
  "/datarooms",
  "/dataroom/{room}",
  "/dataroom/{room}/profile",
  "/dataroom/{room}/users",
  "/dataroom/{room}/permissions",
  "/dataroom/{room}/activities",
  "/dataroom/{room}/analytics",
  "/dataroom/{room}/security",
  "/dataroom/{room}/sessions",
  "/dataroom/{room}/settings",
] as const;
