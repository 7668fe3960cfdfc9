/** Site-wide InsuranceAgency structured data (with the site's logo), built from the site config. */
import type { InsuranceAgency, WithContext } from 'schema-dts';
import type { SiteConfig } from '../../contract/site-config';
import { logoImageObject } from './logo';

export function insuranceAgencyJsonLd(config: SiteConfig): WithContext<InsuranceAgency> {
  return {
    '@context': 'https://schema.org',
    '@type': 'InsuranceAgency',
    '@id': `${config.siteUrl}/#agency`,
    name: config.agencyName,
    legalName: config.agencyLegalName,
    url: `${config.siteUrl}/`,
    logo: logoImageObject(config.siteUrl),
    telephone: config.phoneE164,
    email: config.email,
    foundingDate: String(config.foundedYear),
    address: {
      '@type': 'PostalAddress',
      streetAddress: config.street,
      addressLocality: config.city,
      addressRegion: config.region,
      postalCode: config.postalCode,
      addressCountry: 'US',
    },
    openingHoursSpecification: {
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
      opens: '09:00',
      closes: '17:00',
    },
    areaServed: 'US',
  };
}
