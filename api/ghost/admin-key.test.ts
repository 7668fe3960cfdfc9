/**
 * The Ghost admin key's derived secret and the token check (decision 0033), as properties: a token
 * signed as Ghost's clients sign it passes; any change to its header, payload or signature is refused;
 * any string at all is read without throwing; secrets differ per id and per store key.
 */
import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkToken, ghostSecret, readToken } from './admin-key';

const NOW = new Date('2026-11-29T12:00:00Z');
const SECONDS = Math.floor(NOW.getTime() / 1000);

function sign(id: string, secretHex: string, payload: Record<string, unknown>): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: id })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${header}.${body}.${createHmac('sha256', Buffer.from(secretHex, 'hex')).update(`${header}.${body}`).digest('base64url')}`;
}

function check(token: string, secretHex: string) {
  const read = readToken(token);
  return read.ok ? checkToken(read, secretHex, NOW) : read.problem;
}

const storeKey = randomBytes(32);
const id = 'a1b2c3d4e5f6a7b8c9d0e1f2';
const secret = ghostSecret(storeKey, id);

describe('ghost admin keys', () => {
  it('derive a 64-hex secret, the same for one id and store key, another for another id or store key', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{24}$/), fc.stringMatching(/^[0-9a-f]{24}$/), (a, b) => {
        expect(ghostSecret(storeKey, a)).toMatch(/^[0-9a-f]{64}$/);
        expect(ghostSecret(storeKey, a)).toBe(ghostSecret(Buffer.from(storeKey), a));
        if (a !== b) expect(ghostSecret(storeKey, a)).not.toBe(ghostSecret(storeKey, b));
        expect(ghostSecret(randomBytes(32), a)).not.toBe(ghostSecret(storeKey, a));
      }),
    );
  });

  it('a token signed with the secret passes, for every audience Ghost clients send and any iat in the last 5 minutes', () => {
    fc.assert(
      fc.property(fc.constantFrom('/admin/', '/v2/admin/', '/v3/admin/', '/v4/admin/', '/v5.0/admin/', '/canary/admin/'), fc.integer({ min: 0, max: 299 }), (aud, age) => {
        const iat = SECONDS - age;
        expect(check(sign(id, secret, { iat, exp: iat + 300, aud }), secret)).toBeNull();
      }),
    );
  });

  it('any one character changed in a valid token is refused', () => {
    const token = sign(id, secret, { iat: SECONDS, exp: SECONDS + 300, aud: '/admin/' });
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.'), (at, char) => {
        fc.pre(token[at] !== char);
        const changed = `${token.slice(0, at)}${char}${token.slice(at + 1)}`;
        // A change in the signature's last character may leave the decoded bytes unchanged (base64url's spare bits).
        fc.pre(Buffer.from(changed.split('.')[2] ?? '', 'base64url').toString('hex') !== Buffer.from(token.split('.')[2] ?? '', 'base64url').toString('hex') || at < token.lastIndexOf('.'));
        expect(check(changed, secret)).not.toBeNull();
      }),
    );
  });

  it('reads any string without throwing: a problem with a status, or a kid', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.base64String(), { minLength: 3, maxLength: 3 }).map((parts) => parts.join('.'))), (raw) => {
        const read = readToken(raw);
        if (!read.ok) expect([400, 401]).toContain(read.problem.status);
        else expect(check(raw, secret)).not.toBeNull();
      }),
    );
  });

  it('refuses expired, too long-lived, too old, future and wrong-audience tokens with what to do', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ iat: SECONDS - 600, exp: SECONDS - 300, aud: '/admin/' }, /jwt expired/],
      [{ iat: SECONDS, exp: SECONDS + 3600, aud: '/admin/' }, /maxAge/],
      [{ iat: SECONDS - 400, exp: SECONDS + 10, aud: '/admin/' }, /maxAge/],
      [{ iat: SECONDS + 600, exp: SECONDS + 700, aud: '/admin/' }, /future/],
      [{ iat: SECONDS, exp: SECONDS + 300, aud: '/content/' }, /audience/],
      [{ exp: SECONDS + 300, aud: '/admin/' }, /iat and exp/],
    ];
    for (const [payload, message] of cases) {
      const problem = check(sign(id, secret, payload), secret);
      expect(problem?.message, JSON.stringify(payload)).toMatch(message);
      expect(problem?.context).not.toBe('');
    }
  });
});
