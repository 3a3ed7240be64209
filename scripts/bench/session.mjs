// A signed-in member for the benchmarks: created with `npm run ops -- user:create` in the bench
// server's local state, then signed in through the spec's JSON POST /login like the browser.
import { run } from "../lib.mjs";

/** Creates the member (ignores "already exists") in `stateDir`. */
export async function createMember(stateDir, { email, password, tier = "business" }) {
  await run("npm", ["run", "--silent", "ops", "--", "user:create", `--email=${email}`, `--password=${password}`, `--tier=${tier}`, `--persist-to=${stateDir}`], {
    stdio: "pipe",
  });
}

/**
 * Signs in and returns { cookie, csrf, headers(extra) }: the cookies and the CSRF token every
 * state-changing request needs (X-CSRF-TOKEN plus a same-origin Origin header).
 */
export async function signIn(baseUrl, { email, password }) {
  const jar = new Map();
  const remember = (response) => {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const index = pair.indexOf("=");
      jar.set(pair.slice(0, index), pair.slice(index + 1));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const page = await fetch(`${baseUrl}/login`);
  remember(page);
  const html = await page.text();
  let csrf = html.match(/<meta name="csrf-token" content="([^"]+)"/)?.[1];
  if (!csrf) throw new Error("bench: no csrf-token meta tag on /login");
  const login = await fetch(`${baseUrl}/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", Cookie: cookie(), "X-CSRF-TOKEN": csrf, Origin: baseUrl, "X-Requested-With": "XMLHttpRequest" },
    body: JSON.stringify({ email, password }),
  });
  remember(login);
  if (!login.ok) throw new Error(`bench: sign-in failed with ${login.status}: ${await login.text()}`);
  const body = await login.json();
  csrf = body.csrf_token ?? csrf;
  return {
    cookie: cookie(),
    csrf,
    headers: (extra = {}) => ({ Cookie: cookie(), "X-CSRF-TOKEN": csrf, Origin: baseUrl, "X-Requested-With": "XMLHttpRequest", ...extra }),
  };
}
