/**
 * The About page's copy (web/content/about.ts): its shape and counts (SPEC "About page"), the spec's
 * figures (founded 1955, second generation in 1976, three generations, about 70 years), SEO lengths,
 * contact facts coming from the config rather than literals, and the AboutPage JSON-LD.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aboutContent, aboutPageJsonLd, COMBINED_EXPERIENCE_YEARS, GENERATIONS, SECOND_GENERATION_YEAR } from '../../web/content/about';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '../../contract/site-config';

const text = z.string().min(3);
const idOf = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

const schema = z.object({
  seo: z.object({ title: z.string().min(5).max(120), description: z.string().min(15).max(160) }),
  hero: z.object({ eyebrow: text, heading: text, lead: text }),
  legacy: z.object({
    heading: text,
    intro: text,
    stats: z.array(z.object({ id: idOf, value: text.or(z.string().min(1)), label: text })).min(1),
    milestones: z.array(z.object({ id: idOf, label: text, generation: text, title: text, text })).length(3),
  }),
  leadership: z.object({
    heading: text,
    intro: text,
    leaders: z.array(z.object({ id: idOf, name: text, role: text, generation: text, bio: z.string().min(60) })).length(2),
  }),
  mission: z.object({ heading: text, statement: text, text }),
  reasons: z.object({
    heading: text,
    intro: text,
    items: z.array(z.object({ id: idOf, icon: z.enum(['family', 'education', 'compare', 'service']), title: text, text })).length(4),
  }),
  process: z.object({ heading: text, intro: text, steps: z.array(z.object({ id: idOf, title: text, text })).length(4) }),
  contact: z.object({ heading: text, intro: text, hoursHeading: text, buttonLabel: text }),
  disclaimer: text,
});

const content = aboutContent(DEFAULT_SITE_CONFIG);
const serialized = JSON.stringify(content);

describe('about page copy', () => {
  it('matches its schema: 3 generations, 2 leaders, 4 reasons, 4 process steps', () => {
    expect(() => schema.parse(content)).not.toThrow();
    expect(content.legacy.milestones).toHaveLength(GENERATIONS);
    expect(content.leadership.leaders).toHaveLength(2);
    expect(content.reasons.items).toHaveLength(4);
    expect(content.process.steps).toHaveLength(4);
  });

  it('has unique ids within each list', () => {
    for (const list of [content.legacy.stats, content.legacy.milestones, content.leadership.leaders, content.reasons.items, content.process.steps]) {
      const ids = list.map((item) => item.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('states every figure of the spec that belongs to the About page', () => {
    expect(GENERATIONS).toBe(3);
    expect(SECOND_GENERATION_YEAR).toBe(1976);
    expect(COMBINED_EXPERIENCE_YEARS).toBe(70);
    for (const figure of ['founded in 1955', 'joined in 1976', 'three generations of leadership', 'about 70 years of combined experience']) {
      expect(serialized, figure).toContain(figure);
    }
    expect(content.legacy.milestones.map((m) => m.label)).toEqual(['1955', '1976', 'Today']);
    expect(content.legacy.stats.map((s) => s.value)).toEqual(['1955', '3', 'About 70']);
  });

  it('tells one story of the family: two generations lead today, and the demo articles are by its leaders', async () => {
    // Three generations have led the agency over time; the leadership team today is two of them.
    expect(content.leadership.leaders).toHaveLength(2);
    for (const sentence of serialized.split(/(?<=[.!?])\s+/)) {
      if (/\btoday\b/i.test(sentence)) expect(sentence, sentence).not.toMatch(/three generations (?:of leadership )?(?:lead|bring)/i);
    }
    const leaders = new Set(content.leadership.leaders.map((leader) => leader.name));
    const { readdir, readFile } = await import('node:fs/promises');
    const folder = new URL('../../fixtures/posts/', import.meta.url);
    const files = (await readdir(folder, { recursive: true })).filter((file) => file.endsWith('.md'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const source = await readFile(new URL(file, folder), 'utf8');
      const author = /^ {2}name: "?([^"\n]+)"?$/m.exec(source)?.[1] ?? '';
      if (author.endsWith(' Hartwell')) expect(leaders, `${file}: ${author}`).toContain(author);
    }
  });

  it('takes the agency and founding year from the config, never from literals', () => {
    const other: SiteConfig = { ...DEFAULT_SITE_CONFIG, agencyName: 'Lone Star Test Agency', city: 'Testville' };
    const otherCopy = JSON.stringify(aboutContent(other));
    expect(otherCopy).toContain('About Lone Star Test Agency');
    expect(otherCopy).toContain('Testville, Texas');
    expect(otherCopy).not.toContain(DEFAULT_SITE_CONFIG.agencyName);
    for (const literal of [DEFAULT_SITE_CONFIG.phoneDisplay, DEFAULT_SITE_CONFIG.phoneE164, DEFAULT_SITE_CONFIG.email, DEFAULT_SITE_CONFIG.productSlug]) {
      expect(serialized).not.toContain(literal);
    }
    expect(serialized).not.toMatch(/\{(product|phone|email|key)\}/);
  });

  it('keeps the word About in the page and says projections are not guaranteed', () => {
    expect(content.hero.heading).toMatch(/^About /);
    expect(content.disclaimer).toMatch(/not a solicitation/);
    expect(content.disclaimer).toMatch(/not guaranteed/);
  });

  it('builds AboutPage JSON-LD from the visible heading and the agency id', () => {
    const ld = aboutPageJsonLd(DEFAULT_SITE_CONFIG);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'AboutPage',
      name: content.hero.heading,
      description: content.seo.description,
      url: `${DEFAULT_SITE_CONFIG.siteUrl}/about-us`,
      mainEntity: { '@id': `${DEFAULT_SITE_CONFIG.siteUrl}/#agency` },
    });
  });
});
