/**
 * The API's key check as an integrator meets it: which Authorization headers go through, which are a
 * 401 (with which code, challenge and message) or a 403, that a key's permission is checked on every
 * request (its first and every later one), and which failures are recorded on the stored key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ParameterizedContext } from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../contract/errors';
import { type ApiKeySummary, type ApiPermission, formatApiKey } from '../../contract/keys';
import { KeyService } from '../services/keys';
import { openSqliteStore } from '../store/sql/sql-store';
import type { Store } from '../store/store';
import { authenticate, type AuthenticateOptions, requirePermission } from './auth';
import type { ApiState } from './context';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setUp() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-auth-unit-'));
  dirs.push(dir);
  const store = await openSqliteStore(dir);
  stores.push(store);
  const keys = new KeyService(store.keys);
  const issue = async (name: string, permissions: ApiPermission[]) => keys.create({ name, permissions });
  return { store, keys, issue };
}

interface Request {
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/** Runs the middleware on a request; what it answered: passed on (with the state) or the error thrown. */
async function run(keys: KeyService, options: AuthenticateOptions, request: Request) {
  const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  const ctx = {
    get: (name: string) => headers[name.toLowerCase()] ?? '',
    query: request.query ?? {},
    state: {} as ApiState,
  } as unknown as ParameterizedContext<ApiState>;
  let passed = false;
  try {
    await authenticate(keys, options)(ctx, async () => {
      passed = true;
    });
  } catch (error) {
    if (error instanceof ApiError) return { passed, state: ctx.state, error };
    throw error;
  }
  return { passed, state: ctx.state, error: undefined };
}

const bearer = (secret: string) => ({ headers: { Authorization: `Bearer ${secret}` } });

describe('authenticate', () => {
  it('lets a valid key through and names it in the request state', async () => {
    const { keys, issue } = await setUp();
    const { key, secret } = await issue('Writer', ['blog:write']);
    const result = await run(keys, { permission: 'blog:write' }, bearer(secret));
    expect(result.error).toBeUndefined();
    expect(result.passed).toBe(true);
    expect(result.state.key).toMatchObject({ id: key.id, permissions: ['blog:write'] });
    expect(result.state.keyId).toBe(key.id);
  });

  it('lets any valid key through when the route names no permission', async () => {
    const { keys, issue } = await setUp();
    const { secret } = await issue('Reader', ['blog:read']);
    const result = await run(keys, {}, bearer(secret));
    expect(result.passed).toBe(true);
    expect(result.state.key?.permissions).toEqual(['blog:read']);
  });

  it('refuses a request without a key with 401 missing_api_key and the Bearer challenge', async () => {
    const { keys } = await setUp();
    const result = await run(keys, { permission: 'blog:write' }, {});
    expect(result.passed).toBe(false);
    expect(result.error).toMatchObject({ code: 'missing_api_key', status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="blog-api"' }, hints: [] });
  });

  it('lets an anonymous request through an optional check, but not a bad key', async () => {
    const { keys } = await setUp();
    const anonymous = await run(keys, { optional: true }, {});
    expect(anonymous.passed).toBe(true);
    expect(anonymous.state.key).toBeUndefined();
    const bad = await run(keys, { optional: true }, { headers: { Authorization: 'Basic abc' } });
    expect(bad.passed).toBe(false);
    expect(bad.error?.code).toBe('malformed_api_key');
  });

  it('says where a misplaced key went: an X-API-Key header or the query string', async () => {
    const { keys, issue } = await setUp();
    const { secret } = await issue('Writer', ['blog:write']);
    const header = await run(keys, {}, { headers: { 'X-API-Key': secret } });
    expect(header.error?.code).toBe('missing_api_key');
    expect(header.error?.hints).toEqual(['The key was sent in an X-API-Key header: send it as Authorization: Bearer <key> instead.']);
    for (const name of ['api_key', 'key']) {
      const query = await run(keys, {}, { query: { [name]: secret } });
      expect(query.error?.hints).toEqual(['The key was sent in the query string, where it ends up in logs: send it as Authorization: Bearer <key> instead.']);
    }
  });

  it('refuses another scheme than Bearer as malformed, with the challenge', async () => {
    const { keys } = await setUp();
    const result = await run(keys, {}, { headers: { Authorization: 'Token abc' } });
    expect(result.error).toMatchObject({
      code: 'malformed_api_key',
      status: 401,
      message: 'The Authorization header must read "Bearer <key>".',
      headers: { 'WWW-Authenticate': 'Bearer realm="blog-api"' },
    });
  });

  it('refuses a mistyped key as malformed, with invalid_token in the challenge and the reason', async () => {
    const { keys, issue } = await setUp();
    const { secret } = await issue('Writer', ['blog:write']);
    const mistyped = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    const result = await run(keys, {}, bearer(mistyped));
    expect(result.passed).toBe(false);
    expect(result.error).toMatchObject({
      code: 'malformed_api_key',
      headers: { 'WWW-Authenticate': 'Bearer realm="blog-api", error="invalid_token"' },
      message: 'The API key fails its checksum: a character was mistyped or changed when it was copied.',
    });
    // A mistyped key names no key: the request log shows none.
    expect(result.state.keyId).toBeUndefined();
  });

  it('refuses a real id with a wrong secret as invalid, and records the failure on that key', async () => {
    const { store, keys, issue } = await setUp();
    const { key } = await issue('Writer', ['blog:write']);
    const wrong = formatApiKey(key.id, 'x'.repeat(32));
    const result = await run(keys, {}, bearer(wrong));
    expect(result.passed).toBe(false);
    expect(result.error).toMatchObject({ code: 'invalid_api_key', status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="blog-api", error="invalid_token"' } });
    expect(result.error?.message).toBe('The API key is not recognised or has been revoked.');
    expect(result.state.keyId).toBe(key.id);
    await expect.poll(async () => (await store.keys.findById(key.id))?.lastFailureCode).toBe('invalid_api_key');
  });

  it('refuses a revoked key, saying so, and records the failure on that key', async () => {
    const { store, keys, issue } = await setUp();
    const { key, secret } = await issue('Writer', ['blog:write']);
    await keys.revoke(key.id, { by: 'test' });
    const result = await run(keys, {}, bearer(secret));
    expect(result.passed).toBe(false);
    expect(result.error).toMatchObject({ code: 'invalid_api_key', message: 'This API key has been revoked.' });
    expect(result.state.keyId).toBe(key.id);
    await expect.poll(async () => (await store.keys.findById(key.id))?.lastFailureCode).toBe('invalid_api_key');
  });

  it('names an unknown but well-formed key id in the request state', async () => {
    const { keys } = await setUp();
    const result = await run(keys, {}, bearer(formatApiKey('NoSuchKey1', 'x'.repeat(32))));
    expect(result.error).toMatchObject({ code: 'invalid_api_key', status: 401 });
    expect(result.state.keyId).toBe('NoSuchKey1');
  });

  it('refuses a key without the permission with 403 on its first request and every later one', async () => {
    const { store, keys, issue } = await setUp();
    const { key, secret } = await issue('Reader', ['blog:read']);
    for (let attempt = 0; attempt < 3; attempt++) {
      const result = await run(keys, { permission: 'blog:write' }, bearer(secret));
      expect(result.passed).toBe(false);
      expect(result.state.key).toBeUndefined();
      expect(result.state.keyId).toBe(key.id);
      expect(result.error).toMatchObject({
        code: 'insufficient_permissions',
        status: 403,
        message: 'This API key lacks the blog:write permission.',
        extra: { requiredPermission: 'blog:write', keyPermissions: ['blog:read'] },
      });
    }
    await expect.poll(async () => (await store.keys.findById(key.id))?.lastFailureCode).toBe('insufficient_permissions');
  });

  it('lets a blog:admin key do what blog:write allows', async () => {
    const { keys, issue } = await setUp();
    const { secret } = await issue('Admin', ['blog:admin']);
    expect((await run(keys, { permission: 'blog:write' }, bearer(secret))).passed).toBe(true);
  });
});

describe('requirePermission', () => {
  const key = (permissions: ApiPermission[]): ApiKeySummary => ({
    id: 'abcdefghij',
    name: 'k',
    owner: 'k',
    permissions,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
  });

  it('passes a key holding the permission (or blog:admin) and refuses one without it', () => {
    expect(() => requirePermission(key(['blog:write']), 'blog:write')).not.toThrow();
    expect(() => requirePermission(key(['blog:admin']), 'blog:write')).not.toThrow();
    expect(() => requirePermission(key(['blog:read']), 'blog:admin')).toThrow(expect.objectContaining({ code: 'insufficient_permissions', status: 403 }));
  });
});
