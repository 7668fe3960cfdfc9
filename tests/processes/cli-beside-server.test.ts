/**
 * The CLI and a running server on one SQLite database, as an agency works: while the server takes 200
 * posts, four kinds of `blogpost` process write to the same file at the same time (keys create, keys
 * revoke, leads set with a note, staff add). Every write lands (no note lost to another's change),
 * every process exits 0, no request answers anything but 201, and the file passes its integrity check.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ListPostsResponse } from '../../contract/blog-reader';
import { KeyService } from '../../api/services/keys';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import { leadRecord } from '../support/store-contract';
import { blogpostProcess, type CliRun } from '../support/cli';
import { exited, startServerProcess, type ServerProcess } from '../support/server-process';
import { makeTempDir } from '../support/server';
import { validPost } from '../api/support';

const POSTS = 200;
const RUNS = 8;
const LEAD = 'lead_CliBesideServer00001';
const dataDir = makeTempDir('iul-cli-beside-');
let server: ServerProcess;
let writer = '';
let toRevoke: string[] = [];

beforeAll(async () => {
  const store = await openSqliteStore(dataDir);
  const keys = new KeyService(store.keys);
  writer = (await keys.create({ name: 'Writer', permissions: ['blog:write'] })).secret;
  toRevoke = await Promise.all(Array.from({ length: RUNS }, async (_, i) => (await keys.create({ name: `Old key ${i}`, permissions: ['blog:write'] })).key.id));
  await store.leads.create(leadRecord(LEAD), []);
  await store.close();
  server = await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO_CONTENT: 'false', RATE_LIMIT_WRITES_PER_MINUTE: '0' });
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  if (server) await exited(server.child);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `make(i)` for i = 0..RUNS-1, one process after another. */
async function inTurn(make: (i: number) => Promise<CliRun>): Promise<CliRun[]> {
  const runs: CliRun[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await make(i));
  return runs;
}

it(`keeps every write of four CLI processes beside ${POSTS} posts to the server`, async () => {
  const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
  const statuses: number[] = [];
  let next = 0;
  const poster = async () => {
    while (next < POSTS) {
      const n = next++;
      const res = await fetch(`${server.url}/api/blog`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
        body: JSON.stringify(validPost({ title: `Beside the CLI ${n}` })),
      });
      statuses.push(res.status);
      await res.arrayBuffer();
      // Spread over the CLI runs (about 3 s each on this machine), so every one of them meets posts being written.
      await new Promise((resolve) => setTimeout(resolve, 450));
    }
  };
  const [created, revoked, noted, added] = await Promise.all([
    inTurn((i) => blogpostProcess(['keys', 'create', '--name', `Fresh key ${i}`], { env })),
    inTurn((i) => blogpostProcess(['keys', 'revoke', toRevoke[i] ?? '', '--reason', 'rotated'], { env })),
    inTurn((i) => blogpostProcess(['leads', 'set', LEAD, '--note', `Called back, attempt ${i}`], { env })),
    inTurn((i) => blogpostProcess(['staff', 'add', '--email', `agent${i}@example.com`, '--name', `Agent ${i}`, '--password-stdin'], { env, input: 'seven green lanterns by the river\n' })),
    Promise.all(Array.from({ length: 4 }, poster)),
  ]);
  for (const run of [...(created ?? []), ...(revoked ?? []), ...(noted ?? []), ...(added ?? [])]) expect(run.code, `${run.stdout}${run.stderr}`).toBe(0);
  expect(statuses).toHaveLength(POSTS);
  expect(statuses.filter((status) => status !== 201)).toEqual([]);

  const listed = await fetch(`${server.url}/api/blog?status=draft&limit=1`, { headers: { authorization: `Bearer ${writer}` } });
  expect(((await listed.json()) as ListPostsResponse).total).toBe(POSTS);
  const store = await openSqliteStore(dataDir);
  try {
    const keys = await store.keys.list();
    expect(keys.filter((key) => key.name.startsWith('Fresh key'))).toHaveLength(RUNS);
    expect(keys.filter((key) => key.name.startsWith('Old key') && key.revokedAt !== null)).toHaveLength(RUNS);
    expect((await store.staff.list()).map((account) => account.email).sort()).toEqual(Array.from({ length: RUNS }, (_, i) => `agent${i}@example.com`).sort());
    expect((await store.leads.get(LEAD))?.agentNotes.map((note) => note.text).sort()).toEqual(Array.from({ length: RUNS }, (_, i) => `Called back, attempt ${i}`).sort());
  } finally {
    await store.close();
  }
  const doctor = await blogpostProcess(['doctor', '--data-dir', dataDir]);
  expect(doctor.code, `${doctor.stdout}${doctor.stderr}`).toBe(0);
}, 300_000);
