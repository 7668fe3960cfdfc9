/**
 * Structured data of the blog pages, built from the same post objects the pages show. A post's cover
 * is its `image` (absolute URL, size in pixels: Google's Article rules want a crawlable image of at
 * least 50,000 pixels that belongs to the article), and the publisher carries the site's raster logo.
 */
import type { BlogPosting, BreadcrumbList, ImageObject, NewsArticle, WithContext } from 'schema-dts';
import type { BlogPost } from '../../contract/blog-reader';
import type { CoverImageResponse } from '../../contract/media';
import type { SiteConfig } from '../../contract/site-config';
import { coverFileSize } from '../components/blog/cover';
import { lastModified } from '../components/blog/format';
import { absoluteUrl, imageObject, logoImageObject } from './logo';

export function postJsonLd(config: SiteConfig, post: BlogPost): WithContext<BlogPosting> | WithContext<NewsArticle> {
  const url = `${config.siteUrl}/blog/${post.slug}`;
  const published = post.published_at ?? post.created_at;
  const common = {
    '@context': 'https://schema.org' as const,
    headline: post.title.slice(0, 110),
    description: post.excerpt,
    url,
    mainEntityOfPage: url,
    datePublished: published,
    dateModified: lastModified(post),
    articleSection: post.category.name,
    keywords: post.tags.join(', '),
    inLanguage: 'en-US',
    ...(post.cover_image ? { image: [coverImageObject(config, post.cover_image)] } : {}),
    author: {
      '@type': 'Person' as const,
      name: post.author.name,
      ...(post.author.credentials ? { honorificSuffix: post.author.credentials } : {}),
      ...(post.author.bio ? { description: post.author.bio } : {}),
    },
    publisher: {
      '@type': 'InsuranceAgency' as const,
      '@id': `${config.siteUrl}/#agency`,
      name: config.agencyName,
      url: `${config.siteUrl}/`,
      logo: logoImageObject(config.siteUrl),
    },
    ...(post.trust?.factCheckedBy
      ? {
          reviewedBy: {
            '@type': 'Person' as const,
            name: post.trust.factCheckedBy.name,
            ...(post.trust.factCheckedBy.credentials ? { honorificSuffix: post.trust.factCheckedBy.credentials } : {}),
            ...(post.trust.factCheckedBy.link ? { url: post.trust.factCheckedBy.link } : {}),
          },
        }
      : {}),
    ...(post.trust && post.trust.sources.length > 0 ? { citation: post.trust.sources.map((s) => s.url) } : {}),
  };
  return post.isNewsArticle ? { ...common, '@type': 'NewsArticle' } : { ...common, '@type': 'BlogPosting' };
}

/** A cover as an ImageObject: the fallback-format file (JPEG, PNG or GIF, which every crawler reads) at its own size. */
function coverImageObject(config: SiteConfig, cover: CoverImageResponse): ImageObject {
  const { width, height } = coverFileSize(cover);
  return imageObject(absoluteUrl(config.siteUrl, cover.url), width, height, cover.alt || undefined);
}

export function breadcrumbJsonLd(config: SiteConfig, trail: ReadonlyArray<{ name: string; path: string }>): WithContext<BreadcrumbList> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.name,
      item: `${config.siteUrl}${item.path}`,
    })),
  };
}
