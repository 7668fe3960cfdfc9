/**
 * A Ghost Admin API token as Ghost's clients (the Admin API SDK, Ulysses, iA Writer) sign one from an
 * `id:secret` admin key: base64url header.payload, HMAC-SHA256 with the secret's hex bytes, kid = the
 * key id. The options make the forged and expired ones the tests refuse.
 */
import { createHmac } from 'node:crypto';

export interface GhostTokenOptions {
  aud?: string;
  iat?: number;
  exp?: number;
  kid?: string;
  alg?: string;
}

export function ghostToken(key: string, options: GhostTokenOptions = {}): string {
  const [id = '', secret = ''] = key.split(':');
  const iat = options.iat ?? Math.floor(Date.now() / 1000);
  const header = Buffer.from(JSON.stringify({ alg: options.alg ?? 'HS256', typ: 'JWT', kid: options.kid ?? id })).toString('base64url');
  const payload = Buffer.from(JSON.stringify({ iat, exp: options.exp ?? iat + 300, aud: options.aud ?? '/admin/' })).toString('base64url');
  const signature = createHmac('sha256', Buffer.from(secret, 'hex')).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}
