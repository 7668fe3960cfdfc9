/**
 * `blogpost export` and `blogpost import` between the two engines of the store, the embedded SQLite
 * database of a data directory and PostgreSQL, run as the CLI (real processes, exit codes and output):
 * an export of a data directory holding the demo articles, a post with kept versions and an old slug,
 * a key, a staff account, an image, a quote request with its notification, the audit log, the
 * advertising archive (whose chain still verifies), a WordPress import's old addresses and the analytics
 * (page views, a rolled-up day, the quote request's attribution), imported
 * into an empty database, gives the same API answers and pages there; exported again from PostgreSQL
 * and imported into a new data directory (a new SQLite file), the same again. A cut-off file and a
 * store that is not empty import nothing.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { verifyChain } from '../../api/store/archive';
import { DATABASE_FILE } from '../../api/store/data-dir';
import type { Store } from '../../api/store/store';
import { openPostgresStore, openSqliteStore } from '../../api/store/sql/sql-store';
import { auditEntry, deliveryRecord, leadRecord, mediaFiles, mediaRecord } from '../support/store-contract';
import { validPost } from '../api/support';
import { blogpost } from '../support/cli';
import { freshDatabase } from '../support/postgres-cluster';
import { makeTempDir, seedDemoDataDir, startTestServer, type TestServer } from '../support/server';

const work = makeTempDir('iul-transfer-');
const sourceDir = path.join(work, 'source');
const restoredDir = path.join(work, 'restored');
afterAll(() => rmSync(work, { recursive: true, force: true }));

let databaseUrl: string;
let writer: string;
let postId: string;
const MEDIA_ID = 'abcdefabcdefabcdefabcdefabcdef12';

/** What a visitor and an integrator see: the answers compared between the stores. */
async function answers(server: TestServer): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  const paths = ['/?p=777', '/2019/05/before-the-move/', '/category/news/', '/api/blog?limit=50', '/api/blog?limit=50&page=2', '/api/blog/categories', `/api/blog/${postId}`, '/api/blog/moved-by-export', '/blog', '/blog/moved-by-export', '/blog/before-the-move', '/rss.xml', '/sitemap.xml', `/media/${MEDIA_ID}-480.webp`];
  for (const pathname of paths) {
    const res = await fetch(`${server.url}${pathname}`, { redirect: 'manual' });
    seen[pathname] = `${res.status} ${res.headers.get('location') ?? ''}\n${(await res.text()).replace(/"request_id":"[^"]*"/g, '')}`;
  }
  // With the key made before the move: it works after it, and sees the kept versions.
  const revisions = await fetch(`${server.url}/api/blog/${postId}/revisions`, { headers: { authorization: `Bearer ${writer}` } });
  seen.revisions = `${revisions.status}\n${await revisions.text()}`;
  return seen;
}

beforeAll(async () => {
  databaseUrl = await freshDatabase(inject('postgresUrl'), 'transfer');
  await seedDemoDataDir(sourceDir);
  const server = await startTestServer({ dataDir: sourceDir });
  try {
    writer = await server.createKey('Moves with the store');
    const created = await fetch(`${server.url}/api/blog`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      body: JSON.stringify(validPost({ title: 'Before the move', status: 'Published' })),
    });
    expect(created.status).toBe(201);
    postId = ((await created.json()) as { post: { id: string } }).post.id;
    const changed = await fetch(`${server.url}/api/blog/${postId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json', 'if-match': created.headers.get('etag') ?? '' },
      body: JSON.stringify({ title: 'Moved by export', slug: 'moved-by-export' }),
    });
    expect(changed.status).toBe(200);
    await server.createStaff('agent@example.com', 'correct horse battery staple 42', 'Alex Agent');
    const lead = leadRecord('lead_TRANSFERTRANSFER0001');
    await server.store.leads.create(lead, [deliveryRecord(lead, 'email')]);
    await server.store.analytics.addConversion({ leadId: lead.id, day: '2026-01-02', landing: '/blog/before-the-move', articles: ['before-the-move'], utmSource: 'newsletter' });
    // Page views of two earlier days, rolled up (a row of counts and a day each) as the retention does
    // with days past the keeping time, beside the raw views the servers below count.
    await server.store.analytics.addViews(
      ['2026-01-01', '2026-01-02'].flatMap((day) =>
        [1, 2, 3].map((n) => ({ day, at: `${day}T09:0${n}:00.000Z`, route: '/blog/:slug', slug: 'before-the-move', referrerHost: 'www.google.com', utmSource: null, utmMedium: null, utmCampaign: null, device: 'mobile' as const, visitor: `visitor-${n}` })),
      ),
    );
    await server.store.analytics.rollUp('2026-01-03');
    const medium = mediaRecord(MEDIA_ID);
    await server.store.media.save(medium, mediaFiles(medium));
    await server.store.audit.append(auditEntry({ actor: 'cli:test', action: 'key.created', target: 'moved' }));
    // As blogpost import-wordpress leaves them: the item by its guid, and its old addresses.
    const guid = 'https://old.example/?p=777';
    await server.store.imports.begin('wordpress', guid, 'before-the-move', '2026-01-01T00:00:00.000Z');
    await server.store.imports.finish('wordpress', guid, postId, [
      { path: '/?p=777', postId },
      { path: '/2019/05/before-the-move', postId },
    ]);
    await server.store.imports.addUrls([{ path: '/category/news', target: '/blog/category/financial-education' }]);
  } finally {
    await server.close();
  }
});

/** The advertising archive as stored, and whether its chain verifies. */
async function archiveOf(store: Store): Promise<{ records: unknown; ok: boolean }> {
  const records = await store.archive.list();
  return { records, ok: verifyChain(records, await store.archive.base()).ok };
}

async function answersOn(open: () => Promise<TestServer>): Promise<Record<string, string>> {
  const server = await open();
  try {
    return await answers(server);
  } finally {
    await server.close();
  }
}

describe('blogpost export and import', () => {
  it('moves a data directory\'s SQLite store into PostgreSQL and back, with the same answers and pages everywhere', async () => {
    const original = await answersOn(() => startTestServer({ dataDir: sourceDir }));
    expect(original['/blog/before-the-move']).toMatch(/^301 \/blog\/moved-by-export/);
    expect(original.revisions).toMatch(/^200\n.*"Before the move"/s);
    expect(original['/?p=777']).toMatch(/^301 \/blog\/moved-by-export/);
    expect(original['/2019/05/before-the-move/']).toMatch(/^301 \/blog\/moved-by-export/);
    const source = await openSqliteStore(sourceDir);
    const archive = await archiveOf(source).finally(() => source.close());
    expect(archive.ok).toBe(true);
    expect(archive.records).toEqual(expect.arrayContaining([expect.objectContaining({ subject: postId, event: 'published' }), expect.objectContaining({ subject: postId, event: 'updated' })]));

    const fileExport = path.join(work, 'from-sqlite.jsonl');
    const exported = await blogpost(['export', '--data-dir', sourceDir, '--out', fileExport]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toBe('');
    expect(exported.stderr).toMatch(/Exported 42 post\(s\), 1 API key\(s\), 1 staff account\(s\), 1 image\(s\), 1 quote request\(s\), \d+ audit entr(y|ies) and \d+ advertising archive record\(s\), \d+ page view\(s\), 4 rolled-up analytics row\(s\) and 0 Core Web Vitals record\(s\), with what WordPress imports remember \(items and old addresses\) from data in .*source to /);
    // Personal data of leads and the hashes of keys and passwords: the owner's alone.
    expect(statSync(fileExport).mode & 0o777).toBe(0o600);
    expect(readFileSync(fileExport, 'utf8')).not.toContain(writer);

    const imported = await blogpost(['import', fileExport], { env: { DATABASE_URL: databaseUrl } });
    expect(imported.code).toBe(0);
    expect(imported.stderr).toMatch(/Imported 42 post\(s\), 1 API key\(s\), 1 staff account\(s\).* into data in PostgreSQL at postgres:\/\/app@127\.0\.0\.1/);
    const onPostgres = await answersOn(() => startTestServer({ openStore: () => openPostgresStore(databaseUrl, 'PostgreSQL') }));
    expect(onPostgres).toEqual(original);
    const postgres = await openPostgresStore(databaseUrl, 'PostgreSQL');
    expect(await archiveOf(postgres).finally(() => postgres.close())).toEqual(archive);

    // Back again: PostgreSQL to a new data directory.
    const pgExport = path.join(work, 'from-postgres.jsonl');
    expect((await blogpost(['export', '--database-url', databaseUrl, '--out', pgExport])).code).toBe(0);
    const restored = await blogpost(['import', pgExport, '--data-dir', restoredDir, '--json']);
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ success: true, counts: { posts: 42, keys: 1, staff: 1, media: 1, leads: 1 } });
    expect(existsSync(path.join(restoredDir, DATABASE_FILE))).toBe(true);
    expect(await answersOn(() => startTestServer({ dataDir: restoredDir }))).toEqual(original);

    // What the pages do not show moved too: the quote request with its notification, staff, audit.
    const store = await openSqliteStore(restoredDir);
    try {
      expect(await store.leads.get('lead_TRANSFERTRANSFER0001')).toMatchObject({ name: 'Jane Carter' });
      expect(await store.outbox.forLead('lead_TRANSFERTRANSFER0001')).toHaveLength(1);
      expect(await store.staff.findByEmail('AGENT@example.com')).toMatchObject({ name: 'Alex Agent' });
      expect((await store.audit.list()).map((entry) => entry.target)).toContain('moved');
      expect(await archiveOf(store)).toEqual(archive);
      expect(await store.imports.item('wordpress', 'https://old.example/?p=777')).toMatchObject({ state: 'done', postId });
      // The analytics: the quote request's attribution, the rolled-up day and the raw one.
      expect(await store.analytics.conversion('lead_TRANSFERTRANSFER0001')).toMatchObject({ landing: '/blog/before-the-move', articles: ['before-the-move'], utmSource: 'newsletter' });
      expect(await store.analytics.visitors('2026-01-01', '2026-01-02')).toEqual(new Map([['2026-01-01', 3], ['2026-01-02', 3]]));
      expect((await store.analytics.counts('2026-01-01', '2026-01-02')).map((row) => `${row.day} ${row.slug} ${row.views}`).sort()).toEqual(['2026-01-01 before-the-move 3', '2026-01-02 before-the-move 3']);
    } finally {
      await store.close();
    }
  });

  it('imports nothing from a cut-off export, or into a store that is not empty, and says what to do', async () => {
    const full = path.join(work, 'from-sqlite.jsonl');
    const lines = readFileSync(full, 'utf8').trimEnd().split('\n');
    const cut = path.join(work, 'cut.jsonl');
    writeFileSync(cut, `${lines.slice(0, -1).join('\n')}\n`);
    const emptyDir = path.join(work, 'never-filled');
    const refused = await blogpost(['import', cut, '--data-dir', emptyDir]);
    expect(refused.code, refused.stderr + refused.stdout).toBe(4);
    expect(refused.stderr).toMatch(/no end line .*cut off\. Export again \(nothing was imported\)/);
    const store = await openSqliteStore(emptyDir);
    try {
      expect(await store.posts.counts()).toEqual({ published: 0, drafts: 0, scheduled: 0, inReview: 0, trashed: 0 });
    } finally {
      await store.close();
    }

    const again = await blogpost(['import', full, '--database-url', databaseUrl]);
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/The store is not empty \(it holds 42 post\(s\), 1 API key\(s\).*\): import into a new data directory or an empty database\. Nothing was imported\./);

    const wrongUrl = await blogpost(['import', full, '--database-url', 'mysql://db/site']);
    expect(wrongUrl.code).toBe(2);
    expect(wrongUrl.stderr).toMatch(/DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//);
  });
});
