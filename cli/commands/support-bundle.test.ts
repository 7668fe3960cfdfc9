/**
 * The support bundle's redaction over any shape of data: no API key's secret, e-mail address or phone
 * number survives in a string at any depth, whatever the field is called (except the fields that hold
 * ids and times by name, which the bundle fills itself); numbers stay numbers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE62_ALPHABET, formatApiKey } from '../../contract/keys';
import { redactBundle } from './support-bundle';

const base62 = (length: number) => fc.string({ unit: fc.constantFrom(...BASE62_ALPHABET), minLength: length, maxLength: length });
const apiKey = fc.tuple(base62(10), base62(32)).map(([id, secret]) => ({ key: formatApiKey(id, secret), secret }));
const digits = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
const phone = fc.tuple(digits(3), digits(3), digits(4)).map(([a, b, c]) => `+1 (${a}) ${b}-${c}`);
/** Field names a bundle's free text may sit under (not the id and time fields it keeps by name). */
const field = fc.constantFrom('name', 'title', 'revokeReason', 'why', 'made_by', 'body', 'message', 'cause', 'owner', 'note');
const filler = fc.string({ maxLength: 30 });

describe('redactBundle', () => {
  it('leaves no key secret, e-mail address or phone number in any string, at any depth', () => {
    fc.assert(
      fc.property(apiKey, fc.emailAddress(), phone, filler, field, field, fc.boolean(), ({ key, secret }, email, number, text, outer, inner, asList) => {
        const sentence = `${text} ${key} write to ${email} or call ${number} ${text}`;
        const nested = { [outer]: { [inner]: asList ? [sentence, 7_654_321] : sentence, count: 7_654_321 } };
        const out = JSON.stringify(redactBundle(nested));
        expect(out).not.toContain(secret);
        expect(out).not.toContain(email);
        expect(out.replace(/\D/g, '')).not.toContain(number.replace(/\D/g, ''));
        expect(out).toContain('7654321');
      }),
    );
  });

  it('keeps request ids, key ids, times and key actors as they are', () => {
    const kept = { requestId: 'req_0123456789abcdef0123456789abcdef', time: '2026-11-29T14:00:00.000Z', keyId: 'Ab12345678', made_by: 'key:Ab12345678', ip: '203.0.113.42' };
    expect(redactBundle(kept)).toEqual(kept);
  });
});
