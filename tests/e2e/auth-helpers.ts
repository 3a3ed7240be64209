import { generateHOTP } from "@oslojs/otp";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { CONSENT_COOKIE, expect, gotoHydrated, waitForHydration } from "./fixtures";

/**
 * Shared steps of the account e2e specs. State persists across the tests of one run, so every
 * test makes its own member with a unique e-mail address.
 */
export type Member = { name: string; email: string; password: string };

export const INVALID_CREDENTIALS = "The e-mail address or password is not correct.";
export { CONSENT_COOKIE };

export function newMember(): Member {
  return { name: "Ada Tester", email: `${crypto.randomUUID()}@example.com`, password: `correct horse ${crypto.randomUUID().slice(0, 8)}` };
}

/** The link of a mail as a path on the server under test (whatever origin the mail names). */
function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

export type Mail = { subject: string; text: string; link: string | null; code: string | null };

/**
 * Reads the newest message to `email` whose subject matches, in the development mailbox
 * (/dev/mail), in a tab of its own so the page under test stays where it is. Returns its first
 * link (as a path) and its first 6-digit code.
 */
export async function readLatestMail(page: Page, email: string, subject: RegExp): Promise<Mail> {
  const mailbox = await page.context().newPage();
  try {
    await mailbox.goto(`/dev/mail?to=${encodeURIComponent(email)}`);
    const message = mailbox.getByTestId("mail-message").filter({ has: mailbox.getByRole("heading", { name: subject }) }).first();
    await expect(message).toBeVisible();
    const subjectText = (await message.getByRole("heading").first().textContent()) ?? "";
    const text = (await message.locator("pre").textContent()) ?? "";
    const links = message.getByRole("link");
    const link = (await links.count()) > 0 ? await links.first().getAttribute("href") : null;
    const code = /\b(\d{6})\b/.exec(`${subjectText}\n${text}`)?.[1] ?? null;
    return { subject: subjectText, text, link: link ? pathOf(link) : null, code };
  } finally {
    await mailbox.close();
  }
}

export const SIGN_UP_TIMEOUT_MS = 20_000;

/** Fills in and sends the sign-up form; the page then says to check the inbox. */
export async function submitSignUp(page: Page, member: Member): Promise<void> {
  await gotoHydrated(page, "/register");
  await page.getByLabel("Name").fill(member.name);
  await page.getByLabel("E-mail address").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Create account" }).click();
  // Sign-up hashes the password (scrypt) and, on a fresh server, first loads the common-password
  // list: allow for that on a busy CI machine.
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible({ timeout: SIGN_UP_TIMEOUT_MS });
}

/** Signs up through the form and confirms the address with the link from the mail: signed in afterwards. */
export async function registerAndVerify(page: Page, member: Member = newMember()): Promise<Member> {
  await submitSignUp(page, member);

  const mail = await readLatestMail(page, member.email, /^Confirm your e-mail address$/);
  expect(mail.link).toMatch(/^\/verify-email\?token=/);
  await gotoHydrated(page, mail.link!);
  await page.getByRole("button", { name: "Confirm my e-mail address" }).click();
  await expect(page.getByRole("heading", { name: "E-mail address confirmed" })).toBeVisible();
  await expect(signOutButton(page)).toBeVisible();
  return member;
}

export function signOutButton(page: Page) {
  return page.getByRole("banner").getByRole("button", { name: "Sign out" });
}

/**
 * Fills the sign-in form. Opens /login first unless the page is already on it (e.g. after a
 * redirect that carries ?redirectTo=). Does not wait for where the member lands.
 */
export async function submitSignIn(page: Page, member: Pick<Member, "email" | "password">): Promise<void> {
  if (new URL(page.url()).pathname !== "/login") await gotoHydrated(page, "/login");
  else await waitForHydration(page);
  await page.getByLabel("E-mail address").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signs in without a second factor and waits until the header shows the member. */
export async function signIn(page: Page, member: Pick<Member, "email" | "password">): Promise<void> {
  await submitSignIn(page, member);
  await expect(signOutButton(page)).toBeVisible();
}

/** The header's sign-out button; the member lands on the sign-in page. */
export async function signOut(page: Page): Promise<void> {
  await waitForHydration(page);
  await signOutButton(page).click();
  await page.waitForURL((url) => url.pathname === "/login");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
}

/** What the server says about this browser's session (GET /auth-check). */
export async function authCheck(page: Page): Promise<{ authenticated: boolean; requires_verification: boolean; user: { email?: string } | null }> {
  const response = await page.request.get("/auth-check");
  expect(response.ok()).toBe(true);
  return (await response.json()) as { authenticated: boolean; requires_verification: boolean; user: { email?: string } | null };
}

/** The current code of an authenticator app holding this base32 key. */
/**
 * The authenticator's code. Each code is accepted once, so a later sign-in in the same
 * 30 seconds uses `stepOffset: 1` (the next code, which the server accepts for clock drift).
 */
export function totpCode(manualKey: string, { stepOffset = 0 } = {}): string {
  const key = decodeBase32IgnorePadding(manualKey.replace(/\s/g, ""));
  return generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000) + stepOffset), 6);
}

/** A second browser (own cookies) with cookie consent given, as the `page` fixture has. */
export async function newConsentedContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL });
  await context.addCookies([{ name: CONSENT_COOKIE, value: "essential", url: baseURL }]);
  return context;
}

/** Waits until React Router has no navigation, revalidation or fetcher in flight. */
export async function waitForRouterIdle(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const router = (window as unknown as { __reactRouterDataRouter?: { state: { navigation: { state: string }; revalidation: string; fetchers: Map<string, unknown> } } })
      .__reactRouterDataRouter;
    return router !== undefined && router.state.navigation.state === "idle" && router.state.revalidation === "idle" && router.state.fetchers.size === 0;
  });
}
