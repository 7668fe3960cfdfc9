/**
 * Writes: durable `POST /api/blog` on a server holding 100,000 posts, 20 concurrent writers, against a
 * bare SQLite writer (servers.ts `durable`: Koa and better-sqlite3 inserting the same rows with the same
 * durability) into a copy of the same seeded database. Paired rounds, each on a fresh copy of the
 * seeded data: ours and the baseline back to back (in turn first), the median of the rounds' ratios
 * decides. Budget (issue 33): at least 50% of the baseline's requests/s and our p99 (the median round's)
 * under 50 ms.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type autocannon from 'autocannon';
import { SAMPLE_POST } from '../../harness/sample-post';
import { clean, combine, load, type Measure, median } from './load';
import { DATABASE_FILE } from '../../api/store/data-dir';
import { copyDataDir, startServer, stop } from './processes';
import { type Budget, fmt, markdownTable, measureCells, percent, type Section, verdict } from './report';

export const WRITERS = 20;
const MIN_RATIO = 0.5;
const MAX_P99_MS = 50;
export const WARM_UP_VALIDATE_SECONDS = 2;
export const WARM_UP_CREATE_SECONDS = 2;
export const WARM_UP_BASELINE_SECONDS = 1;

/**
 * The body of every write, to our server and the baseline alike: the sample post, published, with a
 * title of its own. Put together from a template rather than serialised per request: the load
 * generator shares this machine's two CPUs with the server it measures.
 */
const TITLE_MARK = '{n}';
const [BODY_HEAD = '', BODY_TAIL = ''] = JSON.stringify({ ...SAMPLE_POST, status: 'Published', title: `Benchmark post ${process.pid} ${TITLE_MARK}` }).split(TITLE_MARK);
let titleCounter = 0;

/** POSTs of the sample post, each with a unique title (so each creates a post with a slug of its own). */
/** The body of one more sample post (published, with a title of its own), as the writes send it. */
export function nextPostBody(): string {
  titleCounter += 1;
  return BODY_HEAD + titleCounter + BODY_TAIL;
}

export function postRequests(target: string, apiKey?: string): autocannon.Request[] {
  return [
    {
      method: 'POST',
      path: target,
      headers: { 'content-type': 'application/json', ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }) },
      setupRequest: (request) => ({ ...request, body: nextPostBody() }),
    },
  ];
}

export interface WritesInput {
  seedDir: string;
  seedCount: number;
  workDir: string;
  seconds: number;
  rounds: number;
}

export async function benchWrites({ seedDir, seedCount, workDir, seconds, rounds }: WritesInput): Promise<Section> {
  const write = (url: string, requests: autocannon.Request[], length = seconds) => load(url, { seconds: length, connections: WRITERS, requests });
  // The baseline inserts into a copy of the seeded database, so both sides add rows to tables (and
  // indexes) of the same size; it keeps that copy over the rounds.
  const baselineDir = path.join(workDir, 'durable-baseline');
  copyDataDir(seedDir, baselineDir);
  const baseline = await startServer('durable', path.join(baselineDir, DATABASE_FILE));
  const ours: Measure[] = [];
  const baselines: Measure[] = [];
  const warmCreates: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const dataDir = path.join(workDir, `writes-${round}`);
      copyDataDir(seedDir, dataDir);
      const site = await startServer('site', dataDir);
      try {
        // Past its start before measuring: the same pipeline without storing, then some real creates.
        await write(site.url, postRequests('/api/blog/validate', site.key), WARM_UP_VALIDATE_SECONDS);
        const warm = await write(site.url, postRequests('/api/blog', site.key), WARM_UP_CREATE_SECONDS);
        if (!clean(warm)) throw new Error(`warming up the writes failed (${warm.non2xx} non-2xx, ${warm.errors} errors)`);
        warmCreates.push(Math.round(warm.rps * WARM_UP_CREATE_SECONDS));
        await write(baseline.url, postRequests('/'), WARM_UP_BASELINE_SECONDS);
        const measureOurs = () => write(site.url, postRequests('/api/blog', site.key));
        const measureBaseline = () => write(baseline.url, postRequests('/'));
        if (round % 2 === 0) {
          baselines.push(await measureBaseline());
          ours.push(await measureOurs());
        } else {
          ours.push(await measureOurs());
          baselines.push(await measureBaseline());
        }
      } finally {
        await stop(site.child);
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await stop(baseline.child);
    rmSync(baselineDir, { recursive: true, force: true });
  }

  const roundRatios = ours.map((m, i) => m.rps / (baselines[i]?.rps ?? Number.NaN));
  const ratio = median(roundRatios);
  const combined = combine(ours);
  const combinedBaseline = combine(baselines);
  const ok = ratio >= MIN_RATIO && combined.p99 < MAX_P99_MS && clean(combined);
  const budget: Budget = {
    name: `POST /api/blog with ${fmt(seedCount)} posts, ${WRITERS} writers, at least 50% of a bare SQLite writer, p99 under ${MAX_P99_MS} ms`,
    ok,
    detail: `${percent(ratio)}, p99 ${fmt(combined.p99, 1)} ms${clean(combined) ? '' : `, ${combined.non2xx} non-2xx, ${combined.errors} errors`}`,
  };
  return {
    heading: `Writes (${fmt(seedCount)} posts stored, ${WRITERS} concurrent writers)`,
    table: markdownTable(
      ['scenario', 'ours req/s', 'ours p50 ms', 'ours p99 ms', 'baseline req/s', 'baseline p50 ms', 'baseline p99 ms', 'ratio', 'budget', 'result'],
      [[`durable POST /api/blog (median of ${rounds} rounds)`, ...measureCells(combined), ...measureCells(combinedBaseline), percent(ratio), `>= ${percent(MIN_RATIO)}, p99 < ${MAX_P99_MS} ms`, verdict(ok)]],
    ),
    budgets: [budget],
    notes: [
      `Round by round: ours ${ours.map((m) => fmt(m.rps)).join(', ')} req/s (p99 ${ours.map((m) => fmt(m.p99)).join(', ')} ms); baseline ${baselines.map((m) => fmt(m.rps)).join(', ')} req/s (p99 ${baselines.map((m) => fmt(m.p99)).join(', ')} ms); ratio ${roundRatios.map(percent).join(', ')}.`,
      `Each round: a fresh server on a copy of the ${fmt(seedCount)}-post data directory, ${WARM_UP_VALIDATE_SECONDS} s of POST /api/blog/validate and ${WARM_UP_CREATE_SECONDS} s of creates (${warmCreates.map((n) => fmt(n)).join(', ')} posts) before the ${seconds} s measured; the baseline gets ${WARM_UP_BASELINE_SECONDS} s of warm-up and goes first in every other round.`,
      'The row shows the medians over the rounds (rate, p50, p99); the ratio is the median of the rounds\' ratios.',
      `The baseline: bare Koa, @koa/bodyparser, then per request one better-sqlite3 transaction (BEGIN IMMEDIATE) inserting the rows the store writes for a post (the post with its JSON entry and content, its slug, its tags, the post counter) under WAL and synchronous=FULL, as the store opens its file, then 201; no validation, cleaning or query builder. Its database starts as a copy of the ${fmt(seedCount)}-post seed and keeps what earlier rounds wrote.`,
    ],
  };
}
