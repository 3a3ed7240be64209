// A secret's page and a request's page (issue 23) and a receive page (issue 24): G5, the first-load
// JavaScript of /secret/{token}, /secret-request/{token} and /r/{token} for an anonymous
// visitor (QUALITY G5's public list). The secret is stored through the API with a well-formed
// sealed body; the page never reads it, so its bytes do not matter here.
import { createMember, signIn } from "./session.mjs";

const b64url = (bytes) => Buffer.from(bytes).toString("base64url");

export async function bench({ baseUrl, stateDir, addFirstLoad }) {
  const login = { email: `bench-secret-${Date.now()}@example.com`, password: "bench-secret-password-2026" };
  await createMember(stateDir, { ...login, tier: "pro" });
  const owner = await signIn(baseUrl, login);
  const body = {
    ciphertext: `v1.${b64url(crypto.getRandomValues(new Uint8Array(12)))}.${b64url(crypto.getRandomValues(new Uint8Array(64)))}`,
    proof: b64url(crypto.getRandomValues(new Uint8Array(32))),
    kdf: null,
    size: 40,
    expiresInHours: 1,
    maxViews: 1,
    label: "G5 bench",
  };
  const response = await fetch(`${baseUrl}/api/secrets`, { method: "POST", headers: owner.headers({ "Content-Type": "application/json" }), body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`g5-secret: POST /api/secrets answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  const { token } = await response.json();
  addFirstLoad("/secret/{token}", "public, secret", 120 * 1024, await (await fetch(`${baseUrl}/secret/${token}`)).text());

  // A request for a secret: the visitor's page.
  const publicKey = new Uint8Array(65);
  publicKey[0] = 4;
  publicKey.set(crypto.getRandomValues(new Uint8Array(64)), 1);
  const requestBody = {
    message: "The G5 bench asks for a secret.",
    publicKey: b64url(publicKey),
    wrappedKey: `v1.${b64url(crypto.getRandomValues(new Uint8Array(12)))}.${b64url(crypto.getRandomValues(new Uint8Array(150)))}`,
    kdf: { alg: "argon2id", salt: b64url(crypto.getRandomValues(new Uint8Array(16))), m: 19456, t: 2, p: 1 },
    expiresInHours: 1,
    maxResponses: 1,
  };
  const created = await fetch(`${baseUrl}/api/secret-requests`, { method: "POST", headers: owner.headers({ "Content-Type": "application/json" }), body: JSON.stringify(requestBody) });
  if (created.status !== 201) throw new Error(`g5-secret: POST /api/secret-requests answered ${created.status}: ${(await created.text()).slice(0, 300)}`);
  const { path } = await created.json();
  addFirstLoad("/secret-request/{token}", "public, request a secret", 120 * 1024, await (await fetch(`${baseUrl}${path}`)).text());

  // A receive page (issue 24): a form page with fields, the visitor's page.
  const folders = await fetch(`${baseUrl}/api/user/default-folders`, { headers: owner.headers({ Accept: "application/json" }) });
  const inbox = (await folders.json()).folders.find((folder) => folder.label === "Inbox");
  const receive = await fetch(`${baseUrl}/api/receive-pages`, {
    method: "POST",
    headers: owner.headers({ "Content-Type": "application/json" }),
    body: JSON.stringify({ kind: "form", title: "G5 bench", folderId: inbox.uid, requireName: true, fields: [{ id: "ref", type: "text", label: "Reference", required: true }] }),
  });
  if (receive.status !== 201) throw new Error(`g5-secret: POST /api/receive-pages answered ${receive.status}: ${(await receive.text()).slice(0, 300)}`);
  const { page } = await receive.json();
  addFirstLoad("/r/{token}", "public, receive page", 120 * 1024, await (await fetch(`${baseUrl}${page.path}`)).text());
}
