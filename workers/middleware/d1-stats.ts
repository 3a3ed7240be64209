import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../types";

/**
 * Development-only instrumentation for `npm run bench` (QUALITY G1, G2): when a request carries
 * `X-Bench-D1: 1`, every D1 call it makes is counted and the totals come back as response headers
 * `X-D1-Round-Trips` (each first/all/run/raw/batch/exec is one round trip) and `X-D1-Rows-Read`
 * (D1's own meta.rows_read, summed). Production never wraps the binding.
 */
/** Round trips (a batch is one), statements (a batch counts each of its statements) and rows read. */
export type D1Stats = { roundTrips: number; rowsRead: number; statements: number };

type Meta = { meta?: { rows_read?: number } } | null | undefined;

function addRows(stats: D1Stats, result: unknown) {
  const rows = (result as Meta)?.meta?.rows_read;
  if (typeof rows === "number") stats.rowsRead += rows;
}

export function countingD1(d1: D1Database, stats: D1Stats): D1Database {
  const real = new WeakMap<object, D1PreparedStatement>();
  const wrapStatement = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => wrapStatement(target.bind(...values));
        if (property === "all" || property === "run") {
          return async () => {
            stats.roundTrips++;
            stats.statements++;
            const result = await target[property]();
            addRows(stats, result);
            return result;
          };
        }
        if (property === "first" || property === "raw") {
          // These return no meta: run the statement through all() for its rows_read, same rows.
          return async (...args: unknown[]) => {
            stats.roundTrips++;
            stats.statements++;
            const all = await target.all();
            addRows(stats, all);
            return (target[property] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    real.set(proxy, statement);
    return proxy;
  };
  return new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") return (query: string) => wrapStatement(target.prepare(query));
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          stats.roundTrips++;
          stats.statements += statements.length;
          const results = await target.batch(statements.map((statement) => real.get(statement) ?? statement));
          for (const result of results) addRows(stats, result);
          return results;
        };
      }
      if (property === "exec") {
        return async (query: string) => {
          stats.roundTrips++;
          stats.statements++;
          return target.exec(query);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export const d1StatsMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  if (c.env.APP_ENV !== "development" || c.req.header("x-bench-d1") !== "1") return next();
  const stats: D1Stats = { roundTrips: 0, rowsRead: 0, statements: 0 };
  c.env = { ...c.env, DB: countingD1(c.env.DB, stats) };
  await next();
  c.res.headers.set("X-D1-Round-Trips", String(stats.roundTrips));
  c.res.headers.set("X-D1-Rows-Read", String(stats.rowsRead));
  c.res.headers.set("X-D1-Statements", String(stats.statements));
});
