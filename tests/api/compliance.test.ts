/**
 * The compliance gate over real HTTP, in each COMPLIANCE_MODE: a post claiming "guaranteed returns"
 * and calling IUL "risk-free" gets its findings (warn), is held as in_review and kept off every public
 * answer until approved (review), or is refused with a 422 naming the findings (block). Drafts are
 * never held; a blog:admin key is not held; accepted findings carry their reason; every decision of
 * the gate is in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse, ValidatePostResponse } from '../../contract/blog';
import type { ListPostsResponse } from '../../contract/blog-reader';
import type { ComplianceFinding } from '../../contract/compliance';
import type { ApiErrorBody } from '../../contract/errors';
import type { GetPostByIdResponse, PostWriteResponse } from '../../contract/post-lifecycle';
import { readServerEnv } from '../../api/server-env';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

const RISKY = '<p>Our IUL strategy offers guaranteed returns and is completely risk-free.</p><p>Ask us how it works.</p>';
const CAREFUL = '<p>Index credits have a 0% floor, so a market drop is not credited as a loss; policy charges still apply.</p>';

function rules(findings: readonly ComplianceFinding[]): string[] {
  return findings.map((finding) => finding.rule);
}

async function publicSlugs(server: TestServer): Promise<string[]> {
  const res = await call<ListPostsResponse>(server, 'GET', '/api/blog?limit=100');
  expect(res.status).toBe(200);
  return res.json.posts.map((post) => post.slug);
}

describe('COMPLIANCE_MODE=warn (the default)', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer({ api: { writesPerMinute: 0 } });
    key = await server.createKey('warn-author', ['blog:write'], 'warn-author');
  });
  afterAll(() => server.close());

  it('publishes the post and returns each finding with where it is and what to write instead', async () => {
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body: validPost({ status: 'published', content: RISKY }) });
    expect(res.status).toBe(201);
    expect(res.json.post.status).toBe('published');
    expect(rules(res.json.findings)).toEqual(expect.arrayContaining(['guaranteed-returns', 'risk-free']));
    const guaranteed = res.json.findings.find((finding) => finding.rule === 'guaranteed-returns');
    expect(guaranteed).toMatchObject({ severity: 'high', location: { field: 'content', text: 'guaranteed returns', line: 1 } });
    expect(RISKY.slice(guaranteed?.location?.start, guaranteed?.location?.end)).toBe('guaranteed returns');
    expect(guaranteed?.suggestion).toMatch(/claims-paying ability/);
    expect(res.json.warnings).toEqual([]);
    expect(await publicSlugs(server)).toContain(res.json.post.slug);
  });

  it('documents the findings on the usage-examples page, with a finding the rules made and the modes', async () => {
    const res = await fetch(`${server.url}/api/usage-examples`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const section = html.slice(html.indexOf('data-testid="compliance-findings"'));
    expect(section).toContain('Compliance findings');
    expect(section).toMatch(/&quot;rule&quot;: &quot;guaranteed-returns&quot;|"rule": "guaranteed-returns"/);
    expect(section).toMatch(/claims-paying ability/);
    for (const mode of ['warn', 'review', 'block']) expect(section).toContain(`<code>${mode}</code>`);
  });

  it('validate and PATCH return the same findings; a careful rewrite has none of them', async () => {
    const validated = await call<ValidatePostResponse>(server, 'POST', '/api/blog/validate', { body: validPost({ title: 'Validate risky', content: RISKY }) });
    expect(validated.status).toBe(200);
    expect(rules(validated.json.findings)).toEqual(expect.arrayContaining(['guaranteed-returns', 'risk-free']));
    const created = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body: validPost({ title: 'Patch me', status: 'published', content: RISKY }) });
    const patched = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${created.json.post.id}`, { key, body: { content: CAREFUL }, headers: { 'if-match': created.json.post.etag } });
    expect(patched.status).toBe(200);
    expect(patched.json.findings.filter((finding) => finding.severity === 'high')).toEqual([]);
  });

  it('marks an accepted finding with the reason, and warns of an acceptance naming no rule', async () => {
    const reason = 'Quoted from the regulator order this news article reports on.';
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', {
      key,
      body: validPost({ title: 'Accepted claim', status: 'draft', content: RISKY, compliance: { accept: [{ rule: 'risk-free', reason }, { rule: 'no-such-rule', reason }] } }),
    });
    expect(res.status).toBe(201);
    expect(res.json.findings.find((finding) => finding.rule === 'risk-free')?.accepted).toEqual({ reason });
    expect(res.json.findings.find((finding) => finding.rule === 'guaranteed-returns')?.accepted).toBeUndefined();
    expect(res.json.warnings.join('\n')).toMatch(/"no-such-rule", which is no compliance rule: the known rules are .*risk-free/);
  });

  it('refuses an acceptance without a reason, naming the field', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key, body: validPost({ title: 'No reason', content: RISKY, compliance: { accept: [{ rule: 'risk-free', reason: 'ok' }] } }) });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([expect.objectContaining({ field: 'compliance.accept[0].reason', message: expect.stringMatching(/reason must be at least 10 characters/) })]);
    const mine = await call<ListPostsResponse>(server, 'GET', '/api/blog?mine=1', { key });
    expect(mine.json.posts.map((post) => post.title)).not.toContain('No reason');
  });
});

describe('COMPLIANCE_MODE=review', () => {
  let server: TestServer;
  let author: string;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer({ api: { writesPerMinute: 0, complianceMode: 'review' } });
    author = await server.createKey('review-author', ['blog:write'], 'review-author');
    admin = await server.createKey('review-admin', ['blog:admin']);
  });
  afterAll(() => server.close());

  it('holds a risky post as in_review, off the public list, page and feed, and tells its author why', async () => {
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: author, body: validPost({ title: 'Held for review', status: 'published', content: RISKY }) });
    expect(res.status).toBe(201);
    expect(res.json.post.status).toBe('in_review');
    expect(res.json.post.review).toMatchObject({ state: 'pending', requested_status: 'published', note: null });
    expect(res.json.post.review?.rules).toEqual(expect.arrayContaining(['guaranteed-returns', 'risk-free']));
    expect(res.json.message).toMatch(/held for compliance review/i);
    const { slug, id } = res.json.post;

    expect(await publicSlugs(server)).not.toContain(slug);
    expect((await call(server, 'GET', `/api/blog/${slug}`)).status).toBe(404);
    expect((await fetch(`${server.url}/blog/${slug}`)).status).toBe(404);
    expect(await (await fetch(`${server.url}/rss.xml`)).text()).not.toContain(slug);
    expect(await (await fetch(`${server.url}/sitemap.xml`)).text()).not.toContain(slug);

    const own = await call<GetPostByIdResponse>(server, 'GET', `/api/blog/${id}`, { key: author });
    expect(own.json.post).toMatchObject({ status: 'in_review', review: { state: 'pending' } });
    const mine = await call<ListPostsResponse>(server, 'GET', '/api/blog?status=in_review', { key: author });
    expect(mine.json.posts.map((post) => post.id)).toContain(id);

    const audit = await server.store.audit.list();
    expect(audit.find((entry) => entry.action === 'post.held_for_review' && entry.target === id)).toMatchObject({ actor: expect.stringMatching(/^key:/) });
  });

  it('lets the author fix the wording: a change without high findings publishes as asked', async () => {
    const created = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: author, body: validPost({ title: 'Fixed by its author', status: 'published', content: RISKY }) });
    expect(created.json.post.status).toBe('in_review');
    const patched = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${created.json.post.id}`, { key: author, body: { content: CAREFUL }, headers: { 'if-match': created.json.post.etag } });
    expect(patched.status).toBe(200);
    expect(patched.json.post.status).toBe('published');
    expect(patched.json.post.review).toBeUndefined();
    expect(await publicSlugs(server)).toContain(created.json.post.slug);
  });

  it('holds a published post whose edit adds a risky claim, and a revert to risky wording', async () => {
    const created = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: author, body: validPost({ title: 'Edited into trouble', status: 'published', content: CAREFUL }) });
    expect(created.json.post.status).toBe('published');
    const patched = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${created.json.post.id}`, { key: author, body: { content: RISKY }, headers: { 'if-match': created.json.post.etag } });
    expect(patched.json.post.status).toBe('in_review');
    expect(await publicSlugs(server)).not.toContain(created.json.post.slug);
    const fixed = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${created.json.post.id}`, { key: author, body: { content: CAREFUL }, headers: { 'if-match': patched.json.etag } });
    expect(fixed.json.post.status).toBe('published');
    const reverted = await call<PostWriteResponse>(server, 'POST', `/api/blog/${created.json.post.id}/revisions/2/revert`, { key: author, headers: { 'if-match': fixed.json.etag } });
    expect(reverted.status).toBe(200);
    expect(reverted.json.post.status).toBe('in_review');
  });

  it('never holds a draft, and does not hold a post from a blog:admin key', async () => {
    const draft = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: author, body: validPost({ title: 'Risky draft', status: 'draft', content: RISKY }) });
    expect(draft.json.post.status).toBe('draft');
    expect(rules(draft.json.findings)).toContain('risk-free');
    const byAdmin = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: admin, body: validPost({ title: 'Admin publishes', status: 'published', content: RISKY }) });
    expect(byAdmin.json.post.status).toBe('published');
    expect(rules(byAdmin.json.findings)).toContain('guaranteed-returns');
  });

  it('holds a scheduled post and keeps the time it asked for', async () => {
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: author, body: validPost({ title: 'Scheduled and risky', status: 'scheduled', publish_at: at, content: RISKY }) });
    expect(res.json.post).toMatchObject({ status: 'in_review', publish_at: null, review: { requested_status: 'scheduled', requested_publish_at: at } });
  });

  it('says in validate that the post would be held', async () => {
    const res = await call<ValidatePostResponse>(server, 'POST', '/api/blog/validate', { key: author, body: validPost({ title: 'Would be held', status: 'published', content: RISKY }) });
    expect(res.status).toBe(200);
    expect(res.json.post.status).toBe('in_review');
    expect(res.json.message).toMatch(/held for compliance review/i);
  });
});

describe('COMPLIANCE_MODE=block', () => {
  let server: TestServer;
  let author: string;
  beforeAll(async () => {
    server = await startTestServer({ api: { writesPerMinute: 0, complianceMode: 'block' } });
    author = await server.createKey('block-author', ['blog:write'], 'block-author');
  });
  afterAll(() => server.close());

  it('refuses the post with a 422 naming each finding, and stores nothing', async () => {
    const res = await call<ApiErrorBody & { findings: ComplianceFinding[] }>(server, 'POST', '/api/blog', { key: author, body: validPost({ title: 'Blocked claim', status: 'published', content: RISKY }) });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('compliance_blocked');
    expect(res.json.message).toMatch(/guaranteed-returns/);
    expect(rules(res.json.findings)).toEqual(expect.arrayContaining(['guaranteed-returns', 'risk-free']));
    expect(res.json.guidance?.join(' ') ?? JSON.stringify(res.json)).toMatch(/accept/);
    const mine = await call<ListPostsResponse>(server, 'GET', '/api/blog?mine=1', { key: author });
    expect(mine.json.posts.map((post) => post.title)).not.toContain('Blocked claim');
    const audit = await server.store.audit.list();
    expect(audit.some((entry) => entry.action === 'post.compliance_blocked' && String(entry.detail.rules).includes('risk-free'))).toBe(true);
  });

  it('refuses a PATCH that adds the claim, leaving the post as it was', async () => {
    const created = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: author, body: validPost({ title: 'Careful in block mode', status: 'published', content: CAREFUL }) });
    expect(created.status).toBe(201);
    const patched = await call<ApiErrorBody>(server, 'PATCH', `/api/blog/${created.json.post.id}`, { key: author, body: { content: RISKY }, headers: { 'if-match': created.json.post.etag } });
    expect(patched.status).toBe(422);
    const read = await call<GetPostByIdResponse>(server, 'GET', `/api/blog/${created.json.post.id}`);
    expect(read.json.post).toMatchObject({ status: 'published', content: CAREFUL, revision: 1 });
  });

  it('holds for review, instead of refusing, a post whose author accepted the findings with reasons', async () => {
    const accept = [
      { rule: 'guaranteed-returns', reason: 'The post quotes the claim to show readers what to watch for.' },
      { rule: 'risk-free', reason: 'The post quotes the claim to show readers what to watch for.' },
    ];
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: author, body: validPost({ title: 'Quoted claims', status: 'published', content: RISKY, compliance: { accept } }) });
    expect(res.status).toBe(201);
    expect(res.json.post.status).toBe('in_review');
  });

  it('keeps a draft, with its findings', async () => {
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: author, body: validPost({ title: 'Blocked mode draft', status: 'draft', content: RISKY }) });
    expect(res.status).toBe(201);
    expect(rules(res.json.findings)).toContain('risk-free');
  });
});

describe('COMPLIANCE_MODE in the environment', () => {
  it('takes warn, review and block in any case, and refuses anything else saying what it takes', () => {
    expect(readServerEnv({}).complianceMode).toBe('warn');
    expect(readServerEnv({ COMPLIANCE_MODE: ' Review ' }).complianceMode).toBe('review');
    expect(() => readServerEnv({ COMPLIANCE_MODE: 'strict' })).toThrow(/COMPLIANCE_MODE must be one of warn, review, block, not "strict"/);
  });
});
