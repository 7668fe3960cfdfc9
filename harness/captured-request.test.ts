import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CapturedRequestError, parseCurl } from './captured-request';

const URL = 'https://site.test/api/blog';
const encoder = new TextEncoder();

/** A reader holding one file, recording the names asked for. */
function files(content: Record<string, string>) {
  const asked: string[] = [];
  return {
    asked,
    readFile: (name: string) => {
      asked.push(name);
      const text = content[name];
      if (text === undefined) throw new Error(`no file ${name}`);
      return encoder.encode(text);
    },
  };
}

describe('curl bodies from @file', () => {
  it('reads -d, --data and --data-ascii without CR and LF, --data-binary and --json byte for byte', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.constantFrom('\n', '\r\n', '\r'), (text, newline) => {
        const content = `${text}${newline}${text}${newline}`;
        for (const flag of ['-d', '--data', '--data-ascii']) {
          expect(parseCurl(`curl ${URL} ${flag} @body.txt`, files({ 'body.txt': content })).request.body).toBe(content.replace(/[\r\n]/g, ''));
        }
        for (const flag of ['--data-binary', '--json']) {
          expect(parseCurl(`curl ${URL} ${flag} @body.txt`, files({ 'body.txt': content })).request.body).toBe(content);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('takes --data-raw literally, and reads the attached form -d@file', () => {
    const reader = files({ 'post.json': '{"a":1}' });
    expect(parseCurl(`curl ${URL} --data-raw @post.json`, reader).request.body).toBe('@post.json');
    expect(reader.asked).toEqual([]);
    expect(parseCurl(`curl ${URL} -d@post.json -XPUT`, reader).request).toMatchObject({ body: '{"a":1}', method: 'PUT' });
    expect(reader.asked).toEqual(['post.json']);
  });

  it('url-encodes --data-urlencode name@file and name=content as curl does, and joins pieces with &', () => {
    const reader = files({ 'note.txt': 'a b&c/é' });
    const body = parseCurl(`curl ${URL} --data-urlencode note@note.txt --data-urlencode 'x=1 2' -d y=3`, reader).request.body;
    expect(body).toBe('note=a%20b%26c%2F%C3%A9&x=1%202&y=3');
  });

  it('passes on what the reader throws, and explains @- and a missing reader', () => {
    expect(() => parseCurl(`curl ${URL} -d @gone.json`, files({}))).toThrow('no file gone.json');
    expect(() => parseCurl(`curl ${URL} -d @-`, files({}))).toThrow(/standard input/);
    expect(() => parseCurl(`curl ${URL} --data-binary @post.json`)).toThrow(CapturedRequestError);
    expect(() => parseCurl(`curl ${URL} --data-binary @post.json`)).toThrow(/post\.json/);
  });
});
