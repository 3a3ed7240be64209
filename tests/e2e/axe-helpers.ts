import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** axe's serious and critical findings on the page as it is now, one line each (rule, count, first target). */
export async function seriousViolations(page: Page, options: { exclude?: string } = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  if (options.exclude) builder = builder.exclude(options.exclude);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.length} × ${violation.nodes[0]?.target.join(" ")}`);
}
