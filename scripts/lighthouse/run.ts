/**
 * `npm run lighthouse`: Lighthouse (mobile preset) against a locally started production server with
 * Debian's Chromium, on the pages that matter most. Each page is measured LIGHTHOUSE_RUNS times
 * (default 3; a run that could not time the page is replaced) and judged on the median of each
 * category's score over the runs, as Lighthouse advises for variable machines; the report kept is the
 * median run, picked the way Lighthouse CI does (computeMedianRun). Prints the four category scores
 * per page, saves the median reports in reports/lighthouse/, and exits 1 below Accessibility 100, Best
 * Practices 100, SEO 100, below the performance floor (85), or when anything shifts while the page
 * loads (CLS above 0 in the median over the runs; a shift in one run is printed with what moved).
 * A page whose median performance is under the floor is measured again as many times, beside a blank
 * page measured in the same minutes, and judged on the median of all its runs.
 * Performance below its target (98) is printed with the audits that cost it, and fails only with
 * LIGHTHOUSE_STRICT=1: on a shared two-core machine the same commit's performance
 * varies from 82 to 100 between runs, a blank page's blocking time from 0 to 98 ms
 * (docs/decisions/0012-lighthouse-on-a-shared-machine.md). LIGHTHOUSE_PAGES (names separated by
 * commas, e.g. `home,faq`) measures only those pages.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type RunnerResult } from 'lighthouse';
import { computeMedianRun, filterToValidRuns } from 'lighthouse/core/lib/median-run.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';
import { ROOT, startProductionSite } from '../production-site';

const REPORTS = path.join(ROOT, 'reports/lighthouse');
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const ONLY = process.env.LIGHTHOUSE_PAGES ? process.env.LIGHTHOUSE_PAGES.split(',').map((name) => name.trim()) : null;

/** The scores each page must reach (median over the runs); performance's is its floor, see PERFORMANCE_TARGET. */
export const BUDGETS = { performance: 85, accessibility: 100, 'best-practices': 100, seo: 100 } as const;
type Category = keyof typeof BUDGETS;
/**
 * The performance score the pages are built for. Below it a page is reported with the audits that cost
 * it; it fails the run only with LIGHTHOUSE_STRICT=1 (a quiet, dedicated machine), because on a shared
 * one the total blocking time of the same page swings from 176 to 583 ms between runs (decision 0012).
 */
export const PERFORMANCE_TARGET = 98;
const STRICT = process.env.LIGHTHOUSE_STRICT === '1';
const performanceFloor = STRICT ? PERFORMANCE_TARGET : BUDGETS.performance;

/** One Lighthouse run of a URL in the browser listening on `port` (the mobile preset, the four categories). */
async function run(port: number, url: string): Promise<RunnerResult> {
  const result = await lighthouse(url, { port, output: ['html', 'json'], logLevel: 'error', onlyCategories: Object.keys(BUDGETS) });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  return result;
}

/**
 * The blocking time Lighthouse measures for a blank page (an 800-byte HTML page from plain node:http),
 * `runs` times in the same browser: what the machine alone costs at that minute, printed beside a page
 * measured again (decision 0012: 0 ms on a quiet machine, up to 98 ms on a busy one).
 */
async function blankPageBlockingTime(port: number, runs: number): Promise<number[]> {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Blank</title><meta name="description" content="A blank page, the baseline of a Lighthouse run."></head><body><main><h1>Blank</h1><p>${'A blank page. '.repeat(40)}</p></main></body></html>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: blankPort } = server.address() as AddressInfo;
  try {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const result = await run(port, `http://127.0.0.1:${blankPort}/`);
      times.push(Math.round(result.lhr.audits['total-blocking-time']?.numericValue ?? 0));
    }
    return times;
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * A category's score as judged: the median of its score over the measured runs (Lighthouse CI's
 * `median` aggregation). The run computeMedianRun picks (by its paint and interactive times) is the
 * report kept, but its own score can be the one outlier: runs of 100, 100 and 96 failed CI at 96.
 */
function medianScore(runs: ReadonlyArray<RunnerResult['lhr']>, category: Category): number {
  const scores = runs.map((lhr) => Math.round((lhr.categories[category]?.score ?? 0) * 100)).sort((a, b) => a - b);
  const mid = Math.floor(scores.length / 2);
  return scores.length % 2 === 1 ? (scores[mid] ?? 0) : Math.round(((scores[mid - 1] ?? 0) + (scores[mid] ?? 0)) / 2);
}

/** What moved in a run, by CSS selector, from its layout-shifts audit. */
function shiftedElements(lhr: RunnerResult['lhr']): string[] {
  const details = lhr.audits['layout-shifts']?.details as { items?: Array<{ node?: { selector?: string } }> } | undefined;
  return (details?.items ?? []).map((item) => item.node?.selector ?? 'an element');
}

async function main(): Promise<void> {
  const site = await startProductionSite('lighthouse');
  const { origin } = site;

  const pages = site.pages.filter(([name]) => !ONLY || ONLY.includes(name));
  if (ONLY && pages.length !== ONLY.length) throw new Error(`LIGHTHOUSE_PAGES names a page it does not know: ${ONLY.join(', ')}`);

  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
  mkdirSync(REPORTS, { recursive: true });
  const rows: Array<{ name: string; scores: Record<Category, number>; failures: string[]; notes: string[] }> = [];
  try {
    for (const [name, pagePath] of pages) {
      // A run that could not time the page (Lighthouse's NO_NAVSTART, no first paint) is not a
      // measurement: it is left out and another run takes its place, up to twice the runs asked for.
      const results: RunnerResult[] = [];
      let valid: Array<RunnerResult['lhr']> = [];
      const measure = async (wanted: number): Promise<void> => {
        for (let attempt = 0; attempt < 2 * RUNS && valid.length < wanted; attempt++) {
          results.push(await run(chrome.port, `${origin}${pagePath}`));
          valid = filterToValidRuns(results.map((r) => r.lhr));
        }
      };
      await measure(RUNS);
      if (valid.length === 0) {
        const problems = results.map((r) => r.lhr.runtimeError?.message ?? 'no first contentful paint or interactive time').join('; ');
        throw new Error(`Lighthouse could not measure ${pagePath} in any of ${results.length} runs: ${problems}`);
      }
      // Under the floor, the page is measured again as many times and judged on the median of all its
      // runs, with a blank page measured in the same minutes beside it: on a shared machine a busy
      // minute takes a median of three below the floor while the page itself has not changed
      // (decision 0012). A page that really regressed stays under it.
      let remeasured: string | null = null;
      if (medianScore(valid, 'performance') < performanceFloor) {
        const firstMedian = medianScore(valid, 'performance');
        const blank = await blankPageBlockingTime(chrome.port, RUNS);
        await measure(2 * RUNS);
        remeasured = `${RUNS === 1 ? 'the first run' : `median of the first ${RUNS} runs`} ${firstMedian}, so measured again; a blank page's blocking time in the same minutes: ${blank.join(', ')} ms`;
      }
      const median = computeMedianRun(valid);
      const result = results.find((r) => r.lhr === median) ?? results[0];
      if (!result) throw new Error(`No Lighthouse run for ${pagePath}`);
      const [html, json] = result.report as string[];
      writeFileSync(path.join(REPORTS, `${name}.report.html`), html ?? '');
      writeFileSync(path.join(REPORTS, `${name}.report.json`), json ?? '');
      const scores = {} as Record<Category, number>;
      const failures: string[] = [];
      const notes: string[] = [];
      const costs = (category: Category) =>
        (result.lhr.categories[category]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (result.lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => ref.id)
          .join(', ') || 'see the report';
      for (const category of Object.keys(BUDGETS) as Category[]) {
        const score = medianScore(valid, category);
        scores[category] = score;
        const required = category === 'performance' ? performanceFloor : BUDGETS[category];
        if (score < required) failures.push(`${category} ${score} < ${required} (${costs(category)})`);
        else if (category === 'performance' && score < PERFORMANCE_TARGET) {
          const blocking = Math.round(result.lhr.audits['total-blocking-time']?.numericValue ?? 0);
          notes.push(`performance ${score} is under its target of ${PERFORMANCE_TARGET} (${costs(category)}; blocking time ${blocking} ms in the median run)`);
        }
      }
      // Nothing may move while the page loads: a layout shift in most runs fails, whatever the score.
      // One run in several may see decision 0009's rare late font redraw (a first visit whose font
      // arrives inside its block period): reported with what moved, judged like the scores, on the
      // median over the runs.
      const shifts = valid.map((lhr) => lhr.audits['cumulative-layout-shift']?.numericValue ?? 0);
      const layoutShift = [...shifts].sort((a, b) => a - b)[Math.floor((shifts.length - 1) / 2)] ?? 0;
      const shifted = valid.filter((lhr) => (lhr.audits['cumulative-layout-shift']?.numericValue ?? 0) > 0);
      const moved = [...new Set(shifted.flatMap(shiftedElements))];
      if (layoutShift > 0) failures.push(`cumulative layout shift ${layoutShift.toFixed(4)} > 0 in most runs (${moved.join('; ')}; see the report's layout-shifts audit)`);
      else if (shifted.length > 0) {
        notes.push(`a layout shift in ${shifted.length} of ${valid.length} runs (${shifts.filter((cls) => cls > 0).map((cls) => cls.toFixed(4)).join(', ')}): ${moved.join('; ')} (decision 0009)`);
      }
      rows.push({ name, scores, failures, notes });
      const allRuns = results
        .map((r) =>
          valid.includes(r.lhr)
            ? String(Math.round((r.lhr.categories.performance?.score ?? 0) * 100))
            : `not measured (${r.lhr.runtimeError?.code ?? r.lhr.audits.interactive?.errorMessage ?? 'no timings'})`,
        )
        .join(', ');
      console.log(
        `${name.padEnd(20)} performance ${String(scores.performance).padStart(3)}  accessibility ${String(scores.accessibility).padStart(3)}  best-practices ${String(scores['best-practices']).padStart(3)}  seo ${String(scores.seo).padStart(3)}` +
          (results.length > 1 ? `  (performance of the ${results.length} runs: ${allRuns})` : ''),
      );
      if (remeasured) console.log(`${''.padEnd(20)} ${remeasured}`);
    }
  } finally {
    await chrome.kill();
    await site.close();
  }
  for (const row of rows) for (const note of row.notes) console.log(`NOTE ${row.name}: ${note}`);
  const failed = rows.filter((r) => r.failures.length > 0);
  for (const row of failed) for (const failure of row.failures) console.error(`FAIL ${row.name}: ${failure}`);
  console.log(failed.length === 0 ? `Lighthouse budgets met on all ${rows.length} pages (reports in reports/lighthouse/).` : `${failed.length} of ${rows.length} pages below budget.`);
  if (failed.length > 0) process.exitCode = 1;
}

await main();
