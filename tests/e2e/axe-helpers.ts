import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

type Finding = { id: string; impact?: string | null; nodes: { target: unknown[] }[] };

function serious(violations: Finding[]): string[] {
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.length} × ${violation.nodes[0]?.target.join(" ")}`);
}

/**
 * Puts axe-core into every document the page opens from now on (an init script), so a pass over
 * many pages does not inject its half a megabyte into each one again (AxeBuilder does, per call).
 */
export async function preloadAxe(page: Page): Promise<void> {
  await page.addInitScript({ path: createRequire(import.meta.url).resolve("axe-core/axe.min.js") });
}

/** axe's serious and critical findings on the page as it is now, one line each (rule, count, first target). */
export async function seriousViolations(page: Page, options: { exclude?: string } = {}): Promise<string[]> {
  const preloaded = await page.evaluate(() => "axe" in window);
  if (preloaded) {
    const violations = await page.evaluate(async ({ tags, exclude }) => {
      const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Finding[] }> } }).axe;
      // A page reached by the client router may still be loading a font (the icon font's ligatures,
      // which axe tells from text only once they are drawn as icons).
      await document.fonts.ready;
      const context = exclude ? { include: [document], exclude: [exclude] } : document;
      return (await axe.run(context, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] })).violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        nodes: violation.nodes.map((node) => ({ target: node.target })),
      }));
    }, { tags: TAGS, exclude: options.exclude ?? null });
    return serious(violations);
  }
  let builder = new AxeBuilder({ page }).withTags(TAGS);
  if (options.exclude) builder = builder.exclude(options.exclude);
  return serious((await builder.analyze()).violations);
}
