/**
 * One quote request per visitor intent (decision 0018) in real Chromium: with JavaScript off, a
 * double-click on send and Back-then-send again each store one request and land on its one thank-you
 * page; with JavaScript on, a double-click does too; a fresh visit to the form gets a fresh token; and
 * the thank-you address opened without a request says that nothing was sent. The store answers a little
 * slowly here, so that the first of two sends is still under way when the second arrives, as on a
 * busy day: the test counts sends reaching the store, so a second click is known to have been sent.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import type { LeadRepository, Store } from '../../api/store/store';
import { axeViolations } from '../support/axe';
import { withMember } from '../support/failing';
import { waitForHydration } from '../support/page';
import { testSite } from '../support/site-fixture';

/** How long the store takes to begin storing a lead: longer than between the two clicks of a double-click. */
const SLOW_STORE_MS = 400;
/** Sends of a form that reached the store (stored or not). */
const reachedStore: string[] = [];

function slowLeads(leads: LeadRepository): LeadRepository {
  return withMember(leads, 'create', async (...args: Parameters<LeadRepository['create']>) => {
    reachedStore.push(args[0].name);
    await new Promise((resolve) => setTimeout(resolve, SLOW_STORE_MS));
    return leads.create(...args);
  });
}

const site = testSite({
  leads: { settings: { minFillMs: 0, perHour: 0 } },
  wrapStore: (store: Store) => withMember(store, 'leads', slowLeads(store.leads)),
});

beforeEach(() => {
  reachedStore.length = 0;
});

async function open(js: boolean): Promise<Page> {
  // No request routing here: Playwright turns the browser's HTTP cache off for a context that routes, and Back needs it.
  const context = await site.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${site.url}/get-quote`);
  if (js) await waitForHydration(page);
  return page;
}

const form = (page: Page) => page.getByTestId('quote-request-form');
const sendButton = (page: Page) => form(page).getByRole('button', { name: 'Request my free illustration' });
const tokenOf = (page: Page) => form(page).locator('input[name="formToken"]').inputValue();

async function fill(page: Page, name: string): Promise<void> {
  await form(page).getByLabel('Your name').fill(name);
  await form(page).getByLabel('Phone', { exact: true }).fill('(512) 555-0199');
  await form(page).getByLabel('Your age').fill('45');
  await form(page).getByLabel('What you could put in each year').fill('12,000');
}

async function thankYouReference(page: Page): Promise<string> {
  // A locator, not waitForURL: when a second send cancels the first navigation, waitForURL fails on
  // the cancelled one (net::ERR_ABORTED), while the locator waits for the page that does answer.
  await page.getByTestId('quote-reference').waitFor();
  expect(new URL(page.url()).pathname).toBe('/get-quote/thank-you');
  const reference = await page.getByTestId('quote-reference').locator('strong').innerText();
  expect(new URL(page.url()).searchParams.get('ref')).toBe(reference);
  return reference;
}

const leadsNamed = async (name: string) => (await site.server.store.leads.list({ spam: 'any' })).filter((lead) => lead.name === name);

describe('without JavaScript', () => {
  it('a double-click on send stores one request, and the page that answers shows its reference', async () => {
    const page = await open(false);
    await fill(page, 'Double Click Without Script');
    await sendButton(page).dblclick();
    const reference = await thankYouReference(page);
    // Chromium sends the form once or twice for a double-click (the second send cancels the first
    // navigation, sometimes before it left): either way, one request.
    expect(reachedStore.length).toBeGreaterThanOrEqual(1);
    expect((await leadsNamed('Double Click Without Script')).map((lead) => lead.reference)).toEqual([reference]);
  });

  it('a second click while the first send is still under way: both reach the store, one request is stored', async () => {
    const page = await open(false);
    await fill(page, 'Clicks Twice Without Script');
    await sendButton(page).scrollIntoViewIfNeeded();
    const box = await sendButton(page).boundingBox();
    if (!box) throw new Error('the send button is not on the page');
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.click(x, y);
    // The first send has left and waits on the store; the page still shows the form.
    await expect.poll(() => reachedStore.length).toBe(1);
    await page.mouse.click(x, y);
    const reference = await thankYouReference(page);
    expect(reachedStore).toEqual(['Clicks Twice Without Script', 'Clicks Twice Without Script']);
    expect((await leadsNamed('Clicks Twice Without Script')).map((lead) => lead.reference)).toEqual([reference]);
  });

  it('Back after the thank-you page shows the form as sent, and sending it again is the same request', async () => {
    const page = await open(false);
    const token = await tokenOf(page);
    await fill(page, 'Back And Send');
    await sendButton(page).click();
    const reference = await thankYouReference(page);

    await page.goBack();
    expect(new URL(page.url()).pathname).toBe('/get-quote');
    expect(await tokenOf(page)).toBe(token);
    expect(await form(page).getByLabel('Your name').inputValue()).toBe('Back And Send');
    // Chromium fills back what it keeps (not the fields marked autocomplete=off): the visitor completes the rest as before.
    await fill(page, 'Back And Send');
    await sendButton(page).click();
    expect(await thankYouReference(page)).toBe(reference);
    expect((await leadsNamed('Back And Send')).map((lead) => lead.reference)).toEqual([reference]);

    // Opened afresh, the form is a new request, with a new token.
    await page.goto(`${site.url}/get-quote`);
    expect(await tokenOf(page)).not.toBe(token);
  });
});

describe('with JavaScript', () => {
  it('a double-click on send stores one request and shows its thank-you page', async () => {
    const page = await open(true);
    await fill(page, 'Double Click With Script');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
    });
    await sendButton(page).dblclick();
    await page.getByTestId('quote-thank-you').waitFor();
    const reference = await thankYouReference(page);
    expect(posts.length).toBeGreaterThanOrEqual(1);
    expect(posts.every((path) => path === '/get-quote.data')).toBe(true);
    expect((await leadsNamed('Double Click With Script')).map((lead) => lead.reference)).toEqual([reference]);
  });
});

describe('the thank-you address opened without a request', () => {
  it.each([true, false])('says nothing was sent and offers the form and the phone (JavaScript %s)', async (js) => {
    const context = await site.newContext({ javaScriptEnabled: js });
    const page = await context.newPage();
    await page.goto(`${site.url}/get-quote/thank-you?ref=7K3M-Q9XD-4RTA`);
    const main = page.locator('main');
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('No request was sent from this page');
    expect(await main.innerText()).not.toContain('your request has arrived');
    expect(await main.getByRole('link', { name: 'Request your free illustration' }).getAttribute('href')).toBe('/get-quote#request');
    expect(await main.locator(`a[href="tel:${DEFAULT_SITE_CONFIG.phoneE164}"]`).count()).toBeGreaterThan(0);
    if (js) expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
