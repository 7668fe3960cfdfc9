/**
 * Start-up: the production server spawned as `npm start` runs it, on copies of the seeded data
 * directories, timed from the spawn to the first 200 of /api/health, with its resident memory (VmRSS of
 * the process and anything under it) at that moment. Two cases per size: after a clean stop (SIGTERM,
 * the store closed) and after a crash (SIGKILL while running: the database's write-ahead log is left
 * for the next open to recover). Budgets (issue 33), both cases: at 100,000 posts under 1 s and under
 * 200 MB; at 1,000,000 posts under 2 s and under 300 MB.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { getRaw } from './http';
import { median } from './load';
import { copyDataDir, productionCommand, residentBytes, ROOT, startProduction, stop } from './processes';
import { type Budget, fmt, markdownTable, mb, type Section, seconds } from './report';

/** The budgets by store size: the first answer under `ms`, resident memory under `bytes`. */
export const STARTUP_BUDGETS: ReadonlyMap<number, { ms: number; bytes: number }> = new Map([
  [100_000, { ms: 1_000, bytes: 200 * 2 ** 20 }],
  [1_000_000, { ms: 2_000, bytes: 300 * 2 ** 20 }],
]);
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

/** Starts the production server on `dataDir`, times its first answer, then stops it (SIGTERM, or SIGKILL for `crash`). */
async function timeStart(dataDir: string, end: 'stop' | 'crash' = 'stop'): Promise<Start> {
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
    if (end === 'crash') {
      await new Promise<void>((resolve) => {
        server.child.once('exit', () => resolve());
        server.child.kill('SIGKILL');
      });
    } else {
      await stop(server.child);
    }
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
  for (const { count, dir } of [...seeds].sort((a, b) => a.count - b.count)) {
    const dataDir = path.join(workDir, `startup-${count}`);
    copyDataDir(dir, dataDir);
    try {
      const clean: Start[] = [];
      for (let run = 0; run < CLEAN_RUNS; run++) clean.push(await timeStart(dataDir));
      const normal = medianStart(clean);
      // What a crash leaves: a server killed while it ran, its write-ahead log not checkpointed.
      await timeStart(dataDir, 'crash');
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
      const limit = STARTUP_BUDGETS.get(count);
      if (limit) {
        for (const [label, start] of [
          ['after a clean stop', normal],
          ['after a crash (SIGKILL)', crash],
        ] as const) {
          budgets.push({
            name: `Start-up with ${fmt(count)} posts ${label} under ${seconds(limit.ms)} and under ${mb(limit.bytes)}`,
            ok: start.answerMs < limit.ms && start.rssBytes < limit.bytes,
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
      `RSS: VmRSS of the server process (and of any process under it) from /proc at that first 200. The clean-stop figures are the median of ${CLEAN_RUNS} starts, each after the previous one stopped with SIGTERM; "after a crash" is one start after a server on the same data was killed with SIGKILL once it answered (SQLite recovers its write-ahead log on open).`,
      `Budgets: ${[...STARTUP_BUDGETS].map(([count, limit]) => `at ${fmt(count)} posts under ${seconds(limit.ms)} and under ${mb(limit.bytes)}`).join('; ')}, both cases.`,
    ],
  };
}
