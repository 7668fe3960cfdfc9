/**
 * Cookie-free page views and quote requests' attribution over real HTTP (issue 43, decision 0032):
 * what is counted and what is not, what a view keeps (and never keeps), the daily visitor hash, the
 * roll-up of old views, and a store that refuses never failing a page.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsCsv, analyticsReport } from '../../api/analytics/report';
import { postQuoteForm } from '../support/leads';
import { seedPosts, type SeededPost } from '../support/many-posts';
import { startTestServer, type TestServer } from '../support/server';
import { loginTokenOf, staffClient } from '../support/staff-client';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
let clock = new Date('2026-03-02T10:00:00Z');
let server: TestServer;
let posts: SeededPost[];

const day = () => clock.toISOString().slice(0, 10);

function visit(pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Response> {
  return fetch(`${server.url}${pathname}`, { method, redirect: 'manual', headers: { 'User-Agent': BROWSER, ...headers } });
}

/** Views of `route` (and `slug`) counted today, once the counter has written what it holds. */
async function viewsOf(route: string, slug: string | null = null): Promise<number> {
  await server.services.analytics.flush();
  const counts = await server.store.analytics.counts(day(), day());
  return counts.filter((count) => count.route === route && count.slug === slug).reduce((sum, count) => sum + count.views, 0);
}

beforeAll(async () => {
  server = await startTestServer({ now: () => clock, leads: { settings: { minFillMs: 0 } } });
  posts = (await seedPosts(server.store, 3, 'Analytics')).filter((post) => post.status === 'published');
});

afterAll(async () => {
  await server.close();
});

describe('page views', () => {
  it('counts a page answer once, on the server, with its device class', async () => {
    const before = await viewsOf('/faq');
    const page = await visit('/faq', { 'User-Agent': PHONE });
    expect(page.status).toBe(200);
    await page.text();
    expect(await viewsOf('/faq')).toBe(before + 1);
    const views = await server.store.analytics.visit(day(), await server.services.analytics.hashOf('127.0.0.1', PHONE));
    expect(views.map((view) => [view.route, view.device])).toEqual([['/faq', 'mobile']]);
  });

  it('does not count the staff area, robots, prefetches, missing pages, HEAD or posted forms', async () => {
    const before = await server.store.analytics.counts(day(), day());
    const answers = [
      await visit('/admin/login'),
      await visit('/about-us', { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }),
      await visit('/about-us', { 'User-Agent': '' }),
      await visit('/about-us', { 'Sec-Purpose': 'prefetch' }),
      await visit('/about-us', { Purpose: 'prefetch' }),
      await visit('/no-such-page'),
      await visit('/about-us', {}, 'HEAD'),
      await visit('/api/blog'),
    ];
    for (const answer of answers) await answer.arrayBuffer();
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 404, 200, 200]);
    await server.services.analytics.flush();
    expect(await server.store.analytics.counts(day(), day())).toEqual(before);
  });

  it('counts the hydrated app\'s navigation to a page (its data) once, but not the same page\'s data again after a form', async () => {
    const before = await viewsOf('/faq');
    const navigated = await visit('/faq.data?_routes=routes%2Ffaq', { Referer: `${server.url}/about-us` });
    expect(navigated.status).toBe(200);
    await navigated.arrayBuffer();
    expect(await viewsOf('/faq')).toBe(before + 1);
    await (await visit('/faq.data', { Referer: `${server.url}/faq` })).arrayBuffer();
    await (await visit('/faq.data', { Referer: `${server.url}/about-us`, 'Sec-Purpose': 'prefetch' })).arrayBuffer();
    expect(await viewsOf('/faq')).toBe(before + 1);
  });

  it('counts a Global Privacy Control or Do Not Track visitor without any visitor hash', async () => {
    const ua = `${BROWSER} gpc-visitor`;
    const before = await viewsOf('/about-us');
    const visitorsBefore = (await server.store.analytics.visitors(day(), day())).get(day()) ?? 0;
    await (await visit('/about-us', { 'User-Agent': ua, 'Sec-GPC': '1' })).text();
    await (await visit('/about-us', { 'User-Agent': ua, DNT: '1' })).text();
    expect(await viewsOf('/about-us')).toBe(before + 2);
    expect((await server.store.analytics.visitors(day(), day())).get(day()) ?? 0).toBe(visitorsBefore);
    expect(await server.store.analytics.visit(day(), await server.services.analytics.hashOf('127.0.0.1', ua))).toEqual([]);
  });

  it('gives the same visitor one hash a day, and another the next day', async () => {
    const ua = `${BROWSER} daily-visitor`;
    await (await visit('/faq', { 'User-Agent': ua })).text();
    await (await visit('/about-us', { 'User-Agent': ua })).text();
    await server.services.analytics.flush();
    const today = await server.services.analytics.hashOf('127.0.0.1', ua);
    expect((await server.store.analytics.visit(day(), today)).map((view) => view.route)).toEqual(['/faq', '/about-us']);
    clock = new Date(clock.getTime() + 24 * 60 * 60 * 1000);
    await (await visit('/faq', { 'User-Agent': ua })).text();
    await server.services.analytics.flush();
    const tomorrow = await server.services.analytics.hashOf('127.0.0.1', ua);
    expect(tomorrow).not.toBe(today);
    expect((await server.store.analytics.visit(day(), tomorrow)).map((view) => view.route)).toEqual(['/faq']);
    expect(await server.store.analytics.visit(day(), today)).toEqual([]);
  });

  it('keeps the UTM values and the referrer host, never the full referrer or the address', async () => {
    const referrer = 'https://news.example.org/private/reader-7734-secret?email=jane%40example.com';
    await (await visit('/about-us?utm_source=Newsletter&utm_medium=email&utm_campaign=spring', { Referer: referrer, 'User-Agent': `${BROWSER} utm-visitor` })).text();
    await server.services.analytics.flush();
    const counts = await server.store.analytics.counts(day(), day());
    expect(counts).toContainEqual({ day: day(), route: '/about-us', slug: null, referrerHost: 'news.example.org', utmSource: 'newsletter', views: 1 });
    const views = await server.store.analytics.visit(day(), await server.services.analytics.hashOf('127.0.0.1', `${BROWSER} utm-visitor`));
    expect(views[0]).toMatchObject({ utmMedium: 'email', utmCampaign: 'spring', referrerHost: 'news.example.org' });
    // Nothing on disk (the database and its write-ahead log) holds the referrer's path or query.
    const files = readdirSync(server.dataDir).filter((name) => /\.(db|sqlite|sqlite3|db-wal|sqlite-wal)$|-wal$/.test(name));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      const bytes = readFileSync(path.join(server.dataDir, name)).toString('latin1');
      expect(bytes).not.toContain('reader-7734-secret');
      expect(bytes).not.toContain('jane%40example.com');
    }
  });
});

describe('attribution', () => {
  it('a quote request names its landing page, the articles read before it that day and the first UTM source', async () => {
    const ua = `${BROWSER} reader-who-asks`;
    const [first, second] = posts;
    if (!first || !second) throw new Error('two published posts expected');
    await (await visit(`/blog/${first.slug}?utm_source=podcast`, { 'User-Agent': ua })).text();
    await (await visit(`/blog/${second.slug}`, { 'User-Agent': ua })).text();
    await (await visit(`/blog/${first.slug}`, { 'User-Agent': ua })).text();
    await (await visit('/get-quote', { 'User-Agent': ua })).text();
    const sent = await postQuoteForm(server.url, undefined, { 'User-Agent': ua });
    expect(sent.status).toBe(303);
    const lead = (await server.store.leads.list({ spam: 'any' })).find((item) => item.consent.userAgent === ua);
    if (!lead) throw new Error('the quote request was not stored');
    expect(await server.store.analytics.conversion(lead.id)).toEqual({ leadId: lead.id, day: day(), landing: `/blog/${first.slug}`, articles: [first.slug, second.slug], utmSource: 'podcast' });

    // The staff view ranks both articles by the quote request they brought, without JavaScript.
    await server.seedStaff('analyst@agency.example', 'a long staff password 42');
    const staff = staffClient(server.url);
    const loginToken = await loginTokenOf(staff);
    expect((await staff.request('/admin/login', { form: { email: 'analyst@agency.example', password: 'a long staff password 42', loginToken, next: '/admin' } })).status).toBe(303);
    const dashboard = await (await staff.request('/admin')).text();
    expect(dashboard).toContain('href="/admin/analytics"');
    const leadPage = await (await staff.request(`/admin/leads/${lead.id}`)).text();
    expect(/data-testid="lead-attribution"[\s\S]*?<\/section>/.exec(leadPage)?.[0]).toContain(`${first.slug}, ${second.slug}`);
    const page = await staff.request('/admin/analytics');
    expect(page.status).toBe(200);
    const html = await page.text();
    const table = (id: string) => new RegExp(`data-testid="${id}"[\\s\\S]*?</table>`).exec(html)?.[0] ?? '';
    expect(table('top-by-quotes')).toContain(`>${first.slug}<`);
    expect(table('top-by-quotes')).toContain(`>${second.slug}<`);
    expect(table('top-by-views').indexOf(`>${first.slug}<`)).toBeLessThan(table('top-by-views').indexOf(`>${second.slug}<`));
    expect(table('top-sources')).toContain('>podcast<');
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*data-testid="chart-views"/);
    expect(html).toContain('<title id="chart-quotes-title">Quote requests per day, last 30 days</title>');
    expect(table('analytics-days-table')).toContain(`<th scope="row">${day()}</th>`);
    const csv = await staff.request('/admin/analytics.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).split('\n');
    expect(lines[0]).toBe('section,name,views,visitors,quote_requests,conversion_rate,metric,p75,events,good,needs_improvement,poor');
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^article,${first.slug},2,,1,0\\.5000,,,,,,$`)));
    // Signed out: no figures, the sign-in page instead.
    const signedOut = await fetch(`${server.url}/admin/analytics`, { redirect: 'manual' });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toMatch(/^\/admin\/login/);
  });

  it('attributes nothing to a Global Privacy Control visitor', async () => {
    const ua = `${BROWSER} private-reader`;
    const [first] = posts;
    if (!first) throw new Error('a published post expected');
    await (await visit(`/blog/${first.slug}`, { 'User-Agent': ua, 'Sec-GPC': '1' })).text();
    const sent = await postQuoteForm(server.url, undefined, { 'User-Agent': ua, 'Sec-GPC': '1' });
    expect(sent.status).toBe(303);
    const lead = (await server.store.leads.list({ spam: 'any' })).find((item) => item.consent.userAgent === ua);
    if (!lead) throw new Error('the quote request was not stored');
    expect(await server.store.analytics.conversion(lead.id)).toBeNull();
  });
});

describe('retention', () => {
  it('rolls raw views past ANALYTICS_RETENTION_DAYS up into daily counts and deletes them', async () => {
    const ua = `${BROWSER} old-visitor`;
    const viewedDay = day();
    await (await visit('/faq', { 'User-Agent': ua })).text();
    await server.services.analytics.flush();
    const hash = await server.services.analytics.hashOf('127.0.0.1', ua);
    const countedBefore = (await server.store.analytics.counts(viewedDay, viewedDay)).filter((count) => count.route === '/faq').reduce((sum, count) => sum + count.views, 0);
    expect(countedBefore).toBeGreaterThan(0);

    clock = new Date(clock.getTime() + 30 * 24 * 60 * 60 * 1000);
    // Thirty days on, the view is still kept as it was (earlier days' views may go now).
    await server.services.analytics.rollUp();
    expect(await server.store.analytics.visit(viewedDay, hash)).toHaveLength(1);

    clock = new Date(clock.getTime() + 24 * 60 * 60 * 1000);
    expect(await server.services.analytics.rollUp()).toBeGreaterThan(0);
    expect(await server.store.analytics.visit(viewedDay, hash)).toEqual([]);
    const countedAfter = (await server.store.analytics.counts(viewedDay, viewedDay)).filter((count) => count.route === '/faq').reduce((sum, count) => sum + count.views, 0);
    expect(countedAfter).toBe(countedBefore);
    expect((await server.store.analytics.visitors(viewedDay, viewedDay)).get(viewedDay)).toBeGreaterThan(0);
  });
});

describe('forged input', () => {
  it('huge or hostile query strings, referrers and User-Agents are cut to bounded fields and never break the page or the chart', async () => {
    const huge = 'x'.repeat(2000);
    const answers = [
      await visit(`/faq?utm_source=${encodeURIComponent(`=HYPERLINK("http://evil")${huge}`)}&utm_medium=%00%01&utm_campaign=${huge}`, { Referer: `https://${'a'.repeat(300)}.example/${huge}`, 'User-Agent': `${BROWSER}${huge}` }),
      await visit('/faq?utm_source=a&utm_source=b&utm_source[]=c', { Referer: 'javascript:alert(1)' }),
      await visit('/faq?utm_source=%E0%A4%A', { Referer: 'http://[::1 not a url%%%' }),
    ];
    for (const answer of answers) await answer.text();
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    await server.services.analytics.flush();
    const counts = await server.store.analytics.counts(day(), day());
    for (const count of counts) {
      expect((count.utmSource ?? '').length).toBeLessThanOrEqual(80);
      expect((count.referrerHost ?? '').length).toBeLessThanOrEqual(100);
    }
    expect(counts.some((count) => count.utmSource?.startsWith('=hyperlink'))).toBe(true);
    // The staff view and its CSV draw them: the spreadsheet gets the formula as text.
    const csv = analyticsCsv(await analyticsReport(server.store.analytics, server.store.leads, clock));
    expect(csv).toContain(`'=hyperlink`);
    expect(csv).not.toMatch(/(^|,)=hyperlink/m);
  });
});

describe('a store that refuses', () => {
  it('never fails or slows a page: the views are dropped and the refusal logged without any visitor data', async () => {
    const refusing = await startTestServer({
      wrapStore: (store) => ({
        ...store,
        analytics: new Proxy(store.analytics, {
          get: (target, name) => (name === 'addViews' ? () => Promise.reject(new Error('database is full')) : (Reflect.get(target, name) as (...args: unknown[]) => unknown).bind(target)),
        }),
      }),
    });
    try {
      const page = await fetch(`${refusing.url}/faq?utm_source=x`, { headers: { 'User-Agent': BROWSER } });
      expect(page.status).toBe(200);
      await page.text();
      await refusing.services.analytics.flush();
      const lines = refusing.logs.filter((line) => line.startsWith('Analytics:'));
      expect(lines).toEqual([expect.stringContaining('1 page view(s) could not be written')]);
      expect(lines.join('\n')).not.toContain('127.0.0.1');
    } finally {
      await refusing.close();
    }
  });
});
