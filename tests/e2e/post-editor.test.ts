/**
 * The staff Markdown editor in real Chromium. With JavaScript: a staff member opens a draft from the
 * posts list, types a risky sentence at the end of the text, and the finding appears beside the text at
 * its line and the preview shows the new paragraph, without saving; what they typed (also while the
 * check ran) is never reset and the text box keeps the focus. Without JavaScript: Preview answers the
 * finding and the rendered post, Save makes a new revision. axe on the editor showing findings.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { validPost } from '../api/support';
import { sourceBody } from '../../api/authoring/markdown-source';
import { axeViolations } from '../support/axe';
import { signInOnPage } from '../support/page';
import { testSite } from '../support/site-fixture';

const EMAIL = 'typist@example.com';
const PASSWORD = 'a typing staff passphrase, long enough 9';
const BODY = 'Policy loans let an owner borrow against the cash value.\n\n## How interest works\n\nThe insurer charges interest on the loan.\n';
const RISKY = 'This strategy pays guaranteed returns every single year.';

const site = testSite({ api: { writesPerMinute: 0 } });
let adminKey: string;

beforeAll(async () => {
  await site.server.createStaff(EMAIL, PASSWORD, 'Tess Typist');
  adminKey = await site.server.createKey('Editor admin', ['blog:write', 'blog:admin'], 'Editor admin');
}, 120_000);

async function markdownDraft(title: string): Promise<string> {
  const text = `---\ntitle: ${title}\nexcerpt: How a policy loan works.\ncategory: iul-strategies\nauthor:\n  name: Jane Author\n---\n${BODY}`;
  const res = await fetch(`${site.url}/api/blog`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(validPost({ title, excerpt: 'How a policy loan works.', status: 'Draft', source: { format: 'markdown', text } })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { post: { id: string } }).post.id;
}

async function stored(id: string): Promise<{ revision: number; body: string }> {
  const res = await fetch(`${site.url}/api/blog/${id}`, { headers: { Authorization: `Bearer ${adminKey}` } });
  const { post } = (await res.json()) as { post: { revision: number; source: { text: string } | null } };
  return { revision: post.revision, body: sourceBody(post.source?.text ?? '') };
}

async function signedInPage(js: boolean, path: string): Promise<Page> {
  const context = await site.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await page.goto(`${site.url}${path}`);
  await signInOnPage(page, EMAIL, PASSWORD);
  return page;
}

describe('the editor, with JavaScript', () => {
  it('shows a typed risky sentence as a finding beside the text at its line and in the preview, saving nothing and losing nothing typed', async () => {
    const title = 'A Draft Typed Into Live';
    const id = await markdownDraft(title);
    const page = await signedInPage(true, '/admin/posts');
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.getByRole('link', { name: `Edit ${title}` }).click();
    await page.waitForURL(`**/admin/posts/${id}/edit`);
    const body = page.getByRole('textbox', { name: 'Text (Markdown)' });
    expect(await body.inputValue()).toBe(BODY);
    await expect.poll(() => page.getByTestId('body-findings').count()).toBe(0);

    // Typing at the end of the text: the first key also wakes the app (it hydrates on interaction).
    await body.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(`\n${RISKY}`);
    const findings = page.getByTestId('body-findings');
    await expect.poll(() => findings.innerText(), { timeout: 15_000 }).toContain('Line 7, column 20');
    expect(await findings.innerText()).toMatch(/HIGH[\s\S]*guaranteed-returns/i);
    await expect.poll(() => page.getByTestId('editor-preview').locator('.post-content p').last().innerText()).toBe(RISKY);
    expect(await page.getByTestId('editor-live').innerText()).toContain('not saved');

    // More typing while checks come and go: nothing typed is reset, and the box keeps the focus.
    await page.keyboard.type(' Say potential instead.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Another line typed quickly.');
    const typed = `${BODY}\n${RISKY} Say potential instead.\nAnother line typed quickly.`;
    await expect.poll(() => page.getByTestId('editor-preview').innerText()).toContain('Another line typed quickly.');
    expect(await body.inputValue()).toBe(typed);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('edit-body');
    // "Go to line" selects the finding's line in the text.
    await page.getByRole('button', { name: 'Go to line 7' }).click();
    expect(await page.evaluate(() => {
      const area = document.getElementById('edit-body') as HTMLTextAreaElement;
      return area.value.slice(area.selectionStart, area.selectionEnd);
    })).toBe(`${RISKY} Say potential instead.`);
    expect(await stored(id)).toEqual({ revision: 1, body: BODY });

    // The page as it stands, findings and preview shown, passes axe.
    expect(await axeViolations(page)).toEqual([]);

    // Save (with the app): the new revision, the text exactly as typed.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByTestId('editor-saved').count()).toBe(1);
    expect(await page.getByTestId('editor-saved').innerText()).toBe('Saved: revision 2.');
    expect(await body.inputValue()).toBe(typed);
    expect(await stored(id)).toEqual({ revision: 2, body: typed });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the editor, without JavaScript', () => {
  it('previews the finding and the rendered post, then saves', async () => {
    const title = 'A Draft Edited Without Scripts';
    const id = await markdownDraft(title);
    const page = await signedInPage(false, `/admin/posts/${id}/edit`);
    await page.waitForURL(`**/admin/posts/${id}/edit`);
    const typed = `${BODY}\n${RISKY}\n`;
    await page.getByLabel('Text (Markdown)').fill(typed);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByTestId('body-findings').innerText()).toMatch(/Line 7, column 20[\s\S]*HIGH[\s\S]*guaranteed-returns/i);
    expect(await page.getByTestId('editor-preview').locator('.post-content p').last().innerText()).toBe(RISKY);
    expect(await page.getByRole('heading', { level: 1, name: title, exact: true }).count()).toBe(1);
    expect(await page.getByLabel('Text (Markdown)').inputValue()).toBe(typed);
    expect((await stored(id)).revision).toBe(1);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForLoadState('load');
    expect(page.url()).toBe(`${site.url}/admin/posts/${id}/edit?saved=2`);
    expect(await page.getByTestId('editor-saved').innerText()).toBe('Saved: revision 2.');
    expect(await page.getByTestId('body-findings').innerText()).toContain('Line 7, column 20');
    expect(await stored(id)).toEqual({ revision: 2, body: typed });
    await page.context().close();
  });
});
