/**
 * Cookie-free page views in real Chromium (issue 43, decision 0032): a visitor without JavaScript and
 * one with it are each counted once per page they open (the page load is the count; no beacon), a
 * hydrated app's own navigation is counted too, and no cookie is set for either.
 */
import { describe, expect, it } from 'vitest';
import { seedPosts } from '../support/many-posts';
import { testSite } from '../support/site-fixture';
import { waitForHydration } from '../support/page';
import { loginTokenOf, staffClient } from '../support/staff-client';

const site = testSite({ leads: { settings: { minFillMs: 0 } } });

async function views(route: string, userAgent: string): Promise<Array<string | null>> {
  await site.server.services.analytics.flush();
  const day = new Date().toISOString().slice(0, 10);
  const hash = await site.server.services.analytics.hashOf('127.0.0.1', userAgent, day);
  return (await site.server.store.analytics.visit(day, hash)).filter((view) => view.route === route).map((view) => view.slug);
}

describe('page views in Chromium', () => {
  it('counts each article once for a visitor without JavaScript, and sets no cookie', async () => {
    const [first, second] = (await seedPosts(site.server.store, 2, 'No script')).filter((post) => post.status === 'published');
    if (!first || !second) throw new Error('two published posts expected');
    const userAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36 no-js-reader';
    const context = await site.newContext({ javaScriptEnabled: false, userAgent });
    const page = await context.newPage();
    await page.goto(`${site.url}/blog/${first.slug}`);
    await page.goto(`${site.url}/blog/${second.slug}`);
    expect(await views('/blog/:slug', userAgent)).toEqual([first.slug, second.slug]);
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });

  it('counts a visitor with JavaScript once per page: the load, not the hydration, and the app\'s own navigation once', async () => {
    const [article] = (await seedPosts(site.server.store, 1, 'Script')).filter((post) => post.status === 'published');
    if (!article) throw new Error('a published post expected');
    const userAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36 js-reader';
    const context = await site.newContext({ userAgent });
    const page = await context.newPage();
    await page.goto(`${site.url}/blog/${article.slug}`);
    await waitForHydration(page);
    expect(await views('/blog/:slug', userAgent)).toEqual([article.slug]);
    await page.getByTestId('footer-schedule').click();
    await page.waitForURL(`${site.url}/get-quote`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await views('/blog/:slug', userAgent)).toEqual([article.slug]);
    expect(await views('/get-quote', userAgent)).toEqual([null]);
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });

  it('a visitor reads two articles and sends a quote request: the request names both and the staff view ranks them', async () => {
    const [first, second] = (await seedPosts(site.server.store, 2, 'Converting')).filter((post) => post.status === 'published');
    if (!first || !second) throw new Error('two published posts expected');
    const userAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36 converting-reader';
    const context = await site.newContext({ javaScriptEnabled: false, userAgent });
    const page = await context.newPage();
    await page.goto(`${site.url}/blog/${first.slug}?utm_source=newsletter`);
    await page.goto(`${site.url}/blog/${second.slug}`);
    await page.goto(`${site.url}/get-quote`);
    const form = page.getByTestId('quote-request-form');
    await form.getByLabel('Your name').fill('Jane Carter');
    await form.getByLabel('Phone', { exact: true }).fill('(512) 555-0199');
    await form.getByLabel('Your age').fill('45');
    await form.getByLabel('What you could put in each year').fill('12,000');
    await form.getByRole('button', { name: 'Request my free illustration' }).click();
    await page.waitForURL(/\/get-quote\/thank-you/);
    const lead = (await site.server.store.leads.list({ spam: 'any' })).find((item) => item.consent.userAgent === userAgent);
    if (!lead) throw new Error('the quote request was not stored');
    expect(await site.server.store.analytics.conversion(lead.id)).toMatchObject({ landing: `/blog/${first.slug}`, articles: [first.slug, second.slug], utmSource: 'newsletter' });
    expect(await context.cookies()).toEqual([]);
    await context.close();

    await site.server.createStaff('analyst@agency.example', 'a long staff password 42');
    const staff = staffClient(site.url);
    const loginToken = await loginTokenOf(staff);
    expect((await staff.request('/admin/login', { form: { email: 'analyst@agency.example', password: 'a long staff password 42', loginToken, next: '/admin' } })).status).toBe(303);
    const html = await (await staff.request('/admin/analytics')).text();
    const byQuotes = /data-testid="top-by-quotes"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    expect(byQuotes).toContain(`>${first.slug}<`);
    expect(byQuotes).toContain(`>${second.slug}<`);
    expect(/data-testid="top-sources"[\s\S]*?<\/table>/.exec(html)?.[0]).toContain('>newsletter<');
  });
});
