/**
 * `blogpost doctor` (through the CLI's own entry, tests/support/cli.ts) on a data directory the store made (no server needed): a
 * healthy database, one with garbage written over a page in its middle (SQLite's integrity check finds
 * it; the message names the file and how to restore a backup), JSON output, and the exit codes (0
 * healthy, 1 needs attention, 4 no database there or PostgreSQL unreachable).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import { newPost } from '../support/store-contract';
import { blogpost } from '../support/cli';
import { makeTempDir } from '../support/server';

const dataDir = makeTempDir('iul-cli-doctor-');
const databaseFile = path.join(dataDir, 'store.sqlite');
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

interface DoctorJson {
  success: boolean;
  healthy: boolean;
  engine: string;
  where: string;
  reachable: boolean;
  integrity: string[];
  migrations: { applied: string[]; latest: string };
  problems: string[];
}

/** The SQLite page size the store's database uses (SQLite's default). */
const PAGE = 4096;

beforeAll(async () => {
  // Enough posts for the file to have pages well past its first few.
  const store = await openSqliteStore(dataDir);
  for (let n = 0; n < 120; n += 1) {
    const outcome = await store.posts.create(newPost(`Post number ${n}`, { content: `<p>${'Words about policy loans. '.repeat(40)}</p>` }), { slugBase: `post-${n}` });
    expect(outcome.kind).toBe('created');
  }
  await store.close();
}, 60_000);

describe('blogpost doctor', () => {
  it('says a database that passes its integrity check is healthy (exit 0), reading DATA_DIR', async () => {
    const run = await blogpost(['doctor'], { env: { DATA_DIR: dataDir, DATABASE_URL: '' } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Database: SQLite at ${databaseFile}`);
    expect(run.stdout).toContain('integrity check: ok');
    expect(run.stdout).toMatch(/schema: (\S+) \(this version needs \1\)/);
    expect(run.stderr).toContain('The database is healthy.');

    const json = await blogpost(['doctor', '--data-dir', dataDir, '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as DoctorJson;
    expect(report).toMatchObject({ success: true, healthy: true, engine: 'sqlite', where: databaseFile, reachable: true, integrity: ['ok'], problems: [] });
    expect(report.migrations.applied.at(-1)).toBe(report.migrations.latest);
  });

  it('finds garbage written over a page in the middle of the file, names the file and how to restore a backup (exit 1)', async () => {
    const pages = Math.floor(statSync(databaseFile).size / PAGE);
    expect(pages).toBeGreaterThan(20);
    const handle = openSync(databaseFile, 'r+');
    try {
      writeSync(handle, randomBytes(PAGE), 0, PAGE, PAGE * Math.floor(pages / 2));
    } finally {
      closeSync(handle);
    }

    const run = await blogpost(['doctor', '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/integrity check: (?!ok)/);
    expect(run.stderr).toContain(`The database file ${databaseFile} is damaged`);
    expect(run.stderr).toContain('blogpost backup');
    expect(run.stderr).toContain(`move ${databaseFile} aside`);

    const json = await blogpost(['doctor', '--data-dir', dataDir, '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as DoctorJson;
    expect(report).toMatchObject({ success: true, healthy: false });
    expect(report.integrity).not.toEqual(['ok']);
    expect(report.problems.join('\n')).toContain(databaseFile);
  });

  it('answers 4, making nothing, where there is no database', async () => {
    const absent = path.join(dataDir, 'absent');
    const run = await blogpost(['doctor', '--data-dir', absent]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`There is no database at ${path.join(absent, 'store.sqlite')}`);
    const json = await blogpost(['doctor', '--data-dir', absent, '--json']);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: false, healthy: false, reachable: false });
    expect(() => statSync(absent)).toThrow();
  });

  it('answers 4 when PostgreSQL cannot be reached, without the password', async () => {
    const run = await blogpost(['doctor', '--database-url', 'postgres://app:s3cret@127.0.0.1:9/site']);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('Cannot reach PostgreSQL at postgres://app:***@127.0.0.1:9/site');
    expect(`${run.stdout}${run.stderr}`).not.toContain('s3cret');
  });

  it('is listed in the help with its exit codes', async () => {
    const run = await blogpost(['doctor', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 something needs attention');
    expect(run.stdout).toContain('--database-url');
  });
});
