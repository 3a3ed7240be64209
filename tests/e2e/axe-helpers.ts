import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** axe's serious and critical findings on the page as it is now, one line each (rule, count, first target). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.length} × ${violation.nodes[0]?.target.join(" ")}`);
}
