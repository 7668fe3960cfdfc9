/**
 * A 201 means the post is on disk: the real server as a child process takes a burst of concurrent
 * creates and is killed (SIGKILL, no chance to flush) in the middle of it; every post it answered 201
 * for must then be in the store and readable, and the next start must succeed.
 */
import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { slugify } from '../../contract/slug';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import { blogpost } from '../support/cli';
import { makeTempDir } from '../support/server';
import { exited, startServerProcess } from '../support/server-process';
import { validPost } from '../api/support';

const dataDir = makeTempDir('iul-durability-');
const startServer = () => startServerProcess({ DATA_DIR: dataDir, SEED_DEMO_CONTENT: 'false', RATE_LIMIT_WRITES_PER_MINUTE: '0' });
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The burst: at most BURST posts, IN_FLIGHT of them sent at any moment (each answer sends the next),
 * so whenever the kill comes, however fast the server answers, writes are still in flight.
 */
const BURST = 1000;
const IN_FLIGHT = 60;

it('keeps every post answered 201 when the server is killed mid-burst, and starts again', async () => {
  const created = await blogpost(['keys', 'create', '--name', 'Burst writer', '--data-dir', dataDir]);
  expect(created.code).toBe(0);
  const secret = created.stdout.trim();

  const server = await startServer();
  const acknowledged: Array<{ slug: string; title: string }> = [];
  let killed = false;
  let next = 0;
  let cutOff = 0;
  const sender = async (): Promise<void> => {
    while (!killed && next < BURST) {
      const title = `Burst post ${next++}`;
      try {
        const res = await fetch(`${server.url}/api/blog`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify(validPost({ title, status: 'Published' })),
        });
        if (res.status !== 201) continue;
        // A 201 whose body the kill cut off was still answered 201: the post must be there, under the
        // slug its title makes (every title of the burst is different).
        const body = (await res.json().catch(() => null)) as { post: { slug: string; title: string } } | null;
        acknowledged.push({ slug: body?.post.slug ?? slugify(title), title });
        // Mid-burst: once some are acknowledged, kill without warning while the others are in flight.
        if (acknowledged.length >= 25 && !killed) {
          killed = true;
          server.child.kill('SIGKILL');
        }
      } catch {
        cutOff++; // cut off by the kill: not acknowledged, so nothing is promised
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
  if (!killed) server.child.kill('SIGKILL');
  await exited(server.child);
  expect(acknowledged.length).toBeGreaterThanOrEqual(25);
  expect(acknowledged.length, 'the kill came mid-burst').toBeLessThan(BURST);
  expect(cutOff, 'requests were in flight when the server was killed').toBeGreaterThan(0);

  const store = await openSqliteStore(dataDir);
  for (const { slug, title } of acknowledged) {
    const post = await store.posts.getBySlug(slug);
    expect(post, `post ${slug} was answered 201`).not.toBeNull();
    expect(post?.title).toBe(title);
  }
  await store.close();

  const again = await startServer();
  const list = await fetch(`${again.url}/api/blog?limit=1`);
  expect(list.status).toBe(200);
  again.child.kill('SIGTERM');
  await exited(again.child);
}, 120_000);
