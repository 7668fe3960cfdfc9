/** Every public, indexable page of the site (the sitemap lists these plus each published post). */
import { LEGAL_DOCUMENTS } from './legal';
import { productPaths, type SiteConfig } from '../../contract/site-config';

export function publicPagePaths(config: SiteConfig): string[] {
  const paths = productPaths(config);
  return [
    '/',
    '/get-quote',
    paths.sepComparison,
    paths.ultimateGuide,
    '/about-us',
    '/faq',
    '/blog',
    '/api/usage-examples',
    '/legal',
    ...LEGAL_DOCUMENTS.map((doc) => doc.path),
  ];
}

/** Paths search engines should not crawl. */
export const PRIVATE_PATH_PREFIXES = ['/admin', '/api/', '/login'] as const;
