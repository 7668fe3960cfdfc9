/**
 * The Idempotency-Key header's rules as a client meets them (which values are taken, which are a 400),
 * and that a retry is recognised only under the same API key and with the same body bytes.
 */
import { describe, expect, it } from 'vitest';
import { bodyFingerprint, idempotencyScope, readIdempotencyKey } from './idempotency';

describe('readIdempotencyKey', () => {
  it('is undefined without the header and the trimmed value with one', () => {
    expect(readIdempotencyKey(undefined)).toBeUndefined();
    expect(readIdempotencyKey('  order-42  ')).toBe('order-42');
    expect(readIdempotencyKey('!~')).toBe('!~');
    expect(readIdempotencyKey('a'.repeat(255))).toBe('a'.repeat(255));
  });

  it('refuses an empty, too long or non-visible-ASCII value with 400 invalid_idempotency_key', () => {
    for (const bad of ['', '   ', 'a'.repeat(256), 'two words', 'café', 'tab\there', `x${'\x7f'}`]) {
      expect(() => readIdempotencyKey(bad), JSON.stringify(bad)).toThrow(expect.objectContaining({ code: 'invalid_idempotency_key', status: 400 }));
    }
  });
});

describe('idempotencyScope', () => {
  it('is a SHA-256 hex digest that differs per API key and per idempotency key', () => {
    const scope = idempotencyScope('key1', 'order-42');
    expect(scope).toMatch(/^[0-9a-f]{64}$/);
    expect(idempotencyScope('key1', 'order-42')).toBe(scope);
    expect(idempotencyScope('key2', 'order-42')).not.toBe(scope);
    expect(idempotencyScope('key1', 'order-43')).not.toBe(scope);
    // The separator keeps "ab" + "c" apart from "a" + "bc".
    expect(idempotencyScope('ab', 'c')).not.toBe(idempotencyScope('a', 'bc'));
    // Stored with the post, so a claim made before a restart (or an upgrade) is still recognised.
    expect(scope).toBe('0bdd328c3eac49b7cb2b429652c63ce816cb51b7a06e86a9ada3c851134cdfad');
  });
});

describe('bodyFingerprint', () => {
  it('is the SHA-256 of the exact bytes', () => {
    const enc = new TextEncoder();
    expect(bodyFingerprint(enc.encode(''))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(bodyFingerprint(enc.encode('{"a":1}'))).not.toBe(bodyFingerprint(enc.encode('{"a": 1}')));
  });
});
