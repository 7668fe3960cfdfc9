/** Builds a page's head (title, description, canonical, Open Graph and its picture, JSON-LD) from the site config. */
import type { MetaDescriptor } from 'react-router';
import type { Thing, WithContext } from 'schema-dts';
import type { SiteConfig } from '../../contract/site-config';
import { absoluteUrl } from './logo';

export interface PageHead {
  title: string;
  description: string;
  /** Path of the page on the site, e.g. `/faq`. */
  path: string;
  type?: 'website' | 'article';
  jsonLd?: ReadonlyArray<WithContext<Thing>>;
  /** Pages that should stay out of search results (admin, login). */
  noindex?: boolean;
  /** The page's picture for link previews (a post's cover): a path of this site or an absolute URL, its size in pixels and its alt text. */
  image?: PageImage;
}

export interface PageImage {
  url: string;
  width: number;
  height: number;
  alt: string;
}

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif' };

/** Open Graph and Twitter tags of a page's picture: an absolute URL (link previews fetch it from elsewhere), its size, type and alt text. */
function imageMeta(siteUrl: string, image: PageImage): MetaDescriptor[] {
  const url = absoluteUrl(siteUrl, image.url);
  const type = IMAGE_TYPES[/\.([a-z]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? ''];
  return [
    { property: 'og:image', content: url },
    ...(type ? [{ property: 'og:image:type', content: type }] : []),
    { property: 'og:image:width', content: String(image.width) },
    { property: 'og:image:height', content: String(image.height) },
    ...(image.alt ? [{ property: 'og:image:alt', content: image.alt }, { name: 'twitter:image:alt', content: image.alt }] : []),
  ];
}

interface MatchLike {
  id: string;
  data?: unknown;
}

function hasConfig(data: unknown): data is { config: SiteConfig } {
  return typeof data === 'object' && data !== null && 'config' in data;
}

/** The site config from the root route's loader data, as every meta function sees it. */
export function configFromMatches(matches: ReadonlyArray<MatchLike | undefined>): SiteConfig {
  const root = matches.find((m) => m?.id === 'root');
  if (!root || !hasConfig(root.data)) throw new Error('Root loader data with the site config is missing');
  return root.data.config;
}

export function pageMeta(config: SiteConfig, head: PageHead): MetaDescriptor[] {
  const url = `${config.siteUrl}${head.path === '/' ? '/' : head.path}`;
  const title = head.path === '/' ? head.title : `${head.title} | ${config.agencyName}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: 'description', content: head.description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:title', content: title },
    { property: 'og:description', content: head.description },
    { property: 'og:url', content: url },
    { property: 'og:type', content: head.type ?? 'website' },
    { property: 'og:site_name', content: config.agencyName },
    { property: 'og:locale', content: 'en_US' },
    ...(head.image ? imageMeta(config.siteUrl, head.image) : []),
    { name: 'twitter:card', content: head.image ? 'summary_large_image' : 'summary' },
  ];
  if (head.noindex) tags.push({ name: 'robots', content: 'noindex, nofollow' });
  for (const ld of head.jsonLd ?? []) tags.push({ 'script:ld+json': ld });
  return tags;
}

/** Head of the not-found page (or, `gone`, of a deleted article's 410): kept out of search results. */
export function notFoundMeta(config: SiteConfig, path: string, gone = false): MetaDescriptor[] {
  return pageMeta(config, {
    title: gone ? 'Article removed' : 'Page not found',
    description: gone
      ? 'This article was removed by its author. Find our other articles, guides, FAQs and free illustration request here.'
      : 'The page you asked for does not exist. Find our guides, FAQs and free illustration request here.',
    path,
    noindex: true,
  });
}
