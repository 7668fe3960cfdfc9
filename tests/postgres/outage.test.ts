/**
 * PostgreSQL restarting under two app servers (issue 35): the production server (`scripts/start.js`)
 * twice, as child processes on one DATABASE_URL of a throwaway cluster of this file's own, which the
 * test shuts down (`pg_ctl stop -m fast`, every session ended with 57P01) and starts again on the same
 * port while both take a burst of API post creations and quote-form posts. Both processes keep
 * running; every answer is an acknowledgement (201, 303) or a 503 (with Retry-After, the catalogue's
 * code, or for the form its page with what was typed and the phone number), never a 500 or a dropped
 * connection; /api/health says degraded while the database is away and ok after; everything
 * acknowledged is stored; nothing is restarted. Then ten stop/start cycles under load.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyService } from '../../api/services/keys';
import { openPostgresStore } from '../../api/store/sql/sql-store';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { validPost } from '../api/support';
import { type PostgresCluster, startPostgresCluster } from '../support/postgres-cluster';
import { makeTempDir } from '../support/server';
import { exited, type ServerProcess, startServerProcess } from '../support/server-process';

interface Instance extends ServerProcess {
  name: string;
}

/** One answer the load got, or a connection that ended without one ('dropped'). */
interface Outcome {
  kind: 'post' | 'lead';
  instance: string;
  status: number | 'dropped';
  /** When the answer arrived (ms since the epoch). */
  at: number;
  /** What is wrong with it, if anything (an answer the outage may not give). */
  wrong?: string;
}

const PHONE = DEFAULT_SITE_CONFIG.phoneDisplay;
const dirs: string[] = [];
let cluster: PostgresCluster;
let databaseUrl: string;
let writer: string;
let a: Instance;
let b: Instance;
/** Whether the test shut the database down and has not started it again. */
let down = false;

async function shutDown(): Promise<void> {
  down = true;
  await cluster.shutDown();
}

async function startAgain(): Promise<void> {
  await cluster.startAgain();
  down = false;
}

async function startInstance(name: string): Promise<Instance> {
  const dataDir = makeTempDir(`iul-outage-${name}-`);
  dirs.push(dataDir);
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SEED_DEMO_CONTENT: 'false',
    // The burst is the point, not the limits: neither the key's writes nor one address's quote requests are capped.
    RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
    LEAD_REQUESTS_PER_HOUR: '0',
  };
  return { name, ...(await startServerProcess(env, `instance ${name}`)) };
}

function running(instance: Instance): boolean {
  return instance.child.exitCode === null && instance.child.signalCode === null;
}

/** Fails at once, with what it printed last, when an instance has exited (what this file is about). */
function expectBothRunning(): void {
  for (const instance of [a, b]) {
    expect(running(instance), `instance ${instance.name} exited:\n${instance.output().slice(-3000)}`).toBe(true);
    expect(instance.output()).not.toContain("Unhandled 'error' event");
  }
}

/** The outcomes of the load under way, checked at every poll. */
let answered: Outcome[] = [];

/**
 * Polls `condition` every 50 ms until it holds; fails naming `what` after `timeoutMs`, or as soon as an
 * instance exits or the load gets an answer it must never get.
 */
async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    expectBothRunning();
    expectAllAnswersAllowed(answered);
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** GET /api/health; status 0 when the connection failed (an instance that exited: `until` says so). */
async function health(instance: Instance): Promise<{ status: number; body: Record<string, unknown>; retryAfter: string | null }> {
  try {
    const res = await fetch(`${instance.url}/api/health`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, retryAfter: res.headers.get('retry-after') };
  } catch {
    return { status: 0, body: {}, retryAfter: null };
  }
}

/** A quote request as a browser without JavaScript sends it; `name` tells the requests apart. */
function quoteForm(name: string): string {
  return new URLSearchParams({
    name,
    preferredContactMethod: 'phone',
    phone: '512-555-0199',
    age: '45',
    annualContribution: '12000',
    consent: 'yes',
    // Long ago: a person's pace, never "too fast".
    startedAt: '1700000000000',
  }).toString();
}

/**
 * Requests from `workers` loops until stopped, each alternating a post creation and a quote request,
 * the two instances taking turns. Every answer is checked as it arrives; a 503 is followed by a short
 * pause (as a client honouring Retry-After would, if shorter), so the outage is not a busy loop.
 */
function startLoad(label: string, workers = 4) {
  const outcomes: Outcome[] = [];
  answered = outcomes;
  const posts: Array<{ id: string; title: string }> = [];
  const leads: string[] = [];
  let stopped = false;
  let next = 0;

  async function createPost(instance: Instance, n: number): Promise<Outcome> {
    const title = `${label} post ${n}`;
    const res = await fetch(`${instance.url}/api/blog`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      body: JSON.stringify(validPost({ title, status: 'Published' })),
    });
    const body = (await res.json()) as { post?: { id: string }; code?: string };
    const outcome: Outcome = { kind: 'post', instance: instance.name, status: res.status, at: Date.now() };
    if (res.status === 201 && body.post) posts.push({ id: body.post.id, title });
    else if (res.status === 503) {
      if (body.code !== 'storage_unavailable') outcome.wrong = `503 with code ${String(body.code)}`;
      else if (res.headers.get('retry-after') !== '5') outcome.wrong = `503 with Retry-After ${String(res.headers.get('retry-after'))}`;
    } else outcome.wrong = `${res.status} ${JSON.stringify(body).slice(0, 300)}`;
    return outcome;
  }

  async function sendQuote(instance: Instance, n: number): Promise<Outcome> {
    const name = `${label} Visitor ${n}`;
    const res = await fetch(`${instance.url}/get-quote`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: instance.url },
      body: quoteForm(name),
    });
    const text = await res.text();
    const outcome: Outcome = { kind: 'lead', instance: instance.name, status: res.status, at: Date.now() };
    if (res.status === 303 && res.headers.get('location')?.startsWith('/get-quote/thank-you?ref=')) leads.push(name);
    else if (res.status === 503) {
      // The form again, with what was typed and the phone number.
      if (!text.includes(`value="${name}"`) || !text.includes('value="512-555-0199"')) outcome.wrong = '503 without the typed values';
      else if (!text.includes('We could not save your request just now') || !text.includes(PHONE)) outcome.wrong = '503 without the notice and the phone number';
      else if (res.headers.get('retry-after') !== '5') outcome.wrong = `503 with Retry-After ${String(res.headers.get('retry-after'))}`;
    } else outcome.wrong = `${res.status} ${text.slice(0, 300)}`;
    return outcome;
  }

  async function worker(): Promise<void> {
    while (!stopped) {
      const n = next++;
      const instance = n % 2 === 0 ? a : b;
      const kind = Math.floor(n / 2) % 2 === 0 ? 'post' : 'lead';
      let outcome: Outcome;
      try {
        outcome = await (kind === 'post' ? createPost(instance, n) : sendQuote(instance, n));
      } catch (error) {
        outcome = { kind, instance: instance.name, status: 'dropped', at: Date.now(), wrong: `no answer: ${String(error)}` };
      }
      outcomes.push(outcome);
      if (outcome.status !== 201 && outcome.status !== 303) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const done = Promise.all(Array.from({ length: workers }, worker));
  return {
    outcomes,
    posts,
    leads,
    /** Acknowledgements of `kind` from `instance` that arrived after `since`. */
    acknowledged: (instance: Instance, kind: Outcome['kind'], since: number) =>
      outcomes.filter((o) => o.instance === instance.name && o.kind === kind && o.at > since && (o.status === 201 || o.status === 303)).length,
    /** 503s of `kind` (from `instance`, or either) that arrived after `since`. */
    refused: (kind: Outcome['kind'], since: number, instance?: Instance) =>
      outcomes.filter((o) => o.kind === kind && o.at > since && o.status === 503 && (!instance || o.instance === instance.name)).length,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

/** Every acknowledged post and lead is in the database (read by a store of the test's own, opened now). */
async function expectAllStored(posts: Array<{ id: string; title: string }>, leads: string[]): Promise<void> {
  const store = await openPostgresStore(databaseUrl, 'PostgreSQL');
  try {
    const missingPosts: string[] = [];
    for (const { id, title } of posts) if ((await store.posts.getById(id))?.title !== title) missingPosts.push(title);
    expect(missingPosts, 'posts answered 201 but not stored').toEqual([]);
    const stored = new Set((await store.leads.list()).map((lead) => lead.name));
    expect(leads.filter((name) => !stored.has(name)), 'quote requests answered 303 but not stored').toEqual([]);
  } finally {
    await store.close();
  }
}

function expectAllAnswersAllowed(outcomes: Outcome[]): void {
  const wrong = outcomes.filter((o) => o.wrong !== undefined).map((o) => `${o.kind} on ${o.instance}: ${o.wrong}`);
  expect(wrong.slice(0, 10), `${wrong.length} answers were neither an acknowledgement nor a proper 503`).toEqual([]);
  for (const status of new Set(outcomes.map((o) => o.status))) expect([201, 303, 503]).toContain(status);
}

beforeAll(async () => {
  // A cluster of this file's own: the other PostgreSQL tests' server is never stopped under them.
  cluster = await startPostgresCluster();
  databaseUrl = await cluster.createDatabase('outage');
  [a, b] = await Promise.all([startInstance('a'), startInstance('b')]);
  const store = await openPostgresStore(databaseUrl, 'PostgreSQL');
  try {
    writer = (await new KeyService(store.keys).create({ name: 'Outage writer', permissions: ['blog:write'] })).secret;
  } finally {
    await store.close();
  }
});

afterAll(async () => {
  for (const instance of [a, b]) {
    if (!instance) continue;
    instance.child.kill('SIGTERM');
    await exited(instance.child);
  }
  cluster?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('PostgreSQL restarting under two app servers', () => {
  it('keeps both running through a restart mid-burst: 503s while it is down, every acknowledged write kept, back by itself', async () => {
    const load = startLoad('Restart');
    try {
      await until('both instances have acknowledged posts and quote requests', () =>
        [a, b].every((instance) => load.acknowledged(instance, 'post', 0) >= 3 && load.acknowledged(instance, 'lead', 0) >= 3),
      );
      const stoppedAt = Date.now();
      await shutDown();

      // Down: both say so, and the load meets 503s of both kinds.
      await until('both health checks say degraded', async () => (await Promise.all([a, b].map(health))).every((h) => h.status === 503));
      for (const instance of [a, b]) {
        const h = await health(instance);
        expect(h.body).toMatchObject({ success: false, status: 'degraded', code: 'storage_unavailable', reason: expect.stringContaining('The database cannot be reached') });
        expect(h.body).not.toHaveProperty('posts');
        expect(JSON.stringify(h.body)).not.toContain('127.0.0.1');
        expect(h.retryAfter).toBe('5');
      }
      // A few seconds of outage under load: each instance refuses several posts and quote requests.
      await until('the burst has met 503s on posts and on quote requests on both', () =>
        [a, b].every((instance) => load.refused('post', stoppedAt, instance) >= 5 && load.refused('lead', stoppedAt, instance) >= 5),
      );
      // A page that needs the store (never rendered before, so not in the page cache): the site's 503 page with the phone.
      for (const instance of [a, b]) {
        const page = await fetch(`${instance.url}/blog/not-rendered-before-the-outage`);
        expect(page.status).toBe(503);
        expect(page.headers.get('retry-after')).toBe('5');
        const html = await page.text();
        expect(html).toContain('Back in a moment');
        expect(html).toContain(`href="tel:${DEFAULT_SITE_CONFIG.phoneE164}"`);
        expect(html).toContain(PHONE);
      }

      // The app's own request (JavaScript on) gets the same answer, with the values, for the same form.
      const app = await fetch(`${a.url}/get-quote.data`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: a.url },
        body: quoteForm('Restart Visitor with JavaScript'),
      });
      expect(app.status).toBe(503);
      const appData = await app.text();
      expect(appData).toContain('Restart Visitor with JavaScript');
      expect(appData).toContain('We could not save your request just now');

      const startedAt = Date.now();
      await startAgain();
      // Back: health ok with its usual shape, and both acknowledge writes of both kinds again.
      await until('both health checks say ok', async () => (await Promise.all([a, b].map(health))).every((h) => h.status === 200));
      for (const instance of [a, b]) {
        const h = await health(instance);
        expect(h.body).toMatchObject({ success: true, status: 'ok', posts: { published: expect.any(Number) } });
      }
      await until('both instances acknowledge posts and quote requests again', () =>
        [a, b].every((instance) => load.acknowledged(instance, 'post', startedAt) >= 3 && load.acknowledged(instance, 'lead', startedAt) >= 3),
      );
    } finally {
      await load.stop();
      // A failure while the database was down leaves it running for what follows.
      if (down) await startAgain();
    }

    expectBothRunning();
    expectAllAnswersAllowed(load.outcomes);
    expect(load.outcomes.filter((o) => o.status === 503).length).toBeGreaterThanOrEqual(20);
    await expectAllStored(load.posts, load.leads);
  }, 90_000);

  it('never exits in ten stop/start cycles under load, and loses nothing it acknowledged', async () => {
    const load = startLoad('Cycles');
    const cycles = 10;
    try {
      await until('the burst is acknowledged by both', () => [a, b].every((instance) => load.acknowledged(instance, 'post', 0) >= 1));
      for (let cycle = 1; cycle <= cycles; cycle++) {
        const stoppedAt = Date.now();
        await shutDown();
        await until(`cycle ${cycle}: the burst meets 503s`, () => load.refused('post', stoppedAt) + load.refused('lead', stoppedAt) >= 2);
        const startedAt = Date.now();
        await startAgain();
        await until(`cycle ${cycle}: both acknowledge writes again`, () =>
          [a, b].every((instance) => load.acknowledged(instance, 'post', startedAt) + load.acknowledged(instance, 'lead', startedAt) >= 2),
        );
        expectBothRunning();
      }
    } finally {
      await load.stop();
      // A failure while the database was down leaves it running for what follows.
      if (down) await startAgain();
    }

    expectBothRunning();
    expectAllAnswersAllowed(load.outcomes);
    await expectAllStored(load.posts, load.leads);
    // No restart: each instance is the process that started before the first outage.
    for (const instance of [a, b]) expect(instance.output().match(/Site and API on /g)).toHaveLength(1);
  }, 120_000);
});
