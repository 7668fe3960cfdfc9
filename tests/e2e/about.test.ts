/**
 * /about-us in real Chromium: the three generations (1955, 1976, about 70 years), 2 leaders, 4
 * reasons, 4 process steps, contact links and office hours from the config, the button to
 * /get-quote, the figures and JSON-LD in the served HTML, and axe at 1280 and 375 px.
 */
import { describe, expect, it } from 'vitest';
import { aboutContent } from '../../web/content/about';
import { DEFAULT_SITE_CONFIG, fullAddress } from '../../contract/site-config';
import { axeViolations } from '../support/axe';
import { once, testSite } from '../support/site-fixture';
import { type OpenedPage, openPage } from '../support/page';

const config = DEFAULT_SITE_CONFIG;
const content = aboutContent(config);

const site = testSite();

function openAbout(viewport = { width: 1280, height: 800 }): Promise<OpenedPage> {
  return openPage(site, `${site.url}/about-us`, viewport, { consoleErrors: false });
}

/** The page as loaded, shared by the tests that only read it. */
const loadedAbout = once(() => openAbout());

describe('about page', () => {
  it('serves the spec figures, the About heading and AboutPage JSON-LD in the raw HTML', async () => {
    const res = await fetch(`${site.url}/about-us`);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const figure of ['founded in 1955', 'joined in 1976', 'three generations of leadership', 'about 70 years of combined experience']) {
      expect(html, figure).toContain(figure);
    }
    expect(html).toMatch(/<h1[^>]*>About /);
    expect(html).toContain('"@type":"AboutPage"');
    expect(html).toContain(config.officeHours);
    expect(html).toContain(config.weekendNote);
  });

  it('tells the three-generation story: 1955, 1976 and about 70 years', async () => {
    const { page, errors } = await loadedAbout();
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('About');
    const legacy = page.getByTestId('about-legacy');
    const generations = legacy.getByTestId('legacy-generation');
    expect(await generations.count()).toBe(3);
    expect((await generations.allInnerTexts()).map((t) => t.split('\n')[0]?.trim())).toEqual(['1955', '1976', 'Today']);
    const legacyText = await legacy.innerText();
    expect(legacyText).toMatch(/three generations/i);
    expect(legacyText).toContain('about 70 years of combined experience');
    expect(await legacy.getByTestId('legacy-stat').allInnerTexts()).toEqual([
      expect.stringContaining('1955'),
      expect.stringContaining('3'),
      expect.stringContaining('About 70'),
    ]);
    expect(errors).toEqual([]);
  });

  it('shows 2 leaders with drawn, named portraits, 4 reasons and 4 process steps', async () => {
    const { page } = await loadedAbout();
    const leaders = page.getByTestId('leader');
    expect(await leaders.count()).toBe(2);
    for (const [index, leader] of content.leadership.leaders.entries()) {
      const card = leaders.nth(index);
      expect(await card.getByRole('heading', { level: 3 }).innerText()).toBe(leader.name);
      expect(await card.innerText()).toContain(leader.role);
      const initials = leader.name.split(' ').map((part) => part[0]).join('');
      const portrait = card.getByRole('img', { name: `Portrait of ${leader.name}` });
      expect(await portrait.evaluate((el) => el.tagName.toLowerCase())).toBe('svg');
      expect(await portrait.locator('text').textContent()).toBe(initials);
    }
    expect(await page.getByTestId('about-reason').count()).toBe(4);
    const steps = page.getByTestId('process-step');
    expect(await steps.count()).toBe(4);
    expect(await steps.getByRole('heading', { level: 3 }).allTextContents()).toEqual(
      content.process.steps.map((step, i) => `Step ${i + 1}: ${step.title}`),
    );
  });

  it('gives phone, e-mail and the Texas address from the config, and the office hours', async () => {
    const { page } = await loadedAbout();
    const contact = page.getByTestId('about-contact');
    const phone = contact.getByTestId('about-phone');
    expect(await phone.getAttribute('href')).toBe(`tel:${config.phoneE164}`);
    expect(await phone.getAttribute('href')).toMatch(/^tel:\+1\d{10}$/);
    expect(await phone.innerText()).toContain(config.phoneDisplay);
    const email = contact.getByTestId('about-email');
    expect(await email.getAttribute('href')).toBe(`mailto:${config.email}`);
    expect(await contact.innerText()).toContain(fullAddress(config));
    expect(fullAddress(config)).toContain(', TX ');
    const hours = await contact.getByTestId('about-hours').innerText();
    expect(hours).toMatch(/Monday to Friday,? 9:00 AM to 5:00 PM Central Time/);
    expect(hours).toMatch(/Weekend appointments .*on request/);
  });

  it('takes the visitor to /get-quote from its button', async () => {
    const { context, page } = await openAbout();
    const button = page.getByTestId('about-quote-button');
    expect(await button.innerText()).toBe(content.contact.buttonLabel);
    await button.click();
    await page.waitForURL(`${site.url}/get-quote`);
    await page.waitForFunction(() => document.querySelector('h1')?.textContent?.includes('Free IUL Illustration') ?? false);
    await context.close();
  });

  it('has no accessibility violations at 1280 and 375 px', async () => {
    const { context, page } = await openAbout();
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await axeViolations(page), 'at 375px').toEqual([]);
    await context.close();
  });
});
