/**
 * Whether an API key can create posts, asked of the server without creating anything: the sample
 * post sent with the key to POST /api/blog/validate, which checks the key (revoked, unknown, without
 * blog:write) before the body. Used by `blogpost diagnose` when no data directory holds the key.
 */
import { catalogueEntry } from '../contract/errors';
import { parseResponseBody } from './diagnose';
import { SAMPLE_POST } from './sample-post';
import type { Transport } from './types';

/** What is known of a key, and who said so. */
export type KeyStatus =
  | { state: 'active'; source: string; permissions?: string[] }
  | { state: 'revoked'; source: string; revokedAt?: string }
  | { state: 'lacks_write'; source: string; permissions?: string[] }
  | { state: 'unknown'; source: string }
  | { state: 'unchecked'; reason: string };

/** Revoked, unknown or without blog:write: every write with this key fails. */
export function keyCannotWrite(status: KeyStatus): boolean {
  return status.state === 'revoked' || status.state === 'lacks_write' || status.state === 'unknown';
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

export async function checkKeyWithServer(origin: string, apiKey: string, transport: Transport): Promise<KeyStatus> {
  const url = `${origin.replace(/\/+$/, '')}/api/blog/validate`;
  const source = `the server at ${url}`;
  let response;
  try {
    response = await transport.send({
      method: 'POST',
      url,
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': 'blogpost-cli/0.1 (diagnose)' },
      body: JSON.stringify(SAMPLE_POST),
    });
  } catch (error) {
    return { state: 'unchecked', reason: `${url} could not be reached (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = parseResponseBody(response);
  const body = parsed.ok ? parsed.value : undefined;
  const code = String(field(body, 'code') ?? '');
  const message = String(field(body, 'message') ?? '');
  if (response.status === 200) return { state: 'active', source, permissions: ['blog:write'] };
  if (response.status === 401 && /revoked/i.test(code)) return { state: 'revoked', source };
  if (response.status === 401 && code === 'invalid_api_key') {
    // The catalogue's own message ("not recognised or has been revoked") is the unknown key's.
    const saysRevoked = message !== catalogueEntry('invalid_api_key').message && /revoked/i.test(message);
    return saysRevoked ? { state: 'revoked', source } : { state: 'unknown', source };
  }
  if (response.status === 403 && code === 'insufficient_permissions') {
    const held = field(body, 'keyPermissions');
    return { state: 'lacks_write', source, ...(Array.isArray(held) ? { permissions: held.map(String) } : {}) };
  }
  // A 400 about the body means the key passed (its checks come first).
  if (response.status === 400 || response.status === 413 || response.status === 415) return { state: 'active', source, permissions: ['blog:write'] };
  return { state: 'unchecked', reason: `${url} answered ${response.status}${code ? ` ${code}` : ''}, which says nothing about the key` };
}
