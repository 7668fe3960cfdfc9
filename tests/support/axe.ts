/**
 * Runs axe-core (WCAG 2.x A and AA rules, and best practices) on the current page (or the part
 * `include` selects) and returns the violations, readable.
 *
 * In axe's legacy mode: one `axe.run` in the page, which checks the page and the frame elements it
 * holds (a frame's title, for one), but not the documents inside frames. The site's pages hold only
 * third-party frames (a video player, the booking form) once a visitor opens them, whose insides are
 * not ours to check. The default mode, which also checks frames from inside, runs axe in parts and
 * finishes in a blank page of its own: measured on the home page at 1280 px, 6.1 s a check against
 * 2.8 s (2.0 s against 0.6 s on /faq), with the same violations found on the site's pages.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const results = await builder
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze();
  return results.violations.map(
    (v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(' | ')}`,
  );
}
