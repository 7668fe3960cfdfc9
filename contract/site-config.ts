/**
 * The one source of the facts the specification leaves as placeholders (product, phone, e-mail and
 * demo key name) and of the agency's contact details. Defaults are fictional; every field can be overridden by
 * an environment variable (site-config-env.ts, which validates them on the server). This module has no
 * dependencies, so the browser bundle can hold it.
 */
export interface SiteConfig {
  /** Public origin of the site, without a trailing slash (canonical URLs, feeds, examples). */
  siteUrl: string;
  productSlug: string;
  productName: string;
  agencyName: string;
  agencyLegalName: string;
  phoneDisplay: string;
  /** E.164 form used in tel: links and structured data. */
  phoneE164: string;
  email: string;
  street: string;
  city: string;
  region: 'TX';
  postalCode: string;
  officeHours: string;
  weekendNote: string;
  bookingFormUrl: string;
  bookingScriptUrl: string;
  videoHost: string;
  heroVideoPortraitId: string;
  heroVideoLandscapeId: string;
  quoteVideoId: string;
  storiesUrl: string;
  /** Name of the demo API key a fresh install creates ({key} in the specification). */
  demoKeyName: string;
  foundedYear: 1955;
  /** The agency's licence number with the Texas Department of Insurance (fictional by default). */
  agencyLicenseNumber: string;
  /** The states the agency is licensed to sell insurance in, as two-letter codes, Texas first. */
  licensedStates: readonly UsStateCode[];
  /** RUM_SAMPLE_RATE: the share of page loads (0 to 1) whose Core Web Vitals are sent (decision 0037). */
  rumSampleRate: number;
}

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  siteUrl: 'http://localhost:3000',
  productSlug: 'max-funded-iul',
  productName: 'Max-Funded IUL',
  agencyName: 'Hartwell Family Insurance',
  agencyLegalName: 'Hartwell Family Insurance Agency, LLC',
  phoneDisplay: '(512) 555-0142',
  phoneE164: '+15125550142',
  email: 'info@example.com',
  street: '210 West Main Street, Suite 4',
  city: 'Fredericksburg',
  region: 'TX',
  postalCode: '78624',
  officeHours: 'Monday to Friday, 9:00 AM to 5:00 PM Central Time',
  weekendNote: 'Weekend appointments available on request',
  bookingFormUrl: 'https://booking.example.com/widget/iul-illustration',
  bookingScriptUrl: 'https://booking.example.com/js/form_embed.js',
  videoHost: 'https://www.youtube-nocookie.com',
  heroVideoPortraitId: 'hWkQ2fPortr',
  heroVideoLandscapeId: 'hWkQ2fLands',
  quoteVideoId: 'qT5vIntro01',
  storiesUrl: 'https://stories.example.com/',
  demoKeyName: 'Demo Blog Key',
  foundedYear: 1955,
  agencyLicenseNumber: '2154076',
  licensedStates: ['TX', 'OK', 'LA', 'NM', 'AR', 'CO'],
  rumSampleRate: 0.1,
};

/** Paths that carry the product slug; routes and links use these, never a literal. */
export function productPaths(config: Pick<SiteConfig, 'productSlug'>) {
  return {
    sepComparison: `/${config.productSlug}-self-employed-vs-sep-simple-ira`,
    ultimateGuide: `/indexed-universal-life/${config.productSlug}-ultimate-guide`,
  };
}

export function fullAddress(config: SiteConfig): string {
  return `${config.street}, ${config.city}, ${config.region} ${config.postalCode}`;
}

/** The states (and DC) by their two-letter postal codes, for the licensed-states list. */
export const US_STATE_NAMES = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado',
  CT: 'Connecticut', DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia',
  HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky',
  LA: 'Louisiana', ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota',
  MS: 'Mississippi', MO: 'Missouri', MT: 'Montana', NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire',
  NJ: 'New Jersey', NM: 'New Mexico', NY: 'New York', NC: 'North Carolina', ND: 'North Dakota',
  OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania', RI: 'Rhode Island',
  SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah', VT: 'Vermont',
  VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
} as const;

export type UsStateCode = keyof typeof US_STATE_NAMES;

/** The licensed states as a visitor reads them: "Texas, Oklahoma and Louisiana". */
export function licensedStateNames(config: Pick<SiteConfig, 'licensedStates'>): string {
  const names = config.licensedStates.map((code) => US_STATE_NAMES[code]);
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
