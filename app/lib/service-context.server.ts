import { createDb, type Database } from "~/db/client.server";
import { createLogger, type Logger } from "./log.server";

/**
 * What every service function receives as its first argument (STYLE habit 3): the database, the
 * bindings, who is acting, and request metadata for logs. Loaders, Hono handlers, the queue
 * consumer and the Durable Objects all build one with `createServiceContext`.
 */
export type Actor = {
  userId: string;
  sessionId: string;
  email?: string;
  /** The account has a second factor (enrolled) and this session passed one (passed): a room's 2FA requirement reads it. */
  secondFactor?: { enrolled: boolean; passed: boolean };
};

/** Where a request came from, for audit records (IP from Cloudflare's edge, the browser's user agent). */
export type ClientMeta = {
  ip: string | null;
  userAgent: string | null;
  /** False for work without a request (queue, cron). */
  fromRequest?: boolean;
  /** The request's origin (links in e-mail use APP_URL first). */
  origin?: string;
};

export function clientMetaOf(request: Request): ClientMeta {
  return {
    ip: request.headers.get("cf-connecting-ip") ?? request.headers.get("x-real-ip") ?? null,
    userAgent: request.headers.get("user-agent")?.slice(0, 400) ?? null,
    fromRequest: true,
    origin: new URL(request.url).origin,
  };
}

export type ServiceContext = {
  db: Database;
  env: Env;
  logger: Logger;
  requestId: string;
  actor: Actor | null;
  /** The request's origin (no request, as in the queue consumer and cron: both null). */
  client: ClientMeta;
  now: () => Date;
};

export function createServiceContext(
  env: Env,
  options: { requestId: string; logger?: Logger; actor?: Actor | null; client?: ClientMeta; now?: () => Date },
): ServiceContext {
  return {
    db: createDb(env.DB),
    env,
    logger: options.logger ?? createLogger({ requestId: options.requestId }),
    requestId: options.requestId,
    actor: options.actor ?? null,
    client: options.client ?? { ip: null, userAgent: null },
    now: options.now ?? (() => new Date()),
  };
}
