/** What support staff and the CLI are told about answers of the compliance gate. */
import { describe, expect, it } from 'vitest';
import { checkCompliance } from '../contract/compliance';
import { clientFromUserAgent, diagnoseResponse } from './diagnose';

const findings = checkCompliance({ content: '<p>This policy offers guaranteed returns.</p>' });

describe('diagnoseResponse and the compliance gate', () => {
  it('explains a 422 compliance_blocked with each finding and its rewrite, before the guidance', () => {
    const body = {
      success: false,
      code: 'compliance_blocked',
      status: 422,
      message: 'The post makes a claim the agency does not publish (guaranteed-returns).',
      guidance: ['Rewrite each finding in `findings` as its suggestion says.'],
      findings,
    };
    const diagnosis = diagnoseResponse({ status: 422, headers: {}, text: JSON.stringify(body) });
    expect(diagnosis).toMatchObject({ ok: false, code: 'compliance_blocked', cause: expect.stringContaining('422 compliance_blocked') });
    expect(diagnosis.fixes[0]).toMatch(/^high guaranteed-returns: "guaranteed returns": .*claims-paying ability/);
    expect(diagnosis.fixes.at(-1)).toMatch(/Rewrite each finding/);
  });

  it('says a created post was held for review, and lists what held it', () => {
    const body = { success: true, message: 'Blog post created and held', post: { id: 'x', slug: 'held-post', status: 'in_review' }, warnings: [], findings };
    const diagnosis = diagnoseResponse({ status: 201, headers: {}, text: JSON.stringify(body) });
    expect(diagnosis.ok).toBe(true);
    expect(diagnosis.cause).toMatch(/created the post "held-post" and held it for compliance review/);
    expect(diagnosis.warnings).toEqual([expect.stringMatching(/^high guaranteed-returns:/)]);
  });
});

describe('diagnoseResponse', () => {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => diagnoseResponse({ status, headers, text: JSON.stringify(body) });

  it('names each created, replayed, validated and accepted answer for what it is, with its warnings', () => {
    expect(json(201, { post: { slug: 'a-post', status: 'published' }, warnings: ['Removed <script>'] })).toEqual({
      ok: true,
      status: 201,
      cause: '201: the API created the post "a-post" as published',
      fixes: [],
      warnings: ['Removed <script>'],
    });
    expect(json(201, { post: { slug: 'a-post' } }).cause).toBe('201: the API created the post "a-post"');
    expect(json(200, { post: { slug: 'a-post' } }, { 'idempotency-replayed': 'true' }).cause).toBe(
      '200: the API answered with the post "a-post" created earlier with this Idempotency-Key (nothing new was created)',
    );
    expect(json(201, { post: { slug: 'a-post' } }, { 'idempotency-replayed': 'false' }).cause).toBe('201: the API created the post "a-post"');
    expect(json(200, { valid: true, warnings: [1] })).toMatchObject({ ok: true, cause: '200: the API accepted the post (validated only, nothing was saved)', warnings: ['1'] });
    expect(json(200, { post: { slug: 'a-post' } }).cause).toBe('200: the API accepted the request');
    expect(json(204, null)).toMatchObject({ ok: true, cause: '204: the API accepted the request', warnings: [] });
    expect(json(201, { post: { slug: 5 }, warnings: 'not a list' })).toMatchObject({ cause: '201: the API accepted the request', warnings: [] });
    // A replayed validation names no post: it is not called a post created earlier.
    expect(json(200, { valid: true }, { 'idempotency-replayed': 'true' }).cause).toBe('200: the API accepted the post (validated only, nothing was saved)');
  });

  it('lists findings held in review only when they are readable, marking accepted ones', () => {
    const body = {
      post: { slug: 'held', status: 'in_review' },
      findings: [
        { rule: 'risk-free', severity: 'high', message: 'Says risk-free.', suggestion: 'Say what the risks are.', accepted: { reason: 'quoted' } },
        { rule: 'x', severity: 'medium', message: 'No suggestion.' },
        { rule: 'no-message', severity: 'high' },
        { severity: 'low', message: 'A finding without a rule.' },
        null,
        'text',
      ],
    };
    expect(json(201, body).warnings).toEqual(['high risk-free (accepted): Says risk-free. Say what the risks are.', 'medium x: No suggestion.']);
    expect(json(201, { post: { slug: 'held', status: 'in_review' }, findings: 'none' }).warnings).toEqual([]);
  });

  it("explains an API error body by its code, message, field problems and the answer's own guidance", () => {
    const body = {
      success: false,
      code: 'validation_failed',
      status: 400,
      message: '2 fields are missing or invalid: title, content.',
      errors: [
        { field: 'title', message: 'is required' },
        { field: 'content', message: 'is required' },
      ],
      guidance: ['Include all required fields.'],
    };
    expect(json(400, body)).toEqual({
      ok: false,
      status: 400,
      code: 'validation_failed',
      cause: '400 validation_failed: 2 fields are missing or invalid: title, content.',
      fixes: ['title: is required', 'content: is required', 'Include all required fields.'],
      warnings: [],
    });
    const noGuidance = json(500, { success: false, code: 'server_error', status: 500, message: 'Something failed.', guidance: [] });
    expect(noGuidance.fixes).toEqual(['Contact support or try again later.', 'Quote the requestId of this answer when you contact support.']);
  });

  it('says a successful answer that is not JSON points at the wrong place', () => {
    expect(diagnoseResponse({ status: 200, headers: {}, text: '<html>hi</html>' })).toEqual({
      ok: false,
      status: 200,
      cause: 'Failed to parse response: <html>hi</html> (status 200)',
      fixes: ['The answer should be JSON: check that the URL points at the blog API itself and not at a page or a proxy.'],
      warnings: [],
    });
    expect(diagnoseResponse({ status: 200, headers: {}, text: '  ' }).cause).toBe('Failed to parse response: (empty body) (status 200)');
    expect(diagnoseResponse({ status: 299, headers: {}, text: 'x' }).ok).toBe(false);
  });

  it('explains an answer without an API error body by its status: a proxy page, a plain text or JSON of another shape', () => {
    const proxy = diagnoseResponse({ status: 502, headers: {}, text: '  <!DOCTYPE html><p>Bad gateway</p>' });
    expect(proxy).toMatchObject({ ok: false, status: 502, code: 'server_error', warnings: [] });
    expect(proxy.cause).toBe(
      "502 Server error: the answer is an HTML page, not the API's JSON (a proxy, gateway or load balancer in front of the API answered)",
    );
    expect(proxy.fixes[0]).toBe('The API server did not answer the proxy in front of it: check that it is running and reachable, then retry.');
    for (const status of [503, 504]) expect(diagnoseResponse({ status, headers: {}, text: '' }).fixes[0], String(status)).toMatch(/did not answer the proxy/);
    const plain = diagnoseResponse({ status: 500, headers: {}, text: 'x'.repeat(400) });
    expect(plain.cause).toBe(`500 Server error: Failed to parse response: ${'x'.repeat(300)}`);
    expect(plain.fixes).toEqual(['Contact support or try again later.', 'Quote the requestId of this answer when you contact support.']);
    expect(json(404, { error: 'nope' })).toMatchObject({ code: 'not_found', cause: '404 Not found' });
    expect(diagnoseResponse({ status: 404, headers: {}, text: 'a <html> page' }).cause).toBe('404 Not found: Failed to parse response: a <html> page');
    // The text is quoted without the blank lines and spaces around it.
    expect(diagnoseResponse({ status: 404, headers: {}, text: '\n  no such page  \n' }).cause).toBe('404 Not found: Failed to parse response: no such page');
    // A 3xx the client did not follow is no success, even with a JSON body.
    expect(json(300, { post: { slug: 'a-post' } })).toMatchObject({ ok: false, status: 300 });
  });

  it('calls a 1xx answer no success, even with a JSON body (a HAR file given to `diagnose --request` may hold one)', () => {
    expect(json(103, { post: { slug: 'a-post' } })).toMatchObject({ ok: false, status: 103, code: 'bad_request', cause: '103 Bad request' });
    expect(json(199, {})).toMatchObject({ ok: false, status: 199 });
  });
});

describe('clientFromUserAgent', () => {
  it('tells the client from its User-Agent, for the guidance that suits it', () => {
    expect(clientFromUserAgent('PostmanRuntime/7.36.0')).toBe('postman');
    expect(clientFromUserAgent('python-requests/2.31')).toBe('python');
    expect(clientFromUserAgent(undefined)).toBe('unknown');
  });
});
