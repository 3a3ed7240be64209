import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { EnvelopeDetail } from "~/features/signatures/envelopes.server";
import { completeEnvelope } from "~/features/signatures/seal-envelope.server";
import type { SignField } from "~/features/signatures/signature-fields";
import { createFile, personalSpaceOf, testContext } from "~tests/factories/files";
import { contractPdf } from "~tests/shared/signature-fixtures";
import { send, type Person } from "./dataroom-helpers";
import { mailsTo, origin, type AuthClient } from "./helpers";

/** Helpers for the e-signature tests (issue 38). */

export async function pdfInPersonalSpace(owner: Person, pages = 2, name = "Agreement.pdf") {
  const space = await personalSpaceOf(owner.id);
  const file = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name, content: new Uint8Array(await contractPdf(pages)), contentType: "application/pdf", uploadedBy: owner.id });
  return { file, space };
}

export type RecipientInput = { roleId: string; name: string; email: string; kind?: "signer" | "approver" | "viewer"; requireCode?: boolean };

export function signatureField(roleId: string, id: string, overrides: Partial<SignField> = {}): SignField {
  return { id, type: "signature", roleId, page: 0, x: 0.1, y: 0.8, w: 0.3, h: 0.07, required: true, label: "", options: [], ...overrides };
}

export async function createEnvelope(owner: Person, body: Record<string, unknown>, expected = 201): Promise<EnvelopeDetail> {
  const response = await send(owner.client, "POST", "/api/signatures", body);
  expect(response.status, await response.clone().text()).toBe(expected);
  return (await response.json<{ envelope: EnvelopeDetail }>()).envelope;
}

let counter = 0;
/** A unique recipient address per test run (the outbox is shared by the whole suite). */
export function address(name: string): string {
  counter += 1;
  return `${name}.${Date.now().toString(36)}${counter}@example.com`;
}

/** The newest signing link mailed to an address, as its token. */
export async function linkTokenFor(email: string): Promise<string> {
  const mail = (await mailsTo(email)).filter((one) => one.template === "signature-request").at(-1);
  expect(mail, `no signing e-mail to ${email}`).toBeTruthy();
  return /\/sign\/([A-Za-z0-9_-]{43})/.exec(mail!.textBody)![1]!;
}

export function openLink(token: string) {
  return exports.default.fetch(`${origin}/api/sign/${token}`, { headers: { accept: "application/json" } });
}

/** A visitor's JSON POST to the signing API (anonymous: the CSRF pair of a fresh client). */
export function signAs(visitor: AuthClient, token: string, path: string, body: unknown, cookie = "") {
  return exports.default.fetch(`${origin}/api/sign/${token}${path}`, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/json", origin, cookie: [visitor.jar.header(), cookie].filter(Boolean).join("; "), "x-csrf-token": visitor.csrfToken },
    body: JSON.stringify(body),
  });
}

/** The seal job's work, run here (the queue may run it too: it is idempotent). */
export async function sealNow(envelopeId: string) {
  await completeEnvelope(testContext(), envelopeId);
}
