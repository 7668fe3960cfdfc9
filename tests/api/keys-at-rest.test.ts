/**
 * No secret key material in the data directory: after keys are created, used (so their last-used time
 * is written), used with Idempotency-Keys and revoked, no file under DATA_DIR holds a key or its secret,
 * the request log (written and closed with the server) included.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { checkApiKey } from '../../contract/keys';
import { KeyService } from '../../api/services/keys';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

let server: TestServer;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keys-at-rest-'));

beforeAll(async () => {
  server = await startTestServer({ dataDir, api: { writesPerMinute: 0 } });
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? allFiles(full) : [full];
  });
}

it('never writes a key or its secret to the data directory', async () => {
  const keys = new KeyService(server.store.keys);
  const secrets: string[] = [];
  for (const [name, permissions] of [
    ['writer', ['blog:write']],
    ['reader', ['blog:read']],
    ['both', ['blog:write', 'blog:read']],
  ] as const) {
    secrets.push((await keys.create({ name, permissions: [...permissions] })).secret);
  }
  for (const secret of secrets) {
    await call(server, 'POST', '/api/blog', { key: secret, body: validPost(), headers: { 'idempotency-key': `idem-${secret.slice(-6)}` } });
    await call(server, 'GET', '/api/blog?status=draft', { key: secret });
  }
  const [first] = await keys.list();
  await keys.revoke(first?.id ?? '');

  // Last use is recorded without holding up the request: stored a moment later.
  await vi.waitFor(async () => expect((await server.store.keys.list()).filter((k) => k.lastUsedAt !== null)).toHaveLength(3));
  // the two posts the writing keys made
  expect((await server.store.posts.list({ status: 'any' })).total).toBe(2);
  await server.close(); // the request log is complete once closed

  const files = allFiles(dataDir).map((file) => path.relative(dataDir, file));
  // the database (its file, and its write-ahead log if one is left) and today's request log
  expect(files.filter((file) => file.startsWith('store.sqlite'))).not.toHaveLength(0);
  expect(files.filter((file) => file.startsWith(`logs${path.sep}requests-`))).toHaveLength(1);
  expect(readFileSync(path.join(dataDir, files.find((file) => file.startsWith('logs')) ?? ''), 'utf8').trim().split('\n')).toHaveLength(secrets.length * 2);
  for (const secret of secrets) {
    const check = checkApiKey(secret);
    if (!check.ok) throw new Error('test key is malformed');
    for (const file of files) {
      // The database's pages read as Latin-1: every byte one character, so a secret stored anywhere shows.
      const text = readFileSync(path.join(dataDir, file), 'latin1');
      expect(text.includes(secret), file).toBe(false);
      expect(text.includes(check.secret), file).toBe(false);
      expect(text.includes(secret.slice(0, -6)), file).toBe(false);
    }
  }
  const database = readFileSync(path.join(dataDir, 'store.sqlite'), 'latin1');
  expect(database).toMatch(/"hash":"sha256:[0-9a-f]{64}"/);
});
