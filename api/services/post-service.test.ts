/**
 * The one post service over a real store in a temporary directory: a create and a change meet the same
 * gate and write the same audit entries, whoever asks (a key, a staff member), and the staff member's
 * changes obey COMPLIANCE_MODE as a key's do; a staff member's every change is recorded, a key's only
 * where compliance decided; the site's own posts are never held or refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { postInput as input } from '../../tests/support/post-input';
import type { ComplianceMode } from '../../contract/compliance';
import { ApiError } from '../../contract/errors';
import { parseIfMatch, postEtag } from '../../contract/post-lifecycle';
import { openSqliteStore } from '../store/sql/sql-store';
import type { Store } from '../store/store';
import { keyActor, SITE_ACTOR, staffActor } from './actors';
import { createServices, type Services } from './services';

const NOW = new Date('2026-11-25T10:00:00.000Z');
const RISKY = '<p>Our IUL strategy offers guaranteed returns and is completely risk-free.</p>';
const QUOTED = '<p>A regulator fined an agent who promised guaranteed returns on an IUL.</p>';
const ACCEPTED = [{ rule: 'guaranteed-returns', reason: 'The post quotes the claim to show readers what to watch for.' }];
const AUTHOR = keyActor({ id: 'AuthorKey1', owner: 'acme', permissions: ['blog:write'] }, '203.0.113.9');
const STAFF = staffActor('jane@example.com', '198.51.100.7');

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function servicesIn(complianceMode: ComplianceMode, clock: () => Date = () => NOW): Promise<Services> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-post-service-'));
  dirs.push(dir);
  const store = await openSqliteStore(dir);
  stores.push(store);
  return createServices(store, { complianceMode }, clock);
}


/** The If-Match of a client that read this version. */
function etagOf(post: { id: string; revision: number }) {
  return parseIfMatch(postEtag(post.id, post.revision));
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('the compliance gate, for keys and staff alike', () => {
  it('refuses a reviewer’s edit that adds a claim under block, leaving the post, and records it under the staff member', async () => {
    const { posts, store } = await servicesIn('block');
    const { post } = await posts.create(input({ content: QUOTED, compliance: { accept: ACCEPTED } }), AUTHOR);
    expect(post.status).toBe('in_review');
    const error = await refusal(posts.reviewEdit(post.id, post.revision, { title: post.title, excerpt: post.excerpt, content: RISKY }, STAFF));
    expect(error.code).toBe('compliance_blocked');
    expect(error.message).toContain('The post was not changed.');
    expect(await store.posts.getById(post.id)).toMatchObject({ revision: post.revision, content: QUOTED, status: 'in_review' });
    const audit = await store.audit.list();
    expect(audit.find((entry) => entry.action === 'post.compliance_blocked')).toEqual({
      at: NOW.toISOString(),
      actor: 'staff:jane@example.com',
      action: 'post.compliance_blocked',
      target: post.id,
      detail: { rules: 'risk-free', mode: 'block' },
      ip: '198.51.100.7',
    });
    expect(audit.some((entry) => entry.action === 'review.edited')).toBe(false);
  });

  it('keeps a reviewer’s edit with a claim under review waiting for review, recorded as an edit', async () => {
    const { posts, store } = await servicesIn('review');
    const { post } = await posts.create(input({ content: QUOTED }), AUTHOR);
    expect(post.status).toBe('in_review');
    const answer = await posts.reviewEdit(post.id, post.revision, { title: post.title, excerpt: post.excerpt, content: RISKY }, STAFF);
    expect(answer.post.status).toBe('in_review');
    expect(answer.findings.map((finding) => finding.rule)).toEqual(expect.arrayContaining(['guaranteed-returns', 'risk-free']));
    expect((await store.audit.list()).map((entry) => [entry.action, entry.actor])).toEqual([
      ['post.created', 'key:AuthorKey1'],
      ['post.held_for_review', 'key:AuthorKey1'],
      ['review.edited', 'staff:jane@example.com'],
    ]);
  });

  it('records a key’s create decisions with the request’s address, and its change decisions without one', async () => {
    const { posts, store } = await servicesIn('review');
    const { post } = await posts.create(input({ content: QUOTED }), AUTHOR);
    const careful = await posts.create(input({ title: 'Careful, Then Patched' }), AUTHOR);
    expect(careful.post.status).toBe('published');
    const patched = await posts.update(careful.post.id, { content: RISKY }, 'merge', etagOf(careful.post), AUTHOR);
    expect(patched.post.status).toBe('in_review');
    const held = (await store.audit.list()).filter((entry) => entry.action === 'post.held_for_review');
    expect(held.map((entry) => [entry.target, entry.ip, entry.detail])).toEqual([
      [post.id, '203.0.113.9', { rules: 'guaranteed-returns', mode: 'review' }],
      [careful.post.id, null, { rules: 'guaranteed-returns, risk-free', mode: 'review' }],
    ]);
  });

  it('never holds or refuses the site’s own posts (the demo content), and records nothing for them', async () => {
    const { posts, store } = await servicesIn('block');
    const created = await posts.create(input({ content: RISKY }), SITE_ACTOR);
    expect(created.post.status).toBe('published');
    expect(created.findings.map((finding) => finding.rule)).toEqual(expect.arrayContaining(['guaranteed-returns', 'risk-free']));
    expect(await store.audit.list()).toEqual([]);
  });
});

describe('the audit log', () => {
  it('records every change to a post, made with a key (the API, the CLI) or by staff, with the revision it made', async () => {
    const { posts, store } = await servicesIn('warn');
    const first = await posts.create(input({ title: 'Trashed by a Key' }), AUTHOR);
    const patched = await posts.update(first.post.id, { excerpt: 'A shorter summary.' }, 'merge', etagOf(first.post), AUTHOR);
    await posts.update(first.post.id, { excerpt: 'A shorter summary.' }, 'merge', etagOf(patched.post), AUTHOR);
    await posts.trash(first.post.id, undefined, AUTHOR);
    await posts.trash(first.post.id, undefined, AUTHOR);
    await posts.restore(first.post.id, AUTHOR);
    const second = await posts.create(input({ title: 'Changed by Staff' }), AUTHOR);
    const unpublished = await posts.unpublish(second.post.id, etagOf(second.post), STAFF);
    expect(unpublished.post.status).toBe('draft');
    await posts.trash(second.post.id, undefined, STAFF);
    await posts.restore(second.post.id, STAFF);
    const key = 'key:AuthorKey1';
    // A change that changes nothing (the same excerpt again, the trash again) is not a change.
    expect((await store.audit.list()).map((entry) => [entry.action, entry.actor, entry.target, entry.detail])).toEqual([
      ['post.created', key, first.post.id, { status: 'published' }],
      ['post.updated', key, first.post.id, { fields: 'excerpt', revision: patched.post.revision }],
      ['post.trashed', key, first.post.id, { revision: 3 }],
      ['post.restored', key, first.post.id, { revision: 4 }],
      ['post.created', key, second.post.id, { status: 'published' }],
      ['post.unpublished', 'staff:jane@example.com', second.post.id, { fields: 'status, published_at', revision: 2 }],
      ['post.trashed', 'staff:jane@example.com', second.post.id, { revision: 3 }],
      ['post.restored', 'staff:jane@example.com', second.post.id, { revision: 4 }],
    ]);
  });

  it('records a scheduled post going live as the scheduler’s, with the time it was due', async () => {
    let now = NOW;
    const { posts, store } = await servicesIn('warn', () => now);
    const due = new Date(NOW.getTime() + 60_000).toISOString();
    const { post } = await posts.create(input({ title: 'Goes Live Later', status: 'scheduled', publish_at: due }), AUTHOR);
    expect(post.status).toBe('scheduled');
    now = new Date(NOW.getTime() + 120_000);
    expect((await posts.publishDue()).map((entry) => entry.id)).toEqual([post.id]);
    const live = (await store.audit.list()).filter((entry) => entry.action === 'post.went_live');
    expect(live).toEqual([{ at: new Date(NOW.getTime() + 120_000).toISOString(), actor: 'scheduler', action: 'post.went_live', target: post.id, detail: { publishAt: due, revision: 2 }, ip: null }]);
  });

  it('records a reviewer’s decision with who made it, for a key and a staff member alike', async () => {
    const { posts, store } = await servicesIn('review');
    const admin = keyActor({ id: 'AdminKey01', owner: 'site', permissions: ['blog:write', 'blog:admin'] }, '203.0.113.10');
    const one = await posts.create(input({ title: 'Approved by a Key', content: QUOTED }), AUTHOR);
    const two = await posts.create(input({ title: 'Sent Back by Staff', content: QUOTED }), AUTHOR);
    // A high finding its author did not accept: approved only with a reason, through any door.
    await expect(posts.approve(one.post.id, one.post.revision, admin)).rejects.toMatchObject({ code: 'validation_failed', status: 400, errors: [expect.objectContaining({ field: 'reason', problem: 'missing' })] });
    await expect(posts.approve(one.post.id, one.post.revision, admin, '  ')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(posts.approve(one.post.id, one.post.revision, admin, 'x'.repeat(501))).rejects.toMatchObject({ errors: [expect.objectContaining({ field: 'reason', problem: 'invalid' })] });
    expect((await store.posts.getById(one.post.id))?.status).toBe('in_review');
    expect((await posts.approve(one.post.id, one.post.revision, admin, ' The quote is attributed and the floor explained. ')).post.status).toBe('published');
    expect((await store.posts.revisions(one.post.id))[0]?.record.status).toBe('in_review');
    const back = await posts.sendBack(two.post.id, two.post.revision, 'Say what the floor does not cover.', STAFF);
    expect(back.post).toMatchObject({ status: 'draft', review: { state: 'returned', note: 'Say what the floor does not cover.' } });
    expect((await store.posts.getById(two.post.id))?.review?.decidedBy).toBe('staff:jane@example.com');
    const decisions = (await store.audit.list()).filter((entry) => entry.action.startsWith('review.'));
    expect(decisions).toEqual([
      { at: NOW.toISOString(), actor: 'key:AdminKey01', action: 'review.approved', target: one.post.id, detail: { rules: 'guaranteed-returns', code: 'ADV-2026-0001', expires: '2027-11-25T10:00:00.000Z', reason: 'The quote is attributed and the floor explained.' }, ip: '203.0.113.10' },
      { at: NOW.toISOString(), actor: 'staff:jane@example.com', action: 'review.returned', target: two.post.id, detail: { rules: 'guaranteed-returns', note: 'Say what the floor does not cover.' }, ip: '198.51.100.7' },
    ]);
  });
});
