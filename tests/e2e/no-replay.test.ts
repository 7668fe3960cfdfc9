/**
 * Native first, no replay (decision 0020): before the app has loaded, a tap shows its change at once
 * (a box ticked, an option chosen, a question opened as plain HTML; a tab or a comparison row switched
 * by the page boot script), and when the app hydrates it takes over what the page shows, so the page
 * stays as the visitor last saw it. The app's modules are held back (`openHeld`) while the visitor
 * taps, so "before the app has loaded" is a certainty, not a race.
 */
import fc from 'fast-check';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CASE_STUDIES } from '../../web/content/case-studies';
import { HOME_COMPARISON_ROWS } from '../../web/content/comparisons';
import { FAQ_CATEGORIES } from '../../web/content/faq';
import { holdApp, nextFrames } from '../support/page';
import { testSite } from '../support/site-fixture';

const site = testSite();

// One context for the file: each page is opened anew in it (a page hydrates once).
let context: BrowserContext;
beforeAll(async () => {
  context = await site.newContext({ viewport: { width: 1280, height: 800 } });
});

interface HeldPage {
  page: Page;
  errors: string[];
  /** Lets the app's modules load: the app starts and hydrates. */
  release: () => void;
}

/** Opens `pagePath` with every module of the app held back until `release` is called. */
async function openHeld(pagePath: string): Promise<HeldPage> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const release = await holdApp(page);
  await page.goto(`${site.url}${pagePath}`);
  return { page, errors, release };
}

const isHydrated = (page: Page) => page.evaluate(() => document.documentElement.dataset.hydrated === 'true');
const hydration = async (page: Page): Promise<void> => {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  // What hydrating sets off (layout effects, the address written through the router) has run by then.
  await nextFrames(page);
};

/** What a visitor sees of the page's controls (and its address), as plain data to compare. */
type Shown = Record<string, unknown>;

/** A tap on one of a page's targets: which kind, and which of them. */
interface Tap {
  kind: string;
  index: number;
}

/** A page, the taps a visitor may make on it, and what each should show. */
interface Surface {
  path: string;
  taps: fc.Arbitrary<Tap>;
  tap: (page: Page, tap: Tap) => Promise<void>;
  read: (page: Page) => Promise<Shown>;
  /** What the page shows after `tap`, from what it showed before. */
  after: (shown: Shown, tap: Tap) => Shown;
}

/** The address's query, as a plain object. */
const query = (search: unknown): Record<string, string> => ({ ...(search as Record<string, string>) });
const withQuery = (shown: Shown, name: string, value: string | null): Record<string, string> => {
  const next = new URLSearchParams(query(shown.query));
  if (value === null) next.delete(name);
  else next.set(name, value);
  return Object.fromEntries(next);
};

const CONTACT_OPTIONS = ['phone', 'email'] as const;

const quoteForm: Surface = {
  path: '/get-quote',
  taps: fc.oneof(fc.constant({ kind: 'consent', index: 0 }), fc.record({ kind: fc.constant('contact'), index: fc.integer({ min: 0, max: 1 }) })),
  tap: async (page, { kind, index }) => {
    // The box itself; an option by its label ("By phone", "By e-mail"), as most visitors tap it.
    if (kind === 'consent') await page.locator('#quote-consent').click();
    else await page.locator(`label[for="quote-preferredContactMethod-${CONTACT_OPTIONS[index] ?? ''}"]`).click();
  },
  read: (page) =>
    page.evaluate(() => ({
      consent: document.querySelector<HTMLInputElement>('#quote-consent')?.checked,
      contact: document.querySelector<HTMLInputElement>('input[name="preferredContactMethod"]:checked')?.value,
      query: Object.fromEntries(new URLSearchParams(location.search)),
    })),
  after: (shown, { kind, index }) => (kind === 'consent' ? { ...shown, consent: !shown.consent } : { ...shown, contact: CONTACT_OPTIONS[index] }),
};

const ROW_IDS = HOME_COMPARISON_ROWS.slice(0, 4).map((row) => row.id);
const CASE_IDS = CASE_STUDIES.map((study) => study.id);

const homePage: Surface = {
  path: '/',
  taps: fc.oneof(
    fc.record({ kind: fc.constant('row'), index: fc.integer({ min: 0, max: ROW_IDS.length - 1 }) }),
    fc.record({ kind: fc.constant('case'), index: fc.integer({ min: 0, max: CASE_IDS.length - 1 }) }),
  ),
  tap: async (page, { kind, index }) => {
    if (kind === 'row') await page.locator('[data-testid="home-comparison"] a.row-toggle').nth(index).click();
    else await page.locator('#case-studies [role="tab"]').nth(index).click();
  },
  read: (page) =>
    page.evaluate(() => {
      const ids = (selector: string, attribute: string) => Array.from(document.querySelectorAll(selector), (element) => element.getAttribute(attribute));
      return {
        rows: ids('[data-testid="home-comparison"] tr[data-selected="true"]', 'data-row-id'),
        expanded: ids('[data-testid="home-comparison"] a[aria-expanded="true"]', 'data-choice-value'),
        explanations: ids('[data-testid="home-comparison-explanation"] > div:not([hidden])', 'id'),
        hint: document.querySelector<HTMLElement>('[data-testid="home-comparison-explanation"] .row-explanation-hint')?.hidden === false,
        cases: ids('#case-studies [role="tab"][aria-selected="true"]', 'data-tab-id'),
        casePanels: ids('#case-studies [role="tabpanel"]:not([hidden])', 'data-tab-id'),
        query: Object.fromEntries(new URLSearchParams(location.search)),
      };
    }),
  after: (shown, { kind, index }) => {
    if (kind === 'case') {
      const id = CASE_IDS[index] ?? '';
      return { ...shown, cases: [id], casePanels: [id], query: withQuery(shown, 'case', id) };
    }
    const id = ROW_IDS[index] ?? '';
    const rows = (shown.rows as string[]).includes(id) ? [] : [id];
    return { ...shown, rows, expanded: rows, explanations: rows.map((row) => `compare-${row}`), hint: rows.length === 0, query: withQuery(shown, 'compare', rows[0] ?? null) };
  },
};

const CATEGORY_IDS = FAQ_CATEGORIES.slice(0, 3).map((category) => category.id);
/** The place of the question a tap aims at in a category: one of its first three (a category may have fewer). */
const questionPlace = (category: string, index: number): number => index % Math.min(3, FAQ_CATEGORIES.find((each) => each.id === category)?.items.length ?? 1);

const faqPage: Surface = {
  path: '/faq',
  taps: fc.oneof(
    fc.record({ kind: fc.constant('tab'), index: fc.integer({ min: 0, max: CATEGORY_IDS.length - 1 }) }),
    fc.record({ kind: fc.constant('question'), index: fc.integer({ min: 0, max: 2 }) }),
  ),
  tap: async (page, { kind, index }) => {
    if (kind === 'tab') await page.locator('.faq-page [role="tab"]').nth(index).click();
    else {
      const panel = page.locator('.faq-page [role="tabpanel"]:not([hidden])');
      await panel.locator('summary').nth(questionPlace((await panel.getAttribute('data-tab-id')) ?? '', index)).click();
    }
  },
  read: (page) =>
    page.evaluate(() => {
      const ids = (selector: string) => Array.from(document.querySelectorAll(selector), (element) => element.getAttribute('data-tab-id'));
      return {
        tabs: ids('.faq-page [role="tab"][aria-selected="true"]'),
        panels: ids('.faq-page [role="tabpanel"]:not([hidden])'),
        // Each open question as "<category>:<its place in the category>", in one order whatever the
        // order the categories were opened in (the model below sorts the same way).
        open: Array.from(document.querySelectorAll('.faq-page [role="tabpanel"]'))
          .flatMap((panel) =>
            Array.from(panel.querySelectorAll('details'), (details, place) => (details.open ? `${panel.getAttribute('data-tab-id') ?? ''}:${place}` : null)).filter((key) => key !== null),
          )
          .sort(),
        query: Object.fromEntries(new URLSearchParams(location.search)),
      };
    }),
  after: (shown, { kind, index }) => {
    if (kind === 'tab') {
      const id = CATEGORY_IDS[index] ?? '';
      return { ...shown, tabs: [id], panels: [id], query: withQuery(shown, 'tab', id) };
    }
    // One question of a category open at a time: the tapped one opens (the others close), or closes.
    const category = (shown.panels as string[])[0] ?? '';
    const key = `${category}:${questionPlace(category, index)}`;
    const open = shown.open as string[];
    const others = open.filter((other) => !other.startsWith(`${category}:`));
    return { ...shown, open: open.includes(key) ? others : [...others, key].sort() };
  },
};

const SURFACES = [quoteForm, homePage, faqPage];

describe('before the app has loaded', () => {
  it('a tap on the consent box or a contact option shows at once, a second tap unticks, and hydration keeps what was last seen', async () => {
    const { page, errors, release } = await openHeld('/get-quote');
    const consent = page.locator('#quote-consent');
    const byEmail = page.locator('#quote-preferredContactMethod-email');
    await consent.click();
    await page.getByText('By e-mail', { exact: true }).click();
    // Ticked at once, the app's modules all still held back.
    expect(await consent.isChecked()).toBe(true);
    expect(await byEmail.isChecked()).toBe(true);
    expect(await isHydrated(page)).toBe(false);
    await consent.click();
    expect(await consent.isChecked()).toBe(false);

    release();
    await hydration(page);
    expect(await consent.isChecked()).toBe(false);
    expect(await byEmail.isChecked()).toBe(true);
    // With React in charge the box still answers the next tap.
    await consent.click();
    expect(await consent.isChecked()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('comparison rows 1, 2 and 2 again leave every row closed, and they stay closed once hydrated', async () => {
    const { page, errors, release } = await openHeld('/');
    const shown = () => homePage.read(page);
    const initial = await shown();
    for (const index of [0, 1, 1]) await homePage.tap(page, { kind: 'row', index });
    const closed = { ...initial, rows: [], expanded: [], explanations: [], hint: true, query: {} };
    // Shown at once; the address follows once that frame has been painted (decision 0039).
    expect({ ...(await shown()), query: {} }).toEqual(closed);
    await expect.poll(shown).toEqual(closed);
    expect(await isHydrated(page)).toBe(false);

    release();
    await hydration(page);
    expect(await shown()).toEqual(closed);
    // React's state agrees: the next tap opens the row tapped, and the address follows.
    await homePage.tap(page, { kind: 'row', index: 1 });
    await expect.poll(shown).toEqual(homePage.after(closed, { kind: 'row', index: 1 }));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('arrow keys on a tab move to and show the next tab; once hydrated, the same tab is chosen and the keys go on from it', async () => {
    const { page, errors, release } = await openHeld('/faq');
    const tabs = page.locator('.faq-page [role="tab"]');
    const chosen = () => faqPage.read(page).then((shown) => ({ tabs: shown.tabs, panels: shown.panels, query: shown.query }));
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-tab-id'));
    const [first, second, third] = CATEGORY_IDS;
    await tabs.first().focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    expect({ ...(await chosen()), query: { tab: second } }).toEqual({ tabs: [second], panels: [second], query: { tab: second } });
    await expect.poll(chosen).toEqual({ tabs: [second], panels: [second], query: { tab: second } });
    expect(await focused()).toBe(second);
    expect(await isHydrated(page)).toBe(false);

    release();
    await hydration(page);
    expect(await chosen()).toEqual({ tabs: [second], panels: [second], query: { tab: second } });
    expect(await focused()).toBe(second);
    await page.keyboard.press('ArrowRight');
    await expect.poll(chosen).toEqual({ tabs: [third], panels: [third], query: { tab: third } });
    expect(await focused()).toBe(third);
    await page.keyboard.press('Home');
    await expect.poll(chosen).toEqual({ tabs: [first], panels: [first], query: { tab: first } });
    expect(await focused()).toBe(first);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('whatever is tapped, in whatever order, shows at once, and hydration keeps the page as last seen', { timeout: 600_000 }, async () => {
    const runs = fc.integer({ min: 0, max: SURFACES.length - 1 }).chain((which) => {
      const surface = SURFACES[which] as Surface;
      return fc.record({ which: fc.constant(which), taps: fc.array(surface.taps, { minLength: 1, maxLength: 4 }), then: surface.taps });
    });
    await fc.assert(
      fc.asyncProperty(runs, async ({ which, taps, then }) => {
        const surface = SURFACES[which] as Surface;
        const { page, errors, release } = await openHeld(surface.path);
        try {
          let expected = await surface.read(page);
          for (const tap of taps) {
            await surface.tap(page, tap);
            expected = surface.after(expected, tap);
            // What the tap changes is shown at once; the address follows once that frame has been
            // painted (decision 0039).
            expect({ ...(await surface.read(page)), query: expected.query }).toEqual(expected);
            await expect.poll(() => surface.read(page)).toEqual(expected);
          }
          expect(await isHydrated(page)).toBe(false);

          release();
          await hydration(page);
          expect(await surface.read(page)).toEqual(expected);
          // One more tap, with React in charge, goes on from there.
          await surface.tap(page, then);
          await expect.poll(() => surface.read(page)).toEqual(surface.after(expected, then));
          expect(errors).toEqual([]);
        } finally {
          await page.close();
        }
      }),
      { numRuns: 50 },
    );
  });
});
