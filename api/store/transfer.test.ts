/**
 * The export format across its versions, on SQLite stores in temporary directories: the analytics
 * (raw page views past one line's worth, daily roll-ups, a quote request's attribution) go out and
 * come back as they were; a file of an older version (1: before the archive and imports; 2: before
 * the analytics) still imports; an end line whose analytics figures do not match the lines refuses
 * the whole file; a store holding only page views is not empty.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditEntry, keyRecord, leadRecord, newPost } from '../../tests/support/store-contract';
import { openSqliteStore } from './sql/sql-store';
import type { PageView, Store } from './store';
import { EXPORT_VERSION, exportStore, importStore, TransferError } from './transfer';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function freshStore(): Promise<Store> {
  const dir = mkdtempSync(path.join(tmpdir(), 'iul-transfer-unit-'));
  dirs.push(dir);
  return openSqliteStore(dir);
}

function view(day: string, n: number, overrides: Partial<PageView> = {}): PageView {
  return { day, at: `${day}T10:${String(n % 60).padStart(2, '0')}:00.000Z`, route: '/blog/:slug', slug: `post-${n % 7}`, referrerHost: n % 2 ? 'www.google.com' : null, utmSource: n % 3 ? null : 'newsletter', utmMedium: null, utmCampaign: null, device: n % 2 ? 'mobile' : 'desktop', visitor: n % 5 ? `hash-${n % 11}` : null, ...overrides };
}

/** A store with a key, a post, a lead with its attribution, an audit entry and 2,345 page views over three days, the oldest rolled up. */
async function filledStore(): Promise<Store> {
  const store = await freshStore();
  expect(await store.keys.add(keyRecord('key_TRANSFERUNIT0001'))).toBe('added');
  const created = await store.posts.create(newPost('Moved with its views'), { slugBase: 'moved-with-its-views' });
  expect(created.kind).toBe('created');
  await store.leads.create(leadRecord('lead_TRANSFERUNITTEST0001'), []);
  await store.analytics.addConversion({ leadId: 'lead_TRANSFERUNITTEST0001', day: '2026-03-02', landing: '/blog/post-1', articles: ['post-1', 'post-2'], utmSource: 'newsletter' });
  await store.audit.append(auditEntry({ actor: 'cli:test', action: 'key.created', target: 'unit' }));
  const views = [...Array.from({ length: 400 }, (_, n) => view('2026-03-01', n)), ...Array.from({ length: 1_200 }, (_, n) => view('2026-03-02', n)), ...Array.from({ length: 745 }, (_, n) => view('2026-03-03', n))];
  await store.analytics.addViews(views);
  expect(await store.analytics.rollUp('2026-03-02')).toBe(400);
  // Core Web Vitals: 1,100 events over two days, the first rolled up into daily p75s.
  const metrics = ['LCP', 'INP', 'CLS', 'TTFB'] as const;
  await store.analytics.addVitals(
    Array.from({ length: 1_100 }, (_, n) => {
      const metric = metrics[n % 4] ?? 'LCP';
      return { day: n < 300 ? '2026-03-01' : '2026-03-03', route: n % 3 ? '/blog/:slug' : '/', device: n % 2 ? 'mobile' : 'desktop', metric, value: metric === 'CLS' ? (n % 30) / 100 : 100 + n, rating: n % 5 ? 'good' : 'poor', build: n % 2 ? 'build-a' : 'build-b', attribution: n % 7 ? null : 'main > h1' } as const;
    }),
  );
  expect(await store.analytics.rollUpVitals('2026-03-02')).toBe(300);
  return store;
}

/** What the staff's analytics page is made of, over the days the views were counted. */
async function analyticsOf(store: Store) {
  const byKey = (counts: Awaited<ReturnType<Store['analytics']['counts']>>) => counts.map((row) => JSON.stringify(row)).sort();
  return {
    counts: byKey(await store.analytics.counts('2026-03-01', '2026-03-03')),
    visitors: [...(await store.analytics.visitors('2026-03-01', '2026-03-03'))].sort(),
    conversions: await store.analytics.conversions('2026-03-01', '2026-03-03'),
    visit: await store.analytics.visit('2026-03-02', 'hash-3'),
    // In a stable order: the staff view reads them in no particular order within a day.
    vitals: await store.analytics.vitals('2026-03-01', '2026-03-03').then(({ raw, daily }) => ({ raw: raw.map((row) => JSON.stringify(row)).sort(), daily: daily.map((row) => JSON.stringify(row)).sort() })),
  };
}

async function exportLines(store: Store): Promise<string[]> {
  const lines: string[] = [];
  await exportStore(store, async (line) => {
    lines.push(line.trimEnd());
  });
  return lines;
}

async function* iterate(lines: readonly string[]): AsyncIterable<string> {
  yield* lines;
}

describe('blogpost export and import: the analytics', () => {
  it('moves raw page views (in lines of 1,000), roll-ups and a quote request\'s attribution as they were', async () => {
    const source = await filledStore();
    const lines = await exportLines(source);
    const kinds = lines.map((line) => (JSON.parse(line) as { kind: string }).kind);
    expect(kinds.filter((kind) => kind === 'views')).toHaveLength(2); // 1,945 raw views: 1,000 and 945
    expect(kinds.filter((kind) => kind === 'vitals')).toHaveLength(1); // 800 raw events
    expect(kinds).toContain('vitals_rolled_up');
    expect(JSON.parse(lines.at(-1) ?? '{}')).toMatchObject({ kind: 'end', counts: { views: 1_945, leads: 1, attributions: 1, rolledUp: expect.any(Number), vitals: expect.any(Number) } });
    const target = await freshStore();
    const counts = await importStore(target, iterate(lines));
    expect(counts).toMatchObject({ posts: 1, keys: 1, leads: 1, views: 1_945, attributions: 1 });
    expect(await analyticsOf(target)).toEqual(await analyticsOf(source));
    expect((await analyticsOf(target)).visitors).toContainEqual(['2026-03-01', 11]);
    const vitals = (await analyticsOf(target)).vitals;
    expect(vitals.raw).toHaveLength(800);
    expect(vitals.daily.reduce((sum, row) => sum + (JSON.parse(row) as { events: number }).events, 0)).toBe(300);
    expect(await target.analytics.conversion('lead_TRANSFERUNITTEST0001')).toEqual({ leadId: 'lead_TRANSFERUNITTEST0001', day: '2026-03-02', landing: '/blog/post-1', articles: ['post-1', 'post-2'], utmSource: 'newsletter' });
    await Promise.all([source.close(), target.close()]);
  });

  it('refuses a file whose end line counts other page views than its lines hold, importing nothing', async () => {
    const source = await filledStore();
    const lines = await exportLines(source);
    const end = JSON.parse(lines.at(-1) ?? '{}') as { counts: Record<string, number> };
    end.counts.views = 1_944;
    const target = await freshStore();
    await expect(importStore(target, iterate([...lines.slice(0, -1), JSON.stringify(end)]))).rejects.toThrow(/end line counts 1944 views but the file holds 1945: it was edited or damaged/);
    expect(await target.keys.list()).toEqual([]);
    expect((await target.analytics.rawViews(0, 10)).views).toEqual([]);
    await Promise.all([source.close(), target.close()]);
  });

  it('imports into a store that holds page views and nothing else only after saying it is not empty', async () => {
    const source = await filledStore();
    const lines = await exportLines(source);
    const target = await freshStore();
    await target.analytics.addViews([view('2026-04-01', 1)]);
    await expect(importStore(target, iterate(lines))).rejects.toThrow(/The store is not empty \(it holds counted page views\)/);
    await Promise.all([source.close(), target.close()]);
  });
});

describe('blogpost import of older export versions', () => {
  /** The export as a version `version` file: without the lines and fields that version did not have. */
  function asVersion(lines: readonly string[], version: 1 | 2): string[] {
    const newer = new Set(version === 1 ? ['archive', 'archive_state', 'imported', 'views', 'rolled_up', 'vitals', 'vitals_rolled_up'] : ['views', 'rolled_up', 'vitals', 'vitals_rolled_up']);
    return lines.flatMap((text) => {
      const line = JSON.parse(text) as Record<string, unknown> & { kind: string };
      if (newer.has(line.kind)) return [];
      if (line.kind === 'header') return [JSON.stringify({ ...line, version })];
      if (line.kind === 'lead') return [JSON.stringify({ ...line, attribution: undefined })];
      if (line.kind === 'end') {
        const { archive, imported, views, rolledUp, attributions, vitals, ...older } = line.counts as Record<string, number>;
        expect([views, rolledUp, attributions, vitals].every((n) => typeof n === 'number')).toBe(true);
        return [JSON.stringify({ kind: 'end', counts: version === 1 ? older : { ...older, archive, imported } })];
      }
      return [text];
    });
  }

  for (const version of [1, 2] as const) {
    it(`imports a version ${version} file: its posts, keys, leads and audit, with no analytics`, async () => {
      const source = await filledStore();
      const lines = asVersion(await exportLines(source), version);
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ kind: 'header', version });
      expect(version).toBeLessThan(EXPORT_VERSION);
      const target = await freshStore();
      const counts = await importStore(target, iterate(lines));
      expect(counts).toMatchObject({ posts: 1, keys: 1, leads: 1, audit: 1, views: 0, attributions: 0 });
      expect((await target.posts.getBySlug('moved-with-its-views'))?.title).toBe('Moved with its views');
      expect(await target.leads.get('lead_TRANSFERUNITTEST0001')).not.toBeNull();
      expect(await target.analytics.conversion('lead_TRANSFERUNITTEST0001')).toBeNull();
      await Promise.all([source.close(), target.close()]);
    });
  }

  it('refuses a version it does not know, saying which it reads', async () => {
    const source = await filledStore();
    const lines = await exportLines(source);
    const header = { ...(JSON.parse(lines[0] ?? '{}') as object), version: EXPORT_VERSION + 1 };
    await expect(importStore(await freshStore(), iterate([JSON.stringify(header), ...lines.slice(1)]))).rejects.toBeInstanceOf(TransferError);
    await source.close();
  });
});
