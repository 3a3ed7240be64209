import { z } from "zod";
import type { AppConfig } from "~/lib/config.server";

const SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
const responseSchema = z.object({ success: z.boolean(), "error-codes": z.array(z.string()).optional() });

/**
 * Server-side Turnstile validation (S23). Tokens are single use and expire after 300 s; the
 * idempotency key lets a retried validation of the same submission succeed once.
 */
export async function verifyTurnstile(
  config: AppConfig,
  input: { token: unknown; ip: string | null; idempotencyKey: string },
  fetcher: typeof fetch = fetch,
): Promise<boolean> {
  if (!config.isTurnstileEnabled) return true;
  if (typeof input.token !== "string" || input.token.length === 0 || input.token.length > 2048) return false;
  const body = new FormData();
  body.set("secret", config.TURNSTILE_SECRET_KEY ?? "");
  body.set("response", input.token);
  body.set("idempotency_key", input.idempotencyKey);
  if (input.ip) body.set("remoteip", input.ip);
  try {
    const response = await fetcher(SITEVERIFY_URL, { method: "POST", body });
    const parsed = responseSchema.safeParse(await response.json());
    return parsed.success && parsed.data.success;
  } catch {
    return false;
  }
}
