/**
 * `blogpost doctor` as a real process on a data directory the store opened (no server needed): a
 * healthy directory, a quarantined post with the command that restores it, leftover temporary files,
 * JSON output, and the exit codes (0 healthy, 1 needs attention, 4 no data directory).
 */
import { execSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileStore } from '../../api/store/file-store';
import { newPost } from '../../api/store/store-contract';
import { blogpost } from '../support/cli';
import { makeTempDir } from '../support/server';

const dataDir = makeTempDir('iul-cli-doctor-');
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

interface DoctorJson {
  healthy: boolean;
  quarantined: Array<{ file: string; originalFile: string; reason: string; movedAt: string; restore: string }>;
  leftoverTemps: string[];
  problems: string[];
}

describe('blogpost doctor', () => {
  let postFile = '';

  it('says a fresh data directory is healthy (exit 0), reading DATA_DIR', async () => {
    const store = await openFileStore(dataDir);
    const outcome = await store.posts.create(newPost('Will break'), { slugBase: 'will-break' });
    if (outcome.kind !== 'created') throw new Error('expected a new post');
    postFile = path.join(dataDir, 'posts', `${outcome.post.id}.json`);
    await store.close();
    const run = await blogpost(['doctor'], { env: { DATA_DIR: dataDir } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Data directory: ${dataDir}`);
    expect(run.stdout).toContain('post files: 1');
    expect(run.stderr).toContain('healthy');
  });

  it('lists a quarantined post with why, when and the command to restore it (exit 1)', async () => {
    const original = readFileSync(postFile, 'utf8');
    writeFileSync(postFile, '');
    const logs: string[] = [];
    await openFileStore(dataDir, { log: (line) => logs.push(line) });
    expect(logs.join('\n')).toContain(postFile);

    const run = await blogpost(['doctor', '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    const moved = path.join(dataDir, 'quarantine', 'posts', path.basename(postFile));
    expect(run.stdout).toContain(moved);
    expect(run.stdout).toContain(`was ${postFile}`);
    expect(run.stdout).toContain('the file is empty');
    expect(run.stdout).toContain(`restore: mv '${moved}' '${postFile}'`);
    expect(run.stderr).toContain('1 damaged file(s) in quarantine');

    const json = await blogpost(['doctor', '--data-dir', dataDir, '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as DoctorJson;
    expect(report.healthy).toBe(false);
    expect(report.quarantined).toEqual([expect.objectContaining({ file: moved, originalFile: postFile, movedAt: expect.any(String) })]);

    // Repaired and restored with the printed command, the directory is healthy again.
    writeFileSync(moved, original);
    execSync(report.quarantined[0]?.restore ?? 'false');
    const after = await blogpost(['doctor', '--data-dir', dataDir]);
    expect(after.code).toBe(0);
    expect((await (await openFileStore(dataDir)).posts.getBySlug('will-break'))?.title).toBe('Will break');
  });

  it('lists temporary files a crash left (exit 1)', async () => {
    const leftover = path.join(dataDir, 'posts', '.0000.json.0123456789ab.tmp');
    writeFileSync(leftover, '{ "half": ');
    const run = await blogpost(['doctor', '--data-dir', dataDir, '--json']);
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stdout) as DoctorJson).leftoverTemps).toEqual([leftover]);
    rmSync(leftover);
  });

  it('answers 4 where there is no data directory', async () => {
    const run = await blogpost(['doctor', '--data-dir', path.join(dataDir, 'absent')]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('There is no data directory');
  });

  it('is listed in the help with its exit codes', async () => {
    const run = await blogpost(['doctor', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 something needs attention');
  });
});
