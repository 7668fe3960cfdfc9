/**
 * Approval codes with an expiry (decision 0028), over a real store with a clock the test moves: an
 * approval records its code (typed or generated) and expiry on the post and in the advertising
 * archive; it is listed as running out within 30 days; once run out, the hourly job takes the post off
 * the site (back to review, or a draft with APPROVAL_EXPIRED=unpublish) and the archive closes its version.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkCreatePostBody } from '../../contract/blog';
import { ApiError } from '../../contract/errors';
import { openSqliteStore } from '../store/sql/sql-store';
import type { Store } from '../store/store';
import { keyActor, staffActor } from './actors';
import type { ApprovalSettings } from './approvals';
import { createServices, type Services } from './services';

const AUTHOR = keyActor({ id: 'AuthorKey1', owner: 'acme', permissions: ['blog:write'] }, '203.0.113.9');
const REVIEWER = staffActor('reviewer@example.com', '198.51.100.7');
const RISKY = '<p>Our IUL offers guaranteed returns.</p>';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function servicesAt(start: string, approvals?: ApprovalSettings): Promise<Services & { setNow: (iso: string) => void }> {
  let now = new Date(start);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-approvals-'));
  dirs.push(dir);
  const store = await openSqliteStore(dir, { now: () => now });
  stores.push(store);
  const services = createServices(store, { complianceMode: 'review', ...(approvals ? { approvals } : {}) }, () => now);
  return Object.assign(services, { setNow: (iso: string) => void (now = new Date(iso)) });
}

async function heldPost(services: Services, title = 'Guaranteed Returns, Explained') {
  const body = checkCreatePostBody({ title, content: RISKY, excerpt: 'What a guarantee is.', category: 'IUL Strategies', status: 'published', author: { name: 'Jane Author' } });
  if (!body.ok) throw new Error('bad body');
  const { post } = await services.posts.create({ data: body.data, ignoredFields: [] }, AUTHOR);
  expect(post.status).toBe('in_review');
  return post;
}

describe('approval codes', () => {
  it('records a typed code and expiry on the post and in the archive, or generates ADV-<year>-<n> valid 12 months', async () => {
    const services = await servicesAt('2026-06-01T12:00:00.000Z');
    const typed = await heldPost(services, 'First');
    const answer = await services.posts.approve(typed.id, typed.revision, REVIEWER, 'Quoted with the carrier.', { code: 'CARRIER-7781', expires: '2027-06-30' });
    expect(answer.message).toContain('approval CARRIER-7781, valid until 2027-06-30');
    expect((await services.store.posts.getById(typed.id))?.approval).toEqual({ code: 'CARRIER-7781', by: 'staff:reviewer@example.com', at: '2026-06-01T12:00:00.000Z', expiresAt: '2027-06-30T23:59:59.999Z' });
    expect(await services.store.archive.list({ subject: typed.id })).toMatchObject([{ event: 'published', approver: 'staff:reviewer@example.com', approvalCode: 'CARRIER-7781' }]);

    const generated = await heldPost(services, 'Second');
    await services.posts.approve(generated.id, generated.revision, REVIEWER, 'Fine.');
    expect((await services.store.posts.getById(generated.id))?.approval).toMatchObject({ code: 'ADV-2026-0001', expiresAt: '2027-06-01T12:00:00.000Z' });
    const third = await heldPost(services, 'Third');
    await services.posts.approve(third.id, third.revision, REVIEWER, 'Fine.');
    expect((await services.store.posts.getById(third.id))?.approval?.code).toBe('ADV-2026-0002');
  });

  it('refuses a code it cannot keep and an expiry in the past, saying what to give, and leaves the post waiting', async () => {
    const services = await servicesAt('2026-06-01T12:00:00.000Z');
    const post = await heldPost(services);
    const refusal = await services.posts.approve(post.id, post.revision, REVIEWER, 'x', { code: '<script>', expires: '2026-05-31' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    const messages = (refusal as ApiError).errors?.map((problem) => problem.message) ?? [];
    expect(messages[0]).toContain('approval_code must be 1 to 64 letters');
    expect(messages[1]).toContain('approval_expires (2026-05-31) is not in the future');
    expect(await services.posts.approve(post.id, post.revision, REVIEWER, 'x', { expires: 'next year' }).catch((error: unknown) => (error as ApiError).errors?.[0]?.message)).toContain('approval_expires must be a date, YYYY-MM-DD');
    expect((await services.store.posts.getById(post.id))?.status).toBe('in_review');
  });

  it('lists an approval running out within 30 days, then moves the post back to review when it has, closing its archived version', async () => {
    const services = await servicesAt('2026-06-01T12:00:00.000Z');
    const post = await heldPost(services);
    await services.posts.approve(post.id, post.revision, REVIEWER, 'Fine.', { code: 'ADV-2026-0100', expires: '2026-08-31' });
    expect(await services.posts.expiringApprovals()).toEqual([]);
    services.setNow('2026-08-02T00:00:00.000Z');
    expect(await services.posts.expiringApprovals()).toEqual([{ id: post.id, title: post.title, slug: post.slug, code: 'ADV-2026-0100', expiresAt: '2026-08-31T23:59:59.999Z' }]);
    // Not yet run out: the job leaves it.
    expect(await services.posts.expireApprovals()).toEqual([]);
    services.setNow('2026-09-01T00:00:00.000Z');
    expect((await services.posts.expireApprovals()).map((moved) => moved.id)).toEqual([post.id]);
    const stored = await services.store.posts.getById(post.id);
    expect(stored).toMatchObject({ status: 'in_review', approval: null, review: { state: 'pending', note: 'The approval ADV-2026-0100 ran out on 2026-08-31: review the post again.' } });
    expect(await services.posts.expiringApprovals()).toEqual([]);
    expect((await services.store.archive.list({ subject: post.id })).map((record) => [record.event, record.liveFrom, record.liveTo])).toEqual([
      ['published', '2026-06-01T12:00:00.000Z', '2026-09-01T00:00:00.000Z'],
      ['unpublished', '2026-09-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z'],
    ]);
    expect((await services.store.audit.list()).at(-1)).toMatchObject({ actor: 'scheduler', action: 'review.approval_expired', target: post.id });
    expect((await services.store.posts.list({ status: 'in_review' })).entries.map((entry) => entry.id)).toEqual([post.id]);
  });

  it('unpublishes instead with APPROVAL_EXPIRED=unpublish', async () => {
    const services = await servicesAt('2026-06-01T12:00:00.000Z', { validMonths: 1, onExpiry: 'unpublish' });
    const post = await heldPost(services);
    await services.posts.approve(post.id, post.revision, REVIEWER, 'Fine.');
    expect((await services.store.posts.getById(post.id))?.approval?.expiresAt).toBe('2026-07-01T12:00:00.000Z');
    services.setNow('2026-07-01T12:00:00.000Z');
    await services.posts.expireApprovals();
    expect(await services.store.posts.getById(post.id)).toMatchObject({ status: 'draft', approval: null });
  });
});
