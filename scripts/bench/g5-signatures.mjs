// E-signatures (issue 38): G5, the first-load JavaScript of the recipient's signing page
// (/sign/{token}) and of the public verify page; and sealing a 50-page, 5 MB PDF (time and memory,
// measured in Node with the app's seal code: scripts/bench/seal-measure.ts) against the Worker's
// 128 MB. The envelope is made through the API as a member would.
import { run } from "../lib.mjs";
import { makePdf } from "./pdf-fixture.mjs";
import { uploadViaTus } from "./g8-pdf.mjs";
import { createMember, signIn } from "./session.mjs";

const MB = 1024 * 1024;

export async function bench({ baseUrl, stateDir, add, addFirstLoad }) {
  const login = { email: `bench-sign-${Date.now()}@example.com`, password: "bench-signatures-password-2026" };
  await createMember(stateDir, { ...login, tier: "pro" });
  const owner = await signIn(baseUrl, login);
  const call = async (method, path, body, expected) => {
    const response = await fetch(`${baseUrl}${path}`, { method, headers: owner.headers({ "Content-Type": "application/json", Accept: "application/json" }), body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status !== expected) throw new Error(`g5-signatures: ${method} ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    return response.json();
  };
  const { folders } = await call("GET", "/api/user/default-folders", undefined, 200);
  const inbox = folders.find((folder) => folder.label === "Inbox") ?? folders[0];
  const fileId = await uploadViaTus(baseUrl, owner, { folderId: inbox.uid, name: "Bench contract.pdf", body: makePdf({ pages: 3 }) });
  const signer = `bench-signer-${Date.now()}@example.com`;
  await call("POST", "/api/signatures", { fileId, title: "Bench contract", recipients: [{ roleId: "a", name: "Bench Signer", email: signer }], fields: [{ id: "s", type: "signature", roleId: "a", page: 2, x: 0.1, y: 0.8, w: 0.3, h: 0.07, required: true, label: "", options: [] }], send: true }, 201);
  const mailbox = await (await fetch(`${baseUrl}/dev/mail?to=${encodeURIComponent(signer)}`)).text();
  const token = /\/sign\/([A-Za-z0-9_-]{43})/.exec(mailbox)?.[1];
  if (!token) throw new Error("g5-signatures: the signing link is not in the development mailbox");
  addFirstLoad("/sign/{token}", "public, signing page", 120 * 1024, await (await fetch(`${baseUrl}/sign/${token}`)).text());
  addFirstLoad("/signatures/verify", "public, verify page", 120 * 1024, await (await fetch(`${baseUrl}/signatures/verify`)).text());

  const measured = await run("npx", ["tsx", "--expose-gc", "scripts/bench/seal-measure.ts", "50"], { stdio: "pipe" });
  const line = measured.output.trim().split("\n").at(-1) ?? "";
  if (measured.code !== 0 || !line.startsWith("{")) throw new Error(`g5-signatures: the seal measurement failed: ${measured.output.slice(-500)}`);
  const seal = JSON.parse(line);
  const size = `${seal.pages} pages, ${(seal.inputBytes / MB).toFixed(1)} MB`;
  add("Seal", `sealing a PDF (${size}): values drawn, certificate appended, PAdES signature; median of 3, Node 22`, `${seal.medianMs.toFixed(0)} ms`, "≤ 2,000 ms (a queue job)", seal.medianMs <= 2_000);
  const peak = Math.max(seal.peakHeapBytes, seal.peakRssBytes) + seal.inputBytes + seal.outputBytes;
  add("Seal", `memory while sealing it: the larger of heap and RSS growth (${(Math.max(seal.peakHeapBytes, seal.peakRssBytes) / MB).toFixed(1)} MB) plus the PDF in and out`, `${(peak / MB).toFixed(1)} MB`, "≤ 64 MB (half the Worker's 128 MB)", peak <= 64 * MB);
}
