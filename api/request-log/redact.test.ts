/** The request log's redaction: no generated API key, Authorization value, e-mail address or phone number survives. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE62_ALPHABET, formatApiKey } from '../../contract/keys';
import { bodySample, BODY_SAMPLE_BYTES, loggableType, redact } from './redact';

const base62 = (length: number) => fc.string({ unit: fc.constantFrom(...BASE62_ALPHABET), minLength: length, maxLength: length });
const apiKey = fc.tuple(base62(10), base62(32)).map(([id, secret]) => formatApiKey(id, secret));
const digits = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
const phone = fc.oneof(
  fc.tuple(digits(3), digits(3), digits(4)).map(([a, b, c]) => `(${a}) ${b}-${c}`),
  fc.tuple(digits(3), digits(3), digits(4)).map(([a, b, c]) => `+1 ${a}-${b}-${c}`),
  fc.tuple(digits(3), digits(3), digits(4)).map(([a, b, c]) => `${a}.${b}.${c}`),
  fc.tuple(digits(2), digits(4), digits(4)).map(([a, b, c]) => `+44 ${a} ${b} ${c}`),
  digits(10).map((number) => `+1${number}`),
);
/** Text around the secret: anything, JSON punctuation included. */
const filler = fc.string({ maxLength: 40 });

function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

describe('redact', () => {
  it('leaves no API key, keeping only its public id', () => {
    fc.assert(
      fc.property(filler, apiKey, filler, (before, key, after) => {
        const out = redact(`${before}${key}${after}`);
        expect(out).not.toContain(key);
        expect(out).not.toContain(key.slice(15));
      }),
    );
  });

  it('leaves no e-mail address', () => {
    fc.assert(
      fc.property(filler, fc.emailAddress(), filler, (before, email, after) => {
        expect(redact(`${before}${email}${after}`)).not.toContain(email);
        expect(redact(JSON.stringify({ author: { name: before, email } }))).not.toContain(email);
      }),
    );
  });

  it('leaves no phone number, in any usual format', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abc :"{}'), maxLength: 20 }), phone, (before, number) => {
        const out = redact(`${before}${number} call me`);
        expect(out).not.toContain(number);
        expect(digitsOf(out)).not.toContain(digitsOf(number));
      }),
    );
  });

  it('leaves no Authorization value or field named like a secret', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...BASE62_ALPHABET, '-', '.', '~'), minLength: 8, maxLength: 40 }), (token) => {
        expect(redact(`Authorization: Bearer ${token}`)).not.toContain(token);
        expect(redact(JSON.stringify({ api_key: token, password: token }))).not.toContain(token);
      }),
    );
  });

  it('keeps what support needs: field names, dates and the shape of the body', () => {
    const body = JSON.stringify({ title: 'Hello', author: { name: 'Jane', email: 'jane@example.com' }, trust: { lastUpdated: '2026-01-15' } });
    expect(redact(body)).toBe(JSON.stringify({ title: 'Hello', author: { name: 'Jane', email: '[email]@example.com' }, trust: { lastUpdated: '2026-01-15' } }));
  });

  it('samples at most 4 KB and still redacts a secret that straddles the cut', () => {
    const email = 'jane.doe@example.com';
    const text = `${'x'.repeat(BODY_SAMPLE_BYTES - 5)}${email}${'y'.repeat(10_000)}`;
    const sample = bodySample(Buffer.from(text));
    expect(sample.length).toBeLessThanOrEqual(BODY_SAMPLE_BYTES + 1);
    expect(sample).not.toContain('jane');
  });
});

describe('loggableType', () => {
  // The content type a 415 logs: only a type/subtype or a short token, never text someone typed.
  it('keeps a media type or a short token, and describes anything else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (value) => {
        const kept = loggableType(value);
        if (kept !== '(not a media type)') {
          expect(kept).toBe(value.toLowerCase());
          expect(kept).toMatch(/^[\w!#$&^.+/-]{1,129}$/);
          expect(kept).not.toMatch(/[\s@"']/);
        }
      }),
    );
    expect(loggableType('application/x-www-form-urlencoded')).toBe('application/x-www-form-urlencoded');
    expect(loggableType('text/plain; name=jane@example.org')).toBe('(not a media type)');
  });
});
