/**
 * Two app servers on one PostgreSQL database, as two instances behind a load balancer: the real
 * production server (`scripts/start.js`) twice, as child processes, each with its own DATA_DIR (its
 * request logs) and the same DATABASE_URL. What one instance stores, the other serves; an
 * Idempotency-Key, the write limit, scheduled publishing and staff sessions hold across both; a
 * SIGKILL of one during a write burst loses no post it acknowledged.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { KeyService } from '../../api/services/keys';
import { StaffService } from '../../api/staff/staff-service';
import { openPostgresStore } from '../../api/store/sql/sql-store';
import type { Store } from '../../api/store/store';
import { validPost } from '../api/support';
import { freshDatabase } from '../support/postgres-cluster';
import { makeTempDir, startTestServer, type TestServer } from '../support/server';
import { exited, type ServerProcess, startServerProcess } from '../support/server-process';
import { loginTokenOf, staffClient } from '../support/staff-client';

interface Instance extends ServerProcess {
  name: string;
}

const dirs: string[] = [];
const running: Instance[] = [];
let databaseUrl: string;
/** The test's own connection to the database (keys and staff made as the CLI makes them). */
let store: Store;
let writer: string;

/** Starts the production server on the shared database; resolves once it listens. */
async function startInstance(name: string, env: Record<string, string> = {}): Promise<Instance> {
  const dataDir = makeTempDir(`iul-instance-${name}-`);
  dirs.push(dataDir);
  const instance = { name, ...(await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SEED_DEMO_CONTENT: 'false', ...env }, `instance ${name}`)) };
  running.push(instance);
  return instance;
}

async function stop(instance: Instance): Promise<void> {
  instance.child.kill('SIGTERM');
  await exited(instance.child);
}

function createPost(instance: { url: string }, body: Record<string, unknown>, headers: Record<string, string> = {}, apiKey = writer): Promise<Response> {
  return fetch(`${instance.url}/api/blog`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

let a: Instance;
let b: Instance;

beforeAll(async () => {
  databaseUrl = await freshDatabase(inject('postgresUrl'), 'two_servers');
  // Both start at once on an empty database: the migrations must run once.
  [a, b] = await Promise.all([startInstance('a'), startInstance('b')]);
  store = await openPostgresStore(databaseUrl, 'PostgreSQL');
  writer = (await new KeyService(store.keys).create({ name: 'Two-server writer', permissions: ['blog:write'] })).secret;
});

afterAll(async () => {
  await Promise.all(running.map((instance) => stop(instance)));
  await store.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('two app servers on one PostgreSQL database', () => {
  it('migrates the empty database once when both start together', () => {
    const migrated = [a, b].filter((instance) => /Applied database migration\(s\) 0001-store\b.* to postgres:\/\/app@127\.0\.0\.1:\d+\//.test(instance.output()));
    expect(migrated).toHaveLength(1);
    for (const instance of [a, b]) expect(instance.output()).toMatch(/data in PostgreSQL at postgres:\/\/app@127\.0\.0\.1/);
  });

  it('issues the demo key once when both start together, announced by one of them', async () => {
    const announced = [a, b].filter((instance) => instance.output().includes('Created the demo API key "Demo Blog Key"'));
    expect(announced).toHaveLength(1);
    expect((await store.keys.list()).filter((key) => key.name === 'Demo Blog Key')).toHaveLength(1);
  });

  it('serves on B, at the next request, a post created on A, in its list and its page', async () => {
    // B renders and caches its blog page and its API list before the post exists.
    const before = await (await fetch(`${b.url}/blog`)).text();
    expect(before).not.toContain('Shared between instances');
    expect(((await (await fetch(`${b.url}/api/blog`)).json()) as { posts: unknown[] }).posts).toHaveLength(0);

    const res = await createPost(a, validPost({ title: 'Shared between instances', status: 'Published' }));
    expect(res.status).toBe(201);
    const { post } = (await res.json()) as { post: { id: string; slug: string } };

    const list = (await (await fetch(`${b.url}/api/blog`)).json()) as { posts: Array<{ id: string }> };
    expect(list.posts.map((entry) => entry.id)).toEqual([post.id]);
    const page = await fetch(`${b.url}/blog/${post.slug}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Shared between instances');
    expect(await (await fetch(`${b.url}/blog`)).text()).toContain('Shared between instances');
  });

  it('creates one post for an Idempotency-Key sent to A and then retried on B', async () => {
    const body = validPost({ title: 'Sent twice through the balancer', status: 'Published' });
    const headers = { 'idempotency-key': 'retry-on-another-instance-1' };
    const first = await createPost(a, body, headers);
    expect(first.status).toBe(201);
    const retried = await createPost(b, body, headers);
    expect(retried.status).toBeLessThan(300);
    expect(retried.headers.get('idempotency-replayed')).toBe('true');
    const firstId = ((await first.json()) as { post: { id: string } }).post.id;
    expect(((await retried.json()) as { post: { id: string } }).post.id).toBe(firstId);
    expect((await store.posts.sameTitle('Sent twice through the balancer')).map((entry) => entry.id)).toEqual([firstId]);
    // The same key with another body is refused on either instance.
    expect((await createPost(b, { ...body, excerpt: 'Another body under the same key.' }, headers)).status).toBe(422);
  });

  it('publishes a scheduled post once, with both instances watching it', async () => {
    // Scheduled through a third instance whose clock runs an hour behind (in this process, with its
    // own scheduler left out): to it the time is still to come, so it takes the schedule; to A and B
    // it has passed. Both hear of the new post from the database (LISTEN/NOTIFY) and race to publish
    // it, as their timers would at its time: the test waits for the publication, not for a schedule.
    const behind = () => new Date(Date.now() - 60 * 60_000);
    const lagging = await startTestServer({ now: behind, without: ['scheduler'], openStore: () => openPostgresStore(databaseUrl, 'PostgreSQL', { now: behind }) });
    try {
      const publishAt = new Date(behind().getTime() + 60_000).toISOString();
      const res = await createPost(lagging, validPost({ title: 'Published by one instance', status: 'scheduled', publish_at: publishAt }));
      expect(res.status).toBe(201);
      const { post } = (await res.json()) as { post: { id: string; slug: string; status: string } };
      expect(post.status).toBe('scheduled');
      await expect.poll(async () => (await store.posts.getById(post.id))?.status, { timeout: 20_000, interval: 25 }).toBe('published');
      const stored = await store.posts.getById(post.id);
      // One save published it: revision 2, at its scheduled time, and one of the two instances says it did.
      expect(stored?.revision).toBe(2);
      expect(stored?.publishedAt).toBe(publishAt);
      const published = () => [a, b].map((instance) => instance.output().split('\n').filter((line) => line.includes('Published the scheduled post "Published by one instance"')).length);
      await expect.poll(() => published().reduce((sum, n) => sum + n, 0), { timeout: 10_000, interval: 25 }).toBeGreaterThan(0);
      expect(published().reduce((sum, n) => sum + n, 0)).toBe(1);
      expect(lagging.logs.join('\n')).not.toContain('Published the scheduled post');
      expect((await fetch(`${a.url}/blog/${post.slug}`)).status).toBe(200);
    } finally {
      await lagging.close();
    }
  });

  it('keeps a staff session signed in on A valid on B', async () => {
    await new StaffService(store).add({ email: 'agent@example.com', name: 'Alex Agent', password: 'correct horse battery staple 42' }, 'cli:test');
    const onA = staffClient(a.url);
    const loginToken = await loginTokenOf(onA);
    const signedIn = await onA.request('/admin/login', { form: { email: 'agent@example.com', password: 'correct horse battery staple 42', loginToken, next: '/admin' } });
    expect(signedIn.status).toBe(303);
    const onB = staffClient(b.url);
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
    const admin = await onB.request('/admin');
    expect(admin.status).toBe(200);
    expect(await admin.text()).toContain('Alex Agent');
  });

  it('loses no post acknowledged by A when A is killed mid-burst, and B serves them all', async () => {
    const acknowledged: Array<{ slug: string; title: string }> = [];
    const burstKey = (await new KeyService(store.keys).create({ name: 'Kill burst', permissions: ['blog:write'] })).secret;
    let killed = false;
    let next = 0;
    let cutOff = 0;
    const sender = async (): Promise<void> => {
      while (!killed && next < 400) {
        const title = `Kill burst ${next++}`;
        try {
          const res = await createPost(a, validPost({ title, status: 'Published' }), {}, burstKey);
          if (res.status !== 201) continue;
          const body = (await res.json().catch(() => null)) as { post: { slug: string } } | null;
          if (body) acknowledged.push({ slug: body.post.slug, title });
          if (acknowledged.length >= 20 && !killed) {
            killed = true;
            a.child.kill('SIGKILL');
          }
        } catch {
          cutOff++;
        }
      }
    };
    // The write limit is per key and shared: this burst stays under it (60 a minute).
    await Promise.all(Array.from({ length: 8 }, sender));
    await exited(a.child);
    expect(killed).toBe(true);
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);
    expect(cutOff, 'requests were in flight when A was killed').toBeGreaterThan(0);
    for (const { slug, title } of acknowledged) {
      const res = await fetch(`${b.url}/api/blog/${slug}`);
      expect(res.status, `${slug} was answered 201 by A`).toBe(200);
      expect(((await res.json()) as { post: { title: string } }).post.title).toBe(title);
    }
  });
});

describe('the write limit of one key, over two servers on one database', () => {
  // Two servers in this process, each with its own connection pool and store, on one clock the test
  // holds still: the bucket refills one write a second, so without a still clock the count would
  // depend on how fast the machine is.
  const clock = { ms: Date.parse('2026-11-26T12:00:00.000Z') };
  const now = () => new Date(clock.ms);
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    const url = await freshDatabase(inject('postgresUrl'), 'shared_limit');
    const start = () => startTestServer({ now, openStore: () => openPostgresStore(url, 'PostgreSQL', { now }) });
    [first, second] = await Promise.all([start(), start()]);
  });
  afterAll(async () => {
    await Promise.all([first.close(), second.close()]);
  });

  const write = (server: TestServer, apiKey: string, title: string) =>
    fetch(`${server.url}/api/blog`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(validPost({ title })),
    }).then((res) => res.status);

  it('accepts exactly 60 of 80 writes split over the two, and one more a second later', async () => {
    const apiKey = await first.createKey('Split over two servers');
    const statuses = await Promise.all(Array.from({ length: 80 }, (_, i) => write(i % 2 === 0 ? first : second, apiKey, `Split burst ${i}`)));
    expect(statuses.filter((status) => status === 201)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    // Each server refuses the 81st as well: neither kept an allowance of its own.
    expect(await write(second, apiKey, 'Still over the limit on the second')).toBe(429);
    clock.ms += 1_000;
    expect(await write(second, apiKey, 'One write refilled')).toBe(201);
    expect(await write(first, apiKey, 'Not two')).toBe(429);
  });
});
