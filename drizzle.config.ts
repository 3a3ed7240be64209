import { defineConfig } from "drizzle-kit";

// Migrations are generated as flat SQL files and applied by wrangler (local and remote).
export default defineConfig({
  dialect: "sqlite",
  schema: "./app/db/schema/index.ts",
  out: "./migrations",
  migrations: { prefix: "index" },
});
