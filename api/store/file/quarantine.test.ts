/**
 * Quarantine and leftover temporary files as `blogpost doctor` and a start-up see them: a damaged file
 * moved aside with its note (a second one of the same name kept beside the first), the list oldest
 * first (a file without a readable note still listed), the command that puts one back, and the
 * temporary files a crash left found and removed.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findLeftoverTemps, removeLeftoverTemps } from './leftover-temps';
import { listQuarantine, quarantineFile, restoreCommand } from './quarantine';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-quarantine-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'posts'));
  return dir;
}

describe('quarantine', () => {
  it('moves a damaged file aside with a note, keeps a second of the same name dated, and lists both oldest first', async () => {
    const dir = dataDir();
    const file = path.join(dir, 'posts', 'a.json');
    writeFileSync(file, '{broken');
    const first = await quarantineFile(dir, file, 'invalid JSON', new Date('2026-01-02T00:00:00.000Z'));
    const target = path.join(dir, 'quarantine', 'posts', 'a.json');
    expect(first).toEqual({ file: target, originalFile: file, reason: 'invalid JSON', movedAt: '2026-01-02T00:00:00.000Z' });
    expect(readFileSync(target, 'utf8')).toBe('{broken');
    expect(JSON.parse(readFileSync(`${target}.note.json`, 'utf8'))).toEqual({ originalPath: path.join('posts', 'a.json'), reason: 'invalid JSON', movedAt: '2026-01-02T00:00:00.000Z' });
    expect(readdirSync(path.join(dir, 'posts'))).toEqual([]);

    writeFileSync(file, '');
    const second = await quarantineFile(dir, file, 'empty', new Date('2026-01-01T00:00:00.000Z'));
    expect(second.file).toBe(`${target}.${Date.parse('2026-01-01T00:00:00.000Z')}`);
    expect(readFileSync(target, 'utf8')).toBe('{broken');

    expect(await listQuarantine(dir)).toEqual([
      { file: second.file, originalFile: file, reason: 'empty', movedAt: '2026-01-01T00:00:00.000Z' },
      { file: target, originalFile: file, reason: 'invalid JSON', movedAt: '2026-01-02T00:00:00.000Z' },
    ]);
  });

  it('lists nothing without a quarantine folder, and a file without a readable note by its own date', async () => {
    const dir = dataDir();
    expect(await listQuarantine(dir)).toEqual([]);
    const folder = path.join(dir, 'quarantine', 'posts');
    mkdirSync(folder, { recursive: true });
    for (const [name, note] of [
      ['b.json', null],
      ['c.json', '{not json'],
      ['d.json', '{"reason": 1}'],
    ] as const) {
      writeFileSync(path.join(folder, name), 'x');
      if (note !== null) writeFileSync(path.join(folder, `${name}.note.json`), note);
      utimesSync(path.join(folder, name), new Date('2025-06-01T00:00:00.000Z'), new Date(`2025-06-0${name === 'b.json' ? 3 : name === 'c.json' ? 2 : 1}T00:00:00.000Z`));
    }
    mkdirSync(path.join(folder, 'sub.json'));
    // A link to nothing (a file gone between listing and reading) is passed over.
    symlinkSync(path.join(dir, 'missing.json'), path.join(folder, 'gone.json'));
    const listed = await listQuarantine(dir);
    expect(listed.map((entry) => [path.basename(entry.file), entry.reason, entry.movedAt])).toEqual([
      ['d.json', 'unknown (its note is missing)', '2025-06-01T00:00:00.000Z'],
      ['c.json', 'unknown (its note is missing)', '2025-06-02T00:00:00.000Z'],
      ['b.json', 'unknown (its note is missing)', '2025-06-03T00:00:00.000Z'],
    ]);
    expect(listed[0]?.originalFile).toBe(path.join(dir, 'posts', 'd.json'));
  });

  it('lists files moved in the same millisecond by their path, a file at the top of the data folder among them', async () => {
    const dir = dataDir();
    const staff = path.join(dir, 'staff.json');
    const post = path.join(dir, 'posts', 'a.json');
    writeFileSync(staff, '{broken');
    writeFileSync(post, '{broken');
    const now = new Date('2026-01-03T00:00:00.000Z');
    await quarantineFile(dir, staff, 'invalid JSON', now);
    await quarantineFile(dir, post, 'invalid JSON', now);
    expect((await listQuarantine(dir)).map((entry) => entry.originalFile)).toEqual([post, staff]);
  });

  it('gives a shell command that puts a file back, quoting names safely', () => {
    expect(restoreCommand({ file: "/d/quarantine/it's.json", originalFile: '/d/posts/a b.json', reason: 'r', movedAt: 'm' })).toBe(
      "mv '/d/quarantine/it'\\''s.json' '/d/posts/a b.json'",
    );
  });
});

describe('leftover temporary files', () => {
  it('finds and removes the temporary files a crash left, in the directories that exist, and nothing else', async () => {
    const dir = dataDir();
    const posts = path.join(dir, 'posts');
    writeFileSync(path.join(posts, '.a.json.0123456789ab.tmp'), 'partial');
    writeFileSync(path.join(posts, 'b.json'), '{}');
    writeFileSync(path.join(dir, '.blog.json.ba9876543210.tmp'), 'partial');
    const missing = path.join(dir, 'media');
    expect((await findLeftoverTemps([posts, missing, dir])).sort()).toEqual([path.join(dir, '.blog.json.ba9876543210.tmp'), path.join(posts, '.a.json.0123456789ab.tmp')].sort());
    expect(await removeLeftoverTemps([posts, missing, dir])).toBe(2);
    expect(readdirSync(posts)).toEqual(['b.json']);
    expect(await findLeftoverTemps([posts, missing])).toEqual([]);
  });
});
