import type { Logger } from "~/lib/log.server";
import type { SessionValidation } from "~/features/auth/session.server";
import type { Actor } from "~/lib/service-context.server";

/** Hono's environment for every sub-app: the generated `Env` plus per-request variables. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    logger: Logger;
    /** Set by hono/secure-headers; the SSR document uses it on every <script>. */
    secureHeadersNonce?: string;
    csrfToken: string;
    isSecure: boolean;
    /** Any live session (verified or still owing its second factor), from the session middleware. */
    auth: SessionValidation | null;
    /** The fully signed-in member (verified session), or null. */
    actor: Actor | null;
  };
};
