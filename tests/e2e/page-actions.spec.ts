import { readFileSync } from "node:fs";
import { createMember, expect, test } from "./fixtures";

/**
 * Every page that has an action (found by reading app/routes.ts and each route module, so a new
 * one is walked without editing this file) answers a body that is not a form with a 4xx and a
 * message a person can act on: never a 5xx.
 */
function pagesWithActions(): string[] {
  const routes = readFileSync("app/routes.ts", "utf8");
  const pages: string[] = [];
  for (const match of routes.matchAll(/route\("([^"]+)",\s*"([^"]+)"/g)) {
    const [, path, file] = match as unknown as [string, string, string];
    const source = readFileSync(`app/${file}`, "utf8");
    if (!/export (async function|const) action\b/.test(source)) continue;
    pages.push(`/${path}`);
  }
  return pages;
}

const JSON_ENDPOINTS = ["/login", "/2fa/verify"];

const badBodies = [
  { kind: "JSON", type: "application/json", body: JSON.stringify({ name: "Ada", email: "ada@example.com" }), status: 415 },
  { kind: "plain text", type: "text/plain", body: "name=Ada", status: 415 },
  { kind: "broken multipart", type: "multipart/form-data; boundary=----strongroom", body: "------strongroom\r\nnot a part", status: 400 },
];

test("every page action answers a body that is not a form with a 4xx and a message, never a 5xx", async ({ page }) => {
  const pages = pagesWithActions();
  expect(pages.length, "app/routes.ts names the pages with actions").toBeGreaterThanOrEqual(15);
  await createMember(page.request, { tier: "pro" });
  const csrf = ((await (await page.request.get("/__test/csrf")).json()) as { csrfToken: string }).csrfToken;
  const answers: string[] = [];
  for (const path of pages) {
    for (const bad of badBodies) {
      const response = await page.request.post(path, { headers: { "content-type": bad.type, "x-csrf-token": csrf }, data: bad.body, maxRedirects: 0 });
      const body = (await response.json().catch(() => null)) as { message?: string } | null;
      // POST /login and /2fa/verify with JSON are the spec's JSON endpoints: their own 4xx answers.
      const expected = bad.kind === "JSON" && JSON_ENDPOINTS.includes(path) ? "4xx" : String(bad.status);
      const status = expected === "4xx" && response.status() >= 400 && response.status() < 500 ? "4xx" : String(response.status());
      answers.push(`${path} ${bad.kind}: ${status} ${body?.message ? "with a message" : "without a message"}`);
    }
  }
  expect(answers).toEqual(
    pages.flatMap((path) =>
      badBodies.map((bad) => `${path} ${bad.kind}: ${bad.kind === "JSON" && JSON_ENDPOINTS.includes(path) ? "4xx" : bad.status} with a message`),
    ),
  );
});
