/**
 * PostgreSQL beside SQLite: the write and read rows of writes.ts and reads.ts, run in the same run
 * against our server on each engine of the store. A throwaway PostgreSQL cluster (initdb in a temporary
 * folder, tests/support/postgres-cluster.ts) is started for it and stopped at the end, also on failure;
 * one database is seeded with the same posts as the SQLite seed (seed.ts, straight into the database
 * in one transaction) and every server that needs a fresh store gets a copy of it (`CREATE DATABASE
 * ... TEMPLATE`).
 * - Writes: paired rounds, each with a fresh server on each engine and the bare SQLite writer, the
 *   three measured back to back in an order that turns every round; each engine's ratio to the baseline
 *   of its round, and PostgreSQL's rate as a share of SQLite's, are medians over the rounds.
 * - Reads: one server on each engine; each page measured on both, in turn first.
 * - The duplicate-title check: `posts.sameTitle` timed in this process on a store of 100,000 posts on
 *   each engine (issue 39's budget: under 2 ms).
 * No budgets of its own: the figures are reported (the budgets of issue 33 apply to SQLite, the default).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type autocannon from 'autocannon';
import pg from 'pg';
import { type PostgresCluster, postgresBinDir, startPostgresCluster } from '../../tests/support/postgres-cluster';
import { decoded, getOk } from './http';
import { clean, combine, load, type Measure, median } from './load';
import { DATABASE_FILE } from '../../api/store/data-dir';
import { copyDataDir, seed, type Server, startServer, stop } from './processes';
import { openBenchStore } from './stores';
import { CONNECTIONS, readTargets, WARM_UP_SECONDS } from './reads';
import { fmt, kb, markdownTable, measureCells, percent, seconds as secondsText, type Section } from './report';
import { nextPostBody, postRequests, WARM_UP_BASELINE_SECONDS, WARM_UP_CREATE_SECONDS, WARM_UP_VALIDATE_SECONDS, WRITERS } from './writes';

const TEMPLATE = 'bench_seed';

export interface PostgresInput {
  /** The seeded data directory (SQLite) of `seedCount` posts. */
  seedDir: string;
  seedCount: number;
  workDir: string;
  seconds: number;
  rounds: number;
  categorySlug: string;
}

export interface PostgresResult {
  sections: Section[];
  /** What seeding the database took, for the notes. */
  seedNote: string;
}

/** Whether this machine has PostgreSQL's server programs (Debian's `postgresql` package). */
export function postgresInstalled(): boolean {
  try {
    postgresBinDir();
    return true;
  } catch {
    return false;
  }
}

/** Runs one statement on the cluster's maintenance database. */
async function onCluster(cluster: PostgresCluster, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new database holding a copy of the seeded one; its URL. */
async function copyOfSeed(cluster: PostgresCluster, name: string): Promise<string> {
  await onCluster(cluster, `CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE}"`);
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return url.toString();
}

const dropDatabase = (cluster: PostgresCluster, name: string) => onCluster(cluster, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);

/** The two stores a round or the reads run on: a copy of the seeded data directory and of the seeded database. */
interface Pair {
  sqlite: Server;
  postgres: Server;
  close: () => Promise<void>;
}

async function startPair(cluster: PostgresCluster, seedDir: string, dataDir: string, database: string): Promise<Pair> {
  copyDataDir(seedDir, dataDir);
  const url = await copyOfSeed(cluster, database);
  const servers: Server[] = [];
  const close = async () => {
    for (const server of servers) await stop(server.child);
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase(cluster, database);
  };
  try {
    servers.push(await startServer('site', dataDir));
    servers.push(await startServer('site', url));
  } catch (error) {
    await close();
    throw error;
  }
  const [sqlite, postgres] = servers as [Server, Server];
  return { sqlite, postgres, close };
}

const rates = (measures: readonly Measure[]) => measures.map((m) => fmt(m.rps)).join(', ');
const p99s = (measures: readonly Measure[]) => measures.map((m) => fmt(m.p99)).join(', ');

async function benchWritesOnBoth({ seedDir, seedCount, workDir, seconds, rounds }: PostgresInput, cluster: PostgresCluster): Promise<Section> {
  const write = (url: string, requests: autocannon.Request[], length = seconds) => load(url, { seconds: length, connections: WRITERS, requests });
  const baselineDir = path.join(workDir, 'pg-durable-baseline');
  copyDataDir(seedDir, baselineDir);
  const baseline = await startServer('durable', path.join(baselineDir, DATABASE_FILE));
  const measured = { sqlite: [] as Measure[], postgres: [] as Measure[], baseline: [] as Measure[] };
  const warmCreates = { sqlite: [] as number[], postgres: [] as number[] };
  try {
    for (let round = 0; round < rounds; round++) {
      const pair = await startPair(cluster, seedDir, path.join(workDir, `pg-writes-${round}`), `bench_writes_${round}`);
      try {
        for (const store of ['sqlite', 'postgres'] as const) {
          const site = pair[store];
          await write(site.url, postRequests('/api/blog/validate', site.key), WARM_UP_VALIDATE_SECONDS);
          const warm = await write(site.url, postRequests('/api/blog', site.key), WARM_UP_CREATE_SECONDS);
          if (!clean(warm)) throw new Error(`warming up the writes on the ${store} store failed (${warm.non2xx} non-2xx, ${warm.errors} errors)`);
          warmCreates[store].push(Math.round(warm.rps * WARM_UP_CREATE_SECONDS));
        }
        await write(baseline.url, postRequests('/'), WARM_UP_BASELINE_SECONDS);
        const sides = [
          async () => measured.baseline.push(await write(baseline.url, postRequests('/'))),
          async () => measured.sqlite.push(await write(pair.sqlite.url, postRequests('/api/blog', pair.sqlite.key))),
          async () => measured.postgres.push(await write(pair.postgres.url, postRequests('/api/blog', pair.postgres.key))),
        ];
        // Each side goes first in one round of three.
        for (let i = 0; i < sides.length; i++) await sides[(round + i) % sides.length]?.();
      } finally {
        await pair.close();
      }
    }
  } finally {
    await stop(baseline.child);
    rmSync(baselineDir, { recursive: true, force: true });
  }
  const ratios = (ours: readonly Measure[]) => ours.map((m, i) => m.rps / (measured.baseline[i]?.rps ?? Number.NaN));
  const sqliteRatios = ratios(measured.sqlite);
  const pgRatios = ratios(measured.postgres);
  const pgToSqlite = measured.postgres.map((m, i) => m.rps / (measured.sqlite[i]?.rps ?? Number.NaN));
  const baselineCells = measureCells(combine(measured.baseline));
  const row = (label: string, ours: readonly Measure[], roundRatios: number[], share: string) => {
    const combined = combine(ours);
    return [label, ...measureCells(combined), ...baselineCells, percent(median(roundRatios)), share, clean(combined) ? 'all 201' : `${combined.non2xx} non-2xx, ${combined.errors} errors`];
  };
  return {
    heading: `Writes on each engine (${fmt(seedCount)} posts stored, ${WRITERS} concurrent writers)`,
    table: markdownTable(
      ['engine', 'ours req/s', 'ours p50 ms', 'ours p99 ms', 'baseline req/s', 'baseline p50 ms', 'baseline p99 ms', 'ratio to baseline', 'rate vs SQLite', 'answers'],
      [
        row(`SQLite: durable POST /api/blog (median of ${rounds} rounds)`, measured.sqlite, sqliteRatios, '100%'),
        row(`PostgreSQL: durable POST /api/blog (median of ${rounds} rounds)`, measured.postgres, pgRatios, percent(median(pgToSqlite))),
      ],
    ),
    budgets: [],
    notes: [
      `Round by round: SQLite ${rates(measured.sqlite)} req/s (p99 ${p99s(measured.sqlite)} ms); PostgreSQL ${rates(measured.postgres)} req/s (p99 ${p99s(measured.postgres)} ms); baseline ${rates(measured.baseline)} req/s (p99 ${p99s(measured.baseline)} ms).`,
      `Ratios to the baseline, round by round: SQLite ${sqliteRatios.map(percent).join(', ')}; PostgreSQL ${pgRatios.map(percent).join(', ')}. PostgreSQL's rate as a share of SQLite's: ${pgToSqlite.map(percent).join(', ')}.`,
      `Each round: a fresh server on each engine (a copy of the ${fmt(seedCount)}-post data directory; a copy of the seeded database), each warmed with ${WARM_UP_VALIDATE_SECONDS} s of POST /api/blog/validate and ${WARM_UP_CREATE_SECONDS} s of creates (SQLite ${warmCreates.sqlite.map((n) => fmt(n)).join(', ')} posts; PostgreSQL ${warmCreates.postgres.map((n) => fmt(n)).join(', ')}), then the baseline, SQLite and PostgreSQL measured ${seconds} s each, back to back, each first in one round of three. The baseline is the bare SQLite writer of the Writes section, on a copy of its own of the seeded database.`,
      'PostgreSQL commits each post in a transaction of its own with the server\'s defaults (fsync and synchronous_commit on), so an answered write is on disk, as with SQLite (WAL, synchronous=FULL).',
    ],
  };
}

async function benchReadsOnBoth({ seedDir, seedCount, workDir, seconds, categorySlug }: PostgresInput, cluster: PostgresCluster): Promise<Section> {
  const pair = await startPair(cluster, seedDir, path.join(workDir, 'pg-reads-data'), 'bench_reads');
  const rows: string[][] = [];
  try {
    const published = async (site: Server) => (JSON.parse(decoded(await getOk(`${site.url}/api/blog?limit=1`)).toString('utf8')) as { total: number }).total;
    const total = await published(pair.sqlite);
    const pgTotal = await published(pair.postgres);
    if (pgTotal !== total) throw new Error(`the stores hold different posts: ${total} published in SQLite, ${pgTotal} in PostgreSQL`);
    for (const [index, [label, target]] of readTargets(total, categorySlug).entries()) {
      const measures: Partial<Record<'sqlite' | 'postgres', Measure>> = {};
      const order = index % 2 === 0 ? (['sqlite', 'postgres'] as const) : (['postgres', 'sqlite'] as const);
      let size = 0;
      for (const store of order) {
        const url = `${pair[store].url}${target}`;
        size = (await getOk(url)).body.length;
        await load(url, { seconds: WARM_UP_SECONDS, connections: CONNECTIONS });
        measures[store] = await load(url, { seconds, connections: CONNECTIONS });
      }
      const sqlite = measures.sqlite;
      const postgres = measures.postgres;
      if (!sqlite || !postgres) throw new Error(`no measure of ${label}`);
      const answers = clean(sqlite) && clean(postgres) ? 'all 200' : `SQLite ${sqlite.non2xx + sqlite.errors}, PostgreSQL ${postgres.non2xx + postgres.errors} failed`;
      rows.push([label, kb(size), ...measureCells(sqlite), ...measureCells(postgres), percent(postgres.rps / sqlite.rps), answers]);
    }
  } finally {
    await pair.close();
  }
  return {
    heading: `Reads on each engine (${fmt(seedCount)} posts stored)`,
    table: markdownTable(['request', 'size over the wire', 'SQLite req/s', 'SQLite p50 ms', 'SQLite p99 ms', 'PostgreSQL req/s', 'PostgreSQL p50 ms', 'PostgreSQL p99 ms', 'PostgreSQL vs SQLite', 'answers'], rows),
    budgets: [],
    notes: [
      `autocannon, ${CONNECTIONS} connections, ${seconds} s each after ${WARM_UP_SECONDS} s of warm-up, \`Accept-Encoding: br, gzip\`; one server on each engine, each page measured on both back to back, in turn first. The size is PostgreSQL's answer (the same pages as SQLite's).`,
    ],
  };
}

/** Visitors asking for the home page at once, right after a write made every cached page out of date. */
const VISITORS = 20;
const HERD_ROUNDS = 15;

/** Milliseconds from the first request to the last answer of `count` GETs of `url` sent at once. */
async function allAnswered(url: string, count: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async () => {
      const answer = await fetch(url, { headers: { 'accept-encoding': 'br, gzip' } });
      if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}`);
      await answer.arrayBuffer();
    }),
  );
  return performance.now() - started;
}

/**
 * Decision 0025: a page not in the answer cache is rendered once for all the requests waiting for it.
 * Each round publishes a post (every cached page is then out of date) and times one visitor's GET /;
 * then publishes another and times ${VISITORS} visitors' GET / sent at once, to the last answer. The
 * ratio is the second time over the first: 1x when the visitors share one render, up to ${VISITORS}x
 * when each renders the page.
 */
async function benchPageAfterWrite({ seedDir, seedCount, workDir }: PostgresInput, cluster: PostgresCluster): Promise<Section> {
  const pair = await startPair(cluster, seedDir, path.join(workDir, 'pg-herd-data'), 'bench_herd');
  const rows: string[][] = [];
  const notes: string[] = [];
  try {
    for (const store of ['sqlite', 'postgres'] as const) {
      const site = pair[store];
      const publish = async () => {
        const answer = await fetch(`${site.url}/api/blog`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${site.key ?? ''}` }, body: nextPostBody() });
        if (answer.status !== 201) throw new Error(`POST /api/blog answered ${answer.status}: ${await answer.text()}`);
      };
      const one: number[] = [];
      const many: number[] = [];
      for (let round = 0; round < HERD_ROUNDS; round++) {
        await publish();
        one.push(await allAnswered(`${site.url}/`, 1));
        await publish();
        many.push(await allAnswered(`${site.url}/`, VISITORS));
      }
      const label = store === 'sqlite' ? 'SQLite' : 'PostgreSQL';
      rows.push([label, `${median(one).toFixed(0)} ms`, `${median(many).toFixed(0)} ms`, `${(median(many) / median(one)).toFixed(1)}x`]);
      notes.push(`${label}, round by round (ms): one visitor ${one.map((ms) => ms.toFixed(0)).join(', ')}; ${VISITORS} at once ${many.map((ms) => ms.toFixed(0)).join(', ')}.`);
    }
  } finally {
    await pair.close();
  }
  return {
    heading: `The home page right after a write, ${VISITORS} visitors at once (${fmt(seedCount)} posts stored)`,
    table: markdownTable(['engine', 'one visitor: answered in (median)', `${VISITORS} visitors at once: all answered in (median)`, 'ratio'], rows),
    budgets: [],
    notes: [
      `${HERD_ROUNDS} rounds on each engine; each round publishes a post and times one GET /, then publishes another and times ${VISITORS} GET / sent at once, to the last answer (decision 0025: the visitors share one render).`,
      ...notes,
    ],
  };
}

/** The store size of the duplicate-title check's budget (issue 39: under 2 ms at 100,000 posts). */
const TITLE_CHECK_POSTS = 100_000;
/** Titles looked up on each engine: half those of stored posts, half new ones. */
const TITLE_CHECKS = 200;

/**
 * The duplicate-title check (`posts.sameTitle`, a range of the slug index: decision 0036) in the bench
 * process, on a store of its own of TITLE_CHECK_POSTS posts on each engine: each lookup timed alone,
 * after 20 unmeasured ones.
 */
async function benchSameTitle({ workDir }: PostgresInput, cluster: PostgresCluster): Promise<Section> {
  const name = 'bench_same_title';
  const dir = path.join(workDir, 'pg-same-title');
  const url = await cluster.createDatabase(name);
  const rows: string[][] = [];
  const notes: string[] = [];
  try {
    for (const [label, target] of [['SQLite', dir], ['PostgreSQL', url]] as const) {
      const seeded = await seed(target, TITLE_CHECK_POSTS);
      const store = await openBenchStore(target);
      try {
        const titles: string[] = [];
        const { total } = await store.posts.list({ status: 'published', limit: 1 });
        for (let n = 0; n < TITLE_CHECKS / 2; n++) {
          const page = Math.max(1, Math.floor((n * total) / (TITLE_CHECKS / 2)));
          const entry = (await store.posts.list({ status: 'published', limit: 1, page })).entries[0];
          titles.push(entry?.title ?? `Missing ${n}`, `A title nobody wrote ${n}`);
        }
        for (const title of titles.slice(0, 20)) await store.posts.sameTitle(title);
        const times: number[] = [];
        let found = 0;
        for (const title of titles) {
          const began = performance.now();
          found += (await store.posts.sameTitle(title)).length > 0 ? 1 : 0;
          times.push(performance.now() - began);
        }
        times.sort((x, y) => x - y);
        const p99 = times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)] ?? 0;
        rows.push([label, fmt(seeded.count), `${median(times).toFixed(2)} ms`, `${p99.toFixed(2)} ms`, median(times) < 2 ? 'yes' : 'NO']);
        notes.push(`${label}: ${titles.length} lookups, ${found} of them found posts of the same title.`);
      } finally {
        await store.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await dropDatabase(cluster, name);
  }
  return {
    heading: `The duplicate-title check at ${fmt(TITLE_CHECK_POSTS)} posts`,
    table: markdownTable(['engine', 'posts stored', 'one check (median)', 'p99', 'under 2 ms'], rows),
    budgets: [],
    notes: [
      `\`posts.sameTitle\` called from the bench process on a store of ${fmt(TITLE_CHECK_POSTS)} seeded posts on each engine, each call timed alone: a range of the slug's unique index (the title's slug and every \`slug-<n>\`; PostgreSQL's column is COLLATE "C"), not a scan of the table.`,
      ...notes,
    ],
  };
}

/** Starts a throwaway cluster, seeds it with the SQLite seed's posts, measures the writes and reads on both engines, stops it. */
export async function benchPostgres(input: PostgresInput): Promise<PostgresResult> {
  const cluster = await startPostgresCluster();
  // Stopped however the bench ends: a failure reaches the finally below, an interrupt exits the process.
  process.once('exit', cluster.stop);
  try {
    const url = await cluster.createDatabase(TEMPLATE);
    const seeded = await seed(url, input.seedCount);
    const seedNote = `${fmt(seeded.count)} posts seeded into PostgreSQL in ${secondsText(seeded.seconds * 1000)} (in one transaction, then ANALYZE); each server gets a copy made with \`CREATE DATABASE ... TEMPLATE\`.`;
    console.log(seedNote);
    const writes = await benchWritesOnBoth(input, cluster);
    const reads = await benchReadsOnBoth(input, cluster);
    const herd = await benchPageAfterWrite(input, cluster);
    const sameTitle = await benchSameTitle(input, cluster);
    return { sections: [writes, reads, herd, sameTitle], seedNote };
  } finally {
    cluster.stop();
  }
}
