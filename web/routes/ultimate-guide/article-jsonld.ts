/** Article structured data for the guide: headline, description, and the agency as author and publisher. */
import type { Article, WithContext } from 'schema-dts';
import { GUIDE_DESCRIPTION, guideTitle } from '../../content/guide/overview';
import type { SiteConfig } from '../../../contract/site-config';
import { logoImageObject } from '../../seo/logo';

export function guideArticleJsonLd(config: SiteConfig, url: string): WithContext<Article> {
  const agency = { '@type': 'Organization' as const, name: config.agencyName, url: config.siteUrl, logo: logoImageObject(config.siteUrl) };
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: guideTitle(config),
    description: GUIDE_DESCRIPTION,
    url,
    mainEntityOfPage: url,
    inLanguage: 'en-US',
    author: agency,
    publisher: agency,
  };
}
