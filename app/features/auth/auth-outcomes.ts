/**
 * The auth "success" and "error" pages show one of these fixed messages, chosen by a key in the
 * URL: no text from the URL is ever shown, so a crafted link cannot put words in our mouth.
 */
export const authSuccessMessages = {
  "email-verified": {
    title: "E-mail address confirmed",
    body: "Your account is ready.",
    action: { label: "Continue", to: "/" },
  },
  "password-reset": {
    title: "Password changed",
    body: "Your new password is set and every session was signed out. Sign in with your new password.",
    action: { label: "Sign in", to: "/login" },
  },
  "signed-out": {
    title: "Signed out",
    body: "You have been signed out.",
    action: { label: "Sign in again", to: "/login" },
  },
} as const;

export const authErrorMessages = {
  "link-invalid": {
    title: "This link no longer works",
    body: "The link is invalid, was already used, or has expired. Ask for a new one.",
    action: { label: "Back to sign in", to: "/login" },
  },
  "session-expired": {
    title: "Your session has ended",
    body: "For your security, please sign in again.",
    action: { label: "Sign in", to: "/login" },
  },
  unknown: {
    title: "Something went wrong",
    body: "We could not complete that. Please try again.",
    action: { label: "Back to sign in", to: "/login" },
  },
} as const;

export function pickOutcome<T extends Record<string, unknown>>(messages: T, key: string | null, fallback: keyof T): T[keyof T] {
  return key && Object.hasOwn(messages, key) ? messages[key as keyof T] : messages[fallback];
}
