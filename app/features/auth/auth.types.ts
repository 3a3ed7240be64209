/** What the browser may know about the signed-in member (first page load, /login, /auth-check). */
export type PublicUser = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  tier: string;
};
