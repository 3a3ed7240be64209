import { Turnstile } from "@marsidev/react-turnstile";
import { useNonce } from "~/lib/nonce";

/**
 * Cloudflare Turnstile on sign-up (S23), rendered only when the site key and secret are
 * configured. The widget puts its token in the form as `cf-turnstile-response`; the server
 * validates it (single use, 300 s).
 */
export function TurnstileWidget({ siteKey }: { siteKey: string }) {
  const nonce = useNonce();
  return <Turnstile siteKey={siteKey} scriptOptions={{ nonce }} options={{ theme: "light", size: "flexible" }} />;
}
