/**
 * Start-up: the production server spawned as `npm start` runs it, on copies of the seeded data
 * directories, timed from the spawn to the first 200 of /api/health, with its resident memory (VmRSS of
 * the process and anything under it) at that moment. Two cases per size: after a clean stop (the store
 * reads the index snapshot its close left) and after a crash (no snapshot: every post file is read).
 * Budget at the largest size, both cases: under 5 s and under 600 MB.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { getRaw } from './http';
import { median } from './load';
import { copyDataDir, productionCommand, residentBytes, ROOT, startProduction, stop } from './processes';
import { type Budget, fmt, markdownTable, mb, type Section, seconds } from './report';

const MAX_START_MS = 5_000;
const MAX_RSS_BYTES = 600 * 2 ** 20;
/** Clean restarts per size; the median is reported. */
const CLEAN_RUNS = 3;
const POLL_MS = 5;

interface Start {
  /** Spawn to the listening line. */
  listeningMs: number;
  /** Spawn to the first 200 of /api/health. */
  answerMs: number;
  rssBytes: number;
}

async function timeStart(dataDir: string): Promise<Start> {
  const server = await startProduction(dataDir);
  try {
    for (;;) {
      const response = await getRaw(`${server.url}/api/health`);
      if (response.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const answerMs = performance.now() - server.spawnedAt;
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('the production server has no pid');
    return { listeningMs: server.listeningMs, answerMs, rssBytes: residentBytes(pid) };
  } finally {
    await stop(server.child);
  }
}

function medianStart(starts: readonly Start[]): Start {
  return {
    listeningMs: median(starts.map((s) => s.listeningMs)),
    answerMs: median(starts.map((s) => s.answerMs)),
    rssBytes: median(starts.map((s) => s.rssBytes)),
  };
}

export interface StartupInput {
  seeds: ReadonlyArray<{ count: number; dir: string }>;
  workDir: string;
}

export async function benchStartup({ seeds, workDir }: StartupInput): Promise<Section> {
  const rows: string[][] = [];
  const budgets: Budget[] = [];
  const largest = Math.max(...seeds.map((s) => s.count));
  for (const { count, dir } of [...seeds].sort((a, b) => a.count - b.count)) {
    const dataDir = path.join(workDir, `startup-${count}`);
    copyDataDir(dir, dataDir);
    try {
      const clean: Start[] = [];
      // Each stop closes the store, which writes the snapshot the next start reads.
      for (let run = 0; run < CLEAN_RUNS; run++) clean.push(await timeStart(dataDir));
      const normal = medianStart(clean);
      // What a crash leaves: no snapshot that matches posts/ (a stale one is ignored the same way).
      rmSync(path.join(dataDir, 'posts-index.json'), { force: true });
      const crash = await timeStart(dataDir);
      rows.push([
        fmt(count),
        seconds(normal.answerMs),
        seconds(normal.listeningMs),
        mb(normal.rssBytes),
        clean.map((s) => seconds(s.answerMs)).join(', '),
        seconds(crash.answerMs),
        mb(crash.rssBytes),
      ]);
      if (count === largest) {
        for (const [label, start] of [
          ['after a clean stop', normal],
          ['after a crash (every post file read)', crash],
        ] as const) {
          budgets.push({
            name: `Start-up with ${fmt(count)} posts ${label} under 5 s and under 600 MB`,
            ok: start.answerMs < MAX_START_MS && start.rssBytes < MAX_RSS_BYTES,
            detail: `${seconds(start.answerMs)}, ${mb(start.rssBytes)}`,
          });
        }
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return {
    heading: 'Start-up',
    table: markdownTable(
      ['posts', 'first answer (clean stop before)', 'listening line', 'RSS', `${CLEAN_RUNS} runs`, 'first answer after a crash', 'RSS after a crash'],
      rows,
    ),
    budgets,
    notes: [
      `Spawned as \`node ${productionCommand()
        .map((part) => (path.isAbsolute(part) ? path.relative(ROOT, part) : part))
        .join(' ')}\` (as \`npm start\` starts it) with PORT=0 HOST=127.0.0.1 SEED_DEMO_CONTENT=false on a copy of the seeded data directory; timed from the spawn to the first 200 of GET /api/health (polled every ${POLL_MS} ms after the listening line).`,
      `RSS: VmRSS of the server process (and of any process under it) from /proc at that first 200. The clean-stop figures are the median of ${CLEAN_RUNS} starts, each after the previous one stopped with SIGTERM; "after a crash" is one start with the index snapshot removed, so the store reads every post file.`,
      `Budget at ${fmt(largest)} posts: under ${seconds(MAX_START_MS)} and under ${mb(MAX_RSS_BYTES)}, both cases.`,
    ],
  };
}
