import { env, exports } from "cloudflare:workers";
import { csrfTokenFor } from "~/lib/csrf.server";

export const origin = "https://strongroom.test";
export const testEnv = env as Env;

/** A CSRF cookie + matching token, obtained the way a browser does: by loading any response first. */
export async function csrfSession(): Promise<{ cookie: string; token: string }> {
  const response = await exports.default.fetch(`${origin}/api/health`);
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0]!;
  const secret = cookie.split("=")[1]!;
  return { cookie, token: await csrfTokenFor(testEnv.SESSION_SECRET, secret) };
}

export async function countRows(table: string): Promise<number> {
  const row = await testEnv.DB.prepare(`select count(*) as n from ${table}`).first<{ n: number }>();
  return row?.n ?? 0;
}

export async function insertJobRow(row: { id: string; type: string; status: string; createdAt: number; updatedAt: number }) {
  await testEnv.DB.prepare("insert into jobs (id, type, status, created_at, updated_at) values (?, ?, ?, ?, ?)")
    .bind(row.id, row.type, row.status, row.createdAt, row.updatedAt)
    .run();
}

export async function jobStatus(id: string) {
  return testEnv.DB.prepare("select status, retry_count as retryCount, last_error as lastError from jobs where id = ?")
    .bind(id)
    .first<{ status: string; retryCount: number; lastError: string | null }>();
}

// ---- accounts: cookies, sign-in and the JSON auth endpoints --------------------------------------

export const SESSION_COOKIE = "__Host-strongroom_session";
export const CSRF_COOKIE = "__Host-strongroom_csrf";

/** A fresh private IPv4 address, so per-IP attempt counters never leak from one test into another. */
export function uniqueIp(): string {
  const bytes = new Uint8Array(3);
  crypto.getRandomValues(bytes);
  return `10.${bytes[0]}.${bytes[1]}.${bytes[2]}`;
}

/** A browser's cookie store, reduced to what these tests need: Set-Cookie updates it, `header()` sends it. */
export class CookieJar {
  private readonly values = new Map<string, string>();

  constructor(cookieHeader = "") {
    for (const part of cookieHeader.split(";")) {
      const index = part.indexOf("=");
      if (index > 0) this.values.set(part.slice(0, index).trim(), part.slice(index + 1).trim());
    }
  }

  /** Applies every Set-Cookie of a response: a new value replaces the old, an empty or Max-Age=0 one removes it. */
  store(response: Response): this {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const index = pair.indexOf("=");
      if (index <= 0) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = value === "" || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired) this.values.delete(name);
      else this.values.set(name, value);
    }
    return this;
  }

  get(name: string): string | undefined {
    return this.values.get(name);
  }

  /** A copy with one cookie replaced (or removed with `undefined`): to replay an old session cookie. */
  with(name: string, value: string | undefined): CookieJar {
    const copy = new CookieJar(this.header());
    if (value === undefined) copy.values.delete(name);
    else copy.values.set(name, value);
    return copy;
  }

  header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** Merges a response's Set-Cookie values into a Cookie header. */
export function mergeSetCookies(cookieHeader: string, response: Response): string {
  return new CookieJar(cookieHeader).store(response).header();
}

/** One browser tab: its cookies, the CSRF token its page holds, and the address it calls from. */
export type AuthClient = { jar: CookieJar; csrfToken: string; ip: string };

export async function newAuthClient(ip = uniqueIp()): Promise<AuthClient> {
  const { cookie, token } = await csrfSession();
  return { jar: new CookieJar(cookie), csrfToken: token, ip };
}

/**
 * An unsafe JSON request the way the app's own fetch wrapper sends it (cookies, X-CSRF-TOKEN,
 * same-site Origin). The client's cookies follow Set-Cookie, and its CSRF token follows the
 * `csrf_token` of a JSON answer (sign-in and sign-out rotate it).
 */
export async function postJson(client: AuthClient, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const response = await exports.default.fetch(`${origin}${path}`, {
    method: "POST",
    headers: {
      cookie: client.jar.header(),
      "x-csrf-token": client.csrfToken,
      origin,
      "content-type": "application/json",
      "cf-connecting-ip": client.ip,
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  client.jar.store(response);
  if (response.ok && (response.headers.get("content-type") ?? "").includes("application/json")) {
    const parsed = await response.clone().json<{ csrf_token?: unknown }>();
    if (typeof parsed.csrf_token === "string") client.csrfToken = parsed.csrf_token;
  }
  return response;
}

export type PublicUserBody = { id: string; name: string; email: string; emailVerified: boolean; tier: string };
export type LoginBody = {
  user: PublicUserBody;
  requires_email_2fa: boolean;
  requires_google_2fa: boolean;
  csrf_token: string;
};
export type ErrorBody = { message: string; code: string };

/** POST /login as JSON from a fresh (or the given) client; `body` is the parsed answer, success or error. */
export async function loginJson(
  email: string,
  password: string,
  options: { ip?: string; client?: AuthClient } = {},
): Promise<{ response: Response; body: LoginBody & ErrorBody; client: AuthClient }> {
  const client = options.client ?? (await newAuthClient(options.ip));
  const response = await postJson(client, "/login", { email, password });
  return { response, body: await response.json(), client };
}

export async function verifyTwoFactorJson(client: AuthClient, code: string): Promise<Response> {
  return postJson(client, "/2fa/verify", { code });
}

export async function logoutJson(client: AuthClient): Promise<Response> {
  return postJson(client, "/logout", {});
}

export type AuthCheckBody = { authenticated: boolean; user: PublicUserBody | null; requires_verification: boolean };

/** GET /auth-check with the given Cookie header (or a client's cookies). */
export async function authCheck(cookies: string | AuthClient): Promise<AuthCheckBody> {
  const cookie = typeof cookies === "string" ? cookies : cookies.jar.header();
  const response = await exports.default.fetch(`${origin}/auth-check`, { headers: cookie ? { cookie } : {} });
  return response.json<AuthCheckBody>();
}

/** Every mail recorded for one address, oldest first. */
export async function mailsTo(address: string) {
  const { results } = await testEnv.DB.prepare(
    "select id, template, subject, text_body as textBody from mail_outbox where to_address = ? order by created_at, rowid",
  )
    .bind(address)
    .all<{ id: string; template: string; subject: string; textBody: string }>();
  return results;
}

export async function sessionRowsFor(userId: string) {
  const { results } = await testEnv.DB.prepare("select * from sessions where user_id = ?").bind(userId).all<Record<string, unknown>>();
  return results;
}
