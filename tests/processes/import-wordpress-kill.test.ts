/**
 * `blogpost import-wordpress` killed halfway (SIGKILL: no chance to finish anything) and run again
 * finishes the import with no duplicate: every post of the export is there exactly once, each guid
 * noted as imported, and the second run imported only what the first had not.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it, vi } from 'vitest';
import { databaseFileOf } from '../../api/store/data-dir';
import { blogpost } from '../support/cli';
import { makeTempDir, ROOT } from '../support/server';
import { BIG_SITE_CATEGORY_MAP, bigSite, buildWxr, writeUploads } from '../support/wxr-builder';
import { exited } from '../support/server-process';

const work = makeTempDir('iul-wp-kill-');
const dataDir = path.join(work, 'data');
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Posts the import has noted as done so far (0 before the database exists). */
function doneCount(): number {
  const file = databaseFileOf(dataDir);
  if (!existsSync(file)) return 0;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("SELECT count(*) AS n FROM imported_items WHERE state = 'done'").get() as { n: number } | undefined;
    return row?.n ?? 0;
  } catch {
    // Not migrated yet.
    return 0;
  } finally {
    db.close();
  }
}

it('finishes with no duplicate when the import is killed halfway and run again', async () => {
  const site = bigSite(300);
  const exportFile = path.join(work, 'export.xml');
  const uploads = path.join(work, 'uploads');
  const map = path.join(work, 'categories.txt');
  writeFileSync(exportFile, buildWxr(site.spec));
  writeFileSync(map, BIG_SITE_CATEGORY_MAP);
  await writeUploads(uploads);
  const args = ['import-wordpress', exportFile, '--media-from', uploads, '--category-map', map, '--data-dir', dataDir];
  const expected = site.spec.posts.filter((post) => (post.type ?? 'post') === 'post' && !site.ids.skipped.includes(post.id));

  const child = spawn(process.execPath, [path.join(ROOT, 'cli/bin.js'), ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const gone = exited(child);
  await vi.waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`the import ended before it was killed: ${stderr}`);
      expect(doneCount()).toBeGreaterThanOrEqual(100);
    },
    { timeout: 50_000, interval: 10 },
  );
  child.kill('SIGKILL');
  await gone;
  expect(child.signalCode).toBe('SIGKILL');
  const before = doneCount();
  expect(before).toBeLessThan(expected.length);

  const again = await blogpost([...args, '--json']);
  expect(again.code, again.stderr).toBe(0);
  const report = JSON.parse(again.stdout) as { imported: unknown[]; skipped: Array<{ reason: string }>; failed: unknown[] };
  expect(report.failed).toEqual([]);
  expect(report.imported.length + report.skipped.filter((item) => item.reason.startsWith('already imported')).length).toBe(expected.length);

  const db = new Database(databaseFileOf(dataDir), { readonly: true });
  try {
    const titles = (db.prepare('SELECT entry FROM posts').all() as Array<{ entry: string }>).map((row) => (JSON.parse(row.entry) as { title: string }).title);
    expect(titles).toHaveLength(expected.length);
    expect(new Set(titles)).toEqual(new Set(expected.map((post) => post.title)));
    expect(db.prepare("SELECT count(*) AS n FROM imported_items WHERE state = 'done'").get()).toEqual({ n: expected.length });
    expect(db.prepare("SELECT count(*) AS n FROM imported_items WHERE state <> 'done'").get()).toEqual({ n: 0 });
  } finally {
    db.close();
  }
});
