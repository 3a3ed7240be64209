import { readdirSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { allMigrationsScript } from "../../../scripts/ops-lib.mjs";

describe("a new local database gets every migration in one go (scripts/ops-lib.mjs)", () => {
  it("runs every migration file in order and records each as `wrangler d1 migrations apply` would, so a later apply adds only newer ones", () => {
    const files = readdirSync("migrations")
      .filter((name) => name.endsWith(".sql"))
      .sort();
    const { names, sql } = allMigrationsScript();
    expect(names).toEqual(files);

    const db = new DatabaseSync(":memory:");
    db.exec(sql);
    const recorded = db.prepare("SELECT id, name FROM d1_migrations ORDER BY id").all();
    expect(recorded.map((row) => row.name)).toEqual(files);
    expect(recorded.map((row) => row.id)).toEqual(files.map((_, index) => index + 1));
    // The last migration's effect is there: the script did not stop early.
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
    expect(tables.n).toBeGreaterThan(50);
  });
});
