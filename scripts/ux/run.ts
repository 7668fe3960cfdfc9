/**
 * `npm run bench:ux`: the first tap as a visitor on a mid-range phone feels it. Chromium (375 x 812,
 * touch, CPU slowed 4x, 150 ms latency, 1.6 Mbps down, 750 Kbps up) opens `/`, `/faq`, the Ultimate
 * Guide, `/get-quote` and a seeded blog post from the production build, and taps every interactive
 * element a visitor operates there without leaving the page: a question, a tab, a case study, a
 * comparison row, the menu, the quote form's consent box and contact choice, and the links that open
 * the video and the scheduling form in place. (A post has no control of its own besides the menu: its
 * breadcrumb, call to action and links lead to other pages.) Each is tapped in three ways, on fresh
 * pages: right after the load event; after a scroll (a touch swipe, as a phone scrolls); and while the
 * app starts, a few moments after a first tap elsewhere on the page (the first tap is what starts
 * loading the app, so the second lands while its JavaScript downloads, runs and hydrates: run i of
 * UX_RUNS taps (i mod 3 + 1) x 800 ms after the first, to sample that whole start-up).
 *
 * "Tap to visible change" runs from the touch's timestamp to the first animation frame in which the
 * expected change is on screen (the answer shown, the tab's panel shown, the menu open, the box ticked,
 * the opener marked as opening), read by a requestAnimationFrame loop in the page: the frame that paints
 * it. The browser's own Event Timing measure of the same tap is reported beside it: the longest `event`
 * entry from the touch on (input delay, processing and presentation to the next paint), as a
 * PerformanceObserver with a 16 ms threshold sees it; a tap whose events all took less than that has no
 * entry, and is counted as under 16 ms. Also reported per page: the JavaScript files fetched before
 * the first interaction (the boot script is inline, so 0 is the goal), the layout shift seen from
 * navigation to the end of the tap, and what the app costs once it starts.
 *
 * Budget (issue 36): a first tap's Event Timing duration at most 100 ms (the median of its runs; right
 * after load and after a scroll, the app not loaded), and every tap's change on screen within 100 ms in
 * every run; 0 KB of JavaScript before interaction, CLS 0. Prints the table, writes
 * it into docs/benchmarks.md (between the `bench:ux` markers), exits 1 when a budget is missed.
 * UX_RUNS (default 5: issue 36 asks for the median of 5) taps each target that many times and reports
 * the median and the worst; UX_ONLY names the targets to measure and UX_WHEN the moments (a partial
 * run leaves docs/benchmarks.md alone).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { markdownTable, replaceMarkedSection } from '../bench/report';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';
import { ROOT, startProductionSite } from '../production-site';

const RUNS = Math.max(1, Number(process.env.UX_RUNS ?? 5));
/** UX_ONLY=<name>[,<name>]: only the targets so named (e.g. "Table View tab"), and docs/benchmarks.md left as it is. */
const ONLY = process.env.UX_ONLY ? process.env.UX_ONLY.split(',').map((name) => name.trim()) : null;
/** UX_WHEN=<when>[,<when>]: only those moments (e.g. "right after load"); docs/benchmarks.md left as it is too. */
const ONLY_WHEN = process.env.UX_WHEN ? process.env.UX_WHEN.split(',').map((name) => name.trim()) : null;
const TAP_BUDGET_MS = 100;
const CPU_SLOWDOWN = 4;
/** A mid-range phone on a slow 4G link (../shared/TOOLCHAIN.md), in bytes per second. */
const NETWORK = { latency: 150, downloadThroughput: 200_000, uploadThroughput: 94_000 };
const VIEWPORT = { width: 375, height: 812 };

/**
 * What a visitor taps, and how the page shows the tap took effect. `shown` is evaluated in the page
 * against the tapped element and must become true in the frame that paints the change.
 */
interface Target {
  name: string;
  selector: string;
  shown: string;
}

const SUMMARY_OPENS = `(el) => { const d = el.closest('details'); const body = d && d.querySelector(':scope > :not(summary)'); return !!d && d.open && !!body && body.getBoundingClientRect().height > 0; }`;
const TAB_SELECTED = `(el) => { const id = el.getAttribute('aria-controls'); const panel = id ? document.getElementById(id) : null; return el.getAttribute('aria-selected') === 'true' && !!panel && !panel.hidden && panel.getBoundingClientRect().height > 0; }`;
const ROW_EXPLAINED = `(el) => { const panel = document.getElementById(el.getAttribute('data-row-explains') || ''); return !!panel && !panel.hidden && panel.getBoundingClientRect().height > 0; }`;
const MENU_OPEN = `(el) => { const menu = document.getElementById('main-menu'); return !!menu && menu.getBoundingClientRect().height > 0 && getComputedStyle(menu).visibility !== 'hidden'; }`;
const CHECKED = `(el) => el.checked === true`;
const LABEL_CHECKS = `(el) => { const input = document.getElementById(el.htmlFor); return !!input && input.checked; }`;
/**
 * An opener (the video, the booking form): before the app runs, the page boot script marks a plain tap
 * on it as opening (boot-contract.ts `OPENING_ATTRIBUTE`) and keeps the link from being followed; once the
 * app runs, the component opens it at once, putting the player or the form where the link was.
 */
const OPENING = `(el) => el.getAttribute('data-opening') === 'true' || !el.isConnected`;

function pages(postPath: string): Array<{ pagePath: string; targets: Target[] }> {
  const guide = productPaths(DEFAULT_SITE_CONFIG).ultimateGuide;
  const menu: Target = { name: 'menu', selector: 'header summary.menu-toggle', shown: MENU_OPEN };
  return [
    {
      pagePath: '/',
      targets: [
        { name: 'FAQ question', selector: '#faq summary.accordion-summary >> nth=1', shown: SUMMARY_OPENS },
        { name: 'case study tab', selector: '#case-studies [role="tab"] >> nth=1', shown: TAB_SELECTED },
        { name: 'comparison row', selector: '[data-testid="home-comparison"] .row-toggle >> nth=1', shown: ROW_EXPLAINED },
        menu,
      ],
    },
    {
      pagePath: '/faq',
      targets: [
        { name: 'FAQ question', selector: '.faq-page [role="tabpanel"]:not([hidden]) summary.accordion-summary >> nth=2', shown: SUMMARY_OPENS },
        { name: 'category tab', selector: '.faq-page [role="tab"] >> nth=1', shown: TAB_SELECTED },
      ],
    },
    {
      pagePath: guide,
      targets: [
        { name: 'question', selector: '#common-questions summary.accordion-summary >> nth=1', shown: SUMMARY_OPENS },
        { name: 'Table View tab', selector: '[role="tab"] >> nth=1', shown: TAB_SELECTED },
      ],
    },
    {
      pagePath: '/get-quote',
      targets: [
        { name: 'consent checkbox', selector: '#quote-consent', shown: CHECKED },
        { name: 'contact by email', selector: 'label[for="quote-preferredContactMethod-email"]', shown: LABEL_CHECKS },
        { name: 'video poster', selector: 'a.video-poster', shown: OPENING },
        { name: 'scheduling form opener', selector: 'a.booking-open', shown: OPENING },
        menu,
      ],
    },
    { pagePath: postPath, targets: [menu] },
  ];
}

/** When the target is tapped: on a quiet page, after a swipe, or while the app starts after a first tap. */
type When = 'right after load' | 'after a scroll' | 'while the app starts';
const WHENS: readonly When[] = ['right after load', 'after a scroll', 'while the app starts'];
/** While the app starts: how long after the first tap run `run` taps the target. */
const startUpDelayMs = (run: number): number => ((run % 3) + 1) * 800;

interface Tap {
  /** Touch to the frame that shows the change; null when it never showed within the wait. */
  ms: number | null;
  /**
   * Event Timing: the longest duration of the tap's events (touch, pointer, click), from the touch's
   * timestamp to the paint after their handlers; 0 when none reached the observer's 16 ms threshold.
   */
  eventMs: number;
  scriptBytesBeforeTap: number;
  layoutShift: number;
  /** Each layout shift: when, how much, and what moved from where to where (to find its cause). */
  shifts: string[];
  hydratedBeforeTap: boolean;
  /** While the app starts: what loading the app cost once it had hydrated (null otherwise). */
  app: AppCost | null;
}

interface AppCost {
  /** JavaScript fetched, over the wire. */
  scriptBytes: number;
  /** From the first tap to the app's hydrated signal. */
  hydratedMs: number;
  /** The longest task on the main thread, and the sum of each long task's time past 50 ms. */
  longestTaskMs: number;
  blockingMs: number;
}

/** Installed before the page's own scripts: layout shifts, the hydration signal, the tap recorder. */
const RECORDER = `
  window.__ux = { shift: 0, shifts: [], hydrated: false, hydratedAt: null, touchAt: null, shownAt: null, tasks: [], events: [] };
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__ux.tasks.push(e.duration); }).observe({ type: 'longtask' });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__ux.events.push({ name: e.name, startTime: e.startTime, duration: e.duration, id: e.interactionId }); }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  const described = (node) => !node ? '?' : node.nodeType !== 1 ? node.nodeName : node.tagName.toLowerCase() + (node.id ? '#' + node.id : '') + (typeof node.className === 'string' && node.className ? '.' + node.className.trim().split(/\\s+/).join('.') : '');
  const rect = (r) => Math.round(r.x) + ',' + Math.round(r.y) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      window.__ux.shift += e.value;
      const fonts = [...document.fonts].map((f) => f.family + ' ' + f.status).join(', ');
      window.__ux.shifts.push('at ' + Math.round(e.startTime) + ' ms, ' + e.value.toFixed(5) + ' (fonts: ' + fonts + '): ' + e.sources.map((s) => described(s.node) + ' ' + rect(s.previousRect) + ' -> ' + rect(s.currentRect)).join('; '));
    }
  }).observe({ type: 'layout-shift', buffered: true });
  document.addEventListener('app:hydrated', () => { window.__ux.hydrated = true; window.__ux.hydratedAt = performance.now(); });
  window.addEventListener('touchstart', (event) => { if (window.__ux.touchAt === null) window.__ux.touchAt = event.timeStamp; }, { capture: true, passive: true });
`;

async function openPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...NETWORK });
  await page.addInitScript(RECORDER);
  await page.goto(url, { waitUntil: 'load' });
  return page;
}

/**
 * A point on the screen where a tap changes nothing (plain text or background, nothing a visitor
 * could operate, not the header or the call bar): where the first tap of "while the app starts" lands.
 */
async function quietPoint(page: Page): Promise<{ x: number; y: number }> {
  const point = await page.evaluate(`(() => {
    for (let y = 80; y < innerHeight - 100; y += 8) {
      for (const x of [12, innerWidth / 2, innerWidth - 12]) {
        const el = document.elementFromPoint(x, y);
        if (el && !el.closest('a, button, summary, label, input, select, textarea, [role="tab"], header, [data-row-explains], .call-bar')) return { x, y };
      }
    }
    return null;
  })()`);
  if (!point) throw new Error(`no quiet point to tap on ${page.url()}`);
  return point as { x: number; y: number };
}

/**
 * A phone's scroll: a finger drawn 48 px up the screen (the page scrolls, and the browser cancels the
 * pointer: pointercancel, no pointerup and no click, as on a phone).
 */
async function swipe(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const at = (y: number) => [{ x: VIEWPORT.width / 2, y }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(500) });
  for (let step = 1; step <= 4; step++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(500 - step * 12) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

async function tap(page: Page, target: Target, when: When, run: number): Promise<Tap> {
  const element = page.locator(target.selector).first();
  // The JavaScript fetched so far, read before the first tap (a tap, key or focus starts loading the app).
  const readBefore = () =>
    page.evaluate(() => {
      const ux = (window as unknown as { __ux: { hydrated: boolean } }).__ux;
      const scripts = performance.getEntriesByType('resource').filter((entry) => (entry as PerformanceResourceTiming).initiatorType === 'script' || /\.m?js(\?|$)/.test(entry.name));
      return { hydrated: ux.hydrated, scriptBytes: scripts.reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).transferSize, 0) };
    });
  // Down the page the way a visitor jumps there: to its section's anchor, as the guide's contents and
  // the menu link (a script's jump straight to the element is not something a visitor does, and would
  // lay out every skipped section on the way at once), then into the middle of the screen.
  await element.evaluate((el) => {
    const section = el.closest('section[id]');
    if (section && location.hash !== `#${section.id}`) location.hash = section.id;
    el.scrollIntoView({ block: 'center' });
  });
  let before = await readBefore();
  let firstTapAt = 0;
  if (when === 'after a scroll') {
    // A visitor's scroll, then the tap half a second after the page has come to rest (what the swipe
    // loaded counts as before the tap). A swipe flings the page on, and a tap on a page still moving
    // only stops it, as on a phone: no click, and the row would read "never".
    await swipe(page);
    await page.evaluate(`new Promise((resolve) => {
      let last = scrollY, still = 0;
      const frame = () => { if (scrollY === last) still += 1; else { still = 0; last = scrollY; } if (still >= 5) resolve(); else requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
    })`);
    await page.waitForTimeout(500);
    before = await readBefore();
  } else if (when === 'while the app starts') {
    // A first tap on plain text starts loading the app; the target is tapped while it starts.
    const quiet = await quietPoint(page);
    firstTapAt = await page.evaluate(() => performance.now());
    await page.touchscreen.tap(quiet.x, quiet.y);
    await page.waitForTimeout(startUpDelayMs(run));
  }
  const hydratedAtTap = await page.evaluate(() => (window as unknown as { __ux: { hydrated: boolean } }).__ux.hydrated);
  const urlBeforeTap = page.url();
  const box = await element.boundingBox();
  if (!box) throw new Error(`${target.name} (${target.selector}) is not on screen on ${page.url()}`);
  // Watch for the change from the touch on, one check per animation frame.
  // The watcher is a string, not a function: tsx would wrap a function's inner names in a helper the page lacks.
  await element.evaluate((el) => el.setAttribute('data-ux-target', ''));
  await page.evaluate(`(() => {
    const el = document.querySelector('[data-ux-target]');
    const shown = ${target.shown};
    const ux = window.__ux;
    ux.touchAt = null;
    const frame = (time) => {
      if (ux.touchAt !== null && time >= ux.touchAt && shown(el)) { ux.shownAt = time; return; }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })()`);
  await page.touchscreen.tap(box.x + Math.min(box.width / 2, 40), box.y + box.height / 2);
  const shownAt = await page
    .waitForFunction(() => (window as unknown as { __ux: { shownAt: number | null } }).__ux.shownAt, undefined, { timeout: 15_000 })
    .then(async () => page.evaluate(() => (window as unknown as { __ux: { touchAt: number; shownAt: number } }).__ux))
    .catch(async (error: unknown) => {
      if (process.env.UX_DEBUG) console.error(error, await page.evaluate(`JSON.stringify({ ux: window.__ux, open: document.querySelector('[data-ux-target]')?.closest('details')?.open, target: !!document.querySelector('[data-ux-target]') })`));
      return null;
    });
  // An opener is a link: the tap must open it in place, not follow it (a page left would be no measure).
  // A tab or a row may write its state into the address (same page, new query): that is not leaving.
  if (new URL(page.url()).pathname !== new URL(urlBeforeTap).pathname) throw new Error(`tapping ${target.name} on ${urlBeforeTap} went to ${page.url()}`);
  // Event Timing entries are delivered after the frame that presents the change: a moment's wait lets
  // the observer see the tap's.
  await page.waitForTimeout(300);
  const eventMs = await page.evaluate(() => {
    const ux = (window as unknown as { __ux: { touchAt: number | null; events: Array<{ startTime: number; duration: number }> } }).__ux;
    const touchAt = ux.touchAt;
    return touchAt === null ? 0 : Math.max(0, ...ux.events.filter((entry) => entry.startTime >= touchAt - 1).map((entry) => entry.duration));
  });
  if (process.env.UX_DEBUG) console.error(target.name, when, await page.evaluate(`JSON.stringify({ touchAt: window.__ux.touchAt, shownAt: window.__ux.shownAt, events: window.__ux.events.filter((e) => e.startTime >= window.__ux.touchAt - 1).map((e) => e.name + '@' + Math.round(e.startTime - window.__ux.touchAt) + '+' + e.duration + (e.id ? '#' + e.id : '')) })`));
  const { shift: layoutShift, shifts } = await page.evaluate(() => (window as unknown as { __ux: { shift: number; shifts: string[] } }).__ux);
  const app = when === 'while the app starts' ? await appCost(page, firstTapAt) : null;
  return {
    ms: shownAt ? shownAt.shownAt - shownAt.touchAt : null,
    eventMs,
    scriptBytesBeforeTap: before.scriptBytes,
    layoutShift,
    shifts,
    hydratedBeforeTap: before.hydrated || hydratedAtTap,
    app,
  };
}

/** Waits for the app to hydrate, then reads what it cost: bytes, time and main-thread work. */
async function appCost(page: Page, firstTapAt: number): Promise<AppCost> {
  await page.waitForFunction(() => (window as unknown as { __ux: { hydrated: boolean } }).__ux.hydrated, undefined, { timeout: 30_000 });
  await page.waitForTimeout(200);
  return page.evaluate((since) => {
    const ux = (window as unknown as { __ux: { hydratedAt: number; tasks: number[] } }).__ux;
    const scripts = performance.getEntriesByType('resource').filter((entry) => (entry as PerformanceResourceTiming).initiatorType === 'script' || /\.m?js(\?|$)/.test(entry.name));
    return {
      scriptBytes: scripts.reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).transferSize, 0),
      hydratedMs: ux.hydratedAt - since,
      longestTaskMs: Math.max(0, ...ux.tasks),
      blockingMs: ux.tasks.reduce((sum, duration) => sum + Math.max(0, duration - 50), 0),
    };
  }, firstTapAt);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};
const ms = (value: number | null): string => (value === null ? 'never' : `${Math.round(value)} ms`);
/** An Event Timing duration: below the observer's 16 ms threshold the browser reports no entry. */
const eventTiming = (value: number): string => (value < 16 ? 'under 16 ms' : ms(value));

/**
 * The baseline, measured in the same run: a bare page holding nothing but a checkbox and a disclosure,
 * each tapped as the site's targets are (same phone, CPU slowdown and network, a fresh page a tap).
 * Its Event Timing is what the browser, the emulated touch and this machine take for a tap whose page
 * does no work at all: the floor under every row of the table, against which the site's rows read.
 */
const BASELINE_PATH = '/__bench-ux-bare-page';
const BASELINE_HTML = `<!doctype html><html lang="en"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bare page</title>
<label style="display:block;padding:1rem;font:1.1rem sans-serif"><input type="checkbox" id="bare-box" style="width:1.5rem;height:1.5rem"> A box to tick</label>
<details style="padding:1rem;font:1.1rem sans-serif"><summary id="bare-summary">A question</summary><p>Its answer.</p></details></html>`;
const BASELINE_TARGETS: Target[] = [
  { name: 'checkbox', selector: '#bare-box', shown: CHECKED },
  { name: 'disclosure', selector: '#bare-summary', shown: SUMMARY_OPENS },
];

async function baselineRows(browser: Browser, origin: string): Promise<string[][]> {
  const rows: string[][] = [];
  for (const target of BASELINE_TARGETS) {
    const taps: Tap[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: VIEWPORT, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
      try {
        await context.route(`${origin}${BASELINE_PATH}`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: BASELINE_HTML }));
        taps.push(await tap(await openPage(context, `${origin}${BASELINE_PATH}`), target, 'right after load', run));
      } finally {
        await context.close();
      }
    }
    const times = taps.map((t) => t.ms).filter((t): t is number => t !== null);
    const row = ['bare page', target.name, ms(times.length === taps.length ? median(times) : null), eventTiming(median(taps.map((t) => t.eventMs))), `${Math.round(Math.max(...taps.map((t) => t.eventMs)))} ms`];
    console.log(row.join('  |  '));
    rows.push(row);
  }
  return rows;
}

async function main(): Promise<void> {
  const site = await startProductionSite('bench-ux');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const rows: string[][] = [];
  const appRows = new Map<string, string[]>();
  const failures: string[] = [];
  const startedAt = new Date();
  const baseline: string[][] = [];
  try {
    baseline.push(...(await baselineRows(browser, site.origin)));
    for (const { pagePath, targets } of pages(`/blog/${site.postSlug}`)) {
      for (const target of targets.filter((t) => !ONLY || ONLY.includes(t.name))) {
        for (const when of WHENS.filter((w) => !ONLY_WHEN || ONLY_WHEN.includes(w))) {
          const taps: Tap[] = [];
          for (let run = 0; run < RUNS; run++) {
            const context = await browser.newContext({ viewport: VIEWPORT, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
            try {
              taps.push(await tap(await openPage(context, `${site.origin}${pagePath}`), target, when, run));
            } finally {
              await context.close();
            }
          }
          const times = taps.map((t) => t.ms);
          const worst = times.includes(null) ? null : Math.max(...(times as number[]));
          const scriptKb = Math.max(...taps.map((t) => t.scriptBytesBeforeTap)) / 1024;
          const shift = Math.max(...taps.map((t) => t.layoutShift));
          // Issue 36's measure of a first tap, the app not loaded (right after load, after a scroll): the
          // browser's Event Timing duration, median of the runs. While the app starts (a second tap, the
          // app's modules running) it is reported, not judged. Every row: no run's change may take longer
          // than the budget to be on screen.
          const eventMedian = median(taps.map((t) => t.eventMs));
          const eventJudged = when !== 'while the app starts';
          const ok = worst !== null && worst <= TAP_BUDGET_MS && (!eventJudged || eventMedian <= TAP_BUDGET_MS);
          if (worst === null || worst > TAP_BUDGET_MS) failures.push(`${pagePath} ${target.name} ${when}: tap to change, worst ${ms(worst)} > ${TAP_BUDGET_MS} ms`);
          if (eventJudged && eventMedian > TAP_BUDGET_MS) failures.push(`${pagePath} ${target.name} ${when}: Event Timing duration, median ${ms(eventMedian)} > ${TAP_BUDGET_MS} ms (runs: ${taps.map((t) => Math.round(t.eventMs)).join(', ')} ms)`);
          if (when !== 'while the app starts' && scriptKb > 0) failures.push(`${pagePath} ${when}: ${scriptKb.toFixed(1)} KB of JavaScript fetched before the first tap`);
          if (shift > 0) failures.push(`${pagePath} ${target.name} ${when}: layout shift ${shift.toFixed(4)}\n    ${taps.flatMap((t) => t.shifts).join('\n    ')}`);
          const row = [
            `${pagePath === '/' ? '/' : pagePath}`,
            target.name,
            when,
            ms(times.includes(null) ? null : median(times as number[])),
            ms(worst),
            eventTiming(eventMedian),
            `${taps.filter((t) => t.hydratedBeforeTap).length} of ${taps.length}`,
            when === 'while the app starts' ? '-' : `${scriptKb.toFixed(1)} KB`,
            shift.toFixed(3),
            ok ? 'PASS' : 'FAIL',
          ];
          rows.push(row);
          const costs = taps.flatMap((t) => (t.app ? [t.app] : []));
          if (costs.length > 0 && !appRows.has(pagePath)) {
            appRows.set(pagePath, [
              pagePath,
              `${(median(costs.map((c) => c.scriptBytes)) / 1024).toFixed(1)} KB`,
              ms(median(costs.map((c) => c.hydratedMs))),
              ms(median(costs.map((c) => c.longestTaskMs))),
              ms(median(costs.map((c) => c.blockingMs))),
            ]);
          }
          console.log(row.join('  |  '));
        }
      }
    }
  } finally {
    await browser.close();
    await site.close();
  }
  const section = [
    '## First tap on a phone (`npm run bench:ux`)',
    '',
    `Measured ${startedAt.toISOString()}, Chromium ${browser.version()}, 375 x 812 touch screen, CPU slowed ${CPU_SLOWDOWN}x, ${NETWORK.latency} ms latency, 1.6 Mbps down, 750 Kbps up (200,000 and 94,000 bytes a second); each row ${RUNS} fresh page loads, its times the median of ${RUNS} and the worst.`,
    '',
    ...markdownTable(
      ['page', 'tapped', 'when', `tap to change (median of ${RUNS})`, 'worst', `Event Timing duration (median of ${RUNS})`, 'app running at the tap', 'JS before interaction', 'layout shift', `budget ${TAP_BUDGET_MS} ms`],
      rows,
    ),
    '',
    `### The same tap on a bare page (the baseline, same run, medians of ${RUNS})`,
    '',
    ...markdownTable(['page', 'tapped', 'tap to change', 'Event Timing duration', 'Event Timing, worst'], baseline),
    '',
    `### What the app costs once it starts (from the first tap, medians of ${RUNS})`,
    '',
    ...markdownTable(['page', 'JavaScript fetched', 'first tap to hydrated', 'longest main-thread task', 'blocking time (past 50 ms per task)'], [...appRows.values()]),
    '',
    '- Tap to change: from the touch event\'s timestamp to the first animation frame in which the change is on screen (the answer, the tab\'s panel, the case study, the open menu, the ticked box or chosen option, the video or scheduling link marked as opening, or the player or form in its place), read by a requestAnimationFrame loop in the page.',
    '- Event Timing duration: the browser\'s own measure of the same tap, the longest `event` entry from the touch on (input delay, processing and presentation to the next paint), as a PerformanceObserver with a 16 ms threshold reports it; a tap with no entry took under 16 ms.',
    `- Budget: a row passes when every run's change was on screen within ${TAP_BUDGET_MS} ms and, for a first tap with the app not loaded (right after load, after a scroll), the median Event Timing duration is at most ${TAP_BUDGET_MS} ms (issue 36); while the app starts the Event Timing is reported, not judged.`,
    '- The baseline: a page holding only a checkbox and a disclosure, served by the same server and tapped the same way. What its taps take is the browser\'s, the emulated touch\'s and this machine\'s share of every row above: a site row close to it leaves the site little to gain.',
    '- Right after load: tapped as soon as the load event fired. After a scroll: a touch swipe first, the tap half a second after the page has come to rest. While the app starts: a first tap on plain text (which starts loading the app), then the target tapped 0.8, 1.6 or 2.4 s later (one delay per page load, in turn), while the app downloads, runs its modules and hydrates.',
    '- JS before interaction: JavaScript files fetched before the first interaction (the page boot script is inline in the HTML). Layout shift: every shift from navigation to the end of the tap. Each target is reached the way a visitor jumps down a page: its section\'s anchor (as the contents list and the menu link there), then scrolled to the middle of the screen.',
    '',
  ].join('\n');
  const file = path.join(ROOT, 'docs/benchmarks.md');
  if (!ONLY && !ONLY_WHEN) writeFileSync(file, replaceMarkedSection(readFileSync(file, 'utf8'), 'bench:ux', section));
  if (failures.length > 0) {
    for (const failure of failures) console.error(`FAIL ${failure}`);
    process.exitCode = 1;
  } else {
    console.log(`Every first tap showed its change within ${TAP_BUDGET_MS} ms${ONLY || ONLY_WHEN ? '' : '; docs/benchmarks.md updated'}.`);
  }
}

await main();
