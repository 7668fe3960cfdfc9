/**
 * `blogpost review approve <post> --code --expires` against a server holding posts for review (decision
 * 0028): the approval's code and expiry are recorded on the post and in the advertising archive, and
 * said in the answer; a date in the past is refused with what to give instead (exit 1), the post still waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validPost } from '../api/support';
import { blogpost } from '../support/cli';
import { startTestServer, type TestServer } from '../support/server';

let site: TestServer;
let reviewer: Record<string, string>;

beforeAll(async () => {
  site = await startTestServer({ api: { writesPerMinute: 0, complianceMode: 'review' } });
  reviewer = { BLOGPOST_URL: site.url, BLOGPOST_API_KEY: await site.createKey('approver', ['blog:admin']) };
});
afterAll(() => site.close());

async function heldPost(title: string): Promise<string> {
  const author = await site.createKey(`author ${title}`, ['blog:write']);
  const res = await fetch(`${site.url}/api/blog`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${author}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(validPost({ title, status: 'Published', content: '<p>Our IUL offers guaranteed returns.</p>' })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { post: { id: string } }).post.id;
}

/** The held posts carry a high finding their author did not accept: an approval says why. */
const REASON = 'The carrier approved this wording.';

describe('blogpost review approve --code --expires', () => {
  it('records the typed code and expiry on the post and in the archive, and says them', async () => {
    const id = await heldPost('Approved With a Carrier Code');
    const run = await blogpost(['review', 'approve', id, '--code', 'CARRIER-7781', '--expires', '2099-06-30', '--reason', REASON], { env: reviewer });
    expect(run.stderr).toContain('Approved "Approved With a Carrier Code" (approval CARRIER-7781, valid until 2099-06-30): it is on the site at');
    expect(run.code).toBe(0);
    expect((await site.store.posts.getById(id))?.approval).toMatchObject({ code: 'CARRIER-7781', expiresAt: '2099-06-30T23:59:59.999Z', by: expect.stringMatching(/^key:/) });
    expect(await site.store.archive.list({ subject: id })).toMatchObject([{ event: 'published', approvalCode: 'CARRIER-7781' }]);
  });

  it('generates a code when none is typed', async () => {
    const id = await heldPost('Approved With a Generated Code');
    const run = await blogpost(['review', 'approve', id, '--reason', REASON, '--json'], { env: reviewer });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { message: string }).message).toMatch(/approval ADV-\d{4}-\d{4}, valid until \d{4}-\d{2}-\d{2}/);
  });

  it('refuses an expiry in the past, saying what to give, and leaves the post waiting (exit 1)', async () => {
    const id = await heldPost('Approved With a Past Date');
    const run = await blogpost(['review', 'approve', id, '--expires', '2020-01-01', '--reason', REASON], { env: reviewer });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('approval_expires (2020-01-01) is not in the future');
    expect((await site.store.posts.getById(id))?.status).toBe('in_review');
  });
});
