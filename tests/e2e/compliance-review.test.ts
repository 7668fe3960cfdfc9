/**
 * The compliance review queue in real Chromium, as a reviewer uses it, with COMPLIANCE_MODE=review:
 * two posts an author sent with "guaranteed returns" and "risk-free" wait in the queue; the reviewer
 * signs in (sent back to the queue), opens one, reads its findings (the accepted one with the
 * author's reason, the matched words marked in the post) and sends it back with a note; corrects the
 * title of the other and approves it (its remaining high findings only with a written reason, which the
 * audit log shows), after which it is on the blog. Without JavaScript and with it;
 * axe on every page (in the run with JavaScript, since axe itself is a script).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { validPost } from '../api/support';
import { axeViolations } from '../support/axe';
import { testSite } from '../support/site-fixture';
import { signInOnPage, waitForHydration } from '../support/page';

const EMAIL = 'reviewer@example.com';
const PASSWORD = 'a reviewer passphrase that is long 9';
const ACCEPT_REASON = 'The sentence quotes a reader letter, and the next one corrects it.';

const site = testSite({ api: { complianceMode: 'review' } });
let authorKey: string;

beforeAll(async () => {
  await site.server.createStaff(EMAIL, PASSWORD, 'Riley Reviewer');
  authorKey = await site.server.createKey('Held Author laptop', ['blog:write'], 'Held Author');
});

async function newPage(js: boolean): Promise<Page> {
  const context = await site.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

async function expectAxeClean(page: Page, js: boolean): Promise<void> {
  if (js) expect(await axeViolations(page)).toEqual([]);
}

/** The author asks to publish a post the rules hold; its id and slug. */
async function heldPost(title: string, accept: Array<{ rule: string; reason: string }> = []): Promise<{ id: string; slug: string }> {
  const res = await fetch(`${site.url}/api/blog`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${authorKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(
      validPost({
        title,
        status: 'published',
        content: '<h2>What readers ask</h2><p>Is this policy <em>risk-free</em>? It pays guaranteed returns every year.</p>',
        compliance: { accept },
      }),
    ),
  });
  expect(res.status).toBe(201);
  const { post } = (await res.json()) as { post: { id: string; slug: string; status: string } };
  expect(post.status).toBe('in_review');
  return post;
}

function signIn(page: Page): Promise<void> {
  return signInOnPage(page, EMAIL, PASSWORD);
}

for (const js of [false, true]) {
  describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    it('opens the queue and a held post, reads its findings, sends it back with a note, corrects and approves another', async () => {
      const suffix = js ? 'With Script' : 'Without Script';
      const returnedTitle = `Risk-Free Guaranteed Returns ${suffix}`;
      const approvedTitle = `Guaranteed Returns for Savers ${suffix}`;
      const returned = await heldPost(returnedTitle, [{ rule: 'risk-free', reason: ACCEPT_REASON }]);
      const approved = await heldPost(approvedTitle);

      const page = await newPage(js);
      await page.goto(`${site.url}/admin/review`);
      expect(new URL(page.url()).pathname).toBe('/admin/login');
      await signIn(page);
      expect(new URL(page.url()).pathname).toBe('/admin/review');
      if (js) await waitForHydration(page);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Compliance review');
      const queue = await page.getByTestId('review-queue').innerText();
      expect(queue).toContain(returnedTitle);
      expect(queue).toContain(approvedTitle);
      expect(queue).toContain('2 accepted by the author');
      await expectAxeClean(page, js);

      // The post's page: who wrote it, every finding (the accepted one with the author's reason), the words marked.
      await page.getByRole('link', { name: returnedTitle }).click();
      await page.waitForURL(`**/admin/review/${returned.id}`);
      await page.getByRole('heading', { level: 1, name: `Review: ${returnedTitle}` }).waitFor();
      expect(await page.getByTestId('review-facts').innerText()).toContain('Jane Author, CLU, ChFC');
      const findings = await page.getByTestId('review-findings').innerText();
      expect(findings).toContain(`Accepted by the author: ${ACCEPT_REASON}`);
      expect(findings).toContain('guaranteed-returns');
      expect(findings).toMatch(/in the content at 1:\d+: risk-free/);
      expect(await page.getByTestId('review-post').locator('.post-content mark').allInnerTexts()).toEqual(['risk-free', 'guaranteed returns']);
      await expectAxeClean(page, js);

      const note = 'Say what the 0% floor guarantees instead of "guaranteed returns".';
      await page.getByLabel('Note to the author (what to change, and why)').fill(note);
      await page.getByRole('button', { name: 'Send back' }).click();
      await page.waitForURL(`**/admin/review?returned=${returned.id}`);
      await page
        .getByTestId('review-message')
        .filter({ hasText: `Sent "${returnedTitle}" back to its author as a draft, with your note.` })
        .waitFor();
      expect(await page.getByTestId('review-queue').innerText()).not.toContain(returnedTitle);
      expect(await site.server.store.posts.getById(returned.id)).toMatchObject({ status: 'draft', review: { state: 'returned', note } });

      // The other: the title corrected in place (it keeps waiting), then approved.
      await page.getByRole('link', { name: approvedTitle }).click();
      await page.waitForURL(`**/admin/review/${approved.id}`);
      await page.getByRole('heading', { level: 1, name: `Review: ${approvedTitle}` }).waitFor();
      const corrected = `How the 0% Floor Works ${suffix}`;
      await page.getByLabel('Title', { exact: true }).fill(corrected);
      await page.getByRole('button', { name: 'Save the wording' }).click();
      await page.getByTestId('review-message').filter({ hasText: 'Saved: the post still waits for review.' }).waitFor();
      await page.getByRole('heading', { level: 1, name: `Review: ${corrected}` }).waitFor();
      expect(await site.server.store.posts.getById(approved.id)).toMatchObject({ title: corrected, status: 'in_review' });
      await expectAxeClean(page, js);

      // Its content still makes two high claims: approving them needs a reason, refused without one
      // on the same page; the reason then goes to the audit log.
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByTestId('review-message').filter({ hasText: 'This post still has 2 high findings the author did not accept.' }).waitFor();
      expect(await site.server.store.posts.getById(approved.id)).toMatchObject({ status: 'in_review' });
      const reason = `The carrier's filed illustration says so ${suffix}.`;
      await page.getByLabel('Reason for approving').fill(reason);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(`**/admin/review?approved=${approved.id}`);
      await page
        .getByTestId('review-message')
        .filter({ hasText: `Approved "${corrected}": it is on the site` })
        .waitFor();
      expect((await fetch(`${site.url}/blog/${approved.slug}`)).status).toBe(200);

      await page.goto(`${site.url}/admin/audit`);
      const audit = await page.getByTestId('audit-table').innerText();
      for (const action of ['review.returned', 'review.edited', 'review.approved']) expect(audit).toContain(action);
      expect(audit).toContain(`reason: The carrier's filed illustration says so ${suffix}.`);
    });
  });
}
