import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, licensedStateNames, productPaths } from './site-config';
import { ENV_NAMES, loadSiteConfig, SiteConfigError } from './site-config-env';

describe('loadSiteConfig', () => {
  it('gives the fictional defaults without an environment', () => {
    const config = loadSiteConfig({});
    expect(config).toEqual(DEFAULT_SITE_CONFIG);
    expect(config.phoneDisplay).toMatch(/555-01\d\d/);
    expect(config.email.endsWith('@example.com')).toBe(true);
    expect(config.region).toBe('TX');
  });

  it('takes overrides from the environment and uses them in the product routes', () => {
    const config = loadSiteConfig({ SITE_PRODUCT_SLUG: 'legacy-iul', SITE_PHONE: '(830) 555-0199', SITE_URL: 'https://iul.example.com/' });
    expect(config.productSlug).toBe('legacy-iul');
    expect(config.phoneDisplay).toBe('(830) 555-0199');
    expect(config.siteUrl).toBe('https://iul.example.com');
    expect(productPaths(config)).toEqual({
      sepComparison: '/legacy-iul-self-employed-vs-sep-simple-ira',
      ultimateGuide: '/indexed-universal-life/legacy-iul-ultimate-guide',
    });
  });

  it('names every invalid variable in one error', () => {
    const attempt = () => loadSiteConfig({ SITE_PRODUCT_SLUG: 'Bad Slug', SITE_EMAIL: 'nobody', SITE_PHONE_E164: '555' });
    expect(attempt).toThrow(SiteConfigError);
    expect(attempt).toThrow(/SITE_PRODUCT_SLUG: use lowercase letters/);
    expect(attempt).toThrow(/SITE_EMAIL/);
    expect(attempt).toThrow(/SITE_PHONE_E164: use E.164 form/);
  });

  it('ignores blank values and has a variable for every configurable field', () => {
    expect(loadSiteConfig({ SITE_PRODUCT_NAME: '   ' }).productName).toBe(DEFAULT_SITE_CONFIG.productName);
    const fields = Object.keys(DEFAULT_SITE_CONFIG).filter((k) => k !== 'region' && k !== 'foundedYear');
    expect(Object.keys(ENV_NAMES).sort()).toEqual(fields.sort());
  });

  it('takes the licence number and the licensed states from the environment, Texas first', () => {
    expect(licensedStateNames(DEFAULT_SITE_CONFIG)).toBe('Texas, Oklahoma, Louisiana, New Mexico, Arkansas and Colorado');
    const config = loadSiteConfig({ SITE_AGENCY_LICENSE_NUMBER: '3301234', SITE_LICENSED_STATES: ' tx, fl ,AZ' });
    expect(config.agencyLicenseNumber).toBe('3301234');
    expect(config.licensedStates).toEqual(['TX', 'FL', 'AZ']);
    expect(licensedStateNames(config)).toBe('Texas, Florida and Arizona');
    expect(licensedStateNames({ licensedStates: ['TX'] })).toBe('Texas');
  });

  it('refuses an unknown state, a list without Texas first, a repeated state and a malformed licence number', () => {
    expect(() => loadSiteConfig({ SITE_LICENSED_STATES: 'TX,ZZ' })).toThrow(/SITE_LICENSED_STATES: use two-letter state codes/);
    expect(() => loadSiteConfig({ SITE_LICENSED_STATES: 'OK,TX' })).toThrow(/SITE_LICENSED_STATES: list Texas \(TX\) first/);
    expect(() => loadSiteConfig({ SITE_LICENSED_STATES: 'TX,OK,ok' })).toThrow(/SITE_LICENSED_STATES: list each state once/);
    expect(() => loadSiteConfig({ SITE_AGENCY_LICENSE_NUMBER: 'no spaces please' })).toThrow(/SITE_AGENCY_LICENSE_NUMBER/);
  });

  it('either accepts a product slug or rejects it with SiteConfigError, never anything else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (slug) => {
        try {
          const config = loadSiteConfig({ SITE_PRODUCT_SLUG: slug });
          expect(config.productSlug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        } catch (error) {
          expect(error).toBeInstanceOf(SiteConfigError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
