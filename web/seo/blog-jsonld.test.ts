/**
 * The blog's structured data as a search engine reads it: a post's article (type, headline, dates,
 * author, publisher, cover, reviewer, citations) and a page's breadcrumb trail, built from the post
 * object the page shows.
 */
import { describe, expect, it } from 'vitest';
import type { BlogPost } from '../../contract/blog-reader';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '../../contract/site-config';
import { breadcrumbJsonLd, postJsonLd } from './blog-jsonld';

const config: SiteConfig = { ...DEFAULT_SITE_CONFIG, siteUrl: 'https://iul.example', agencyName: 'Hartwell Family Insurance' };

function post(overrides: Partial<BlogPost> = {}): BlogPost {
  return {
    id: 'p1',
    slug: 'what-is-iul',
    title: 'What is IUL?',
    excerpt: 'A short answer.',
    category: { slug: 'basics', name: 'Basics' },
    tags: ['iul', 'cash value'],
    author: { name: 'Dana Hart' },
    isNewsArticle: false,
    trust: null,
    cover_image: null,
    status: 'published',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-03T00:00:00.000Z',
    published_at: '2026-01-02T00:00:00.000Z',
    publish_at: null,
    revision: 1,
    content: '<p>Body</p>',
    ...overrides,
  };
}

describe('postJsonLd', () => {
  it('describes a post as a BlogPosting with its URL, dates, section, keywords, author and publisher', () => {
    expect(postJsonLd(config, post())).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: 'What is IUL?',
      description: 'A short answer.',
      url: 'https://iul.example/blog/what-is-iul',
      mainEntityOfPage: 'https://iul.example/blog/what-is-iul',
      datePublished: '2026-01-02T00:00:00.000Z',
      dateModified: '2026-01-03T00:00:00.000Z',
      articleSection: 'Basics',
      keywords: 'iul, cash value',
      inLanguage: 'en-US',
      author: { '@type': 'Person', name: 'Dana Hart' },
      publisher: {
        '@type': 'InsuranceAgency',
        '@id': 'https://iul.example/#agency',
        name: 'Hartwell Family Insurance',
        url: 'https://iul.example/',
        logo: { '@type': 'ImageObject', url: 'https://iul.example/logo.png', contentUrl: 'https://iul.example/logo.png', width: 512, height: 512 },
      },
    });
  });

  it('makes a news post a NewsArticle, dates an unpublished one by its creation, and cuts the headline at 110 characters', () => {
    const data = postJsonLd(config, post({ isNewsArticle: true, published_at: null, title: 'x'.repeat(120) })) as unknown as Record<string, unknown>;
    expect(data['@type']).toBe('NewsArticle');
    expect(data.datePublished).toBe('2026-01-01T00:00:00.000Z');
    expect(data.headline).toBe('x'.repeat(110));
  });

  it("gives the author's credentials and bio, the fact checker with credentials and link, and the sources as citations", () => {
    const data = postJsonLd(
      config,
      post({
        author: { name: 'Dana Hart', credentials: 'CLU', bio: 'Agent since 2004.' },
        trust: {
          factCheckedBy: { name: 'Sam Lee', credentials: 'CFP', link: 'https://iul.example/about' },
          sources: [{ name: 'NAIC', url: 'https://naic.org/a' }, { name: 'IRS', url: 'https://irs.gov/b' }],
        },
      }),
    ) as unknown as Record<string, unknown>;
    expect(data.author).toEqual({ '@type': 'Person', name: 'Dana Hart', honorificSuffix: 'CLU', description: 'Agent since 2004.' });
    expect(data.reviewedBy).toEqual({ '@type': 'Person', name: 'Sam Lee', honorificSuffix: 'CFP', url: 'https://iul.example/about' });
    expect(data.citation).toEqual(['https://naic.org/a', 'https://irs.gov/b']);
  });

  it('names a fact checker without credentials or link by name alone, and leaves out citations without sources', () => {
    const data = postJsonLd(config, post({ trust: { factCheckedBy: { name: 'Sam Lee' }, sources: [] } })) as unknown as Record<string, unknown>;
    expect(data.reviewedBy).toEqual({ '@type': 'Person', name: 'Sam Lee' });
    expect(data).not.toHaveProperty('citation');
    const noChecker = postJsonLd(config, post({ trust: { sources: [{ name: 'NAIC', url: 'https://naic.org/a' }] } })) as unknown as Record<string, unknown>;
    expect(noChecker).not.toHaveProperty('reviewedBy');
    expect(noChecker.citation).toEqual(['https://naic.org/a']);
  });

  it('gives the cover as an absolute ImageObject at its size, with its alt text as caption', () => {
    const cover = { id: 'm1', url: '/media/cover.jpg', srcset: '', srcset_avif: '', width: 1200, height: 630, alt: 'A family on a porch' };
    const data = postJsonLd(config, post({ cover_image: cover })) as unknown as Record<string, unknown>;
    expect(data.image).toEqual([
      { '@type': 'ImageObject', url: 'https://iul.example/media/cover.jpg', contentUrl: 'https://iul.example/media/cover.jpg', width: 1200, height: 630, caption: 'A family on a porch' },
    ]);
    const noAlt = postJsonLd(config, post({ cover_image: { ...cover, alt: '' } })) as unknown as { image: Array<Record<string, unknown>> };
    expect(noAlt.image[0]).not.toHaveProperty('caption');
  });
});

describe('breadcrumbJsonLd', () => {
  it('lists the trail in order, positions from 1, with absolute URLs', () => {
    expect(
      breadcrumbJsonLd(config, [
        { name: 'Blog', path: '/blog' },
        { name: 'Basics', path: '/blog/category/basics' },
      ]),
    ).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Blog', item: 'https://iul.example/blog' },
        { '@type': 'ListItem', position: 2, name: 'Basics', item: 'https://iul.example/blog/category/basics' },
      ],
    });
  });
});
