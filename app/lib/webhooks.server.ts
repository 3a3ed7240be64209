import { encodeHexLowerCase } from "@oslojs/encoding";

/**
 * What every outgoing webhook shares (a form's, a workflow step's): the signature receivers check
 * (the address rule is in webhooks.ts, for the browser too).
 *
 *   Strongroom-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>
 */

/** No answer within this long counts as a failed attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

async function hmacHex(secret: string, value: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return encodeHexLowerCase(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(value))));
}

/** The signature header of a body sent at a time (seconds): what receivers recompute to check it. */
export async function webhookSignature(secret: string, timestamp: number, body: string): Promise<string> {
  return `t=${timestamp},v1=${await hmacHex(secret, `${timestamp}.${body}`)}`;
}

/** A new webhook secret (192 bits), shown to its owner to check signatures with. */
export function newWebhookSecret(): string {
  return `whsec_${encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(24)))}`;
}
