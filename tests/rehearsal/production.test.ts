/**
 * The production rehearsal (issue 35): what docs/deployment.md tells an operator to run, on this
 * machine, every request through `https://` on the proxy. nginx from Debian terminates TLS with a
 * certificate made here and proxies, with the document's own configuration (tests/support/tls-proxy.ts),
 * to two production servers (`scripts/start.js`, as `npm start` runs it) on one PostgreSQL database of
 * this file's own, started with TRUST_PROXY. Then:
 *
 * - visitors send quote requests in Chromium with JavaScript off and on, and they are stored;
 * - a staff member signs in (the session cookie `__Host-` and Secure), creates an API key in /admin,
 *   and an author publishes with it over the API; the post is at /blog/<slug>;
 * - seven visitors at seven addresses each get their own quota of the quote form's hourly limit, and a
 *   forged X-Forwarded-For gets no one out of theirs;
 * - PostgreSQL is stopped for 20 s in the middle of a burst of posts and quote requests: both servers
 *   keep running, every answer is an acknowledgement or a proper 503 (nginx never answers 502 or 504),
 *   everything acknowledged is stored, and nothing is restarted;
 * - the disk of the one-machine deployment (SQLite, its data directory on a small tmpfs, behind the same
 *   nginx block) fills up: every write path answers 507 with the catalogue's words, and works again as
 *   soon as there is room, without a restart.
 *
 * Production settings throughout, except LEAD_MIN_FILL_SECONDS=0 (a test fills the form faster than a
 * person; the spam check is not what is rehearsed) and a write limit per key the burst never reaches.
 * Needs root (tmpfs), nginx, openssl, PostgreSQL and Chromium: `.ci/run` installs them.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { type Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyService } from '../../api/services/keys';
import { StaffService } from '../../api/staff/staff-service';
import { openPostgresStore, openSqliteStore } from '../../api/store/sql/sql-store';
import type { Store } from '../../api/store/store';
import { ERROR_CATALOGUE } from '../../contract/errors';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { validPost } from '../api/support';
import { launchBrowser } from '../support/browser';
import { waitForHydration } from '../support/page';
import { freePort } from '../support/free-port';
import { type PostgresCluster, startPostgresCluster } from '../support/postgres-cluster';
import { makeTempDir } from '../support/server';
import { exited, type ServerProcess, startServerProcess } from '../support/server-process';
import { type Certificate, makeCertificate, type Nginx, parseAccessLog, proxyAgent, rehearsalNginxBlock, startNginx } from '../support/tls-proxy';

const PHONE = DEFAULT_SITE_CONFIG.phoneDisplay;
const STAFF_EMAIL = 'rehearsal.agent@example.com';
const STAFF_PASSWORD = 'a long and private rehearsal passphrase 9';
/** The quote form's hourly limit per address in production (LEAD_REQUESTS_PER_HOUR's default). */
const QUOTES_PER_HOUR = 5;
/** How long PostgreSQL stays down. */
const OUTAGE_MS = 20_000;

interface Instance extends ServerProcess {
  name: string;
  port: number;
}

const work = makeTempDir('iul-rehearsal-');
/** A 32 MB tmpfs: the data directories of server b and of the SQLite server, filled by the full-disk test. */
const disk = path.join(work, 'disk');
let mounted = false;
let certificate: Certificate;
let cluster: PostgresCluster | undefined;
let databaseUrl: string;
let a: Instance | undefined;
let b: Instance | undefined;
let proxy: Nginx | undefined;
let browser: Browser | undefined;
/** The agents made by `agent`, closed after the file. */
const agents = new Map<string, Agent>();

/** The proxy's agent for a visitor at `address` (one per address, kept for the file). */
function agent(address = '127.0.0.1'): Agent {
  let made = agents.get(address);
  if (!made) {
    made = proxyAgent(address);
    agents.set(address, made);
  }
  return made;
}

function site(): Nginx {
  if (!proxy) throw new Error('the proxy starts in beforeAll');
  return proxy;
}

function instances(): [Instance, Instance] {
  if (!a || !b) throw new Error('the servers start in beforeAll');
  return [a, b];
}

/** Starts a production server (a real process); `name` labels it and its data directory. */
async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const started = await startServerProcess({ SEED_DEMO_CONTENT: 'false', LEAD_MIN_FILL_SECONDS: '0', RATE_LIMIT_WRITES_PER_MINUTE: '1000000', ...env }, `server ${name}`);
  return { name, port: Number(new URL(started.url).port), ...started };
}

function running(instance: ServerProcess): boolean {
  return instance.child.exitCode === null && instance.child.signalCode === null;
}

/** Fails with what it printed last when a server has exited or printed an unhandled error. */
function expectRunning(...servers: Instance[]): void {
  for (const instance of servers) {
    expect(running(instance), `server ${instance.name} exited:\n${instance.output().slice(-3000)}`).toBe(true);
    expect(instance.output()).not.toContain("Unhandled 'error' event");
  }
}

/** Runs `task` on the PostgreSQL store the servers use, opened for it only. */
async function withDatabase<T>(task: (store: Store) => Promise<T>): Promise<T> {
  const store = await openPostgresStore(databaseUrl, 'PostgreSQL');
  try {
    return await task(store);
  } finally {
    await store.close();
  }
}

/** A quote request as a browser without JavaScript sends it from the site's page; `name` tells requests apart. */
function quoteForm(name: string): string {
  return new URLSearchParams({ name, preferredContactMethod: 'phone', phone: '512-555-0199', age: '45', annualContribution: '12000', consent: 'yes', startedAt: '1700000000000' }).toString();
}

/** POSTs a quote form through `origin` (a proxy) from `address`, with extra `headers`; not following the redirect. */
async function sendQuote(origin: string, name: string, address = '127.0.0.1', headers: Record<string, string> = {}): Promise<{ status: number; retryAfter: string | null; location: string | null; text: string }> {
  const res = await fetch(`${origin}/get-quote`, {
    method: 'POST',
    redirect: 'manual',
    dispatcher: agent(address),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin, ...headers },
    body: quoteForm(name),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), location: res.headers.get('location'), text: await res.text() };
}

/** Creates a post over the API through `origin` with `key`; the status, the JSON body and Retry-After. */
async function createPost(origin: string, key: string, title: string): Promise<{ status: number; body: Record<string, unknown>; retryAfter: string | null }> {
  const res = await fetch(`${origin}/api/blog`, {
    method: 'POST',
    dispatcher: agent(),
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(validPost({ title, status: 'Published' })),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, retryAfter: res.headers.get('retry-after') };
}

/** A context of the file's Chromium for the proxy's self-signed certificate, no request leaving this machine. */
async function newContext(js: boolean): Promise<BrowserContext> {
  if (!browser) throw new Error('the browser starts in beforeAll');
  const context = await browser.newContext({ ignoreHTTPSErrors: true, javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  await context.route('**/*', (route) => (new URL(route.request().url()).origin === site().url ? route.continue() : route.abort()));
  return context;
}

/** Fills the quote form of `page` as a visitor does (name, phone, age, contribution, consent). */
async function fillQuoteForm(page: Page, name: string): Promise<void> {
  const form = page.getByTestId('quote-request-form');
  await form.getByLabel('Your name').fill(name);
  await form.getByLabel('Phone', { exact: true }).fill('(512) 555-0199');
  await form.getByLabel('Your age').fill('45');
  await form.getByLabel('What you could put in each year').fill('12,000');
  await form.getByLabel(/I agree that/).check();
}

beforeAll(async () => {
  // nginx's workers (user nobody) pass through it to write request bodies in its nginx/ folder.
  chmodSync(work, 0o711);
  mkdirSync(disk);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m,mode=0700', 'tmpfs', disk], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    throw new Error(`The full-disk rehearsal mounts a 32 MB tmpfs, which needs root (or CAP_SYS_ADMIN): run the tests as root. ${String(error)}`, { cause: error });
  }
  mounted = true;
  certificate = makeCertificate(work);
  const proxyPort = await freePort();
  const siteUrl = `https://127.0.0.1:${proxyPort}`;
  const launching = launchBrowser();
  cluster = await startPostgresCluster();
  databaseUrl = await cluster.createDatabase('rehearsal');
  const env = (name: string) => ({
    // b's on the tmpfs: on PostgreSQL only the request log is written there, and a full disk must not matter.
    DATA_DIR: path.join(name === 'b' ? disk : work, `data-${name}`),
    DATABASE_URL: databaseUrl,
    SITE_URL: siteUrl,
    // nginx on this machine connects from 127.0.0.1; the visitors here come from other 127.x addresses.
    TRUST_PROXY: '127.0.0.1',
  });
  [a, b] = await Promise.all([startInstance('a', env('a')), startInstance('b', env('b'))]);
  proxy = await startNginx(path.join(work, 'nginx'), proxyPort, rehearsalNginxBlock([a.port, b.port], proxyPort, certificate));
  browser = await launching;
  await withDatabase((store) => new StaffService(store).add({ email: STAFF_EMAIL, name: 'Rehearsal Agent', password: STAFF_PASSWORD }, 'cli:rehearsal'));
}, 180_000);

afterAll(async () => {
  const steps: Array<() => unknown> = [
    () => browser?.close(),
    () => proxy?.stop(),
    ...[a, b].map((instance) => async () => {
      if (!instance) return;
      instance.child.kill('SIGTERM');
      await exited(instance.child);
    }),
    () => cluster?.stop(),
    ...[...agents.values()].map((made) => () => made.close()),
    () => mounted && execFileSync('umount', [disk]),
  ];
  // Every step runs even when one fails; the first failure is reported after.
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failures.push(error);
    }
  }
  rmSync(work, { recursive: true, force: true });
  if (failures.length > 0) throw failures[0];
}, 60_000);

describe('a visitor, through https on the proxy', () => {
  for (const js of [false, true]) {
    it(`sends a quote request with JavaScript ${js ? 'on' : 'off'}, sees the thank-you page, and the request is stored with the visitor's address`, async () => {
      const context = await newContext(js);
      try {
        const page = await context.newPage();
        const posts: string[] = [];
        page.on('request', (request) => {
          if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
        });
        await page.goto(`${site().url}/get-quote`);
        if (js) await waitForHydration(page);
        const name = `Rehearsal Visitor JavaScript ${js ? 'On' : 'Off'}`;
        await fillQuoteForm(page, name);
        await page.getByTestId('quote-request-form').getByRole('button', { name: 'Request my free illustration' }).click();
        await page.getByTestId('quote-thank-you').waitFor();
        expect(new URL(page.url()).pathname).toBe('/get-quote/thank-you');
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you, your request has arrived');
        // With JavaScript the app sent the form itself (its .data request); without, the browser did.
        expect(posts).toEqual([js ? '/get-quote.data' : '/get-quote']);

        const lead = await withDatabase(async (store) => (await store.leads.list()).find((item) => item.name === name));
        expect(lead).toMatchObject({ name, phone: '(512) 555-0199', age: 45, annualContribution: 12_000, spam: null, consent: { given: true, ip: '127.0.0.1', page: '/get-quote' } });
        expect(lead?.consent.userAgent).toContain('Chrome');
      } finally {
        await context.close();
      }
    });
  }
});

describe('staff and an author, through https on the proxy', () => {
  it('signs staff in with a Secure __Host- session cookie, creates an API key in /admin, and a post published with it is at /blog/<slug>', async () => {
    const context = await newContext(true);
    try {
      const page = await context.newPage();
      await page.goto(`${site().url}/admin/login?next=${encodeURIComponent('/admin/api-keys')}`);
      await page.getByLabel('E-mail').fill(STAFF_EMAIL);
      await page.getByLabel('Password').fill(STAFF_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/admin/api-keys', { waitUntil: 'load' });

      const cookies = await context.cookies(site().url);
      const session = cookies.find((cookie) => cookie.name === '__Host-staff_session');
      expect(session, `cookies: ${cookies.map((cookie) => cookie.name).join(', ')}`).toMatchObject({ secure: true, httpOnly: true, path: '/' });
      expect(cookies.filter((cookie) => /staff/.test(cookie.name) && !cookie.name.startsWith('__Host-'))).toEqual([]);
      expect(cookies.every((cookie) => cookie.secure)).toBe(true);

      await waitForHydration(page);
      await page.getByLabel('Name', { exact: true }).fill('Rehearsal Author');
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = page.getByTestId('new-key-secret');
      await shown.waitFor();
      const secret = (await shown.locator('code').innerText()).trim();
      expect(secret).toMatch(/^bpk_/);

      const title = 'Published Through the TLS Proxy';
      const created = await createPost(site().url, secret, title);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const slug = (created.body.post as { slug: string }).slug;
      // Both servers behind the proxy have it (nginx takes turns), and so does the visitor's browser.
      for (let n = 0; n < 2; n++) {
        const res = await fetch(`${site().url}/blog/${slug}`, { dispatcher: agent() });
        expect(res.status).toBe(200);
        expect(await res.text()).toContain(title);
      }
      const reader = await context.newPage();
      const response = await reader.goto(`${site().url}/blog/${slug}`);
      expect(response?.status()).toBe(200);
      expect(await reader.getByRole('heading', { level: 1 }).textContent()).toBe(title);
    } finally {
      await context.close();
    }
  });
});

describe('per-visitor limits behind the proxy', () => {
  const visitors = Array.from({ length: 7 }, (_, n) => `127.0.0.${n + 2}`);

  it(`gives seven visitors at seven addresses ${QUOTES_PER_HOUR} quote requests an hour each, whichever server answers`, async () => {
    for (let round = 1; round <= QUOTES_PER_HOUR; round++) {
      for (const address of visitors) {
        const sent = await sendQuote(site().url, `Visitor at ${address} request ${round}`, address);
        expect(sent.status, `${address}, request ${round}: ${sent.text.slice(0, 300)}`).toBe(303);
        expect(sent.location).toMatch(/^\/get-quote\/thank-you\?ref=[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
      }
    }
    for (const address of visitors) {
      const over = await sendQuote(site().url, `Visitor at ${address} one too many`, address);
      expect(over.status, address).toBe(429);
      expect(Number(over.retryAfter)).toBeGreaterThan(0);
      expect(over.text).toContain(PHONE);
    }
    // Another visitor still has a whole quota.
    expect((await sendQuote(site().url, 'A visitor at 127.0.0.9', '127.0.0.9')).status).toBe(303);
    const stored = await withDatabase(async (store) => (await store.leads.list()).map((lead) => lead.name));
    for (const address of visitors) {
      expect(stored.filter((name) => name.startsWith(`Visitor at ${address} `))).toHaveLength(QUOTES_PER_HOUR);
      const lead = await withDatabase(async (store) => (await store.leads.list()).find((item) => item.name === `Visitor at ${address} request 1`));
      expect(lead?.consent.ip).toBe(address);
    }
  });

  it('lets no visitor out of their quota with a forged X-Forwarded-For, nor into another visitor\'s', async () => {
    // The visitor at 127.0.0.2 is over their quota; claiming other addresses changes nothing (nginx appends the real one).
    for (const forged of ['198.51.100.77', '127.0.0.1', '198.51.100.78, 10.0.0.1']) {
      const sent = await sendQuote(site().url, `Forged ${forged}`, '127.0.0.2', { 'x-forwarded-for': forged });
      expect(sent.status, forged).toBe(429);
    }
    // A new visitor claiming to be 127.0.0.3 (over its quota) still has a quota of its own.
    expect((await sendQuote(site().url, 'Honest visitor at 127.0.0.10', '127.0.0.10', { 'x-forwarded-for': '127.0.0.3' })).status).toBe(303);
    const lead = await withDatabase(async (store) => (await store.leads.list()).find((item) => item.name === 'Honest visitor at 127.0.0.10'));
    expect(lead?.consent.ip).toBe('127.0.0.10');
  });
});

/** One answer the burst got through the proxy, or a connection that ended without one ('dropped'). */
interface Outcome {
  kind: 'post' | 'lead';
  status: number | 'dropped';
  /** When the answer arrived (ms since the epoch). */
  at: number;
  /** What is wrong with it, if anything (an answer the outage may not give). */
  wrong?: string;
}

/** The outcomes of the burst under way, checked at every poll of `until`. */
let answered: Outcome[] = [];

function expectAllAnswersAllowed(outcomes: Outcome[]): void {
  const wrong = outcomes.filter((o) => o.wrong !== undefined).map((o) => `${o.kind}: ${o.wrong}`);
  expect(wrong.slice(0, 10), `${wrong.length} answers were neither an acknowledgement nor a proper 503`).toEqual([]);
  for (const status of new Set(outcomes.map((o) => o.status))) expect([201, 303, 503]).toContain(status);
}

/**
 * Polls `condition` every 50 ms until it holds; fails naming `what` after `timeoutMs`, or as soon as a
 * server exits or the burst gets an answer it must never get.
 */
async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    expectRunning(...instances());
    expectAllAnswersAllowed(answered);
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** GET /api/health of one server, as the load balancer's health check asks it; status 0 when the connection failed. */
async function health(instance: Instance): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    const res = await globalThis.fetch(`${instance.url}/api/health`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  } catch {
    return { status: 0, body: {} };
  }
}

/**
 * Requests through the proxy from `workers` loops until stopped, each alternating a post creation
 * (with `key`) and a quote request. Every quote request comes from an address of its own (127.1.x.y),
 * so the production limit of 5 an hour per address is never what answers. Every answer is checked as
 * it arrives; a refused request is followed by a short pause, so the outage is not a busy loop.
 */
function startBurst(label: string, key: string, workers = 4) {
  const outcomes: Outcome[] = [];
  answered = outcomes;
  const posts: Array<{ id: string; title: string }> = [];
  const leads: string[] = [];
  let stopped = false;
  let next = 0;

  async function post(n: number): Promise<Outcome> {
    const title = `${label} post ${n}`;
    const created = await createPost(site().url, key, title);
    const outcome: Outcome = { kind: 'post', status: created.status, at: Date.now() };
    const body = created.body as { post?: { id: string }; code?: string };
    if (created.status === 201 && body.post) posts.push({ id: body.post.id, title });
    else if (created.status === 503) {
      if (body.code !== 'storage_unavailable') outcome.wrong = `503 with code ${String(body.code)}`;
      else if (created.retryAfter !== '5') outcome.wrong = `503 with Retry-After ${String(created.retryAfter)}`;
    } else outcome.wrong = `${created.status} ${JSON.stringify(body).slice(0, 300)}`;
    return outcome;
  }

  async function lead(n: number): Promise<Outcome> {
    const name = `${label} Visitor ${n}`;
    const address = `127.1.${Math.floor(n / 250)}.${(n % 250) + 1}`;
    const dispatcher = proxyAgent(address);
    try {
      const res = await fetch(`${site().url}/get-quote`, {
        method: 'POST',
        redirect: 'manual',
        dispatcher,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: site().url },
        body: quoteForm(name),
      });
      const text = await res.text();
      const outcome: Outcome = { kind: 'lead', status: res.status, at: Date.now() };
      if (res.status === 303 && res.headers.get('location')?.startsWith('/get-quote/thank-you?ref=')) leads.push(name);
      else if (res.status === 503) {
        // The form again, with what was typed and the phone number.
        if (!text.includes(`value="${name}"`) || !text.includes('value="512-555-0199"')) outcome.wrong = '503 without the typed values';
        else if (!text.includes('We could not save your request just now') || !text.includes(PHONE)) outcome.wrong = '503 without the notice and the phone number';
        else if (res.headers.get('retry-after') !== '5') outcome.wrong = `503 with Retry-After ${String(res.headers.get('retry-after'))}`;
      } else outcome.wrong = `${res.status} ${text.slice(0, 300)}`;
      return outcome;
    } finally {
      await dispatcher.close();
    }
  }

  async function worker(): Promise<void> {
    while (!stopped) {
      const n = next++;
      const kind = n % 2 === 0 ? 'post' : 'lead';
      let outcome: Outcome;
      try {
        outcome = await (kind === 'post' ? post(n) : lead(n));
      } catch (error) {
        outcome = { kind, status: 'dropped', at: Date.now(), wrong: `no answer: ${String(error)}` };
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
    acknowledged: (kind: Outcome['kind'], since: number) => outcomes.filter((o) => o.kind === kind && o.at > since && (o.status === 201 || o.status === 303)).length,
    refused: (kind: Outcome['kind'], since: number) => outcomes.filter((o) => o.kind === kind && o.at > since && o.status === 503).length,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

describe('PostgreSQL stopped for 20 s under a burst through the proxy', () => {
  it('keeps both servers running: every answer a 201, a 303 or a proper 503 (never a 502 or 504 from nginx), every acknowledged write stored, back without a restart', async () => {
    const [one, two] = instances();
    const key = await withDatabase(async (store) => (await new KeyService(store.keys).create({ name: 'Rehearsal burst', permissions: ['blog:write'] })).secret);
    // A visitor (JavaScript off) has the form open when the database goes away.
    const context = await newContext(false);
    const page = await context.newPage();
    await page.goto(`${site().url}/get-quote`);
    const burst = startBurst('Outage', key);
    let down = false;
    let stoppedAt = 0;
    let startedAt = 0;
    try {
      await until('the burst is acknowledged', () => burst.acknowledged('post', 0) >= 6 && burst.acknowledged('lead', 0) >= 6);
      stoppedAt = Date.now();
      down = true;
      await cluster?.shutDown();

      await until('both health checks say degraded', async () => (await Promise.all([one, two].map(health))).every((h) => h.status === 503));
      for (const instance of [one, two]) expect((await health(instance)).body).toMatchObject({ status: 'degraded', code: 'storage_unavailable' });
      await until('the burst meets 503s on posts and on quote requests', () => burst.refused('post', stoppedAt) >= 10 && burst.refused('lead', stoppedAt) >= 10);

      // A page that needs the database (never rendered, so not cached): the site's 503 page with the phone, from either server.
      for (let n = 0; n < 2; n++) {
        const res = await fetch(`${site().url}/blog/not-rendered-before-the-outage`, { dispatcher: agent() });
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        const html = await res.text();
        expect(html).toContain('Back in a moment');
        expect(html).toContain(`href="tel:${DEFAULT_SITE_CONFIG.phoneE164}"`);
      }
      // The app's own request (JavaScript on) gets the form's 503 with the values.
      const data = await fetch(`${site().url}/get-quote.data`, {
        method: 'POST',
        dispatcher: agent(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: site().url },
        body: quoteForm('Outage Visitor With JavaScript'),
      });
      expect(data.status).toBe(503);
      const dataText = await data.text();
      expect(dataText).toContain('Outage Visitor With JavaScript');
      expect(dataText).toContain('We could not save your request just now');
      // The visitor in Chromium sends: the form comes back with what they typed and the phone number.
      await fillQuoteForm(page, 'Outage Visitor In Chromium');
      const answer = page.waitForResponse((res) => res.request().method() === 'POST');
      await page.getByTestId('quote-request-form').getByRole('button', { name: 'Request my free illustration' }).click();
      expect((await answer).status()).toBe(503);
      await page.waitForLoadState('load');
      expect(await page.getByTestId('quote-request-form').getByLabel('Your name').inputValue()).toBe('Outage Visitor In Chromium');
      expect(await page.locator('main').innerText()).toContain(PHONE);

      // The rest of the 20 s: the burst goes on, every answer checked at each poll.
      await until(`${OUTAGE_MS / 1000} s of outage have passed`, () => Date.now() - stoppedAt >= OUTAGE_MS, OUTAGE_MS + 5_000);
      startedAt = Date.now();
      await cluster?.startAgain();
      down = false;

      await until('both health checks say ok', async () => (await Promise.all([one, two].map(health))).every((h) => h.status === 200));
      await until('the burst is acknowledged again', () => burst.acknowledged('post', startedAt) >= 6 && burst.acknowledged('lead', startedAt) >= 6);
    } finally {
      await burst.stop();
      await context.close();
      // A failure while the database was down leaves it running for what follows.
      if (down) await cluster?.startAgain();
    }

    expectRunning(one, two);
    expectAllAnswersAllowed(burst.outcomes);
    // No restart: each server is the process that started before the outage.
    for (const instance of [one, two]) expect(instance.output().match(/Site and API on /g)).toHaveLength(1);

    // nginx's side: both servers answered 503s to posts and to quote requests while the database was
    // away, and nginx itself never answered 500, 502 or 504 (a server stuck or gone).
    const log = parseAccessLog(site().accessLog());
    const during = log.filter((entry) => entry.at > stoppedAt && entry.at < startedAt && entry.status === 503);
    for (const instance of [one, two]) {
      for (const request of ['POST /api/blog ', 'POST /get-quote ']) {
        expect(during.filter((entry) => entry.upstream === `127.0.0.1:${instance.port}` && entry.request.startsWith(request)).length, `${request}on ${instance.name}`).toBeGreaterThan(0);
      }
    }
    expect(log.filter((entry) => entry.status >= 500 && entry.status !== 503).map((entry) => `${entry.status} ${entry.request} ${entry.upstream} ${entry.upstreamStatus}`)).toEqual([]);

    // Everything acknowledged is in the database.
    await withDatabase(async (store) => {
      const missing: string[] = [];
      for (const { id, title } of burst.posts) if ((await store.posts.getById(id))?.title !== title) missing.push(title);
      expect(missing, 'posts answered 201 but not stored').toEqual([]);
      const stored = new Set((await store.leads.list()).map((lead) => lead.name));
      expect(burst.leads.filter((name) => !stored.has(name)), 'quote requests answered 303 but not stored').toEqual([]);
    });
  });
});

describe('a full disk: the one-machine deployment (SQLite) with its data directory on the tmpfs, behind the same nginx block', () => {
  const filler = path.join(disk, 'filler');
  let server: Instance | undefined;
  let diskProxy: Nginx | undefined;
  let key: string;

  const origin = () => {
    if (!diskProxy) throw new Error('the proxy starts in beforeAll');
    return diskProxy.url;
  };

  beforeAll(async () => {
    const port = await freePort();
    const dataDir = path.join(disk, 'data-sqlite');
    server = await startInstance('sqlite', { DATA_DIR: dataDir, SITE_URL: `https://127.0.0.1:${port}`, TRUST_PROXY: '127.0.0.1' });
    // The documented block with one app server: both upstream lines name it.
    diskProxy = await startNginx(path.join(work, 'nginx-disk'), port, rehearsalNginxBlock([server.port, server.port], port, certificate));
    // What `blogpost keys create` and `blogpost staff add` do beside the running server.
    const store = await openSqliteStore(dataDir);
    try {
      key = (await new KeyService(store.keys).create({ name: 'Full disk author', permissions: ['blog:write'] })).secret;
      await new StaffService(store).add({ email: STAFF_EMAIL, name: 'Rehearsal Agent', password: STAFF_PASSWORD }, 'cli:rehearsal');
    } finally {
      await store.close();
    }
  }, 120_000);

  afterAll(async () => {
    try {
      await diskProxy?.stop();
    } finally {
      if (server) {
        server.child.kill('SIGTERM');
        await exited(server.child);
      }
    }
  }, 60_000);

  /**
   * Takes every block the tmpfs has left. The server may be writing meanwhile (at start-up it records
   * the marketing pages in the advertising archive), so what is left is looked at again until nothing is.
   */
  function fillDisk(): void {
    for (let attempt = 0; attempt < 20 && statfsSync(disk).bavail > 0; attempt += 1) {
      const { bavail, bsize } = statfsSync(disk);
      const held = statSync(filler, { throwIfNoEntry: false })?.size ?? 0;
      try {
        execFileSync('fallocate', ['-l', String(held + bavail * bsize), filler], { stdio: ['ignore', 'ignore', 'pipe'] });
      } catch {
        // Some of it was taken between the look and the fallocate: look again.
      }
    }
    expect(statfsSync(disk).bavail).toBe(0);
  }

  /** A small PNG, new each time (an upload of bytes already stored would only add an owner). */
  let pictures = 0;
  async function picture(): Promise<Buffer> {
    pictures += 1;
    return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 20 * pictures, g: 90, b: 160 } } })
      .png()
      .toBuffer();
  }

  async function upload(): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${origin()}/api/media`, { method: 'POST', dispatcher: agent(), headers: { authorization: `Bearer ${key}`, 'content-type': 'image/png' }, body: await picture() });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** The staff sign-in as the browser sends it through the proxy: the status, the page and the cookies set. */
  async function signIn(): Promise<{ status: number; text: string; cookies: string[] }> {
    const page = await fetch(`${origin()}/admin/login`, { dispatcher: agent() });
    const token = /name="loginToken" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const cookie = page.headers.getSetCookie().map((line) => line.split(';', 1)[0]).join('; ');
    const res = await fetch(`${origin()}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      dispatcher: agent(),
      headers: { origin: origin(), cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: STAFF_EMAIL, password: STAFF_PASSWORD, loginToken: token, next: '/admin' }).toString(),
    });
    return { status: res.status, text: await res.text(), cookies: res.headers.getSetCookie() };
  }

  it('answers every write path 507 with the catalogue\'s words while the disk is full, and takes them all again once there is room, with no restart', async () => {
    if (!server) throw new Error('the server starts in beforeAll');
    const postgresKey = await withDatabase(async (store) => (await new KeyService(store.keys).create({ name: 'Rehearsal full disk', permissions: ['blog:write'] })).secret);
    fillDisk();
    try {
      const post = await createPost(origin(), key, 'Written While the Disk Was Full');
      expect(post.status, `${JSON.stringify(post.body)}\n${server.output().slice(-3000)}`).toBe(507);
      expect(post.body).toMatchObject({ code: 'storage_full', message: ERROR_CATALOGUE.storage_full.message });

      const media = await upload();
      expect(media.status, JSON.stringify(media.body)).toBe(507);
      expect(media.body).toMatchObject({ code: 'storage_full' });

      const quote = await sendQuote(origin(), 'Full Disk Visitor');
      expect(quote.status, quote.text.slice(0, 300)).toBe(507);
      expect(quote.retryAfter).toMatch(/^\d+$/);
      expect(quote.text).toContain('value="Full Disk Visitor"');
      expect(quote.text).toContain('value="512-555-0199"');
      expect(quote.text).toContain(PHONE);

      const refused = await signIn();
      expect(refused.status, refused.text.slice(0, 300)).toBe(507);
      expect(refused.text).toContain(`tel:${DEFAULT_SITE_CONFIG.phoneE164}`);
      expect(refused.cookies.filter((line) => line.startsWith('__Host-staff_session='))).toEqual([]);
      expectRunning(server);

      // The two servers on PostgreSQL, b's data directory on the same full disk: nothing they store is there.
      for (let n = 0; n < 2; n++) {
        const created = await createPost(site().url, postgresKey, `Written on PostgreSQL While a Disk Was Full ${n}`);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        expect((await sendQuote(site().url, `PostgreSQL visitor while a disk was full ${n}`, `127.2.0.${n + 1}`)).status).toBe(303);
      }
      expectRunning(...instances());
    } finally {
      rmSync(filler, { force: true });
    }

    // Room again: the same requests go through, on the same process.
    const post = await createPost(origin(), key, 'Written Once There Was Room');
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    const slug = (post.body.post as { slug: string }).slug;
    expect((await fetch(`${origin()}/blog/${slug}`, { dispatcher: agent() })).status).toBe(200);
    const media = await upload();
    expect(media.status, JSON.stringify(media.body)).toBe(201);
    const quote = await sendQuote(origin(), 'Full Disk Visitor');
    expect(quote.status).toBe(303);
    const signedIn = await signIn();
    expect(signedIn.status).toBe(303);
    expect(signedIn.cookies.some((line) => line.startsWith('__Host-staff_session=') && /;\s*Secure/i.test(line))).toBe(true);
    expectRunning(server);
    expect(server.output().match(/Site and API on /g)).toHaveLength(1);
  });
});
