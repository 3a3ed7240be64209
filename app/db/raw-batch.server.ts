import type { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Database } from "./client.server";

const dialect = new SQLiteAsyncDialect();

function statement(db: Database, query: SQL): D1PreparedStatement {
  const built = dialect.sqlToQuery(query);
  return db.$client.prepare(built.sql).bind(...built.params);
}

/**
 * Raw SQL statements in ONE D1 batch (one round trip, one implicit transaction). drizzle 0.45's
 * `db.batch` cannot carry raw `sql` queries that have parameters (it calls `stmt.bind` on an object
 * without a statement), so these go through D1's own `batch()`.
 */
export async function rawBatch(db: Database, queries: readonly SQL[]): Promise<D1Result[]> {
  return db.$client.batch(queries.map((query) => statement(db, query)));
}
