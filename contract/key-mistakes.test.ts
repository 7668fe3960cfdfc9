/**
 * The key-mistake classifier, over generated keys: a well-formed key is never taken for a mistake,
 * and a key with a line break, whitespace or quotes added is classified as that mistake, whatever the
 * key and whichever of the usual characters were added; the fixes never repeat the key.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_KINDS } from './clients';
import { classifyAuthorizationMistake, classifyKeyMistake, isKeyMistake, KEY_MISTAKE_CAUSES, KEY_MISTAKE_MESSAGES, KEY_MISTAKES, keyMistakeFixes } from './key-mistakes';
import { API_KEY_ID_LENGTH, API_KEY_PREFIX, API_KEY_SECRET_LENGTH, BASE62_ALPHABET, formatApiKey } from './keys';

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

describe('the edges of the classifier', () => {
  const key = formatApiKey('a'.repeat(API_KEY_ID_LENGTH), 'b'.repeat(API_KEY_SECRET_LENGTH));

  it('leaves what is inside a key of this site to its checksum, and an empty key to the missing-key error', () => {
    expect(classifyKeyMistake(`${key.slice(0, 10)} ${key.slice(10)}`)).toBeNull();
    expect(classifyKeyMistake(`${key.slice(0, 10)}"${key.slice(10)}`)).toBeNull();
    expect(classifyKeyMistake('')).toBeNull();
  });

  it('reads the scheme only at the start, with any spaces around the value and between the words', () => {
    expect(classifyAuthorizationMistake(`  Bearer  Bearer ${key}`)).toBe('bearer_twice');
    expect(classifyAuthorizationMistake('Bearer Bearer')).toBe('bearer_twice');
    expect(classifyAuthorizationMistake(`Bearer  ${key} \t `)).toBeNull();
    expect(classifyAuthorizationMistake(`Token bearer bearer ${key}`)).toBeNull();
    expect(classifyAuthorizationMistake(`Token-bearer ${key}`)).toBeNull();
  });

  it('finds a key sent without the scheme, also in quotes, but not a value that only becomes a key without a quote', () => {
    expect(classifyAuthorizationMistake(`"${key}"`)).toBe('no_bearer');
    expect(classifyAuthorizationMistake(`'${key}`)).toBe('no_bearer');
    expect(classifyAuthorizationMistake(`${API_KEY_PREFIX.slice(0, 2)}"${key.slice(2)}`)).toBeNull();
  });

  it('knows its own mistakes and nothing else', () => {
    for (const mistake of KEY_MISTAKES) expect(isKeyMistake(mistake)).toBe(true);
    for (const other of ['', 'line-break', 'Quotes', 'checksum', 42, null, undefined, ['quotes']]) expect(isKeyMistake(other)).toBe(false);
  });
});

describe('what the author is told', () => {
  const words: Record<(typeof KEY_MISTAKES)[number], RegExp> = {
    line_break: /line break/,
    whitespace: /whitespace/,
    quotes: /quotes/,
    wrong_prefix: new RegExp(API_KEY_PREFIX),
    bearer_twice: /Bearer" twice|Bearer Bearer/,
    no_bearer: /without the (word )?"Bearer"/,
  };

  it('names each mistake in its message and its cause, differently for each', () => {
    for (const mistake of KEY_MISTAKES) {
      expect(KEY_MISTAKE_MESSAGES[mistake]).toMatch(words[mistake]);
      expect(KEY_MISTAKE_CAUSES[mistake]).toMatch(mistake === 'whitespace' ? /whitespace or invisible characters/ : words[mistake]);
    }
    expect(new Set(Object.values(KEY_MISTAKE_MESSAGES)).size).toBe(KEY_MISTAKES.length);
    expect(new Set(Object.values(KEY_MISTAKE_CAUSES)).size).toBe(KEY_MISTAKES.length);
  });

  it('gives the scheme fix in the language of the client, and the message alone where there is none', () => {
    expect(keyMistakeFixes('bearer_twice', 'python', 'python-requests/2.32.3')).toEqual([KEY_MISTAKE_MESSAGES.bearer_twice, expect.stringContaining('f"Bearer {API_KEY}"')]);
    expect(keyMistakeFixes('no_bearer', 'curl', 'curl/8.5.0')).toEqual([KEY_MISTAKE_MESSAGES.no_bearer, expect.stringContaining('-H "Authorization: Bearer $KEY"')]);
    expect(keyMistakeFixes('no_bearer', 'http-client', 'axios/1.7.2')).toEqual([KEY_MISTAKE_MESSAGES.no_bearer, expect.stringContaining('In Node:')]);
    expect(keyMistakeFixes('bearer_twice', 'postman', 'PostmanRuntime/7.39.0')).toEqual([KEY_MISTAKE_MESSAGES.bearer_twice, expect.stringContaining('Postman adds "Bearer" itself')]);
    expect(keyMistakeFixes('bearer_twice', 'httpie', 'HTTPie/3.2.2')).toEqual([KEY_MISTAKE_MESSAGES.bearer_twice]);
  });

  it('sends a value that is not a key of this site to the administrator', () => {
    expect(keyMistakeFixes('wrong_prefix', 'python', 'python-requests/2.32.3')).toEqual([KEY_MISTAKE_MESSAGES.wrong_prefix, expect.stringContaining('blogpost keys create --name NAME --permission blog:write')]);
  });

  it('shows how to clean the key in each language, or in general words for a client it does not know', () => {
    expect(keyMistakeFixes('whitespace', 'postman', 'PostmanRuntime/7.39.0')).toEqual([KEY_MISTAKE_MESSAGES.whitespace, expect.stringContaining('Authorization > Bearer Token and paste the key again alone')]);
    expect(keyMistakeFixes('line_break', 'httpie', 'HTTPie/3.2.2')).toEqual([KEY_MISTAKE_MESSAGES.line_break, expect.stringContaining('-A bearer -a')]);
    expect(keyMistakeFixes('quotes', 'http-client', 'Go-http-client/2.0')).toEqual([KEY_MISTAKE_MESSAGES.quotes, expect.stringContaining('remove surrounding quotes')]);
  });
});
