import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layering of docs/architecture.md, checked on the source: cross-cutting code knows no domain,
 * only `*.queries.server.ts` (and the database's own modules) open D1 through drizzle, and no module
 * imports itself back through others (type-only imports included: a cycle of types is still a
 * knot the next change has to untie).
 */
const root = path.resolve(import.meta.dirname, "../../..");
const SOURCE_DIRS = ["app", "workers", "durable-objects"];
const EXTENSIONS = [".ts", ".tsx"];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name === "+types" || name === "node_modules") continue;
      out.push(...sourceFiles(full));
    } else if (EXTENSIONS.some((ext) => name.endsWith(ext)) && !name.endsWith(".d.ts") && !/\.test\.tsx?$/.test(name)) {
      out.push(full);
    }
  }
  return out;
}

const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(root, dir)));
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT)].map((match) => match[1] ?? match[2]!).filter(Boolean);
}

const ALIASES: Record<string, string> = { "~/": "app/", "~workers/": "workers/", "~durable-objects/": "durable-objects/" };

function resolve(from: string, specifier: string): string | null {
  let base: string | null = null;
  if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  for (const [alias, dir] of Object.entries(ALIASES)) if (specifier.startsWith(alias)) base = path.join(root, dir, specifier.slice(alias.length));
  if (!base) return null;
  for (const candidate of [base, ...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => path.join(base, "index" + ext))]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const graph = new Map(files.map((file) => [file, specifiers(file)]));
const relative = (file: string) => path.relative(root, file);

describe("the code's layering", () => {
  it("finds the source it checks", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get(path.join(root, "app/root.tsx"))).toContain("react-router");
  });

  it("keeps cross-cutting code (app/lib, app/components outside the kit, app/db) free of any feature", () => {
    const offenders = files
      .filter((file) => /^app\/(lib|db|components)\//.test(relative(file)) && !relative(file).startsWith("app/components/kit/"))
      .flatMap((file) =>
        graph
          .get(file)!
          .map((specifier) => resolve(file, specifier))
          .filter((target): target is string => target !== null && relative(target).startsWith("app/features/"))
          .map((target) => `${relative(file)} → ${relative(target)}`),
      );
    expect(offenders).toEqual([]);
  });

  it("opens D1 only in query modules: no route, handler, middleware or service imports drizzle or the db client", () => {
    const allowed = (file: string) =>
      /\.queries\.server\.ts$/.test(file) || relative(file).startsWith("app/db/") || relative(file) === "app/lib/service-context.server.ts";
    const offenders = files
      .filter((file) => !allowed(file))
      .filter((file) =>
        graph.get(file)!.some((specifier) => {
          if (specifier === "drizzle-orm" || specifier.startsWith("drizzle-orm/")) return !isTypeOnly(file, specifier);
          const target = resolve(file, specifier);
          return target !== null && relative(target) === "app/db/client.server.ts" && !isTypeOnly(file, specifier);
        }),
      )
      .map(relative);
    expect(offenders).toEqual([]);
  });

  it("has no import cycle", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, "open");
      stack.push(file);
      for (const specifier of graph.get(file) ?? []) {
        const target = resolve(file, specifier);
        if (!target || !graph.has(target)) continue;
        if (state.get(target) === "open") cycles.push([...stack.slice(stack.indexOf(target)), target].map(relative).join(" → "));
        else if (!state.has(target)) visit(target);
      }
      stack.pop();
      state.set(file, "done");
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});

/** `import type { … } from "x"` (types only: no D1 at run time). */
function isTypeOnly(file: string, specifier: string): boolean {
  const text = readFileSync(file, "utf8");
  const escaped = specifier.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const statements = [...text.matchAll(new RegExp(`(?:^|\\n)\\s*(import|export)\\s([^;'"]*?)from\\s*["']${escaped}["']`, "g"))];
  return statements.length > 0 && statements.every((match) => /^\s*type\s/.test(match[2]!) || /^\{[^}]*\}\s*$/.test(match[2]!.trim()) && match[2]!.trim().slice(1, -1).split(",").every((part) => part.trim() === "" || part.trim().startsWith("type ")));
}
