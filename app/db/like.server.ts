import { and, sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** `column LIKE '%term%'` for every term (case-insensitive for ASCII, as SQLite's LIKE is), with %, _ and \ taken literally. */
export function containsEvery(column: SQLWrapper, terms: readonly string[]): SQL {
  return and(...terms.map((term) => sql`${column} LIKE ${`%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`} ESCAPE '\\'`))!;
}
