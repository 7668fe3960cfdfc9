/**
 * `npm run bench`: the real server against bare Koa baselines, in one run on this machine, driven by
 * autocannon at a fixed concurrency. Prints the table, writes docs/benchmarks.md, and exits 1 when a
 * budget is missed. BENCH_SECONDS sets the length of each measurement (default 5), BENCH_ROUNDS the rounds of
 * the POST comparison at 1,000 posts (default 7; the median of their ratios decides). BENCH_ONLY=post runs
 * only the write scenarios (the POST budget and the write cost as the store grows) and prints their table
 * without writing docs/benchmarks.md, which only a full run may replace.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { SAMPLE_POST } from '../../harness/sample-post';
import { ensureBuild } from '../build-stamp';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
/** Rounds of the POST comparison at 1,000 posts (BENCH_ROUNDS), each a pair; the median round decides. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`BENCH_ROUNDS must be a whole number from 1, not "${process.env.BENCH_ROUNDS ?? ''}"`);
const ONLY = process.env.BENCH_ONLY ?? '';
if (ONLY !== '' && ONLY !== 'post') throw new Error(`BENCH_ONLY must be "post" or unset, not "${ONLY}"`);
const FULL_RUN = ONLY === '';

interface Started {
  port: number;
  key?: string;
  slug?: string;
  child: ChildProcess;
}

async function startServer(kind: string, arg = ''): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/bench/servers.ts'), kind, arg], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const stdout = child.stdout;
  if (!stdout) throw new Error(`${kind} server has no stdout`);
  const line = await new Promise<string>((resolve, reject) => {
    const reader = createInterface({ input: stdout });
    reader.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code}) before listening`)));
  });
  return { ...(JSON.parse(line) as Omit<Started, 'child'>), child };
}

async function stop(server: Started): Promise<void> {
  await new Promise<void>((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, options: Partial<autocannon.Options> = {}, seconds = SECONDS): Promise<Measure> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, ...options });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * The body of every write the benchmark sends, to our server and to the echo baseline alike: the sample
 * post with a title of its own. It is put together from a template rather than serialised per request:
 * the load generator shares this machine's CPUs with the server it measures, and a JSON.stringify per
 * request cost it twice what a fixed body does, time taken from the server under test.
 */
const TITLE_MARK = '{n}';
const [BODY_HEAD = '', BODY_TAIL = ''] = JSON.stringify({ ...SAMPLE_POST, title: `Benchmark post ${process.pid} ${TITLE_MARK}` }).split(TITLE_MARK);
let titleCounter = 0;

/** POSTs of the sample post, each with a unique title (so each creates a post with a slug of its own). */
function postRequests(key: string | undefined, target = '/api/blog'): autocannon.Request[] {
  return [
    {
      method: 'POST',
      path: target,
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
      setupRequest: (request) => {
        titleCounter += 1;
        return { ...request, body: BODY_HEAD + titleCounter + BODY_TAIL };
      },
    },
  ];
}

const WARM_UP_VALIDATE_SECONDS = 3;
const WARM_UP_CREATES = 1_000;

/**
 * A server for writes holding `posts` posts, warmed up: it starts with all but the last
 * WARM_UP_CREATES of them, then gets WARM_UP_VALIDATE_SECONDS of the same request through the same
 * pipeline without storing anything (POST /api/blog/validate), and creates the rest over HTTP. So the
 * measurement starts with exactly `posts` posts stored, on a server past its start: on this machine a
 * fresh server needed a few thousand creates before its compiled code reached a steady rate (its first
 * two seconds ran at about two thirds of it).
 */
async function startWriteServer(posts: number): Promise<Started> {
  const creates = Math.min(posts, WARM_UP_CREATES);
  const server = await startServer('site', String(posts - creates));
  const base = `http://127.0.0.1:${server.port}`;
  await load(base, { requests: postRequests(server.key ?? '', '/api/blog/validate') }, WARM_UP_VALIDATE_SECONDS);
  if (creates > 0) {
    const warm = await load(base, { requests: postRequests(server.key ?? ''), amount: creates });
    if (warm.non2xx > 0 || warm.errors > 0) throw new Error(`warming up the server with ${creates} creates failed (${warm.non2xx} non-2xx, ${warm.errors} errors)`);
  }
  return server;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Rounds of one measurement as one: the median rate and p50, the worst p99, every error counted. */
function combine(rounds: readonly Measure[]): Measure {
  return {
    rps: median(rounds.map((m) => m.rps)),
    p50: median(rounds.map((m) => m.p50)),
    p99: Math.max(...rounds.map((m) => m.p99)),
    errors: rounds.reduce((sum, m) => sum + m.errors, 0),
    non2xx: rounds.reduce((sum, m) => sum + m.non2xx, 0),
  };
}

async function fetchText(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.text();
}

interface Row {
  scenario: string;
  ours: Measure;
  baseline?: Measure;
  /** The ratio, when it is not ours.rps / baseline.rps of this row (the median of paired rounds). */
  ratio?: number;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function table(rows: readonly Row[]): string {
  const lines = [
    '| scenario | ours req/s | ours p50 ms | ours p99 ms | baseline req/s | baseline p50 ms | baseline p99 ms | ratio (req/s) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const { scenario, ours, baseline, ratio = baseline ? ours.rps / baseline.rps : undefined } of rows) {
    lines.push(
      `| ${scenario} | ${fmt(ours.rps)} | ${fmt(ours.p50, 1)} | ${fmt(ours.p99, 1)} | ${baseline ? fmt(baseline.rps) : '-'} | ${baseline ? fmt(baseline.p50, 1) : '-'} | ${baseline ? fmt(baseline.p99, 1) : '-'} | ${ratio === undefined ? '-' : `${fmt(ratio * 100, 1)}%`} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  ensureBuild(ROOT);
  const rows: Row[] = [];
  const roundLines: string[] = [];
  const cost = new Map<number, Measure>();
  const budgets: Array<{ name: string; ok: boolean; detail: string }> = [];
  const tmp = path.join(os.tmpdir(), `bench-${process.pid}`);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(tmp, { recursive: true });

  const echoRequest: Partial<autocannon.Options> = { requests: postRequests(undefined, '/') };

  // Pages: the real server holding 1,000 posts, each page against a static file of the same size.
  if (FULL_RUN) {
    const site = await startServer('site', '1000');
    try {
      for (const page of ['/', '/faq', `/blog/${site.slug ?? ''}`]) {
        const html = await fetchText(`http://127.0.0.1:${site.port}${page}`);
        const file = path.join(tmp, `${page.replace(/\W+/g, '_') || 'home'}.html`);
        writeFileSync(file, html);
        const baselineServer = await startServer('static', file);
        try {
          await load(`http://127.0.0.1:${site.port}${page}`, {}, 1); // warm-up
          const ours = await load(`http://127.0.0.1:${site.port}${page}`);
          const baseline = await load(`http://127.0.0.1:${baselineServer.port}/`);
          const label = page.startsWith('/blog/') ? 'GET /blog/:slug' : `GET ${page}`;
          rows.push({ scenario: `${label} (${fmt(html.length / 1024, 0)} KB)`, ours, baseline });
          budgets.push({ name: `${label} at least 50% of its baseline`, ok: ours.rps >= baseline.rps * 0.5 && ours.errors === 0, detail: `${fmt((ours.rps / baseline.rps) * 100, 1)}%` });
        } finally {
          await stop(baselineServer);
        }
      }
    } finally {
      await stop(site);
    }
  }

  const echo = await startServer('echo');
  try {
    await load(`http://127.0.0.1:${echo.port}/`, echoRequest, 1); // warm-up

    // Writes at 1,000 posts against bare Koa parsing and echoing the same JSON, in ROUNDS rounds: each on a
    // fresh server holding 1,000 posts, measured back to back with the echo (in turn first and second).
    // The median of the rounds' ratios decides, so a burst of load from elsewhere on the machine cannot.
    const ours: Measure[] = [];
    const baselines: Measure[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const server = await startWriteServer(1_000);
      try {
        const measureOurs = () => load(`http://127.0.0.1:${server.port}`, { requests: postRequests(server.key ?? '') });
        const measureEcho = () => load(`http://127.0.0.1:${echo.port}/`, echoRequest);
        if (round % 2 === 0) {
          baselines.push(await measureEcho());
          ours.push(await measureOurs());
        } else {
          ours.push(await measureOurs());
          baselines.push(await measureEcho());
        }
      } finally {
        await stop(server);
      }
    }
    const writes1k = combine(ours);
    const baseline = combine(baselines);
    // Each round is a pair measured back to back, so a change in the machine's load moves both sides of
    // it: the ratio is the median of the rounds' ratios.
    const roundRatios = ours.map((m, i) => m.rps / (baselines[i]?.rps ?? Number.NaN));
    const ratio = median(roundRatios);
    rows.push({ scenario: `POST /api/blog, 1,000 posts stored (median of ${ROUNDS} rounds)`, ours: writes1k, baseline, ratio });
    roundLines.push(
      `POST /api/blog at 1,000 posts, round by round: ours ${ours.map((m) => fmt(m.rps)).join(', ')} req/s; echo ${baselines.map((m) => fmt(m.rps)).join(', ')} req/s; ratio ${roundRatios.map((r) => `${fmt(r * 100, 1)}%`).join(', ')}.`,
    );
    budgets.push({
      name: 'POST at 1,000 posts at least 25% of its baseline, p99 under 50 ms',
      ok: ratio >= 0.25 && writes1k.p99 < 50 && writes1k.non2xx === 0 && writes1k.errors === 0,
      detail: `${fmt(ratio * 100, 1)}%, p99 ${fmt(writes1k.p99, 1)} ms, ${writes1k.non2xx} non-2xx`,
    });

    // The cost of one write as the store grows: 100, 1,000 and 10,000 posts.
    for (const count of [100, 1_000, 10_000]) {
      const server = await startWriteServer(count);
      try {
        const measure = await load(`http://127.0.0.1:${server.port}`, { requests: postRequests(server.key ?? '') });
        cost.set(count, measure);
        const echoBaseline = count === 10_000 ? await load(`http://127.0.0.1:${echo.port}/`, echoRequest) : undefined;
        rows.push({ scenario: `POST /api/blog, ${fmt(count)} posts stored`, ours: measure, ...(echoBaseline ? { baseline: echoBaseline } : {}) });
      } finally {
        await stop(server);
      }
    }
  } finally {
    await stop(echo);
  }
  const at1k = cost.get(1_000);
  const at10k = cost.get(10_000);
  if (at1k && at10k) {
    const ratio = at1k.rps / at10k.rps;
    budgets.push({ name: 'a write at 10,000 posts costs at most twice a write at 1,000', ok: ratio <= 2, detail: `${fmt(ratio, 2)}x (mean time per write)` });
  }

  const cpus = os.cpus();
  const machine = `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`;
  const report = [
    '# Benchmarks',
    '',
    `Measured ${new Date().toISOString()} on ${machine} with \`npm run bench\`:`,
    `autocannon, ${CONNECTIONS} connections, ${SECONDS} s per measurement; every server in its own process on 127.0.0.1.`,
    'Baselines: bare Koa sending the same HTML from a file (koa-send), and bare Koa parsing and echoing the same JSON (@koa/bodyparser); both sides of a write get the same stream of requests (the sample post, each with a title of its own).',
    'The ratio is our requests per second as a share of the baseline measured in the same run.',
    `Warm-up before a measurement: 1 s of the same requests for our pages and for the echo baseline; for our writes ${WARM_UP_VALIDATE_SECONDS} s of POST /api/blog/validate, then the last ${fmt(WARM_UP_CREATES)} of the posts a row names are created over HTTP (the rest were stored before the server started).`,
    `POST at 1,000 posts is measured in ${ROUNDS} rounds, each on a fresh server, back to back with the echo (which goes first in every other round); the row shows the medians of the rate and p50, the worst p99, and the median of the rounds' ratios.`,
    '',
    table(rows),
    '',
    ...roundLines,
    '',
    '## Budgets',
    '',
    ...budgets.map((b) => `- ${b.ok ? 'PASS' : 'FAIL'}: ${b.name} (${b.detail})`),
    '',
  ].join('\n');
  if (FULL_RUN) writeFileSync(path.join(ROOT, 'docs/benchmarks.md'), report);
  console.log(report);
  if (!FULL_RUN) console.log(`BENCH_ONLY=${ONLY}: a partial run, docs/benchmarks.md left as it was.`);
  if (budgets.some((b) => !b.ok)) process.exitCode = 1;
}

await main();
