/** Runs axe-core (WCAG 2.x A and AA rules) on the current page and returns the violations, readable. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).options({ resultTypes: ['violations'] }).analyze();
  return results.violations.map(
    (v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(' | ')}`,
  );
}
