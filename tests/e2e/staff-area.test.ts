/**
 * The staff area in real Chromium, as an agent uses it: a visitor's quote request arrives through the
 * form, the agent signs in (sent back to the page they asked for), sees it on the dashboard, finds it
 * in the inbox, moves it to in-progress with a note, exports the inbox as CSV, deletes the person's
 * data on request (the audit keeping only that it happened), and signs out, after which the pages ask
 * for sign-in again. Without JavaScript and with it; axe on every staff page (in the run with
 * JavaScript, since axe itself is a script).
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { validPost } from '../api/support';
import { axeViolations } from '../support/axe';
import { testSite } from '../support/site-fixture';
import { signInOnPage, waitForHydration } from '../support/page';

const EMAIL = 'agent@example.com';
const PASSWORD = 'a long and private passphrase 7';

const site = testSite({ leads: { settings: { minFillMs: 0, perHour: 0 } } });

beforeAll(async () => {
  await site.server.createStaff(EMAIL, PASSWORD, 'Alex Agent');
});

async function newPage(js: boolean): Promise<Page> {
  const context = await site.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

/** A visitor sends a quote request through the real form. */
async function visitorRequests(name: string): Promise<string> {
  const page = await newPage(false);
  await page.goto(`${site.url}/get-quote`);
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Phone', { exact: true }).fill('(512) 555-0123');
  await page.getByLabel('Your age').fill('48');
  await page.getByLabel('What you could put in each year').fill('20,000');
  await page.getByRole('button', { name: 'Request my free illustration' }).click();
  await page.waitForURL((url) => url.pathname === '/get-quote/thank-you');
  const lead = (await site.server.store.leads.list()).find((item) => item.name === name);
  if (!lead) throw new Error(`${name}'s request was not stored`);
  return lead.id;
}

/** axe runs as a script in the page: it checks the pages in the JavaScript run (the same HTML). */
async function expectAxeClean(page: Page, js: boolean): Promise<void> {
  if (js) expect(await axeViolations(page)).toEqual([]);
}

/** Signs in and waits for the page it leads to (or, with a wrong password, for the refusal). */
async function signIn(page: Page, password = PASSWORD): Promise<void> {
  if (password === PASSWORD) return signInOnPage(page, EMAIL, password);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('login-error').waitFor();
}

for (const js of [false, true]) {
  describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    it('signs in, works a lead, exports, deletes on request and signs out', async () => {
      const name = js ? 'Jordan Scripted' : 'Casey Plainform';
      const id = await visitorRequests(name);
      const page = await newPage(js);

      // Asked for a lead's page, the agent signs in first and lands on it.
      await page.goto(`${site.url}/admin/leads/${id}`);
      expect(new URL(page.url()).pathname).toBe('/admin/login');
      await expectAxeClean(page, js);
      await signIn(page, 'a wrong password entirely');
      expect(await page.getByTestId('login-error').innerText()).toContain('do not match an active staff account');
      await signIn(page);
      expect(new URL(page.url()).pathname).toBe(`/admin/leads/${id}`);
      if (js) await waitForHydration(page);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(name);
      expect(await page.getByTestId('consent-record').innerText()).toContain('not given: contact only by phone');
      await expectAxeClean(page, js);

      await page.getByLabel('Status').selectOption('in-progress');
      await page.getByRole('button', { name: 'Set status' }).click();
      await page.getByTestId('lead-message').filter({ hasText: 'Status set to in-progress.' }).waitFor();
      await page.getByTestId('lead-status').filter({ hasText: 'in-progress' }).waitFor();
      await page.getByLabel('Add a note').fill('Called; illustration on Thursday.');
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.getByTestId('lead-notes').filter({ hasText: 'Called; illustration on Thursday.' }).waitFor();
      expect(await site.server.store.leads.get(id)).toMatchObject({ status: 'in-progress', agentNotes: [{ by: EMAIL, text: 'Called; illustration on Thursday.' }] });

      // The dashboard and the inbox show it; the inbox's filter exports as CSV.
      await page.goto(`${site.url}/admin`);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Admin Dashboard');
      await expectAxeClean(page, js);
      await page.goto(`${site.url}/admin/leads?status=in-progress`);
      expect(await page.getByTestId('leads-table').innerText()).toContain(name);
      await expectAxeClean(page, js);
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Export these as CSV' }).click();
      const file = await (await download).path();
      const csv = readFileSync(file, 'utf8');
      expect(csv.split('\n')[0]).toContain('consent_text_sha256');
      expect(csv).toContain(name);

      // Deleting needs the confirmation; then the request is gone and the audit says only that.
      await page.goto(`${site.url}/admin/leads/${id}`);
      await page.getByRole('button', { name: 'Delete for good' }).click();
      await page.getByTestId('lead-message').waitFor();
      expect(await page.getByTestId('lead-message').innerText()).toContain('Tick the box');
      expect(await site.server.store.leads.get(id)).not.toBeNull();
      await page.getByLabel('The person asked for their data to be deleted').check();
      await page.getByRole('button', { name: 'Delete for good' }).click();
      await page.waitForURL('**/admin/leads?deleted=*');
      expect(await site.server.store.leads.get(id)).toBeNull();
      const audit = await site.server.store.audit.list();
      const deletion = audit.find((entry) => entry.action === 'lead.deleted' && entry.target === id);
      expect(deletion).toMatchObject({ actor: `staff:${EMAIL}`, detail: {} });
      expect(JSON.stringify(audit)).not.toContain(name);

      // Signed out, the staff pages ask for sign-in again.
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL('**/admin/login?signedOut=1');
      await page.goto(`${site.url}/admin`);
      expect(new URL(page.url()).pathname).toBe('/admin/login');
    });

    it('unpublishes a post (its page stops answering 200), trashes and restores it, and the audit log shows who did it', async () => {
      const ownerSecret = await site.server.createKey(js ? 'post owner js' : 'post owner plain');
      const title = js ? 'A Post Staff Will Unpublish With Script' : 'A Post Staff Will Unpublish Without Script';
      const created = await fetch(`${site.url}/api/blog`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ownerSecret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(validPost({ title, status: 'published' })),
      });
      expect(created.status).toBe(201);
      const { post } = (await created.json()) as { post: { slug: string } };
      expect((await fetch(`${site.url}/blog/${post.slug}`)).status).toBe(200);

      const page = await newPage(js);
      await page.goto(`${site.url}/admin/posts`);
      await signIn(page);
      if (js) await waitForHydration(page);
      await expectAxeClean(page, js);
      // Each change: tick the post, pick the action, read the confirmation, confirm.
      const change = async (button: string, confirm: string, done: string) => {
        await page.getByLabel(`Tick ${title}`).check();
        await page.getByRole('button', { name: button }).click();
        await page.getByTestId('bulk-confirm').waitFor();
        expect(await page.getByTestId('bulk-changes').innerText()).toContain(title);
        await expectAxeClean(page, js);
        await page.getByRole('button', { name: confirm }).click();
        await page.getByTestId('posts-message').filter({ hasText: done }).waitFor();
      };
      await change('Unpublish…', 'Unpublish 1 post', '1 of 1 post unpublished.');
      expect(await page.getByTestId('bulk-results').innerText()).toContain(`${title}: Unpublished`);
      expect((await fetch(`${site.url}/blog/${post.slug}`)).status).not.toBe(200);
      await change('Move to the trash…', 'Move 1 post to the trash', '1 of 1 post moved to the trash.');
      await page.goto(`${site.url}/admin/posts?status=trashed`);
      await change('Restore…', 'Restore 1 post', '1 of 1 post restored.');
      expect(await page.getByTestId('bulk-results').innerText()).toContain('Restored from the trash, as a draft post');

      await page.goto(`${site.url}/admin/audit`);
      await expectAxeClean(page, js);
      const audit = await page.getByTestId('audit-table').innerText();
      for (const action of ['post.unpublished', 'post.trashed', 'post.restored', 'staff.signed_in']) expect(audit).toContain(action);
      expect(audit).toContain(`staff:${EMAIL}`);
    });

    it('creates an API key whose secret is shown once and publishes, then revokes it with a reason', async () => {
      const page = await newPage(js);
      await page.goto(`${site.url}/admin/login?next=${encodeURIComponent('/admin/api-keys')}`);
      await signIn(page);
      expect(new URL(page.url()).pathname).toBe('/admin/api-keys');
      if (js) await waitForHydration(page);
      await expectAxeClean(page, js);
      const name = js ? 'Scripted Author' : 'Plain Author';
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = page.getByTestId('new-key-secret');
      await shown.waitFor();
      const secret = (await shown.locator('code').innerText()).trim();
      expect(secret).toMatch(/^bpk_/);
      await expectAxeClean(page, js);

      const publish = () =>
        fetch(`${site.url}/api/blog`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(validPost({ title: `Written by ${name}`, author: { name } })),
        });
      expect((await publish()).status).toBe(201);

      // The secret is never shown again; revoking needs no secret, only a reason, on a confirmation page.
      await page.goto(`${site.url}/admin/api-keys`);
      expect(await page.content()).not.toContain(secret);
      await page.getByRole('link', { name: `Revoke ${name}…` }).click();
      await page.getByTestId('revoke-confirm').waitFor();
      expect(await page.getByTestId('revoke-key-facts').innerText()).toContain(name);
      await expectAxeClean(page, js);
      // A reason of spaces only is refused on the same page, the key still working.
      await page.getByLabel('Reason (kept in the audit log)').fill('   ');
      await page.getByRole('button', { name: `Revoke ${name}` }).click();
      await page.getByTestId('revoke-error').filter({ hasText: 'Write why the key is revoked' }).waitFor();
      expect((await publish()).status).toBe(201);
      await page.getByLabel('Reason (kept in the audit log)').fill('laptop lost');
      await page.getByRole('button', { name: `Revoke ${name}` }).click();
      await page.getByTestId('keys-message').filter({ hasText: `Revoked key "${name}"` }).waitFor();
      expect(await page.getByTestId('keys-table').innerText()).toContain(`: laptop lost`);
      const refused = await publish();
      expect(refused.status).toBe(401);
      expect(JSON.stringify(await refused.json())).toContain('revoked');
      const audit = await site.server.store.audit.list();
      expect(audit.filter((entry) => entry.actor === `staff:${EMAIL}`).map((entry) => entry.action)).toEqual(expect.arrayContaining(['key.created', 'key.revoked']));
      expect(JSON.stringify(audit)).not.toContain(secret);
    });
  });
}
