/**
 * The staff area's edits meet COMPLIANCE_MODE as the API's changes do: both go through the one post
 * service (api/services/post-service.ts). Under block, a reviewer's edit that adds a claim the agency
 * does not publish is refused and leaves the post as it was, with the refusal in the audit log under
 * the staff member's e-mail, as a key's PATCH with the same claim is refused and recorded under the
 * key. Under review, a key's PATCH that adds the claim is held, and a reviewer's edit that adds one is
 * saved and still waits for review, on no public list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import type { ListPostsResponse } from '../../contract/blog-reader';
import type { ApiErrorBody } from '../../contract/errors';
import type { PostWriteResponse } from '../../contract/post-lifecycle';
import type { ComplianceMode } from '../../contract/compliance';
import { loginTokenOf, type StaffClient, staffClient } from '../support/staff-client';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

const EMAIL = 'reviewer@example.com';
const PASSWORD = 'a reviewer passphrase that is long 9';
/** Says "guaranteed returns" (accepted below, so the post is held rather than refused). */
const QUOTED = '<p>A regulator fined an agent who promised guaranteed returns on an IUL.</p>';
const ACCEPTED = [{ rule: 'guaranteed-returns', reason: 'The post quotes the claim to show readers what to watch for.' }];
/** Adds "risk-free", which nobody accepted. */
const RISKY = '<p>A regulator fined an agent who promised guaranteed returns on an IUL.</p><p>Our policy is completely risk-free.</p>';
const CAREFUL = '<p>A regulator fined an agent who promised guaranteed returns on an IUL.</p><p>Index credits have a 0% floor; policy charges still apply.</p>';

interface Setup {
  server: TestServer;
  /** blog:write, not blog:admin: the gate holds its posts. */
  author: string;
  staff: StaffClient;
}

async function setUp(complianceMode: ComplianceMode): Promise<Setup> {
  const server = await startTestServer({ api: { writesPerMinute: 0, complianceMode } });
  await server.seedStaff(EMAIL, PASSWORD, 'Riley Reviewer');
  const author = await server.createKey('Compliance author', ['blog:write'], 'Compliance author');
  const staff = staffClient(server.url);
  const loginToken = await loginTokenOf(staff);
  expect((await staff.request('/admin/login', { form: { email: EMAIL, password: PASSWORD, loginToken, next: '/admin/review' } })).status).toBe(303);
  return { server, author, staff };
}

/** A post held for review: it asks to be published with a high finding. */
async function heldPost({ server, author }: Setup, title: string, body: Record<string, unknown>): Promise<{ id: string; etag: string }> {
  const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: author, body: validPost({ title, status: 'published', ...body }) });
  expect(res.status).toBe(201);
  expect(res.json.post.status).toBe('in_review');
  return { id: res.json.post.id, etag: res.json.post.etag };
}

/** The reviewer's edit form sent for a post, with `content` as the new body. */
async function reviewerEdit({ staff }: Setup, id: string, content: string): Promise<{ status: number; text: string }> {
  const page = await (await staff.request(`/admin/review/${id}`)).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const revision = /name="revision" value="(\d+)"/.exec(page)?.[1] ?? '';
  const res = await staff.request(`/admin/review/${id}`, {
    form: { intent: 'edit', id, revision, _csrf: csrf, title: 'What a Regulator Fined an Agent For', excerpt: 'A claim agents must never make, and why.', content },
  });
  return { status: res.status, text: (await res.text()).replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'") };
}

describe('COMPLIANCE_MODE=block', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp('block');
  });
  afterAll(() => setup?.server.close());

  it("refuses a key's PATCH that adds a claim nobody accepted, and records it under the key", async () => {
    const post = await heldPost(setup, 'A Quoted Claim, Patched', { content: QUOTED, compliance: { accept: ACCEPTED } });
    const res = await call<ApiErrorBody>(setup.server, 'PATCH', `/api/blog/${post.id}`, { key: setup.author, body: { content: RISKY }, headers: { 'if-match': post.etag } });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('compliance_blocked');
    const audit = await setup.server.store.audit.list();
    expect(audit.find((entry) => entry.action === 'post.compliance_blocked' && entry.target === post.id)).toMatchObject({ actor: expect.stringMatching(/^key:/), detail: { rules: 'risk-free', mode: 'block' } });
  });

  it("refuses a reviewer's edit that adds the claim, leaves the post as it was, and records it under the staff member", async () => {
    const post = await heldPost(setup, 'A Quoted Claim, Edited', { content: QUOTED, compliance: { accept: ACCEPTED } });
    const before = await setup.server.store.posts.getById(post.id);
    const refused = await reviewerEdit(setup, post.id, RISKY);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('The change makes a claim the agency does not publish (risk-free)');
    expect(refused.text).toContain('The post was not changed.');
    const after = await setup.server.store.posts.getById(post.id);
    expect(after).toMatchObject({ status: 'in_review', revision: before?.revision, content: QUOTED });
    const audit = await setup.server.store.audit.list();
    expect(audit.find((entry) => entry.action === 'post.compliance_blocked' && entry.target === post.id)).toMatchObject({
      actor: `staff:${EMAIL}`,
      detail: { rules: 'risk-free', mode: 'block' },
      ip: expect.any(String),
    });
    expect(audit.some((entry) => entry.action === 'review.edited' && entry.target === post.id)).toBe(false);

    // Careful wording passes the same gate: saved, still waiting for review.
    const saved = await reviewerEdit(setup, post.id, CAREFUL);
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Saved: the post still waits for review.');
    expect((await setup.server.store.audit.list()).some((entry) => entry.action === 'review.edited' && entry.target === post.id && entry.actor === `staff:${EMAIL}`)).toBe(true);
  });
});

describe('COMPLIANCE_MODE=review', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp('review');
  });
  afterAll(() => setup?.server.close());

  async function publicIds(): Promise<string[]> {
    return (await call<ListPostsResponse>(setup.server, 'GET', '/api/blog?limit=100')).json.posts.map((post) => post.id);
  }

  it("holds a key's PATCH that adds the claim, and keeps a reviewer's edit that adds one waiting for review", async () => {
    const created = await call<CreatePostResponse>(setup.server, 'POST', '/api/blog', { key: setup.author, body: validPost({ title: 'Careful Until Patched', status: 'published', content: CAREFUL.replace('guaranteed returns', 'high returns') }) });
    expect(created.json.post.status).toBe('published');
    const patched = await call<PostWriteResponse>(setup.server, 'PATCH', `/api/blog/${created.json.post.id}`, { key: setup.author, body: { content: RISKY }, headers: { 'if-match': created.json.post.etag } });
    expect(patched.status).toBe(200);
    expect(patched.json.post.status).toBe('in_review');
    expect(await publicIds()).not.toContain(created.json.post.id);

    const post = await heldPost(setup, 'A Quoted Claim, Reviewed', { content: QUOTED, compliance: { accept: ACCEPTED } });
    const edited = await reviewerEdit(setup, post.id, RISKY);
    expect(edited.status).toBe(200);
    expect(edited.text).toContain('Saved: the post still waits for review.');
    expect(await setup.server.store.posts.getById(post.id)).toMatchObject({ status: 'in_review', content: RISKY });
    expect(await publicIds()).not.toContain(post.id);
  });
});
