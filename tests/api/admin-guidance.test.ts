/**
 * Errors only the site's administrator can fix (a revoked key, a key without the permission) tell the
 * integrator to ask the administrator for a key with blog:write, for every kind of client, and never
 * show the administrator's command; that command is in the integrator guide's part for the administrator.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../contract/errors';
import { KeyService } from '../../api/services/keys';
import { ROOT, startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

const CLIENTS = ['python-requests/2.32.3', 'PostmanRuntime/7.43.0', 'curl/8.5.0', 'Mozilla/5.0'];
const keyName = (prefix: string, userAgent: string) => `${prefix} ${userAgent.replace(/[^A-Za-z0-9]+/g, ' ').trim()}`;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function expectAdministratorGuidance(body: ApiErrorBody): void {
  const text = [body.message, ...body.guidance].join('\n');
  expect(text).toMatch(/ask the site's administrator for (a new key|a key) with blog:write/i);
  expect(text).not.toContain('blogpost keys');
  expect(text).not.toContain('npx');
}

describe('guidance for an error the administrator must fix', () => {
  it.each(CLIENTS)('a revoked key (%s) is told to ask the administrator for a new key', async (userAgent) => {
    const name = keyName('revoked', userAgent);
    const key = await server.createKey(name);
    await new KeyService(server.store.keys).revoke(name);
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key, body: validPost(), headers: { 'user-agent': userAgent } });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('invalid_api_key');
    expectAdministratorGuidance(res.json);
  });

  it.each(CLIENTS)('a key without blog:write (%s) is told to ask the administrator for one', async (userAgent) => {
    const key = await server.createKey(keyName('reader', userAgent), ['blog:read']);
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key, body: validPost(), headers: { 'user-agent': userAgent } });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('insufficient_permissions');
    expectAdministratorGuidance(res.json);
  });
});

describe("the integrator guide's part for the administrator", () => {
  it('holds the command that creates a key with blog:write', () => {
    const guide = readFileSync(path.join(ROOT, 'docs/integrator-guide.md'), 'utf8');
    const part = guide.slice(guide.indexOf("## For the site's administrator"));
    expect(part).toContain("## For the site's administrator");
    expect(part).toContain('npx blogpost keys create --name "Jane Author" --permission blog:write');
    expect(part).toContain('RATE_LIMIT_VALIDATIONS_PER_MINUTE');
  });
});
