/**
 * `blogpost archive verify` and `blogpost archive export` on a data directory whose posts went through
 * the post service (publish, two updates, unpublish): the chain verifies; a record's text changed
 * directly in the database makes verify fail naming that record (a real `blogpost` process: exit code
 * and output); the export's index.csv lists exactly the records, with their snapshots as files.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCreatePostBody } from '../../contract/blog';
import { parseIfMatch, postEtag } from '../../contract/post-lifecycle';
import { staffActor } from '../../api/services/actors';
import { createServices } from '../../api/services/services';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import type { ArchiveRecord } from '../../api/store/archive';
import { blogpost, blogpostProcess } from '../support/cli';
import { makeTempDir } from '../support/server';
import { inStore } from './data-dir-store';

const work = makeTempDir('iul-cli-archive-');
const dataDir = path.join(work, 'data');
const STAFF = staffActor('reviewer@example.com', '198.51.100.7');
let records: ArchiveRecord[] = [];
let postId = '';

/** A post published, changed twice and unpublished, on a clock the test sets. */
async function seed(): Promise<void> {
  let now = new Date('2026-02-01T10:00:00.000Z');
  const store = await openSqliteStore(dataDir, { now: () => now });
  try {
    const { posts } = createServices(store, { complianceMode: 'warn' }, () => now);
    const body = checkCreatePostBody({ title: 'What an IUL Floor Means', content: '<p>A 0% floor; charges still apply.</p>', excerpt: 'The floor, plainly.', category: 'IUL Strategies', status: 'published', author: { name: 'Jane Author' } });
    if (!body.ok) throw new Error('bad body');
    const { post } = await posts.create({ data: body.data, ignoredFields: [] }, STAFF);
    postId = post.id;
    const etag = async () => parseIfMatch(postEtag(post.id, (await store.posts.getById(post.id))?.revision ?? 0));
    now = new Date('2026-03-01T10:00:00.000Z');
    await posts.update(post.id, { content: '<p>A 0% floor, "hypothetical" examples; charges still apply.</p>' }, 'merge', await etag(), STAFF);
    now = new Date('2026-04-01T10:00:00.000Z');
    await posts.update(post.id, { title: 'What an IUL Floor Means, in Plain Words' }, 'merge', await etag(), STAFF);
    now = new Date('2026-05-01T10:00:00.000Z');
    await posts.unpublish(post.id, await etag(), STAFF);
    records = await store.archive.list();
  } finally {
    await store.close();
  }
}

beforeAll(seed);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A minimal CSV reader for the index (quoted cells, doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endCell();
    else if (c === '\n') {
      endCell();
      rows.push(row);
      row = [];
    } else if (c !== '\r') cell += c;
  }
  return rows;
}

describe('blogpost archive', () => {
  it('verifies a whole chain (exit 0)', async () => {
    expect(records.map((record) => record.event)).toEqual(['published', 'updated', 'updated', 'unpublished']);
    const run = await blogpost(['archive', 'verify', '--data-dir', dataDir]);
    expect(run.stderr).toContain('is whole: 4 record(s)');
    expect(run.code).toBe(0);
  });

  it('exports a ZIP whose index.csv lists every record with its live-from, live-to, hash and snapshot file', async () => {
    const out = path.join(work, 'exam.zip');
    const run = await blogpost(['archive', 'export', '--data-dir', dataDir, '--from', '2026-01-01', '--to', '2026-12-31', '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('4 record(s), 3 version snapshot(s)');
    const files = unzipSync(new Uint8Array(readFileSync(out)));
    const [header, ...rows] = parseCsv(strFromU8(files['index.csv'] ?? new Uint8Array()));
    expect(header).toEqual(['seq', 'subject', 'kind', 'event', 'path', 'title', 'live_from', 'live_to', 'made_by', 'approver', 'approval_code', 'findings', 'content_hash', 'prev_hash', 'hash', 'file']);
    const column = (name: string) => header?.indexOf(name) ?? -1;
    expect(rows.map((row) => [row[column('seq')], row[column('subject')], row[column('event')], row[column('live_from')], row[column('live_to')], row[column('hash')]])).toEqual(
      records.map((record) => [String(record.seq), postId, record.event, record.liveFrom, record.liveTo ?? '', record.hash]),
    );
    expect(rows.map((row) => row[column('live_to')])).toEqual(['2026-03-01T10:00:00.000Z', '2026-04-01T10:00:00.000Z', '2026-05-01T10:00:00.000Z', '2026-05-01T10:00:00.000Z']);
    for (const row of rows.slice(0, 3)) {
      const record = records.find((candidate) => String(candidate.seq) === row[column('seq')]);
      expect(strFromU8(files[row[column('file')] ?? ''] ?? new Uint8Array())).toBe(record?.html);
    }
    expect(rows[3]?.[column('file')]).toBe('');
    // Only what was live in March: the first version (ended on 1 March) and the second.
    const march = path.join(work, 'march.zip');
    expect((await blogpost(['archive', 'export', '--data-dir', dataDir, '--from', '2026-03-02', '--to', '2026-03-31', '--out', march])).code).toBe(0);
    const [, ...marchRows] = parseCsv(strFromU8(unzipSync(new Uint8Array(readFileSync(march)))['index.csv'] ?? new Uint8Array()));
    expect(marchRows.map((row) => row[0])).toEqual(['2']);
  });

  it('refuses to prune records inside ARCHIVE_RETENTION_YEARS (exit 1), removing nothing', async () => {
    const refused = await blogpost(['archive', 'prune', '--data-dir', dataDir, '--before', '2026-06-01']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Refused: the advertising archive keeps records 5 years after they stopped being live (ARCHIVE_RETENTION_YEARS)');
    const shorter = await blogpost(['archive', 'prune', '--data-dir', dataDir, '--before', '2026-06-01'], { env: { ARCHIVE_RETENTION_YEARS: '1' } });
    expect(shorter.code).toBe(1);
    expect((await blogpost(['archive', 'prune', '--data-dir', dataDir, '--before', '2020-01-01'], { env: { ARCHIVE_RETENTION_YEARS: 'ten' } })).code).toBe(2);
    // Nothing ended before 2020: nothing removed, and the chain still verifies.
    const old = await blogpost(['archive', 'prune', '--data-dir', dataDir, '--before', '2020-01-01']);
    expect(old.stderr).toContain('Removed 0 record(s)');
    expect(await inStore(dataDir, async (store) => (await store.archive.list()).length)).toBe(4);
  });

  it('refuses a date it cannot read and an existing file (exit 2)', async () => {
    const bad = await blogpost(['archive', 'export', '--data-dir', dataDir, '--from', 'last week']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--from last week is not a date: give YYYY-MM-DD');
    const again = await blogpost(['archive', 'export', '--data-dir', dataDir, '--out', path.join(work, 'exam.zip')]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('exists: choose another --out, or add --force');
  });

  it("fails (exit 1) naming the record whose text was changed in the database, in a real process", async () => {
    const db = new Database(path.join(dataDir, 'store.sqlite'));
    try {
      db.prepare("UPDATE advertising_archive SET text = replace(text, 'charges', 'no charges') WHERE seq = 2").run();
    } finally {
      db.close();
    }
    const run = await blogpostProcess(['archive', 'verify', '--data-dir', dataDir]);
    expect(run.stderr).toContain(`broken at record 2 (${postId}): its fields do not match its hash`);
    expect(run.code).toBe(1);
    const json = await blogpost(['archive', 'verify', '--data-dir', dataDir, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: false, ok: false, seq: 2, subject: postId });
    expect(await inStore(dataDir, async (store) => (await store.archive.list()).length)).toBe(4);
  });
});
