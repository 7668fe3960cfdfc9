import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatApiKey } from '../contract/keys';
import { parseCapturedRequest, parseCurl, parseHar, CapturedRequestError } from './captured-request';
import { diagnoseRequest } from './diagnose-request';
import { SAMPLE_POST } from './sample-post';

const KEY = formatApiKey('AbCdEfGhIj', 'b'.repeat(32));
const json = JSON.stringify(SAMPLE_POST);

describe('parseCurl', () => {
  it('reads method, URL, headers and body, joining line continuations', () => {
    const captured = parseCurl(`curl -X POST https://site.test/api/blog \\\n  -H 'Authorization: Bearer ${KEY}' \\\n  -H "Content-Type: application/json" \\\n  -d '${json}'`);
    expect(captured.request).toMatchObject({ method: 'POST', url: 'https://site.test/api/blog', body: json });
    expect(captured.request.headers).toMatchObject({ Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'User-Agent': 'curl/8.5.0' });
  });

  it('gives -d without a Content-Type the form type curl itself sends', () => {
    expect(parseCurl(`curl https://site.test/api/blog -d 'title=x'`).request.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(parseCurl(`curl --json '{"a":1}' https://site.test/api/blog`).request).toMatchObject({ method: 'POST', headers: { 'Content-Type': 'application/json' } });
  });

  it('explains what it cannot read', () => {
    expect(() => parseCurl('wget https://x')).toThrow(/does not start with "curl"/);
    expect(() => parseCurl('curl -H')).toThrow(/has no value/);
    expect(() => parseCurl('curl -X POST')).toThrow(/no URL/);
    expect(() => parseCurl('curl https://x | jq')).toThrow(/shell operators/);
  });

  it('never throws anything but CapturedRequestError on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (tail) => {
        try {
          parseCapturedRequest(`curl ${tail}`);
        } catch (error) {
          expect(error).toBeInstanceOf(CapturedRequestError);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parseHar', () => {
  it('takes the last blog API request and its response', () => {
    const har = {
      log: {
        entries: [
          { request: { method: 'GET', url: 'https://site.test/', headers: [] } },
          {
            request: { method: 'POST', url: 'https://site.test/api/blog', headers: [{ name: ':authority', value: 'x' }, { name: 'content-type', value: 'text/plain' }], postData: { mimeType: 'text/plain', text: json } },
            response: { status: 415, headers: [{ name: 'Content-Type', value: 'application/json' }], content: { text: '{"success":false}' } },
          },
          { request: { method: 'GET', url: 'https://site.test/favicon.svg', headers: [] } },
        ],
      },
    };
    const captured = parseHar(JSON.stringify(har));
    expect(captured.request).toEqual({ method: 'POST', url: 'https://site.test/api/blog', headers: { 'content-type': 'text/plain' }, body: json });
    expect(captured.response).toEqual({ status: 415, headers: { 'content-type': 'application/json' }, text: '{"success":false}' });
    expect(() => parseHar('{"log":{"entries":[]}}')).toThrow(/holds no requests/);
    expect(() => parseHar('nope')).toThrow(/not valid JSON/);
  });
});

describe('diagnoseRequest', () => {
  const good = { method: 'POST', url: 'https://site.test/api/blog', headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' }, body: json };

  it('finds nothing wrong with a correct request', () => {
    expect(diagnoseRequest(good)).toEqual([]);
  });

  it('names a missing key, a mistyped key and a wrong method', () => {
    expect(diagnoseRequest({ ...good, headers: { 'Content-Type': 'application/json' } }).map((f) => f.code)).toEqual(['missing_api_key']);
    const mistyped = `${KEY.slice(0, -1)}${KEY.endsWith('A') ? 'B' : 'A'}`;
    expect(diagnoseRequest({ ...good, headers: { ...good.headers, Authorization: `Bearer ${mistyped}` } })[0]?.cause).toMatch(/checksum/);
    expect(diagnoseRequest({ ...good, method: 'PUT' }).map((f) => f.code)).toEqual(['method_not_allowed']);
  });

  it('explains a Python form body and a body serialised twice, with Python guidance', () => {
    const form = diagnoseRequest({
      ...good,
      headers: { ...good.headers, 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'python-requests/2.31' },
      body: 'title=x',
    });
    expect(form.map((f) => f.code)).toEqual(['unsupported_media_type']);
    expect(form[0]?.fixes.join(' ')).toContain('json=post');
    const twice = diagnoseRequest({ ...good, body: JSON.stringify(json), headers: { ...good.headers, 'User-Agent': 'python-requests/2.31' } });
    expect(twice.map((f) => f.code)).toEqual(['body_is_json_string']);
    expect(twice[0]?.fixes.join(' ')).toContain('json.dumps');
  });

  it("names Postman's Text body and lists every missing field", () => {
    const text = diagnoseRequest({ ...good, headers: { ...good.headers, 'Content-Type': 'text/plain', 'User-Agent': 'PostmanRuntime/7.39.0' } });
    expect(text[0]?.cause).toContain('Postman: Body type left on Text');
    expect(text[0]?.fixes.join(' ')).toContain('raw and then JSON');
    const missing = diagnoseRequest({ ...good, body: '{"title":"Hello there"}' });
    expect(missing[0]?.code).toBe('validation_failed');
    expect(missing[0]?.fixes.slice(0, 5).map((line) => line.split(':')[0])).toEqual(['content', 'excerpt', 'category', 'status', 'author.name']);
  });
});
