/**
 * Core Web Vitals beacons over real HTTP (issue 43, decision 0037): what POST /api/vitals keeps (clamped
 * values, the server's own rating, the device class, the build), what it refuses and with which status
 * and message (wrong types, unknown pages, oversized bodies, cross-site posts), the rate limit per address
 * without the address being stored, a flood that leaves the p75 sane, a refusing store, and the daily
 * roll-up after ANALYTICS_RETENTION_DAYS.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { analyticsCsv, analyticsReport } from '../../api/analytics/report';
import { ROOT, startTestServer, type TestServer } from '../support/server';
import { loginTokenOf, staffClient } from '../support/staff-client';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
let clock = new Date('2026-04-01T10:00:00Z');
let server: TestServer;
let address = 0;
let from = '203.0.113.1';

const day = () => clock.toISOString().slice(0, 10);

function send(body: string, headers: Record<string, string> = {}, method = 'POST'): Promise<Response> {
  return fetch(`${server.url}/api/vitals`, { method, headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'User-Agent': BROWSER, 'X-Forwarded-For': from, ...headers }, ...(method === 'GET' ? {} : { body }) });
}

async function stored() {
  await server.services.analytics.flush();
  return (await server.store.analytics.vitals(day(), day())).raw;
}

beforeAll(async () => {
  server = await startTestServer({ now: () => clock, trustProxy: '1' });
});

afterAll(async () => {
  await server.close();
});

beforeEach(async () => {
  // Each test from its own address, on its own day: no test sees another's beacons or limit.
  address += 1;
  from = `203.0.113.${address}`;
  clock = new Date(clock.getTime() + 24 * 60 * 60 * 1000);
  await server.services.analytics.flush();
});

describe('a beacon kept', () => {
  it('stores each metric with the page type, the clamped value, the server\'s rating, the device class and the build', async () => {
    const answer = await send(
      JSON.stringify({
        path: '/blog/some-article',
        metrics: [
          { name: 'LCP', value: 2710.4, target: 'main>h1.post-title' },
          { name: 'INP', value: 96, target: 'button.menu-toggle', interaction: 'pointer', loadState: 'complete' },
          { name: 'CLS', value: 0.01234 },
          { name: 'TTFB', value: 120.7 },
        ],
      }),
      { 'User-Agent': PHONE },
    );
    expect(answer.status).toBe(204);
    expect(await answer.text()).toBe('');
    const build = ((await import(pathToFileURL(path.join(ROOT, 'build/server/index.js')).href)) as ServerBuild).assets.version;
    const events = await stored();
    expect(events.sort((a, b) => a.metric.localeCompare(b.metric))).toEqual([
      { day: day(), route: '/blog/:slug', device: 'mobile', metric: 'CLS', value: 0.0123, rating: 'good', build, attribution: null },
      { day: day(), route: '/blog/:slug', device: 'mobile', metric: 'INP', value: 96, rating: 'good', build, attribution: 'complete button.menu-toggle pointer' },
      { day: day(), route: '/blog/:slug', device: 'mobile', metric: 'LCP', value: 2710, rating: 'needs-improvement', build, attribution: 'main>h1.post-title' },
      { day: day(), route: '/blog/:slug', device: 'mobile', metric: 'TTFB', value: 121, rating: 'good', build, attribution: null },
    ]);
  });

  it('clamps forged huge or negative values and rates them by the clamped value', async () => {
    const answer = await send(JSON.stringify({ path: '/faq', metrics: [{ name: 'LCP', value: 1e308 }, { name: 'CLS', value: 99999 }, { name: 'INP', value: -3 }, { name: 'TTFB', value: 2e6 }] }));
    expect(answer.status).toBe(204);
    const events = await stored();
    expect(Object.fromEntries(events.map((event) => [event.metric, [event.value, event.rating]]))).toEqual({ LCP: [60_000, 'poor'], CLS: [10, 'poor'], INP: [0, 'good'], TTFB: [60_000, 'poor'] });
  });

  it('takes a JSON body sent as application/json too, and drops robots\' beacons without a word', async () => {
    expect((await send(JSON.stringify({ path: '/', metrics: [{ name: 'TTFB', value: 300 }] }), { 'Content-Type': 'application/json' })).status).toBe(204);
    expect((await send(JSON.stringify({ path: '/', metrics: [{ name: 'TTFB', value: 300 }] }), { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' })).status).toBe(204);
    expect((await stored()).map((event) => [event.route, event.device])).toEqual([['/', 'desktop']]);
  });
});

describe('a beacon refused', () => {
  it('answers wrong types with 400 and a message naming the field, and keeps nothing', async () => {
    const answers = [
      await send(JSON.stringify({ path: '/faq', metrics: [{ name: 'LCP', value: 'very fast' }] })),
      await send(JSON.stringify({ path: '/faq', metrics: 'LCP=1200' })),
      await send('{"path": "/faq", "metrics": [{"name": "LCP", "value": 1200}'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    const messages = await Promise.all(answers.map(async (answer) => ((await answer.json()) as { error: string }).error));
    expect(messages[0]).toMatch(/metrics\.0\.value must be a number/);
    expect(messages[1]).toMatch(/metrics must be a list of metrics/);
    expect(messages[2]).toMatch(/^The body must be JSON/);
    expect(await stored()).toEqual([]);
  });

  it('refuses pages the site has no vitals for: unknown paths, the staff area, previews', async () => {
    for (const page of ['/no-such-page', '/admin/analytics', '/preview/some-token', '/blog/a/b']) {
      const answer = await send(JSON.stringify({ path: page, metrics: [{ name: 'LCP', value: 1000 }] }));
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toMatch(/is not a page of this site/);
    }
    expect(await stored()).toEqual([]);
  });

  it('answers an oversized body 413, declared or streamed, other types 415, other methods 405 and cross-site posts 403', async () => {
    const big = JSON.stringify({ path: '/faq', metrics: [{ name: 'LCP', value: 1, target: 'x'.repeat(5000) }] });
    expect((await send(big)).status).toBe(413);
    const streamed = await fetch(`${server.url}/api/vitals`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'User-Agent': BROWSER, 'X-Forwarded-For': from },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1000)));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { error: string }).error).toBe('The vitals must fit in 4096 bytes.');
    expect((await send('{}', { 'Content-Type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    const get = await send('', {}, 'GET');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await send(JSON.stringify({ path: '/faq', metrics: [{ name: 'LCP', value: 1000 }] }), { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect(await stored()).toEqual([]);
  });

  it('says what to do in each refusal, and takes a body of exactly the limit, JSON typed, from the page itself', async () => {
    const error = async (answer: Response) => ({ status: answer.status, cache: answer.headers.get('cache-control'), error: ((await answer.json()) as { error: string }).error });
    const good = JSON.stringify({ path: '/faq', metrics: [{ name: 'LCP', value: 1000 }] });
    expect(await error(await send(good, { 'Sec-Fetch-Site': 'same-site' }))).toEqual({ status: 403, cache: 'no-store', error: 'Vitals are taken from this site’s own pages only.' });
    expect(await error(await send('{}', { 'Content-Type': 'text/html' }))).toEqual({
      status: 415,
      cache: 'no-store',
      error: 'Send the vitals as JSON, with the type text/plain (as navigator.sendBeacon does with a string) or application/json.',
    });
    // A type that only contains an allowed one is not it.
    expect((await send(good, { 'Content-Type': 'application/jsonp' })).status).toBe(415);
    expect((await send(good, { 'Content-Type': 'x-text/plain' })).status).toBe(415);
    expect(await error(await send('', {}, 'GET'))).toEqual({ status: 405, cache: 'no-store', error: 'Send the vitals with POST (navigator.sendBeacon).' });
    // Exactly VITALS_MAX_BODY bytes is taken; one more is not.
    const padded = (bytes: number) => {
      const base = { path: '/faq', metrics: [{ name: 'LCP', value: 1000, target: '' }] };
      const room = bytes - Buffer.byteLength(JSON.stringify(base));
      return JSON.stringify({ ...base, metrics: [{ name: 'LCP', value: 1000, target: 'x'.repeat(room) }] });
    };
    expect(Buffer.byteLength(padded(4096))).toBe(4096);
    const atLimit = await send(padded(4096), { 'Content-Type': 'application/json' });
    expect(atLimit.status).toBe(204);
    expect(atLimit.headers.get('cache-control')).toBe('no-store');
    expect((await send(padded(4097))).status).toBe(413);
    expect(await error(await send('{"path": "/faq", "metrics": [{"name": "LCP", "value": 1}]', {}))).toEqual({ status: 400, cache: 'no-store', error: 'The body must be JSON: {"path": "/faq", "metrics": [{"name": "LCP", "value": 1234}]}.' });
  });
});

describe('a flood from one address', () => {
  it('10,000 beacons in a minute: 60 are kept, the rest answered 429, another address unaffected, the p75 and the staff view still sane', async () => {
    const body = JSON.stringify({ path: '/stop-contacting-me', metrics: [{ name: 'LCP', value: 1e12 }, { name: 'CLS', value: 1e9 }] });
    const statuses = new Map<number, number>();
    let retryAfter: string | null = null;
    let message = '';
    let sent = 0;
    const worker = async () => {
      while (sent < 10_000) {
        sent += 1;
        const answer = await send(body);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 429 && !retryAfter) {
          retryAfter = answer.headers.get('retry-after');
          message = ((await answer.json()) as { error: string }).error;
        } else {
          await answer.arrayBuffer();
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(Object.fromEntries(statuses)).toEqual({ 204: 60, 429: 9_940 });
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(message).toBe('Too many vitals from this address: at most 60 a minute. Try again in 1 s.');
    // Another visitor is not limited by this one.
    from = '198.51.100.7';
    expect((await send(JSON.stringify({ path: '/stop-contacting-me', metrics: [{ name: 'LCP', value: 1500 }] }))).status).toBe(204);
    const events = await stored();
    expect(events.filter((event) => event.metric === 'LCP')).toHaveLength(61);
    expect(Math.max(...events.map((event) => (event.metric === 'CLS' ? event.value : 0)))).toBe(10);
    const report = await analyticsReport(server.store.analytics, server.store.leads, clock);
    const lcp = report.vitals.byRoute.find((row) => row.name === '/stop-contacting-me' && row.metric === 'LCP');
    expect(lcp).toMatchObject({ p75: 60_000, events: 61, poor: 60, good: 1 });
    // The address was only ever a key in memory: neither the database nor the logs hold it.
    const files = readdirSync(server.dataDir).filter((name) => /\.sqlite(-wal)?$/.test(name));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expect(readFileSync(path.join(server.dataDir, name)).toString('latin1')).not.toContain('203.0.113.');
    expect(server.logs.join('\n')).not.toContain('203.0.113.');
    // The staff view draws the flood's clamped figures.
    await server.createStaff('speed@agency.example', 'a long staff password 42');
    const staff = staffClient(server.url);
    const loginToken = await loginTokenOf(staff);
    expect((await staff.request('/admin/login', { form: { email: 'speed@agency.example', password: 'a long staff password 42', loginToken, next: '/admin' } })).status).toBe(303);
    const html = await (await staff.request('/admin/analytics')).text();
    expect(/data-testid="chart-vitals-lcp"[\s\S]*?<\/svg>/.exec(html)?.[0]).toContain('/stop-contacting-me 60000 ms');
    expect(/data-testid="vitals-lcp-table"[\s\S]*?<\/table>/.exec(html)?.[0]).toMatch(/<th scope="row">\/stop-contacting-me<\/th><td>LCP<\/td><td>60000 ms<\/td><td>61<\/td><td>2 %<\/td><td>0 %<\/td><td>98 %<\/td>/);
    // A minute later the address may send again.
    from = `203.0.113.${address}`;
    clock = new Date(clock.getTime() + 60_000);
    expect((await send(JSON.stringify({ path: '/stop-contacting-me', metrics: [{ name: 'INP', value: 80 }] }))).status).toBe(204);
  });
});

describe('a store that refuses', () => {
  it('never fails a beacon: the events are dropped and the refusal logged without any address', async () => {
    const refusing = await startTestServer({
      trustProxy: '1',
      wrapStore: (store) => ({
        ...store,
        analytics: new Proxy(store.analytics, {
          get: (target, name) => (name === 'addVitals' || name === 'salt' ? () => Promise.reject(new Error('database is full')) : (Reflect.get(target, name) as (...args: unknown[]) => unknown).bind(target)),
        }),
      }),
    });
    try {
      const answer = await fetch(`${refusing.url}/api/vitals`, { method: 'POST', headers: { 'Content-Type': 'text/plain', 'User-Agent': BROWSER, 'X-Forwarded-For': '192.0.2.55' }, body: JSON.stringify({ path: '/faq', metrics: [{ name: 'LCP', value: 1000 }] }) });
      expect(answer.status).toBe(204);
      await refusing.services.analytics.flush();
      const lines = refusing.logs.filter((line) => line.startsWith('Analytics:'));
      expect(lines).toEqual([expect.stringContaining('1 Core Web Vitals event(s) could not be written')]);
      expect(refusing.logs.join('\n')).not.toContain('192.0.2.55');
    } finally {
      await refusing.close();
    }
  });
});

describe('retention', () => {
  it('rolls events past ANALYTICS_RETENTION_DAYS up into the day\'s p75 and ratings, deletes them, and the staff view and CSV still show them', async () => {
    const measuredDay = day();
    for (const value of [1000, 2000, 3000, 5000]) expect((await send(JSON.stringify({ path: '/about-us', metrics: [{ name: 'LCP', value }] }))).status).toBe(204);
    expect(await stored()).toHaveLength(4);
    clock = new Date(clock.getTime() + 30 * 24 * 60 * 60 * 1000);
    await server.services.analytics.rollUp();
    expect((await server.store.analytics.vitals(measuredDay, measuredDay)).raw).toHaveLength(4);
    clock = new Date(clock.getTime() + 24 * 60 * 60 * 1000);
    await server.services.analytics.rollUp();
    const after = await server.store.analytics.vitals(measuredDay, measuredDay);
    expect(after.raw).toEqual([]);
    expect(after.daily).toEqual([expect.objectContaining({ route: '/about-us', metric: 'LCP', p75: 3000, events: 4, good: 2, needsImprovement: 1, poor: 1 })]);
    expect(server.logs).toContainEqual(expect.stringContaining('4 Core Web Vitals event(s) older than 30 days rolled up'));
    const report = await analyticsReport(server.store.analytics, server.store.leads, new Date(`${measuredDay}T12:00:00Z`));
    expect(report.vitals.byRoute.find((row) => row.name === '/about-us')).toMatchObject({ metric: 'LCP', p75: 3000, events: 4 });
    expect(analyticsCsv(report)).toContain('vitals_page,/about-us,,,,,LCP,3000,4,2,1,1');
  });
});
