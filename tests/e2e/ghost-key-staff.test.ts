/**
 * The staff area's API keys page makes a Ghost Admin API key (decision 0033), with and without
 * JavaScript: the box ticked, the key is shown once as id:secret, a writing app signing tokens with it
 * publishes through /ghost/api/admin/, the keys table marks it Ghost, and the audit log records it.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { testSite } from '../support/site-fixture';
import { signInOnPage, waitForHydration } from '../support/page';
import { ghostToken as token } from '../support/ghost-token';

const EMAIL = 'ghost-keys@example.com';
const PASSWORD = 'a long and private passphrase 8';

const site = testSite();

beforeAll(async () => {
  await site.server.createStaff(EMAIL, PASSWORD, 'Gina Ghost');
});

async function newPage(js: boolean): Promise<Page> {
  const context = await site.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  return context.newPage();
}


for (const js of [true, false]) {
  describe(`a Ghost Admin API key from the staff area (${js ? 'with' : 'without'} JavaScript)`, () => {
    it('is shown once as id:secret, publishes through the Ghost door, is marked Ghost and audited', async () => {
      const page = await newPage(js);
      await page.goto(`${site.url}/admin/login?next=${encodeURIComponent('/admin/api-keys')}`);
      await signInOnPage(page, EMAIL, PASSWORD);
      expect(new URL(page.url()).pathname).toBe('/admin/api-keys');
      if (js) await waitForHydration(page);
      const name = js ? 'Gina iA Writer' : 'Gina Ulysses';
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByLabel('Ghost Admin API key').check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = page.getByTestId('new-key-secret');
      await shown.waitFor();
      const key = (await shown.locator('code').innerText()).trim();
      expect(key).toMatch(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
      if (js) expect(await axeViolations(page)).toEqual([]);

      const slug = js ? 'ghost-key-from-staff-js' : 'ghost-key-from-staff-plain';
      const response = await fetch(`${site.url}/ghost/api/admin/posts/?source=html`, {
        method: 'POST',
        headers: { Authorization: `Ghost ${token(key)}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ posts: [{ title: `Written in ${name}`, html: '<p>Published from a writing app through the Ghost door.</p>', status: 'published', slug }] }),
      });
      expect(response.status).toBe(201);
      expect((await fetch(`${site.url}/blog/${slug}`)).status).toBe(200);

      await page.goto(`${site.url}/admin/api-keys`);
      expect(await page.content()).not.toContain(key.split(':')[1]);
      const row = page.getByTestId('keys-table').getByRole('row').filter({ hasText: name });
      expect(await row.innerText()).toContain('Ghost');
      const audit = await site.server.store.audit.list();
      const created = audit.find((entry) => entry.action === 'key.created' && entry.target === key.split(':')[0]);
      expect(created).toMatchObject({ actor: `staff:${EMAIL}`, detail: expect.objectContaining({ kind: 'ghost' }) });
      expect(JSON.stringify(audit)).not.toContain(key.split(':')[1]);
    });
  });
}
