/**
 * A database file damaged on disk (a page in its middle overwritten, as a failing disk or a careless
 * copy leaves it), tried as a visitor, an integrator and an operator would: the server still starts,
 * every answer it gives is either right or a 503 that says the database is damaged (never another
 * post's text, never a 500), its log names the file and the way back (a backup), and `blogpost doctor`
 * names the file and exits 1.
 */
import { openSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GetPostResponse } from '../../contract/blog-reader';
import { DATABASE_FILE } from '../../api/store/data-dir';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import { newPost } from '../support/store-contract';
import { blogpost } from '../support/cli';
import { exited, startServerProcess, type ServerProcess } from '../support/server-process';
import { makeTempDir } from '../support/server';

const POSTS = 300;
const dataDir = makeTempDir('iul-damaged-');
const file = path.join(dataDir, DATABASE_FILE);
let server: ServerProcess;

beforeAll(async () => {
  const store = await openSqliteStore(dataDir);
  for (let i = 0; i < POSTS; i++) {
    const title = `Damage probe ${i}`;
    await store.posts.create(newPost(title, { content: `<p>${title}: ${'Cash value grows with the index, within the cap and the floor. '.repeat(30)}</p>` }), {
      slugBase: `damage-probe-${i}`,
    });
  }
  await store.close();
  // Eight pages of garbage in the middle of the file (SQLite's pages are 4,096 bytes here).
  const size = statSync(file).size;
  const at = Math.floor(size / 2 / 4096) * 4096;
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(8 * 4096, 0xab), 0, 8 * 4096, at);
  closeSync(fd);
  server = await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO_CONTENT: 'false' });
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  if (server) await exited(server.child);
  rmSync(dataDir, { recursive: true, force: true });
});

it('answers every post right or with a 503 that says the database is damaged, and logs the file and the way back', async () => {
  const statuses = new Map<number, number>();
  for (let i = 0; i < POSTS; i++) {
    const res = await fetch(`${server.url}/api/blog/damage-probe-${i}`);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status === 200) {
      const body = (await res.json()) as GetPostResponse;
      expect(body.post.title).toBe(`Damage probe ${i}`);
      expect(body.post.content).toContain(`Damage probe ${i}: Cash value`);
    } else {
      expect(res.status, `post ${i}`).toBe(503);
      const body = (await res.json()) as { code: string; message: string; request_id: string };
      expect(body.code).toBe('storage_unavailable');
      expect(body.message).toContain("The server's database is damaged");
    }
  }
  expect(statuses.get(503), 'the damage was met').toBeGreaterThan(0);
  expect(statuses.get(200), 'the rest is still served').toBeGreaterThan(0);
  expect(server.output()).toContain(`the database file ${file} is damaged`);
  expect(server.output()).toContain('blogpost backup');
}, 120_000);

it('is named by blogpost doctor, with the way back, exit code 1', async () => {
  const run = await blogpost(['doctor', '--data-dir', dataDir]);
  expect(run.code).toBe(1);
  expect(`${run.stdout}${run.stderr}`).toContain(file);
  expect(`${run.stdout}${run.stderr}`).toContain('blogpost backup');
}, 120_000);
