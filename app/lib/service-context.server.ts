import { createDb, type Database } from "~/db/client.server";
import { createLogger, type Logger } from "./log.server";

/**
 * What every service function receives as its first argument (STYLE habit 3): the database, the
 * bindings, who is acting, and request metadata for logs. Loaders, Hono handlers, the queue
 * consumer and the Durable Objects all build one with `createServiceContext`.
 */
export type Actor = { userId: string; sessionId: string };

export type ServiceContext = {
  db: Database;
  env: Env;
  logger: Logger;
  requestId: string;
  actor: Actor | null;
  now: () => Date;
};

export function createServiceContext(
  env: Env,
  options: { requestId: string; logger?: Logger; actor?: Actor | null; now?: () => Date },
): ServiceContext {
  return {
    db: createDb(env.DB),
    env,
    logger: options.logger ?? createLogger({ requestId: options.requestId }),
    requestId: options.requestId,
    actor: options.actor ?? null,
    now: options.now ?? (() => new Date()),
  };
}
