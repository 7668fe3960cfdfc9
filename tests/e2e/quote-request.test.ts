/**
 * The quote-request form of /get-quote in real Chromium, with JavaScript off (a plain form POST and
 * 303) and on (checks as the visitor types, sent without a reload): the stored lead and its consent
 * record, every validation error with the values kept, the honeypot, a request sent too fast, the
 * per-address limit, Global Privacy Control, the first screen of a phone, and axe on the form, its
 * error state and the thank-you page. The minimum fill time is off unless a test plays a visitor who
 * is too quick (then it is ten minutes), so no result depends on how fast the machine is.
 */
import { createHash } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LeadRecord } from '../../contract/leads';
import { consentText, QUOTE_MESSAGES } from '../../contract/quote-request';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { axeViolations } from '../support/axe';
import { testSite } from '../support/site-fixture';
import { nextFrames, waitForHydration } from '../support/page';

const PER_HOUR = 3;
/** The form's minimum fill time: none, unless a test plays a visitor who is too quick. */
const intake = { minFillMs: 0, perHour: PER_HOUR };
/** A visitor who is too quick: the form came back within ten minutes (plus the clock's shift below). */
const TOO_QUICK_MS = 10 * 60_000;
/** How far the intake's clock runs ahead: every test starts a new hour, so the per-address limit is full. */
const clock = { shiftMs: 0 };

const site = testSite({ leads: { settings: intake, now: () => new Date(Date.now() + clock.shiftMs) } });
const contexts: BrowserContext[] = [];

beforeEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  // A new hour for every test: the per-address limit starts full.
  clock.shiftMs += 2 * 60 * 60 * 1000;
  intake.minFillMs = 0;
});

async function open(options: { js: boolean; viewport?: { width: number; height: number }; headers?: Record<string, string> }): Promise<Page> {
  const context = await site.newContext({
    javaScriptEnabled: options.js,
    viewport: options.viewport ?? { width: 1280, height: 900 },
    ...(options.headers ? { extraHTTPHeaders: options.headers } : {}),
  });
  contexts.push(context);
  await context.route('**/*', (route) => (new URL(route.request().url()).origin === new URL(site.url).origin ? route.continue() : route.abort()));
  const page = await context.newPage();
  await page.goto(`${site.url}/get-quote`);
  if (options.js) await waitForHydration(page);
  return page;
}

const form = (page: Page) => page.getByTestId('quote-request-form');

async function fillShort(page: Page, values: { name?: string; phone?: string; email?: string; age?: string; contribution?: string } = {}): Promise<void> {
  const f = form(page);
  await f.getByLabel('Your name').fill(values.name ?? 'Jane Carter');
  await f.getByLabel('Phone', { exact: true }).fill(values.phone ?? '(512) 555-0199');
  if (values.email !== undefined) await f.getByLabel('E-mail', { exact: true }).fill(values.email);
  await f.getByLabel('Your age').fill(values.age ?? '45');
  await f.getByLabel('What you could put in each year').fill(values.contribution ?? '12,000');
}

async function send(page: Page): Promise<void> {
  await form(page).getByRole('button', { name: 'Request my free illustration' }).click();
  await page.waitForLoadState('load');
}

async function leads(spam: boolean | 'any' = false): Promise<LeadRecord[]> {
  return site.server.store.leads.list({ spam });
}

async function newestLead(): Promise<LeadRecord> {
  const [lead] = await leads('any');
  if (!lead) throw new Error('no lead was stored');
  return lead;
}

describe('without JavaScript', () => {
  it('is on the first screen of a phone, and a complete request lands on the thank-you page and is stored with its consent record', async () => {
    const page = await open({ js: false, viewport: { width: 375, height: 812 } });
    const heading = page.getByRole('heading', { name: 'Request your free illustration' });
    const name = form(page).getByLabel('Your name');
    for (const locator of [heading, name]) {
      const box = await locator.boundingBox();
      expect(box, 'visible').not.toBeNull();
      expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(812);
    }
    const before = (await leads()).length;
    await fillShort(page, { name: 'Jane Carter' });
    await form(page).getByText('A little more about you (optional)').click();
    await form(page).getByLabel('Age you would like to retire').fill('62');
    await form(page).getByLabel('Your health, in general').selectOption('good');
    await form(page).getByLabel('Do you use tobacco?').selectOption('no');
    await form(page).getByLabel('Anything else we should know').fill('Mornings are best.');
    await form(page).getByLabel(/I agree that/).check();
    await send(page);

    expect(new URL(page.url()).pathname).toBe('/get-quote/thank-you');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Thank you, your request has arrived');
    expect(await page.locator('main').innerText()).toContain('within one business day');
    const stored = await leads();
    expect(stored).toHaveLength(before + 1);
    const lead = await newestLead();
    expect(lead).toMatchObject({
      name: 'Jane Carter',
      phone: '(512) 555-0199',
      email: null,
      preferredContactMethod: 'phone',
      age: 45,
      annualContribution: 12_000,
      retirementAge: 62,
      healthRating: 'good',
      tobaccoUser: false,
      additionalNotes: 'Mornings are best.',
      status: 'new',
      spam: null,
    });
    const text = consentText(DEFAULT_SITE_CONFIG.agencyName);
    expect(lead.consent).toMatchObject({
      given: true,
      text,
      textSha256: createHash('sha256').update(text).digest('hex'),
      ip: '127.0.0.1',
      page: '/get-quote',
      globalPrivacyControl: false,
      contactOnlyBy: null,
    });
    expect(lead.consent.userAgent).toContain('Chrome');
    // The consent text stored is the one the visitor saw.
    await page.goto(`${site.url}/get-quote`);
    expect(await form(page).locator('label[for="quote-consent"]').textContent()).toBe(text);
  });

  it('refuses a request with problems, listing each in a summary linked to its field, keeping every value, and storing nothing', async () => {
    const page = await open({ js: false });
    const before = (await leads('any')).length;
    await fillShort(page, { name: '', email: 'jane@', age: '12', contribution: 'a lot' });
    await form(page).getByLabel('E-mail', { exact: true }).fill('jane@');
    await form(page).getByRole('radio', { name: 'By e-mail' }).check();
    await form(page).getByLabel(/I agree that/).check();
    const response = page.waitForResponse((res) => res.request().method() === 'POST');
    await send(page);
    expect((await response).status()).toBe(400);

    const summary = page.getByTestId('quote-error-summary');
    const links = summary.getByRole('link');
    const expected = [QUOTE_MESSAGES.nameMissing, QUOTE_MESSAGES.emailInvalid, QUOTE_MESSAGES.ageRange, QUOTE_MESSAGES.contributionRange];
    expect(await links.allTextContents()).toEqual(expected);
    for (const link of await links.all()) {
      const target = (await link.getAttribute('href'))?.slice(1) ?? '';
      const field = page.locator(`[id="${target}"]`);
      await expect(field.count()).resolves.toBe(1);
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
      expect(describedBy).toContain(`${target}-error`);
      const message = await page.locator(`[id="${target}-error"]`).innerText();
      expect(message).toContain(await link.textContent());
    }
    // Every value comes back as typed, the choices too.
    expect(await form(page).getByLabel('E-mail', { exact: true }).inputValue()).toBe('jane@');
    expect(await form(page).getByLabel('Phone', { exact: true }).inputValue()).toBe('(512) 555-0199');
    expect(await form(page).getByLabel('Your age').inputValue()).toBe('12');
    expect(await form(page).getByLabel('What you could put in each year').inputValue()).toBe('a lot');
    expect(await form(page).getByRole('radio', { name: 'By e-mail' }).isChecked()).toBe(true);
    expect(await form(page).getByLabel(/I agree that/).isChecked()).toBe(true);
    expect(await leads('any')).toHaveLength(before);

    // Put right, it goes through.
    await form(page).getByLabel('Your name').fill('Jane Carter');
    await form(page).getByLabel('E-mail', { exact: true }).fill('jane@example.com');
    await form(page).getByLabel('Your age').fill('52');
    await form(page).getByLabel('What you could put in each year').fill('$15,000');
    await send(page);
    expect(new URL(page.url()).pathname).toBe('/get-quote/thank-you');
    expect(await newestLead()).toMatchObject({ email: 'jane@example.com', preferredContactMethod: 'email', age: 52, annualContribution: 15_000 });
  });

  it('thanks a robot that filled the hidden field, and keeps its request aside as spam', async () => {
    const page = await open({ js: false });
    const real = (await leads()).length;
    await fillShort(page, { name: 'Spam Bot' });
    await form(page).locator('input[name="website"]').fill('https://spam.example', { force: true });
    await send(page);
    expect(new URL(page.url()).pathname).toBe('/get-quote/thank-you');
    expect(await leads()).toHaveLength(real);
    expect(await newestLead()).toMatchObject({ name: 'Spam Bot', spam: 'honeypot' });
    expect(await site.server.store.outbox.forLead((await newestLead()).id)).toEqual([]);
  });

  it('asks to check and send again when the form came back sooner than a person fills it, and keeps that one as spam', async () => {
    const page = await open({ js: false });
    intake.minFillMs = clock.shiftMs + TOO_QUICK_MS;
    await fillShort(page, { name: 'Quick Fingers' });
    const response = page.waitForResponse((res) => res.request().method() === 'POST');
    await send(page);
    expect((await response).status()).toBe(400);
    expect(await page.getByTestId('quote-error-summary').innerText()).toContain('quicker than we expected');
    expect(await form(page).getByLabel('Your name').inputValue()).toBe('Quick Fingers');
    expect(await newestLead()).toMatchObject({ name: 'Quick Fingers', spam: 'too-fast' });

    intake.minFillMs = 0;
    await send(page);
    expect(new URL(page.url()).pathname).toBe('/get-quote/thank-you');
    expect(await newestLead()).toMatchObject({ name: 'Quick Fingers', spam: null });
  });

  it(`takes ${PER_HOUR} requests an hour from one address, then says when to try again and keeps the values`, async () => {
    const page = await open({ js: false });
    for (let i = 1; i <= PER_HOUR; i += 1) {
      await page.goto(`${site.url}/get-quote`);
      await fillShort(page, { name: `Visitor ${i}` });
      await send(page);
      expect(new URL(page.url()).pathname).toBe('/get-quote/thank-you');
    }
    await page.goto(`${site.url}/get-quote`);
    await fillShort(page, { name: 'One Too Many' });
    const response = page.waitForResponse((res) => res.request().method() === 'POST');
    await send(page);
    const answer = await response;
    expect(answer.status()).toBe(429);
    expect(Number(answer.headers()['retry-after'])).toBeGreaterThan(0);
    const notice = await page.getByTestId('quote-error-summary').innerText();
    expect(notice).toMatch(/try again in about \d+ minutes?/);
    expect(notice).toContain(DEFAULT_SITE_CONFIG.phoneDisplay);
    expect(await form(page).getByLabel('Your name').inputValue()).toBe('One Too Many');
    expect((await leads('any')).some((lead) => lead.name === 'One Too Many')).toBe(false);
  });

  it('records a browser that sends Global Privacy Control as opted out, and a request without consent as contact-by-choice only', async () => {
    const page = await open({ js: false, headers: { 'Sec-GPC': '1' } });
    await fillShort(page, { name: 'Private Person' });
    await send(page);
    expect(await newestLead()).toMatchObject({
      name: 'Private Person',
      consent: { given: false, globalPrivacyControl: true, contactOnlyBy: 'phone' },
    });
  });
});

describe('with JavaScript', () => {
  it('checks a field when the visitor leaves it, clears the message once it is right, and sends without a reload', async () => {
    const page = await open({ js: true });
    // Choosing to be reached by e-mail and moving on asks for nothing the visitor has not reached yet
    // (a message there would also move the consent box below under the finger on its way to it).
    const consentTop = () => page.locator('#quote-consent').evaluate((box) => box.getBoundingClientRect().top);
    const before = await consentTop();
    await form(page).getByRole('radio', { name: 'By e-mail' }).check();
    await page.keyboard.press('Tab');
    await nextFrames(page);
    expect(await page.locator('.quote-request-form .field-error').count()).toBe(0);
    expect(await consentTop()).toBe(before);
    await form(page).getByRole('radio', { name: 'By phone' }).check();
    const email = form(page).getByLabel('E-mail', { exact: true });
    await email.fill('jane@example');
    await email.blur();
    await expect(email.getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await page.locator('#quote-email-error').innerText()).toContain(QUOTE_MESSAGES.emailInvalid);
    await email.fill('jane@example.com');
    await expect(page.locator('#quote-email-error').count()).resolves.toBe(0);
    expect(await email.getAttribute('aria-invalid')).toBeNull();

    // Sending with the required fields empty stops in the browser, with the summary focused.
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await form(page).getByRole('button', { name: 'Request my free illustration' }).click();
    const summary = page.getByTestId('quote-error-summary');
    await summary.waitFor();
    expect(await summary.getByRole('link').allTextContents()).toEqual([QUOTE_MESSAGES.nameMissing, QUOTE_MESSAGES.phoneNeeded, QUOTE_MESSAGES.ageMissing, QUOTE_MESSAGES.contributionMissing]);
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'quote-error-summary');
    expect(posts).toEqual([]);

    await fillShort(page, { name: 'Script Enabled' });
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    await form(page).getByRole('button', { name: 'Request my free illustration' }).click();
    await page.getByTestId('quote-thank-you').waitFor();
    expect(new URL(page.url()).pathname).toBe('/get-quote/thank-you');
    // The app sent the form itself (its .data request), not a document POST.
    expect(posts.some((url) => new URL(url).pathname === '/get-quote.data')).toBe(true);
    expect(await newestLead()).toMatchObject({ name: 'Script Enabled', email: 'jane@example.com', spam: null });
  });

  it('shows the server’s answer in the same summary when the request is refused there', async () => {
    const page = await open({ js: true });
    intake.minFillMs = clock.shiftMs + TOO_QUICK_MS;
    await fillShort(page, { name: 'Too Quick With Script' });
    await form(page).getByRole('button', { name: 'Request my free illustration' }).click();
    const summary = page.getByTestId('quote-error-summary');
    await summary.waitFor();
    expect(await summary.innerText()).toContain('quicker than we expected');
    expect(new URL(page.url()).pathname).toBe('/get-quote');
    expect(await form(page).getByLabel('Your name').inputValue()).toBe('Too Quick With Script');
  });
});

describe('accessibility', () => {
  it('axe finds nothing on the form, its error state and the thank-you page, at 1280 and 375 px', async () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 375, height: 812 },
    ]) {
      const page = await open({ js: true, viewport });
      expect(await axeViolations(page), `form at ${viewport.width}`).toEqual([]);
      await form(page).getByRole('button', { name: 'Request my free illustration' }).click();
      await page.getByTestId('quote-error-summary').waitFor();
      expect(await axeViolations(page), `errors at ${viewport.width}`).toEqual([]);
      await fillShort(page);
      await form(page).getByRole('button', { name: 'Request my free illustration' }).click();
      await page.getByTestId('quote-thank-you').waitFor();
      expect(await axeViolations(page), `thank-you at ${viewport.width}`).toEqual([]);
    }
  });
});
