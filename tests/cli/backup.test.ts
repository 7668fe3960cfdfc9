/**
 * `blogpost backup <file>` beside the real server (in its own process) while that server
 * takes new posts: the copy passes the integrity check, opens as a store, and holds every post the
 * server acknowledged (201) before the backup began. A backup never overwrites a file; a PostgreSQL
 * store is pointed at pg_dump (exit 2); a data directory without a database is exit 4.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validPost } from '../api/support';
import { blogpost, type CliRun } from '../support/cli';
import { makeTempDir } from '../support/server';
import { exited, startServerProcess } from '../support/server-process';
import { inStore } from './data-dir-store';

const work = makeTempDir('iul-cli-backup-');
const dataDir = path.join(work, 'data');
const backupFile = path.join(work, 'site.sqlite');
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** How many posts the writers send at once while the backup runs. */
const IN_FLIGHT = 8;

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('blogpost backup', () => {
  it('copies the database while the server writes: the copy holds every post acknowledged before it began', async () => {
    const created = await blogpost(['keys', 'create', '--name', 'Backup writer', '--data-dir', dataDir]);
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    const server = await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO_CONTENT: 'false', RATE_LIMIT_WRITES_PER_MINUTE: '0' });

    const acknowledged: string[] = [];
    /** Any answer but 201, or a request that failed: it stops the writing (and the test fails on it). */
    const refused: string[] = [];
    let stop = false;
    let next = 0;
    let startBackup: () => void = () => undefined;
    const enoughWritten = new Promise<void>((resolve) => (startBackup = resolve));
    const write = async (title: string): Promise<string> => {
      const res = await fetch(`${server.url}/api/blog`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(validPost({ title, status: 'Published' })),
      });
      if (res.status !== 201) throw new Error(`${res.status} ${await res.text()}`);
      return ((await res.json()) as { post: { slug: string } }).post.slug;
    };
    const writer = async (): Promise<void> => {
      while (!stop) {
        try {
          acknowledged.push(await write(`Written during the backup ${next++}`));
        } catch (error) {
          refused.push(String(error));
          stop = true;
        }
        if (acknowledged.length >= 30 || stop) startBackup();
      }
    };
    const writers = Promise.all(Array.from({ length: IN_FLIGHT }, writer));
    let before: string[] = [];
    let run: CliRun | undefined;
    try {
      await enoughWritten;
      before = [...acknowledged];
      run = await blogpost(['backup', backupFile, '--data-dir', dataDir]);
    } finally {
      stop = true;
      await writers;
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
    expect(refused).toEqual([]);
    if (!run) throw new Error('the backup did not run');
    expect(run.code, run.stderr).toBe(0);
    expect(acknowledged.length, 'posts were acknowledged while the backup ran').toBeGreaterThan(before.length);
    expect(run.stderr).toContain(`Backed up ${path.join(dataDir, 'store.sqlite')} to ${backupFile} (`);
    expect(run.stderr).toMatch(/\(\d+(\.\d)? (KB|MB)\)/);
    expect(run.stderr).toContain(`Uploaded images are not in it: they are files in ${path.join(dataDir, 'media', 'files')}`);
    expect(run.stderr).toContain('To restore: Stop the server');

    // Restored the way the message says (the copy as the data directory's database), it is sound and whole.
    const restored = path.join(work, 'restored');
    mkdirSync(restored);
    copyFileSync(backupFile, path.join(restored, 'store.sqlite'));
    const doctor = await blogpost(['doctor', '--data-dir', restored]);
    expect(doctor.code, doctor.stderr).toBe(0);
    const missing = await inStore(restored, async (store) => {
      const absent: string[] = [];
      for (const slug of before) if (!(await store.posts.getBySlug(slug))) absent.push(slug);
      return absent;
    });
    expect(missing).toEqual([]);
  }, 120_000);

  it('never overwrites a file (exit 2), and --json says what it wrote', async () => {
    const was = digest(backupFile);
    const again = await blogpost(['backup', backupFile, '--data-dir', dataDir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${backupFile} exists already`);
    expect(digest(backupFile)).toBe(was);

    const second = path.join(work, 'second.sqlite');
    const json = await blogpost(['backup', 'second.sqlite', '--data-dir', dataDir, '--json'], { cwd: work });
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout) as { success: boolean; file: string; bytes: number; database: string; mediaDir: string };
    expect(out).toEqual({ success: true, file: second, bytes: statSync(second).size, database: path.join(dataDir, 'store.sqlite'), mediaDir: path.join(dataDir, 'media', 'files') });
  });

  it('points a PostgreSQL store at pg_dump (exit 2), without its password, writing nothing', async () => {
    const file = path.join(work, 'pg.sqlite');
    const run = await blogpost(['backup', file], { env: { DATABASE_URL: 'postgres://app:hunter2-secret@127.0.0.1:1/site' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('pg_dump');
    expect(run.stderr).toContain('postgres://app:***@127.0.0.1:1/site');
    expect(run.stderr).not.toContain('hunter2-secret');
    expect(existsSync(file)).toBe(false);
  });

  it('answers 4 where there is no database', async () => {
    const run = await blogpost(['backup', path.join(work, 'none.sqlite'), '--data-dir', path.join(work, 'absent')]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`There is no database at ${path.join(work, 'absent', 'store.sqlite')}`);
    expect(existsSync(path.join(work, 'absent'))).toBe(false);
  });

  it('is listed in the help with examples and exit codes', async () => {
    const help = await blogpost(['--help']);
    expect(help.stdout).toMatch(/backup \[options\] <file>\s+Copy the SQLite database/);
    const run = await blogpost(['backup', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Exit codes: 0 copied and checked');
    expect(run.stdout).toContain('$ blogpost backup /backups/');
  });
});
