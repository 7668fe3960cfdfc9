/**
 * The key-mistake classifier, over generated keys: a well-formed key is never taken for a mistake,
 * and a key with a line break, whitespace or quotes added is classified as that mistake, whatever the
 * key and whichever of the usual characters were added; the fixes never repeat the key.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_KINDS } from './clients';
import { classifyAuthorizationMistake, classifyKeyMistake, KEY_MISTAKES, keyMistakeFixes } from './key-mistakes';
import { API_KEY_ID_LENGTH, API_KEY_SECRET_LENGTH, BASE62_ALPHABET, formatApiKey } from './keys';

const base62 = (length: number) => fc.string({ unit: fc.constantFrom(...BASE62_ALPHABET), minLength: length, maxLength: length });
/** Keys as the server makes them: any id and secret, with their checksum. */
const keys = fc.tuple(base62(API_KEY_ID_LENGTH), base62(API_KEY_SECRET_LENGTH)).map(([id, secret]) => formatApiKey(id, secret));
const lineBreaks = fc.constantFrom('\n', '\r', '\r\n');
const spaces = fc.constantFrom(' ', '\t', '\u00A0', '\u200B', '\uFEFF', '  ');
const quotes = fc.constantFrom('"', "'", '`', '\u201C');

describe('classifyKeyMistake', () => {
  it('never calls a well-formed key a mistake', () => {
    fc.assert(fc.property(keys, (key) => classifyKeyMistake(key) === null && classifyAuthorizationMistake(`Bearer ${key}`) === null));
  });

  it('finds a line break after (or before) the key, also inside quotes or after spaces', () => {
    fc.assert(
      fc.property(keys, lineBreaks, fc.boolean(), fc.option(quotes), (key, lineBreak, atStart, quote) => {
        const quoted = quote ? `${quote}${key}${quote}` : key;
        expect(classifyKeyMistake(atStart ? `${lineBreak}${quoted}` : `${quoted}${lineBreak}`)).toBe('line_break');
      }),
    );
  });

  it('finds whitespace around the key, visible or not', () => {
    fc.assert(
      fc.property(keys, spaces, fc.constantFrom('before', 'after', 'both'), (key, space, where) => {
        const sent = `${where === 'after' ? '' : space}${key}${where === 'before' ? '' : space}`;
        expect(classifyKeyMistake(sent)).toBe('whitespace');
      }),
    );
  });

  it('finds quotes around the key, matched or not', () => {
    fc.assert(
      fc.property(keys, quotes, fc.constantFrom('both', 'before', 'after'), (key, quote, where) => {
        const sent = `${where === 'after' ? '' : quote}${key}${where === 'before' ? '' : quote}`;
        expect(classifyKeyMistake(sent)).toBe('quotes');
      }),
    );
  });

  it('finds a value that is not this site’s key, and leaves a mistyped bpk_ key to the checksum', () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z]{2,4}_[A-Za-z0-9]{10,40}$/).filter((text) => !text.startsWith('bpk_')), (other) => classifyKeyMistake(other) === 'wrong_prefix'));
    expect(classifyKeyMistake('bpk_short')).toBeNull();
  });

  it('reads the scheme: Bearer twice, or none before a key', () => {
    fc.assert(
      fc.property(keys, (key) => {
        expect(classifyAuthorizationMistake(`Bearer Bearer ${key}`)).toBe('bearer_twice');
        expect(classifyAuthorizationMistake(`bearer  BEARER ${key}`)).toBe('bearer_twice');
        expect(classifyAuthorizationMistake(key)).toBe('no_bearer');
        expect(classifyAuthorizationMistake(`Bearer "${key}"`)).toBe('quotes');
        expect(classifyAuthorizationMistake(`Basic dXNlcjpwYXNz`)).toBeNull();
      }),
    );
  });

  it('gives a fix for every mistake and client that never holds the key', () => {
    fc.assert(
      fc.property(keys, fc.constantFrom(...KEY_MISTAKES), fc.constantFrom(...CLIENT_KINDS), (key, mistake, client) => {
        const fixes = keyMistakeFixes(mistake, client, 'node');
        expect(fixes.length).toBeGreaterThan(0);
        expect(fixes.join('\n')).not.toContain(key.slice(15));
      }),
    );
    expect(keyMistakeFixes('line_break', 'python', 'python-requests/2.32.3').join('\n')).toContain('os.environ["BLOGPOST_API_KEY"].strip()');
    expect(keyMistakeFixes('quotes', 'http-client', 'node').join('\n')).toContain('process.env.BLOGPOST_API_KEY.trim()');
    expect(keyMistakeFixes('line_break', 'curl', 'curl/8.5.0').join('\n')).toContain("tr -d '\\r\\n");
  });
});
