/**
 * The marketing pages at start-up (decision 0028): each rendered page is recorded the first time, an
 * unchanged page is not recorded again at the next start, a changed one is (and closes the version
 * before), and the legal documents the legal index links to are found and recorded too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { verifyChain } from '../store/archive';
import { openSqliteStore } from '../store/sql/sql-store';
import type { Store } from '../store/store';
import { archiveSitePages, type PageFetcher } from './page-archive';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A site whose pages are these bodies, in a document whose asset names and nonces change with every "build". */
function site(bodies: Record<string, string>, build: number): PageFetcher {
  return (pagePath) => {
    const body = bodies[pagePath];
    if (body === undefined) return Promise.resolve({ status: 404, html: 'Not found' });
    return Promise.resolve({
      status: 200,
      html: `<!doctype html><html><head><title>${pagePath} | Agency</title><script nonce="n${build}" src="/assets/entry-${build}.js"></script></head><body><header>menu ${build}</header><main id="main">${body}<script nonce="n${build}">boot()</script></main><footer>build ${build}</footer></body></html>`,
    });
  };
}

it('records each marketing page once, then only the pages whose content changed, at each start', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-page-archive-'));
  dirs.push(dir);
  let now = new Date('2026-06-01T08:00:00.000Z');
  const store = await openSqliteStore(dir, { now: () => now });
  stores.push(store);
  const paths = productPaths(DEFAULT_SITE_CONFIG);
  const bodies: Record<string, string> = {
    '/': '<h1>Tax-free retirement income, explained</h1>',
    [paths.ultimateGuide]: '<h1>The guide</h1>',
    '/faq': '<h2>Is IUL an investment?</h2><p>No: it is life insurance.</p>',
    '/about-us': '<h1>About the family agency</h1>',
    [paths.sepComparison]: '<h1>SEP IRA vs IUL</h1>',
    '/legal': '<a href="/legal/privacy-policy">Privacy</a> <a href="/legal/terms">Terms</a>',
    '/legal/privacy-policy': '<h1>Privacy policy</h1>',
    '/legal/terms': '<h1>Terms</h1>',
  };
  const start = (build: number) => archiveSitePages({ fetchPage: site(bodies, build), archive: store.archive, config: DEFAULT_SITE_CONFIG, now: () => now });

  const first = await start(1);
  expect(first.recorded.sort()).toEqual(Object.keys(bodies).sort());
  expect(first.failed).toEqual([]);
  const [faq] = await store.archive.list({ subject: '/faq' });
  expect(faq).toMatchObject({ kind: 'page', event: 'page_changed', path: '/faq', title: '/faq | Agency', liveFrom: '2026-06-01T08:00:00.000Z', liveTo: null, text: 'Is IUL an investment? No: it is life insurance.' });
  expect(faq?.html).not.toContain('nonce');
  expect(faq?.html).not.toContain('build 1');

  // A new build with the same content: nothing recorded.
  now = new Date('2026-06-02T08:00:00.000Z');
  const second = await start(2);
  expect(second.recorded).toEqual([]);
  expect(second.unchanged).toHaveLength(Object.keys(bodies).length);

  // The FAQ's wording changed: only it gets a new version, which ends the one before.
  now = new Date('2026-06-03T08:00:00.000Z');
  bodies['/faq'] = '<h2>Is IUL an investment?</h2><p>No: it is permanent life insurance with cash value.</p>';
  const third = await start(3);
  expect(third.recorded).toEqual(['/faq']);
  expect((await store.archive.list({ subject: '/faq' })).map((record) => [record.liveFrom, record.liveTo])).toEqual([
    ['2026-06-01T08:00:00.000Z', '2026-06-03T08:00:00.000Z'],
    ['2026-06-03T08:00:00.000Z', null],
  ]);
  expect(verifyChain(await store.archive.list(), await store.archive.base())).toMatchObject({ ok: true, records: Object.keys(bodies).length + 1 });
});

it('says which pages could not be rendered, and records the others', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-page-archive-'));
  dirs.push(dir);
  const store = await openSqliteStore(dir);
  stores.push(store);
  const outcome = await archiveSitePages({ fetchPage: site({ '/': '<h1>Home</h1>' }, 1), archive: store.archive, config: DEFAULT_SITE_CONFIG, now: () => new Date() });
  expect(outcome.recorded).toEqual(['/']);
  expect(outcome.failed.map((failed) => failed.why)).toEqual(Array(5).fill('answered 404'));
});
