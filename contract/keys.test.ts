import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_KEY_NAME_PATTERN, BASE62_ALPHABET, checkApiKey, crc32, formatApiKey, maskApiKey, permits, readBearerToken, readsDrafts, toBase62 } from './keys';

const base62 = (length: number) => fc.string({ unit: fc.constantFrom(...BASE62_ALPHABET), minLength: length, maxLength: length });

describe('API key format', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
  });

  it('pads base62', () => {
    expect(toBase62(0, 6)).toBe('000000');
    expect(toBase62(61, 2)).toBe('0z');
    expect(toBase62(62, 2)).toBe('10');
    expect(toBase62(0xffffffff, 6)).toHaveLength(6);
  });

  it('accepts every key it formats', () => {
    fc.assert(
      fc.property(base62(10), base62(32), (id, secret) => {
        const key = formatApiKey(id, secret);
        expect(key).toHaveLength(53);
        expect(checkApiKey(key)).toEqual({ ok: true, publicId: id, secret });
      }),
    );
  });

  it('catches any single mistyped character offline', () => {
    fc.assert(
      fc.property(base62(10), base62(32), fc.nat(), fc.constantFrom(...BASE62_ALPHABET), (id, secret, at, replacement) => {
        const key = formatApiKey(id, secret);
        const index = 4 + (at % (key.length - 4));
        fc.pre(key[index] !== replacement && key[index] !== '_');
        const typo = `${key.slice(0, index)}${replacement}${key.slice(index + 1)}`;
        expect(checkApiKey(typo).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('explains what is wrong', () => {
    expect(checkApiKey('')).toMatchObject({ ok: false, problem: 'empty' });
    expect(checkApiKey('sk_live_123')).toMatchObject({ ok: false, problem: 'prefix' });
    const key = formatApiKey('A'.repeat(10), 'b'.repeat(32));
    expect(checkApiKey(key.slice(0, -1))).toMatchObject({ ok: false, problem: 'shape' });
    expect(checkApiKey(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toMatchObject({ ok: false, problem: 'checksum' });
    expect(checkApiKey(`  ${key}\n`).ok).toBe(true);
  });

  it('masks keys for display', () => {
    const key = formatApiKey('AbCdEfGhIj', 'x'.repeat(32));
    expect(maskApiKey(key)).toBe(`bpk_AbCdEfGhIj_…${key.slice(-4)}`);
    expect(maskApiKey(key)).not.toContain('x'.repeat(8));
  });

  it('reads the Authorization header', () => {
    expect(readBearerToken(undefined)).toEqual({ ok: false, problem: 'missing' });
    expect(readBearerToken('  ')).toEqual({ ok: false, problem: 'missing' });
    expect(readBearerToken('Bearer abc')).toEqual({ ok: true, token: 'abc' });
    expect(readBearerToken('bearer   abc ')).toEqual({ ok: true, token: 'abc' });
    expect(readBearerToken('Basic abc')).toEqual({ ok: false, problem: 'scheme' });
    expect(readBearerToken('abc')).toEqual({ ok: false, problem: 'scheme' });
  });

  it('tells the integrator what is wrong in words, with the expected and actual length', () => {
    expect(checkApiKey('  ')).toEqual({ ok: false, problem: 'empty', message: 'The API key is empty.' });
    expect(checkApiKey('sk_live_123')).toEqual({ ok: false, problem: 'prefix', message: 'API keys start with "bpk_"; this one does not.' });
    const key = formatApiKey('A'.repeat(10), 'b'.repeat(32));
    expect(key).toHaveLength(53);
    expect(checkApiKey(key.slice(0, -1))).toEqual({
      ok: false,
      problem: 'shape',
      message:
        'The API key is not in the expected shape (53 characters: bpk_, a 10-character id, "_", then letters and digits); it is 52 characters long. It may be truncated or have extra characters.',
    });
    expect(checkApiKey(`x${key}`)).toMatchObject({ problem: 'prefix' });
    expect(checkApiKey(`${key}x`)).toMatchObject({ problem: 'shape' });
  });

  it('masks a key that is not one by its first four characters, ignoring spaces around a real one', () => {
    expect(maskApiKey('  sk_live_123')).toBe('sk_l…');
    const key = formatApiKey('AbCdEfGhIj', 'x'.repeat(32));
    expect(maskApiKey(` ${key} `)).toBe(`bpk_AbCdEfGhIj_…${key.slice(-4)}`);
  });

  it('reads only a whole "Bearer <key>" header', () => {
    expect(readBearerToken('xBearer abc')).toEqual({ ok: false, problem: 'scheme' });
    expect(readBearerToken('Bearer abc def')).toEqual({ ok: false, problem: 'scheme' });
    expect(readBearerToken('Bearer abc\tdef')).toEqual({ ok: false, problem: 'scheme' });
  });

  it('lets a key read drafts with any permission, and admin do everything', () => {
    expect(readsDrafts(['blog:read'])).toBe(true);
    expect(readsDrafts(['blog:write'])).toBe(true);
    expect(readsDrafts(['blog:admin'])).toBe(true);
    expect(readsDrafts([])).toBe(false);
    expect(permits(['blog:admin'], 'blog:write')).toBe(true);
    expect(permits(['blog:read'], 'blog:write')).toBe(false);
  });

  it('takes key names of 1 to 60 letters, digits, spaces and . _ - @ :', () => {
    for (const name of ['Writer', 'ci bot@acme:prod', 'a'.repeat(60)]) expect(API_KEY_NAME_PATTERN.test(name), name).toBe(true);
    for (const name of ['', 'a'.repeat(61), 'semi;colon', 'x/y', 'emoji 🙂']) expect(API_KEY_NAME_PATTERN.test(name), name).toBe(false);
  });
});
