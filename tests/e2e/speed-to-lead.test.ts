/**
 * Speed to lead in real Chromium, without JavaScript and with it (issue 40): a visitor's request
 * through /get-quote is assigned to the agent, whose lead page says so with the first contact's due
 * time; the agent records a text that got no answer (listed with time and who); the dashboard shows the
 * time to first contact as a link to the leads it counts; and the visitor's "stop contacting me" link
 * from the acknowledgement e-mail (a real SMTP server) asks first, records on the button, and shows on
 * the lead. The server's clock is a Wednesday morning in office hours, moved by the test.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { waitFor } from '../support/leads';
import { signInOnPage, waitForHydration } from '../support/page';
import { startTestServer } from '../support/server';
import { testSite } from '../support/site-fixture';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';

const EMAIL = 'agent@example.com';
const PASSWORD = 'a long and private passphrase 7';
/** Wednesday 2 December 2026, 09:00 in Chicago (after any real time the form's page may carry). */
let clock = Date.parse('2026-12-02T15:00:00Z');
let smtp: TestSmtpServer;

const site = testSite(async () => {
  smtp = await startSmtpServer();
  return startTestServer({ now: () => new Date(clock), env: { SMTP_URL: smtp.url, LEAD_NOTIFY_TO: 'agency@example.com' }, leads: { settings: { minFillMs: 0, perHour: 0 } } });
});

beforeAll(async () => {
  await site.server.createStaff(EMAIL, PASSWORD, 'Alex Agent');
});
afterAll(async () => {
  await smtp?.close();
});

async function newPage(js: boolean): Promise<Page> {
  const context = await site.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

/** A visitor asks to be e-mailed; the lead's id and the stop link of their acknowledgement. */
async function visitorRequests(name: string, email: string): Promise<{ id: string; stopLink: string }> {
  const page = await newPage(false);
  await page.goto(`${site.url}/get-quote`);
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByRole('radio', { name: 'By e-mail' }).check();
  await page.getByLabel('Your age').fill('48');
  await page.getByLabel('What you could put in each year').fill('20,000');
  await page.getByRole('button', { name: 'Request my free illustration' }).click();
  await page.waitForURL((url) => url.pathname === '/get-quote/thank-you');
  await page.context().close();
  const lead = (await site.server.store.leads.list()).find((item) => item.name === name);
  if (!lead) throw new Error(`${name}'s request was not stored`);
  const ack = () => smtp.received.find((mail) => (mail.subject ?? '').includes(lead.reference ?? lead.id) && (mail.subject ?? '').startsWith('We received'));
  await waitFor(() => ack() !== undefined, `${name}'s acknowledgement`);
  const stopLink = /Stop contacting me: (\S+)/.exec(ack()?.text ?? '')?.[1] ?? '';
  return { id: lead.id, stopLink: stopLink.replace(/^http:\/\/localhost:3000/, site.url) };
}

function signIn(page: Page): Promise<void> {
  return signInOnPage(page, EMAIL, PASSWORD);
}

for (const js of [false, true]) {
  describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    it('assigns the lead, records a contact attempt, shows the time to first contact, and honours the stop link', async () => {
      const name = js ? 'Robin Scripted' : 'Morgan Plainform';
      const { id, stopLink } = await visitorRequests(name, js ? 'robin@visitor.example' : 'morgan@visitor.example');
      const page = await newPage(js);
      await page.goto(`${site.url}/admin/leads/${id}`);
      await signIn(page);
      if (js) await waitForHydration(page);
      const firstContact = page.getByTestId('lead-first-contact');
      expect(await page.getByTestId('lead-assignee').innerText()).toMatch(/Assigned to Alex Agent \(agent@example\.com\), in turn, .*First contact due by /);
      expect(await firstContact.getByTestId('lead-no-attempts').innerText()).toBe('None yet.');
      if (js) expect(await axeViolations(page)).toEqual([]);

      clock += 3 * 60_000;
      await page.getByRole('radio', { name: 'text' }).check();
      await page.getByLabel('Outcome').selectOption('no-answer');
      await page.getByLabel('Note (optional)').fill('Sent a text, no reply yet');
      await page.getByRole('button', { name: 'Record attempt' }).click();
      await page.getByTestId('lead-message').waitFor();
      expect(await page.getByTestId('lead-message').innerText()).toBe('Contact attempt recorded.');
      expect(await page.getByTestId('lead-attempts').innerText()).toMatch(/agent@example\.com: text, no answer: Sent a text, no reply yet/);

      await page.goto(`${site.url}/admin`);
      const thisWeek = page.getByTestId('first-contact-this-week');
      expect(await thisWeek.innerText()).toMatch(/This week: median \d+ min, 90th percentile \d+ min \(\d+ leads? contacted\)/);
      if (!js) expect(await thisWeek.innerText()).toContain('median 3 min');
      await thisWeek.getByRole('link').click();
      await page.waitForURL((url) => url.search === '?week=this');
      expect(await page.getByTestId('leads-table').innerText()).toContain(name);

      // The visitor's link: the page asks, the button records.
      const visitor = await newPage(js);
      await visitor.goto(stopLink);
      if (js) {
        await waitForHydration(visitor);
        expect(await axeViolations(visitor)).toEqual([]);
      }
      expect((await site.server.store.leads.get(id))?.optOut ?? null).toBeNull();
      await visitor.getByRole('button', { name: 'Stop contacting me' }).click();
      await visitor.getByTestId('stop-done').waitFor();
      expect(await visitor.getByTestId('stop-done').innerText()).toMatch(/^Done: you asked us to stop contacting you on /);

      await page.goto(`${site.url}/admin/leads/${id}`);
      expect(await page.getByTestId('lead-opt-out-status').innerText()).toMatch(/The visitor asked not to be contacted on .*, through the link in the agency's e-mail\./);
    });
  });
}
