import { createMiddleware } from "hono/factory";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { FRAME_ANCESTORS_HEADER, FRAME_ORIGIN_LIST } from "~/lib/frame-ancestors";

/**
 * Security headers on every response (S17). The CSP uses a fresh nonce per request, which the
 * SSR document puts on every <script> and <link>; 'strict-dynamic' lets those scripts load the
 * route chunks. Inline style attributes stay allowed: the UI primitives position popovers with them.
 */
const secureHeadersMiddleware = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: [NONCE, "'strict-dynamic'", "'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:"],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    mediaSrc: ["'self'", "blob:"],
    workerSrc: ["'self'", "blob:"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    // Turnstile's challenge runs in a frame from Cloudflare (sign-up, when configured).
    frameSrc: ["https://challenges.cloudflare.com"],
    frameAncestors: ["'none'"],
  },
  strictTransportSecurity: "max-age=63072000; includeSubDomains",
  xContentTypeOptions: "nosniff",
  // Set below, so pages carrying a token in their URL can tighten it to no-referrer.
  referrerPolicy: false,
  crossOriginOpenerPolicy: "same-origin",
  crossOriginResourcePolicy: "same-origin",
  crossOriginEmbedderPolicy: false,
  xFrameOptions: "DENY",
  permissionsPolicy: {
    camera: [],
    microphone: [],
    geolocation: [],
    payment: [],
  },
});

export const DEFAULT_REFERRER_POLICY = "strict-origin-when-cross-origin";


/** The headers above, plus a Referrer-Policy unless the page set a stricter one itself. */
export const securityHeadersMiddleware = createMiddleware(async (c, next) => {
  // A socket handshake's 101 answer comes from the room's Durable Object with immutable headers;
  // there is no document to protect on it (refusals of a handshake are small JSON answers).
  if (c.req.header("upgrade")?.toLowerCase() === "websocket") return next();
  let ownPolicy: string | null = null;
  let frameAncestors: string | null = null;
  await secureHeadersMiddleware(c, async () => {
    await next();
    frameAncestors = c.res.headers.get(FRAME_ANCESTORS_HEADER);
    if (frameAncestors !== null) c.res.headers.delete(FRAME_ANCESTORS_HEADER);
    if (c.res.status !== 101 && !c.res.headers.has("Referrer-Policy")) c.res.headers.set("Referrer-Policy", DEFAULT_REFERRER_POLICY);
    // A response that brought its own policy keeps it: user files carry a stricter sandbox (S15).
    ownPolicy = c.res.headers.get("Content-Security-Policy");
  });
  if (ownPolicy) c.res.headers.set("Content-Security-Policy", ownPolicy);
  const allowed = frameAncestors as string | null;
  if (allowed && FRAME_ORIGIN_LIST.test(allowed)) {
    const policy = c.res.headers.get("Content-Security-Policy");
    if (policy) c.res.headers.set("Content-Security-Policy", policy.replace("frame-ancestors 'none'", `frame-ancestors ${allowed}`));
    c.res.headers.delete("X-Frame-Options");
  }
});
