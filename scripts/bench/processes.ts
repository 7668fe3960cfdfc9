/**
 * The benchmark's child processes: the servers of servers.ts, the production server as `npm start`
 * runs it, the seeding script, and the copies of seeded data directories they run on.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A child process that printed a line when ready (a JSON line for servers.ts and seed.ts). */
async function firstLine(child: ChildProcess, what: string, matches: (line: string) => boolean = () => true): Promise<string> {
  const stdout = child.stdout;
  if (!stdout) throw new Error(`${what} has no stdout`);
  return new Promise<string>((resolve, reject) => {
    const reader = createInterface({ input: stdout });
    const onExit = (code: number | null) => reject(new Error(`${what} exited (${code}) before it was ready`));
    reader.on('line', (line) => {
      if (!matches(line)) return;
      child.off('exit', onExit);
      reader.close();
      // Whatever it prints later must not fill the pipe and stall it.
      stdout.resume();
      resolve(line);
    });
    child.once('exit', onExit);
  });
}

function spawnTsx(script: string, args: readonly string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, script), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    // As `npm start` runs the server (package.json; decision 0016: glibc's malloc arenas kept image work's memory).
    env: { ...process.env, NODE_ENV: 'production', MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' },
  });
}

export interface Server {
  url: string;
  /** The API key of a `site` server. */
  key?: string;
  child: ChildProcess;
}

/** Starts a server of servers.ts (`site`, `static` or `durable`) on `dir`. */
export async function startServer(kind: 'site' | 'site-vitals' | 'static' | 'durable', dir: string): Promise<Server> {
  const child = spawnTsx('scripts/bench/servers.ts', [kind, dir]);
  const { port, key } = JSON.parse(await firstLine(child, `the ${kind} server`)) as { port: number; key?: string };
  return { url: `http://127.0.0.1:${port}`, child, ...(key === undefined ? {} : { key }) };
}

/** Stops a child with SIGTERM (a server closes its store) and waits for it to exit. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface SeedResult {
  count: number;
  seconds: number;
  newestSlug: string;
  newestCategory: string;
}

/** Runs seed.ts in a process of its own; its JSON line. */
async function runSeed(args: readonly string[], what: string): Promise<string> {
  const child = spawnTsx('scripts/bench/seed.ts', args);
  const line = await firstLine(child, what);
  await new Promise<void>((resolve) => (child.exitCode === null ? child.once('exit', () => resolve()) : resolve()));
  return line;
}

/** Fills `target` (a data directory or a PostgreSQL URL) with `count` posts. */
export async function seed(target: string, count: number): Promise<SeedResult> {
  return JSON.parse(await runSeed(['posts', target, String(count)], `seeding ${count} posts`)) as SeedResult;
}

/** Fills `dataDir` with `count` leads and the staff account that exports them; the seconds it took. */
export async function seedLeads(dataDir: string, count: number): Promise<number> {
  return (JSON.parse(await runSeed(['leads', dataDir, String(count)], `seeding ${count} leads`)) as { seconds: number }).seconds;
}

/** A copy of a data directory (its database file and media) for a server that may change it. */
export function copyDataDir(from: string, to: string): void {
  const result = spawnSync('cp', ['-a', from, to], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`cp -a ${from} ${to} failed (${result.status})`);
}

/** How `npm start` starts the production server: the built bundle when there is one. */
export function productionCommand(): string[] {
  const bundle = path.join(ROOT, 'build/app/server.js');
  return existsSync(bundle) ? [bundle] : ['--import', 'tsx', path.join(ROOT, 'api/main.ts')];
}

export interface Production {
  url: string;
  child: ChildProcess;
  /** From spawning to the listening line. */
  listeningMs: number;
}

/** Spawns the production server on `dataDir` at `spawnedAt` (performance.now()) and waits for its listening line. */
export async function startProduction(dataDir: string): Promise<Production & { spawnedAt: number }> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, productionCommand(), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO_CONTENT: 'false' },
  });
  const pattern = /Site and API on (http:\/\/\S+:\d+)/;
  const line = await firstLine(child, 'the production server', (text) => pattern.test(text));
  const listeningMs = performance.now() - spawnedAt;
  const url = pattern.exec(line)?.[1] ?? '';
  return { url, child, listeningMs, spawnedAt };
}

/** Resident memory of a process and every process under it, in bytes (Linux /proc). */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  let children: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    } catch {
      // A thread that ended between the listing and the read (libuv's and libvips' threads come and go).
    }
    if (text !== '') children = children.concat(text.split(/\s+/).map(Number));
  }
  return kb * 1024 + children.reduce((sum, child) => sum + residentBytes(child), 0);
}
