/**
 * A throwaway PostgreSQL server for tests: Debian's `postgresql` package, a cluster made by `initdb` in
 * a temporary directory, listening on 127.0.0.1 on a free port (and on a Unix socket in that
 * directory), stopped and deleted afterwards. `initdb` refuses to run as root, so as root the cluster
 * belongs to the `postgres` user the package creates. A test of an outage shuts it down and starts it
 * again (`shutDown`, `startAgain`): the same data and the same port, as an operator's restart.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

export interface PostgresCluster {
  /** `postgres://app@127.0.0.1:<port>/postgres`: the maintenance database, to create others from. */
  url: string;
  /** A new, empty database; its URL. */
  createDatabase: (name: string) => Promise<string>;
  /**
   * `pg_ctl stop -m fast`, as an operator restarting PostgreSQL: every session is ended (57P01
   * "terminating connection due to administrator command"), then the server stops; its data stays.
   * Resolves once it has stopped. Async, so the test's own requests keep going meanwhile.
   */
  shutDown: () => Promise<void>;
  /** `pg_ctl start` on the same data directory and port; resolves once it accepts connections. */
  startAgain: () => Promise<void>;
  /** Stops the server and deletes its data. */
  stop: () => void;
}

/** The folder of `initdb` and `pg_ctl`: Debian keeps them out of PATH, under /usr/lib/postgresql/<major>/bin. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name) && existsSync(path.join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors[0]) return path.join(root, majors[0], 'bin');
  throw new Error('PostgreSQL is not installed: `apt-get install -y postgresql` (Debian) gives initdb and pg_ctl under /usr/lib/postgresql/<version>/bin.');
}


/** Runs a PostgreSQL program, as `postgres` when this process is root. */
function runAsOwner(program: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  const result = spawnSync(command, commandArgs, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(program)} failed (${result.status}): ${result.stderr || result.stdout}`);
}

/** runAsOwner without blocking the event loop. */
function runAsOwnerAsync(program: string, args: string[]): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  return new Promise((resolve, reject) => {
    execFile(command, commandArgs, { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${path.basename(program)} failed (${String(error.code)}): ${stderr || stdout}`));
      else resolve();
    });
  });
}

/** Creates an empty database `name` on the server of `url` (its maintenance database); the new database's URL. */
export async function createDatabase(url: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name.replaceAll('"', '')}"`);
  } finally {
    await client.end();
  }
  const created = new URL(url);
  created.pathname = `/${encodeURIComponent(name)}`;
  return created.toString();
}

let databases = 0;
/** A new, empty database on the test server of `url`, with a name no other test file uses. */
export function freshDatabase(url: string, label = 'test'): Promise<string> {
  databases += 1;
  return createDatabase(url, `${label}_${process.pid}_${databases}`);
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-postgres-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const dataDir = path.join(dir, 'data');
  runAsOwner(path.join(bin, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'app', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  const port = await freePort();
  const pgCtl = path.join(bin, 'pg_ctl');
  const startArgs = ['-D', dataDir, '-w', '-l', path.join(dir, 'log'), '-o', `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c max_connections=200`, 'start'];
  runAsOwner(pgCtl, startArgs);
  const url = `postgres://app@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    createDatabase: (name) => createDatabase(url, name),
    shutDown: () => runAsOwnerAsync(pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop']),
    startAgain: () => runAsOwnerAsync(pgCtl, startArgs),
    stop: () => {
      if (stopped) return;
      stopped = true;
      try {
        // A test that failed while the server was shut down leaves nothing to stop.
        if (existsSync(path.join(dataDir, 'postmaster.pid'))) runAsOwner(pgCtl, ['-D', dataDir, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
