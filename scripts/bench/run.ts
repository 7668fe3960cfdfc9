/**
 * `npm run bench`: the budgets of issues 13 and 33, each a measurement of the real server against a
 * baseline measured in the same run (or a fixed limit), on this machine. Prints the report, writes
 * docs/benchmarks.md on a full run, exits 1 when a budget is missed.
 *
 * Groups (BENCH_ONLY=pages|post|startup|reads|leads|media|postgres|cli|vitals|uncached, or several comma-separated, runs
 * only those and writes no file, except the postgres and cli groups' own marked sections, see
 * POSTGRES_MARK and CLI_MARK): pages.ts (with after-write.ts and uncached.ts; `uncached` runs that last one alone), writes.ts, startup.ts, reads.ts, lead-export.ts (the staff
 * area's CSV of quote requests), media.ts (image uploads), cli.ts (the blogpost CLI's start-up), vitals.ts
 * (page latency while Core Web Vitals beacons are ingested),
 * postgres.ts (the write and read rows on PostgreSQL beside SQLite, in a throwaway cluster; left out,
 * with a line saying so, where PostgreSQL is not installed unless named). BENCH_SECONDS sets each
 * measurement (default 5), BENCH_ROUNDS the paired rounds of the writes (default 5), BENCH_POSTS the
 * store of the writes (default 100,000), BENCH_LARGE_POSTS the largest store, of the reads and the
 * last start-up (default 1,000,000), BENCH_LEADS the leads of the export (default 100,000); any other
 * size is a partial run too. Seeded data directories (seed.ts, straight into the database) live under
 * the system's temporary folder and are removed at the end.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '../build-stamp';
import { benchCli } from './cli';
import { benchLeadExport } from './lead-export';
import { benchMedia } from './media';
import { benchAfterWrite } from './after-write';
import { benchPages } from './pages';
import { benchUncached } from './uncached';
import { benchPostgres, postgresInstalled } from './postgres';
import { ROOT, seed, seedLeads, type SeedResult } from './processes';
import { benchReads } from './reads';
import { fmt, machine, markedSections, replaceMarkedSection, reportMarkdown, type Section, sectionMarkdown, seconds } from './report';
import { benchStartup } from './startup';
import { benchVitals } from './vitals';
import { benchWrites } from './writes';

const GROUPS = ['pages', 'post', 'startup', 'reads', 'leads', 'media', 'postgres', 'cli', 'vitals', 'uncached'] as const;
type Group = (typeof GROUPS)[number];
const DEFAULT_POSTS = 100_000;
const DEFAULT_LARGE_POSTS = 1_000_000;
const DEFAULT_LEADS = 100_000;
/** The smaller lead export, beside which the larger one must hold no more open files. */
const FEW_LEADS = 1_000;

function wholeNumber(name: string, fallback: number, min = 1): number {
  const raw = process.env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number from ${min}, not "${raw ?? ''}"`);
  return value;
}

function groupsFrom(raw: string): Group[] {
  // `uncached` alone is a part of `pages` (its last section), for a quicker look: never in a full run.
  if (raw === '') return GROUPS.filter((group) => (group !== 'postgres' || postgresInstalled()) && group !== 'uncached');
  const names = raw.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(GROUPS as readonly string[]).includes(name)) throw new Error(`BENCH_ONLY must name one or more of ${GROUPS.join(', ')} (comma-separated), not "${raw}"`);
  }
  return names as Group[];
}

const DEFAULT_SECONDS = 5;
const SECONDS = wholeNumber('BENCH_SECONDS', DEFAULT_SECONDS);
const ROUNDS = wholeNumber('BENCH_ROUNDS', 5);
const LARGEST = wholeNumber('BENCH_POSTS', DEFAULT_POSTS, 1_000);
const LARGE = wholeNumber('BENCH_LARGE_POSTS', DEFAULT_LARGE_POSTS, 1_000);
const LEADS = wholeNumber('BENCH_LEADS', DEFAULT_LEADS, FEW_LEADS + 1);
const ONLY = process.env.BENCH_ONLY?.trim() ?? '';
const groups = groupsFrom(ONLY);
const FULL_RUN = ONLY === '' && LARGEST === DEFAULT_POSTS && LARGE === DEFAULT_LARGE_POSTS && LEADS === DEFAULT_LEADS;

/** The store sizes each group needs seeded. */
function sizesFor(selected: readonly Group[]): number[] {
  const sizes = new Set<number>();
  for (const group of selected) {
    if (group === 'pages' || group === 'vitals' || group === 'uncached') sizes.add(1_000);
    if (group === 'post' || group === 'postgres') sizes.add(LARGEST);
    if (group === 'reads') sizes.add(LARGE);
    if (group === 'startup') [1_000, 10_000, LARGEST, LARGE].forEach((size) => sizes.add(size));
  }
  return [...sizes].sort((a, b) => a - b);
}

const HOW = [
  'Every server runs in a process of its own on 127.0.0.1, so autocannon (in the bench process) never shares its event loop; the machine has two cores, shared by the load generator and the server measured.',
  'Our server: `createApp` (api/app.ts) with its services over the SQLite store of a data directory (`openStore`, DATA_DIR/store.sqlite) and the production React Router build, as `npm start` builds it (scripts/bench/servers.ts `site`); start-up runs the production entry itself.',
  'Seeded data: varied posts (titles from 20 subjects x 10 angles x 10 audiences x 12 qualifiers, the five categories weighted 3:5:4:2:3, 1-4 of 20 tags, 2-4 sections of HTML, about one in twenty a draft), each checked by the contract, cleaned by `cleanPost` and made a record by the store\'s `newPostRecord`, then written straight into the database in one transaction as the rows the repository writes (scripts/bench/seed-rows.ts); each size seeded once, then copied with `cp -a` for every server that needs a fresh store.',
  'A ratio is our requests/s as a share of the baseline measured in the same run; latencies are autocannon\'s, in whole milliseconds.',
  'Pages: the baseline is bare Koa with koa-send serving the brotli bytes our server sent (fetched once with `Accept-Encoding: br, gzip`), with our headers (Cache-Control, ETag, Vary, content type, security headers) and a 304 for a matching If-None-Match.',
  'Image uploads: generated 3000 x 2000 JPEG photos of about 3 MB, each uploaded once to a server on an empty data directory; the baseline does the same work without HTTP (scripts/bench/media.ts).',
  'PostgreSQL: the write and read rows again, on our server over the same store on PostgreSQL beside SQLite, in the marked section at the end (scripts/bench/postgres.ts).',
  'Writes: both sides get the same stream of requests (the harness sample post, published, each with a title of its own, built from a template); our server stores each in a transaction of its own, committed to disk before the 201 (WAL, synchronous=FULL); the baseline inserts the same rows with better-sqlite3 alone, with the same durability.',
  'Lead export: a staff member signed in downloads /admin/leads.csv once from a server holding the leads, while the bench samples the server\'s open files and memory (scripts/bench/lead-export.ts).',
];

/**
 * The marked section of docs/benchmarks.md the postgres group writes, on any run of it at BENCH_SECONDS 5
 * or more (its headings give the store size), so a quick look with fewer seconds leaves it as it was.
 */
const POSTGRES_MARK = 'bench:postgres';

/** The marked section of docs/benchmarks.md the cli group writes, on any run of it (it needs no seeded store). */
const CLI_MARK = 'bench:cli';
/** Rounds of the cli group (each runs every command once). */
const CLI_ROUNDS = 15;

/** The cli group's section as a block of its own, with when it was measured. */
function cliMarkdown(section: Section, began: number): string {
  const [load1 = 0] = os.loadavg();
  return [
    '## The blogpost CLI',
    '',
    `Measured ${new Date(began).toISOString()} on ${machine()} with \`BENCH_ONLY=cli npm run bench\` (load average ${fmt(load1, 1)} on its ${os.cpus().length} cores at the end). What the CLI bundle and its loading on demand changed: docs/decisions/0008-cli-bundle.md.`,
    '',
    sectionMarkdown(section, '###'),
  ].join('\n');
}

/** The postgres group's sections as one block of its own, with when and how it was measured. */
function postgresMarkdown(sections: readonly Section[], began: number, notes: readonly string[]): string {
  const [load1 = 0] = os.loadavg();
  return [
    '## PostgreSQL beside SQLite',
    '',
    `Measured ${new Date(began).toISOString()} on ${machine()} with \`npm run bench\` (the postgres group, ${fmt((Date.now() - began) / 60_000, 1)} minutes; BENCH_SECONDS=${SECONDS}, BENCH_ROUNDS=${ROUNDS}). The machine was shared with other work (load average ${fmt(load1, 1)} on its ${os.cpus().length} cores at the end), so compare the stores by the ratios, measured side by side in the same run, rather than by the absolute rates.`,
    '',
    'Our server is the same `createApp` over the same production build and the same store (api/store/sql/) on either engine: SQLite in a data directory, or a database of a throwaway PostgreSQL cluster the bench starts (initdb in a temporary folder, 127.0.0.1, stopped at the end), both holding the same seeded posts.',
    '',
    ...sections.map((section) => sectionMarkdown(section, '###')),
    ...notes.map((note) => `- ${note}`),
  ].join('\n');
}

async function main(): Promise<void> {
  const startedAt = new Date();
  ensureBuild(ROOT);
  const workDir = path.join(os.tmpdir(), `bench-${process.pid}`);
  mkdirSync(workDir, { recursive: true });
  process.once('SIGINT', () => {
    rmSync(workDir, { recursive: true, force: true });
    process.exit(130);
  });
  const sections: Section[] = [];
  const seedNotes: string[] = [];
  let postgresBlock: string | null = null;
  let cliBlock: string | null = null;
  let cliSection: Section | null = null;
  try {
    const seeds = new Map<number, SeedResult & { dir: string }>();
    for (const size of sizesFor(groups)) {
      const dir = path.join(workDir, `seed-${size}`);
      const result = await seed(dir, size);
      seeds.set(size, { ...result, dir });
      seedNotes.push(`${fmt(size)} posts seeded in ${seconds(result.seconds * 1000)}.`);
      console.log(`Seeded ${fmt(size)} posts in ${seconds(result.seconds * 1000)}.`);
    }
    const seeded = (size: number) => {
      const found = seeds.get(size);
      if (!found) throw new Error(`no seeded store of ${size} posts`);
      return found;
    };
    for (const group of groups) {
      console.log(`Running ${group} ...`);
      if (group === 'pages') {
        const small = seeded(1_000);
        sections.push(await benchPages({ seedDir: small.dir, workDir, seconds: SECONDS, postSlug: small.newestSlug }));
        sections.push(await benchAfterWrite({ seedDir: small.dir, workDir, rounds: ROUNDS }));
        sections.push(await benchUncached({ seedDir: small.dir, seedCount: 1_000, workDir, seconds: SECONDS }));
      } else if (group === 'uncached') {
        sections.push(await benchUncached({ seedDir: seeded(1_000).dir, seedCount: 1_000, workDir, seconds: SECONDS }));
      } else if (group === 'post') {
        sections.push(await benchWrites({ seedDir: seeded(LARGEST).dir, seedCount: LARGEST, workDir, seconds: SECONDS, rounds: ROUNDS }));
      } else if (group === 'vitals') {
        sections.push(await benchVitals({ seedDir: seeded(1_000).dir, workDir, seconds: SECONDS }));
      } else if (group === 'media') {
        sections.push(await benchMedia({ workDir }));
      } else if (group === 'postgres') {
        const large = seeded(LARGEST);
        const began = Date.now();
        const result = await benchPostgres({ seedDir: large.dir, seedCount: LARGEST, workDir, seconds: SECONDS, rounds: ROUNDS, categorySlug: large.newestCategory });
        postgresBlock = postgresMarkdown(result.sections, began, [result.seedNote, `SQLite's: ${seedNotes.join(' ')}`]);
      } else if (group === 'cli') {
        const began = Date.now();
        // In its own marked section only (not the report's body too), like the postgres group.
        cliSection = await benchCli({ rounds: CLI_ROUNDS });
        cliBlock = cliMarkdown(cliSection, began);
      } else if (group === 'leads') {
        const leadSeeds: Array<{ count: number; dir: string }> = [];
        for (const count of [FEW_LEADS, LEADS]) {
          const dir = path.join(workDir, `leads-${count}`);
          const took = await seedLeads(dir, count);
          seedNotes.push(`${fmt(count)} leads seeded in ${seconds(took * 1000)}.`);
          leadSeeds.push({ count, dir });
        }
        sections.push(await benchLeadExport({ seeds: leadSeeds }));
      } else if (group === 'startup') {
        sections.push(await benchStartup({ seeds: sizesFor(['startup']).map((count) => ({ count, dir: seeded(count).dir })), workDir }));
      } else {
        const large = seeded(LARGE);
        sections.push(await benchReads({ seedDir: large.dir, seedCount: LARGE, workDir, seconds: SECONDS, categorySlug: large.newestCategory }));
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const report = reportMarkdown({
    startedAt,
    minutes: (Date.now() - startedAt.getTime()) / 60_000,
    how: [...HOW, `BENCH_SECONDS=${SECONDS}, BENCH_ROUNDS=${ROUNDS}. ${seedNotes.join(' ')}`],
    sections,
  });
  if (FULL_RUN) {
    // The sections other scripts measure (`npm run bench:ux`) stay as they were.
    const file = path.join(ROOT, 'docs/benchmarks.md');
    const kept = existsSync(file) ? markedSections(readFileSync(file, 'utf8')) : [];
    writeFileSync(file, [report.trimEnd(), ...kept].join('\n\n') + '\n');
  }
  console.log(report);
  if (postgresBlock !== null) {
    console.log(postgresBlock);
    if (SECONDS >= DEFAULT_SECONDS) {
      const file = path.join(ROOT, 'docs/benchmarks.md');
      writeFileSync(file, replaceMarkedSection(existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n', POSTGRES_MARK, postgresBlock));
      console.log(`The ${POSTGRES_MARK} section of docs/benchmarks.md written.`);
    }
  }
  if (cliBlock !== null) {
    console.log(cliBlock);
    const file = path.join(ROOT, 'docs/benchmarks.md');
    writeFileSync(file, replaceMarkedSection(existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n', CLI_MARK, cliBlock));
    console.log(`The ${CLI_MARK} section of docs/benchmarks.md written.`);
  }
  if (!FULL_RUN) console.log(`A partial run (BENCH_ONLY=${ONLY || '-'}, BENCH_POSTS=${LARGEST}, BENCH_LARGE_POSTS=${LARGE}, BENCH_LEADS=${LEADS}): the rest of docs/benchmarks.md left as it was.`);
  if ([...sections, ...(cliSection ? [cliSection] : [])].some((section) => section.budgets.some((budget) => !budget.ok))) process.exitCode = 1;
}

await main();
