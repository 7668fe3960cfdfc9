/**
 * Reads the site configuration from the environment on the server (and at build time for routes):
 * defaults from site-config.ts, overrides validated by a schema, one readable error for all problems.
 */
import { z } from 'zod';
import { DEFAULT_SITE_CONFIG, type SiteConfig, US_STATE_NAMES, type UsStateCode } from './site-config';

const slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lowercase letters, digits and single hyphens');
const httpUrl = z.url({ protocol: /^https?$/ });
const stateCode = z
  .string()
  .transform((code) => code.trim().toUpperCase())
  .refine((code): code is UsStateCode => Object.hasOwn(US_STATE_NAMES, code), 'use two-letter state codes, e.g. TX,OK');
/** A comma-separated list from the environment, or the default's array: unique codes, Texas (the office) first. */
const licensedStates = z
  .preprocess((value) => (typeof value === 'string' ? value.split(',').filter((part) => part.trim()) : value), z.array(stateCode).min(1))
  .refine((codes) => codes[0] === 'TX', 'list Texas (TX) first: the office is in Texas')
  .refine((codes) => new Set(codes).size === codes.length, 'list each state once');

export const siteConfigSchema = z.object({
  siteUrl: httpUrl.transform((u) => u.replace(/\/+$/, '')),
  productSlug: slug,
  productName: z.string().min(2).max(60),
  agencyName: z.string().min(2).max(80),
  agencyLegalName: z.string().min(2).max(120),
  phoneDisplay: z.string().min(7).max(30),
  phoneE164: z.string().regex(/^\+[1-9]\d{7,14}$/, 'use E.164 form, e.g. +15125550142'),
  email: z.email(),
  street: z.string().min(2),
  city: z.string().min(2),
  region: z.literal('TX'),
  postalCode: z.string().regex(/^\d{5}$/, 'use a five-digit ZIP code'),
  officeHours: z.string().min(5),
  weekendNote: z.string().min(5),
  bookingFormUrl: httpUrl,
  bookingScriptUrl: httpUrl,
  videoHost: httpUrl,
  heroVideoPortraitId: z.string().regex(/^[\w-]{6,20}$/),
  heroVideoLandscapeId: z.string().regex(/^[\w-]{6,20}$/),
  quoteVideoId: z.string().regex(/^[\w-]{6,20}$/),
  storiesUrl: httpUrl,
  demoKeyName: z.string().regex(/^[\w .-]{3,60}$/),
  foundedYear: z.literal(1955),
  agencyLicenseNumber: z.string().regex(/^[A-Z0-9-]{4,20}$/, 'use the licence number as issued: 4-20 letters, digits or hyphens'),
  licensedStates,
  rumSampleRate: z.coerce
    .number({ error: 'use a number from 0 to 1, e.g. 0.1 for one page load in ten' })
    .min(0, 'use a number from 0 (none) to 1 (every page load)')
    .max(1, 'use a number from 0 (none) to 1 (every page load)'),
}) satisfies z.ZodType<SiteConfig>;

/** Environment variable that overrides each field. */
export const ENV_NAMES: Record<Exclude<keyof SiteConfig, 'region' | 'foundedYear'>, string> = {
  siteUrl: 'SITE_URL',
  productSlug: 'SITE_PRODUCT_SLUG',
  productName: 'SITE_PRODUCT_NAME',
  agencyName: 'SITE_AGENCY_NAME',
  agencyLegalName: 'SITE_AGENCY_LEGAL_NAME',
  phoneDisplay: 'SITE_PHONE',
  phoneE164: 'SITE_PHONE_E164',
  email: 'SITE_EMAIL',
  street: 'SITE_STREET',
  city: 'SITE_CITY',
  postalCode: 'SITE_POSTAL_CODE',
  officeHours: 'SITE_OFFICE_HOURS',
  weekendNote: 'SITE_WEEKEND_NOTE',
  bookingFormUrl: 'SITE_BOOKING_FORM_URL',
  bookingScriptUrl: 'SITE_BOOKING_SCRIPT_URL',
  videoHost: 'SITE_VIDEO_HOST',
  heroVideoPortraitId: 'SITE_HERO_VIDEO_PORTRAIT_ID',
  heroVideoLandscapeId: 'SITE_HERO_VIDEO_LANDSCAPE_ID',
  quoteVideoId: 'SITE_QUOTE_VIDEO_ID',
  storiesUrl: 'SITE_STORIES_URL',
  demoKeyName: 'DEMO_KEY_NAME',
  agencyLicenseNumber: 'SITE_AGENCY_LICENSE_NUMBER',
  licensedStates: 'SITE_LICENSED_STATES',
  rumSampleRate: 'RUM_SAMPLE_RATE',
};

export class SiteConfigError extends Error {
  override name = 'SiteConfigError';
}

/** Builds the site configuration from the defaults and an environment; throws one readable error. */
export function loadSiteConfig(env: Record<string, string | undefined>): SiteConfig {
  const merged: Record<string, unknown> = { ...DEFAULT_SITE_CONFIG };
  for (const [field, name] of Object.entries(ENV_NAMES)) {
    const value = env[name]?.trim();
    if (value) merged[field] = value;
  }
  const parsed = siteConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const field = String(issue.path[0]);
      const name = ENV_NAMES[field as keyof typeof ENV_NAMES] ?? field;
      return `  ${name}: ${issue.message}`;
    });
    throw new SiteConfigError(`Invalid site configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
