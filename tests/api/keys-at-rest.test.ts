/**
 * No secret key material in the data directory: after keys are created, used (so their last-used time
 * is written), used with Idempotency-Keys and revoked, no file under DATA_DIR holds a key or its secret.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkApiKey } from '../../contract/keys';
import { KeyService } from '../../api/services/keys';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
});
afterAll(async () => {
  await server.close();
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
  await server.store.flush();

  const stored = (await server.store.keys.list()).filter((k) => k.lastUsedAt !== null);
  expect(stored.length).toBe(3);

  const files = allFiles(server.dataDir);
  expect(files.length).toBe(3); // blog.json and the two posts the writing keys made
  for (const secret of secrets) {
    const check = checkApiKey(secret);
    if (!check.ok) throw new Error('test key is malformed');
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(text.includes(secret), file).toBe(false);
      expect(text.includes(check.secret), file).toBe(false);
      expect(text.includes(secret.slice(0, -6)), file).toBe(false);
    }
  }
  const manifest = readFileSync(path.join(server.dataDir, 'blog.json'), 'utf8');
  expect(manifest).toMatch(/"hash": "sha256:[0-9a-f]{64}"/);
});
