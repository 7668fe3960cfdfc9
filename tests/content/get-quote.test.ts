/**
 * The quote page's copy (web/content/get-quote.ts): title, form steps, what the illustration
 * includes, the frame size of SPEC section 9, the load timeout, and the Service JSON-LD whose free
 * Offer (0 USD) matches what the page says.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BOOKING_FRAME_SIZE,
  BOOKING_LOAD_TIMEOUT_MS,
  ILLUSTRATION_OFFER,
  quoteContent,
  quoteServiceJsonLd,
} from '../../web/content/get-quote';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '../../contract/site-config';

const text = z.string().min(2);
const idOf = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

const schema = z.object({
  seo: z.object({ title: z.string().min(5).max(120), description: z.string().min(15).max(160) }),
  hero: z.object({ eyebrow: text, heading: text, freeBadge: text, lead: text, highlights: z.array(text).min(1) }),
  video: z.object({ heading: text, title: text, caption: text }),
  form: z.object({
    heading: text,
    intro: text,
    stepsHeading: text,
    steps: z.array(z.object({ id: idOf, title: text, text })).min(3),
    openLabel: z.literal('Open the scheduling form'),
    privacyNote: text,
    frameTitle: text,
    loadingMessage: text,
    fallbackHeading: text,
    fallbackText: text,
  }),
  phone: z.object({ prompt: z.string().startsWith('Prefer to talk? Call'), text }),
  inclusions: z.object({ heading: text, intro: text, items: z.array(z.object({ id: idOf, title: text, text })).length(6), projectionNote: text }),
  faqs: z.object({ heading: text, items: z.array(z.object({ id: idOf, question: z.string().endsWith('?'), answer: text })).min(1) }),
  service: z.object({ name: text, serviceType: text, description: text }),
  disclaimer: text,
});

const content = quoteContent(DEFAULT_SITE_CONFIG);

describe('quote page copy', () => {
  it('matches its schema', () => {
    expect(() => schema.parse(content)).not.toThrow();
  });

  it('has unique ids in every list', () => {
    for (const list of [content.form.steps, content.inclusions.items, content.faqs.items]) {
      const ids = list.map((item) => item.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('has a title containing Free IUL Illustration and says the illustration is free', () => {
    expect(content.seo.title).toContain('Free IUL Illustration');
    expect(content.hero.heading).toContain('Free IUL Illustration');
    expect(content.hero.freeBadge).toBe('Free, no obligation');
  });

  it('keeps the frame of SPEC section 9: 800px tall, at least 600px, and a 15-second load timeout', () => {
    expect(BOOKING_FRAME_SIZE).toEqual({ height: '800px', minHeight: '600px' });
    expect(BOOKING_LOAD_TIMEOUT_MS).toBe(15_000);
  });

  it('lists what the illustration includes and that it is a projection, not a guarantee', () => {
    const titles = content.inclusions.items.map((item) => item.title).join(' | ');
    for (const part of ['cash value by year', 'tax-free income', 'Death benefit', 'Costs', 'assumptions', 'taxable account']) {
      expect(titles, part).toContain(part);
    }
    expect(content.inclusions.projectionNote).toMatch(/projections, not guarantees/);
    expect(JSON.stringify(content.inclusions)).toMatch(/loans reduce the death benefit/);
  });

  it('builds Service JSON-LD with a free Offer (price 0, USD) from the visible copy', () => {
    const ld = quoteServiceJsonLd(DEFAULT_SITE_CONFIG);
    expect(ILLUSTRATION_OFFER).toEqual({ price: '0', priceCurrency: 'USD' });
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Service',
      name: content.service.name,
      url: `${DEFAULT_SITE_CONFIG.siteUrl}/get-quote`,
      provider: { '@id': `${DEFAULT_SITE_CONFIG.siteUrl}/#agency` },
      offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD', description: content.hero.freeBadge },
    });
    // The service's name is what the page shows as its eyebrow and in its heading.
    expect(content.hero.eyebrow).toBe(content.service.name);
    expect(content.hero.heading).toContain(content.service.name);
  });

  it('takes the product name from the config and writes no contact literals', () => {
    const other: SiteConfig = { ...DEFAULT_SITE_CONFIG, productName: 'Test Product Plan' };
    const otherCopy = JSON.stringify(quoteContent(other));
    expect(otherCopy).toContain('Test Product Plan');
    expect(otherCopy).not.toContain(DEFAULT_SITE_CONFIG.productName);
    const serialized = JSON.stringify(content);
    for (const literal of [DEFAULT_SITE_CONFIG.phoneDisplay, DEFAULT_SITE_CONFIG.phoneE164, DEFAULT_SITE_CONFIG.email, DEFAULT_SITE_CONFIG.bookingFormUrl]) {
      expect(serialized).not.toContain(literal);
    }
  });
});
