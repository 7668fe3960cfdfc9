/**
 * Runs axe-core on the current page (or the part `include` selects) and returns the violations, readable.
 *
 * In axe's legacy mode, as @axe-core/playwright's `setLegacyMode(true)` runs it: one `axe.run` in the
 * page, which checks the page and the frame elements it holds (a frame's title, for one), but not the
 * documents inside frames. The site's pages hold only third-party frames (a video player, the booking
 * form) once a visitor opens them, whose insides are not ours to check. The default mode, which also
 * checks frames from inside, runs axe in parts and finishes in a blank page of its own: measured on the
 * home page at 1280 px, 6.1 s a check against 2.8 s (2.0 s against 0.6 s on /faq), with the same
 * violations found on the site's pages.
 *
 * axe-core (half a megabyte of script) is put into a document once, on its first check, and configured
 * as AxeBuilder configures it: AxeBuilder evaluates it twice on every check, which cost more than the
 * check itself on the short pages (measured on a quiet two-core machine: /faq 0.9 to 1.6 s a check
 * through AxeBuilder, 0.2 s once axe is in the page; the home page 1.7 to 2.5 s against 0.8 to 1.0 s).
 * The run's options are AxeBuilder's as this file used them: `withTags(...)` followed by `options(...)`
 * kept only the latter (AxeBuilder's `options` replaces what `withTags` set), so every rule axe enables
 * by default runs, which is more than the WCAG tags alone; that stricter set is kept.
 */
import axe from 'axe-core';
import type { Frame, Page } from 'playwright-core';

/** What `axe.run` is given: every rule axe enables by default, only the violations reported. */
const RUN_OPTIONS = { resultTypes: ['violations'] };

interface AxeWindow {
  axe?: {
    run: (context: unknown, options: unknown) => Promise<{ violations: Violation[] }>;
  };
}

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** Puts axe into a frame's document unless it is there already (a navigation starts a new document). */
async function inject(frame: Frame): Promise<void> {
  if (await frame.evaluate(() => typeof (window as AxeWindow).axe?.run === 'function')) return;
  await frame.evaluate(axe.source);
  await frame.evaluate(() => {
    (window as unknown as { axe: { configure: (spec: unknown) => void } }).axe.configure({
      allowedOrigins: ['<same_origin>'],
      branding: { application: 'playwright' },
    });
  });
}

export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  await inject(page.mainFrame());
  // As AxeBuilder does: axe in every frame it can reach within a second, a frame that refuses or does
  // not answer (a third party's, one still loading) skipped.
  for (const frame of page.frames().slice(1)) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 1000);
    });
    await Promise.race([inject(frame).catch(() => undefined), timeout]);
    clearTimeout(timer);
  }
  const violations = await page.evaluate(
    async ({ selector, options }) => {
      const run = (window as AxeWindow).axe?.run;
      if (!run) throw new Error('axe-core is not in the page');
      // The context as AxeBuilder builds it: nothing left out, and the whole document unless `include`.
      return (await run({ exclude: [], include: selector ? [selector] : [] }, options)).violations;
    },
    { selector: include, options: RUN_OPTIONS },
  );
  return violations.map(
    (v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(' | ')}`,
  );
}
