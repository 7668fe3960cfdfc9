/**
 * Migration 0011 on a SQLite store made before it: the approval each post went live under is read from
 * its record into the new column, so the posts carrying one are found through its index
 * (tests/postgres/post-changes.test.ts upgrades a PostgreSQL database the same way).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { newPost } from '../../../tests/support/store-contract';
import { DATABASE_FILE } from '../data-dir';
import type { PostRecord, Store } from '../store';
import { openSqliteStore } from './sql-store';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function approve(store: Store, id: string, expiresAt: string): Promise<void> {
  const current = (await store.posts.getById(id)) as PostRecord;
  const saved = await store.posts.save({ ...current, approval: { code: 'C-1', by: 'Rita Reviewer', at: '2026-01-01T00:00:00.000Z', expiresAt } }, { expectedRevision: current.revision, changed: ['approval'] });
  expect(saved.kind).toBe('saved');
}

describe('migration 0011 (post approvals) on a SQLite store made before it', () => {
  it('fills each approved post\'s expiry from its record, so the approved posts are found again', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-migration-0011-'));
    dirs.push(dir);
    const before = await openSqliteStore(dir);
    const ids: string[] = [];
    try {
      for (const title of ['Approved later', 'Approved sooner', 'Not approved']) {
        const created = await before.posts.create(newPost(title), { slugBase: title.toLowerCase().replaceAll(' ', '-') });
        if (created.kind !== 'created') throw new Error(created.kind);
        ids.push(created.post.id);
      }
      await approve(before, ids[0] ?? '', '2027-01-01T00:00:00.000Z');
      await approve(before, ids[1] ?? '', '2026-12-01T00:00:00.000Z');
    } finally {
      await before.close();
    }
    // As the file was before 0011: no column, no index, the migration not applied.
    const file = new Sqlite(path.join(dir, DATABASE_FILE));
    try {
      file.exec(`DROP INDEX posts_approval; ALTER TABLE posts DROP COLUMN approval_expires_at; DELETE FROM schema_migrations WHERE name = '0011-post-approvals'`);
    } finally {
      file.close();
    }
    const upgraded = await openSqliteStore(dir);
    try {
      expect((await upgraded.posts.approved()).map((entry) => [entry.title, entry.approval?.expiresAt])).toEqual([
        ['Approved sooner', '2026-12-01T00:00:00.000Z'],
        ['Approved later', '2027-01-01T00:00:00.000Z'],
      ]);
    } finally {
      await upgraded.close();
    }
  });
});
