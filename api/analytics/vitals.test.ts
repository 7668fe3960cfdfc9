import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { clampVital, p75, VITAL_MAX, VITAL_METRICS, vitalRating } from '../../contract/vitals';
import { vitalsDaily } from '../store/sql/analytics';
import { vitalsReport } from './report';
import { ATTRIBUTION_MAX, checkBeacon, knownRoutes } from './vitals';

const routes = knownRoutes(DEFAULT_SITE_CONFIG);
const beacon = (value: unknown) => JSON.stringify(value);

describe('a vitals beacon checked', () => {
  it('keeps a page type and the values of a well-formed beacon, with its attribution, short', () => {
    const checked = checkBeacon(
      beacon({ path: '/blog/why-iul?utm_source=x', metrics: [{ name: 'LCP', value: 1834.6, target: 'main>h1.post-title' }, { name: 'INP', value: 212, target: 'button#menu', interaction: 'pointer', loadState: 'complete' }] }),
      routes,
    );
    expect(checked).toEqual({
      ok: true,
      route: '/blog/:slug',
      metrics: [
        { metric: 'LCP', value: 1835, attribution: 'main>h1.post-title' },
        { metric: 'INP', value: 212, attribution: 'complete button#menu pointer' },
      ],
    });
  });

  it('clamps huge and negative values into their metric range', () => {
    const checked = checkBeacon(beacon({ path: '/faq', metrics: [{ name: 'LCP', value: 1e300 }, { name: 'CLS', value: 123456 }, { name: 'TTFB', value: -50 }, { name: 'INP', value: 60_001 }] }), routes);
    expect(checked.ok && checked.metrics.map((item) => item.value)).toEqual([60_000, 10, 0, 60_000]);
  });

  it('refuses wrong types, unknown metrics, repeated metrics and unknown pages with a message saying what is wrong', () => {
    const refusal = (body: string) => {
      const checked = checkBeacon(body, routes);
      return checked.ok ? 'accepted' : checked.message;
    };
    expect(refusal('not json')).toMatch(/^The body must be JSON/);
    expect(refusal(beacon({ path: '/faq', metrics: [{ name: 'LCP', value: 'fast' }] }))).toMatch(/metrics\.0\.value must be a number/);
    expect(refusal(beacon({ path: '/faq', metrics: [{ name: 'FID', value: 3 }] }))).toMatch(/metrics\.0\.name must be one of LCP, INP, CLS, TTFB/);
    expect(refusal(beacon({ path: '/faq', metrics: [{ name: 'LCP', value: 1 }, { name: 'LCP', value: 2 }] }))).toMatch(/metrics must name each metric once/);
    expect(refusal(beacon({ path: '/faq', metrics: [] }))).toMatch(/metrics must hold at least one metric/);
    expect(refusal(beacon({ path: 42, metrics: [{ name: 'LCP', value: 1 }] }))).toMatch(/^The beacon is not valid: path /);
    expect(refusal(beacon([1, 2]))).toMatch(/^The beacon is not valid: the body /);
    for (const path of ['/admin', '/admin/analytics', '/preview/abc', '/login', '/no-such-page', '/blog/a/b']) {
      expect(refusal(beacon({ path, metrics: [{ name: 'LCP', value: 1 }] }))).toMatch(/is not a page of this site/);
    }
  });

  it('takes the legal pages by their name only, and says when a path is no address at all', () => {
    const route = (path: string) => {
      const checked = checkBeacon(beacon({ path, metrics: [{ name: 'LCP', value: 1 }] }), routes);
      return checked.ok ? checked.route : checked.message;
    };
    expect(route('/legal/terms-of-use')).toBe('/legal/terms-of-use');
    expect(route(`/legal/${'a'.repeat(60)}`)).toBe(`/legal/${'a'.repeat(60)}`);
    for (const path of [`/legal/${'a'.repeat(61)}`, '/legal/terms_of_use', '/legal/a/b', '/x/legal/terms']) expect(route(path)).toMatch(/is not a page of this site/);
    expect(route('//[')).toBe('The path is not a page address.');
  });

  it('keeps the attribution parts given, in order, none when all are empty, and at most ATTRIBUTION_MAX characters', () => {
    const attribution = (metric: Record<string, unknown>) => {
      const checked = checkBeacon(beacon({ path: '/faq', metrics: [{ name: 'INP', value: 1, ...metric }] }), routes);
      return checked.ok ? checked.metrics[0]?.attribution : checked.message;
    };
    expect(attribution({})).toBeNull();
    expect(attribution({ target: '', interaction: '', loadState: '' })).toBeNull();
    expect(attribution({ target: 'a#b', loadState: '' })).toBe('a#b');
    // Each part is cut to its own length first: the load state, the target, the interaction.
    const longest = attribution({ target: 'x'.repeat(500), interaction: 'y'.repeat(500), loadState: 'z'.repeat(500) });
    expect(longest).toMatch(/^z+ x+ y+$/);
    expect(String(longest).length).toBeLessThanOrEqual(ATTRIBUTION_MAX);
  });

  it('names at most five problems of a beacon', () => {
    const checked = checkBeacon(beacon({ path: 1, metrics: [{ name: 'X', value: 'a' }, { name: 'Y', value: 'b' }, { name: 'Z', value: 'c' }] }), routes);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.message.split('; ')).toHaveLength(5);
  });

  it('never throws, and whatever it accepts is a known page with every value in range and short strings (property)', () => {
    const metric = fc.record(
      {
        name: fc.oneof(fc.constantFrom(...VITAL_METRICS), fc.string()),
        value: fc.oneof(fc.double(), fc.integer(), fc.string(), fc.constant(null)),
        target: fc.oneof(fc.string({ maxLength: 400 }), fc.integer()),
        interaction: fc.string({ maxLength: 50 }),
        loadState: fc.string({ maxLength: 50 }),
      },
      { requiredKeys: ['name', 'value'] },
    );
    const path = fc.oneof(fc.constantFrom('/', '/faq', '/blog/x', '/blog/category/y', '/legal/terms-of-use', '/admin', '/preview/t'), fc.string().map((text) => `/${text}`), fc.string());
    const body = fc.oneof(fc.record({ path, metrics: fc.array(metric, { maxLength: 6 }) }).map((value) => JSON.stringify(value)), fc.string(), fc.json());
    fc.assert(
      fc.property(body, (text) => {
        const checked = checkBeacon(text, routes);
        if (!checked.ok) {
          expect(checked.message.length).toBeGreaterThan(10);
          return;
        }
        expect(routes.has(checked.route) || /^\/legal\/[a-z0-9-]+$/.test(checked.route)).toBe(true);
        expect(new Set(checked.metrics.map((item) => item.metric)).size).toBe(checked.metrics.length);
        for (const item of checked.metrics) {
          expect(item.value).toBeGreaterThanOrEqual(0);
          expect(item.value).toBeLessThanOrEqual(VITAL_MAX[item.metric]);
          expect((item.attribution ?? '').length).toBeLessThanOrEqual(ATTRIBUTION_MAX);
          // eslint-disable-next-line no-control-regex
          expect(item.attribution ?? '').not.toMatch(/[\u0000-\u001f]/);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('ratings and the 75th percentile', () => {
  it('rates by the Core Web Vitals thresholds, the boundary itself still the better side', () => {
    expect([vitalRating('LCP', 2500), vitalRating('LCP', 2501), vitalRating('LCP', 4000), vitalRating('LCP', 4001)]).toEqual(['good', 'needs-improvement', 'needs-improvement', 'poor']);
    expect([vitalRating('INP', 200), vitalRating('INP', 500), vitalRating('INP', 501)]).toEqual(['good', 'needs-improvement', 'poor']);
    expect([vitalRating('CLS', 0.1), vitalRating('CLS', 0.25), vitalRating('CLS', 0.26)]).toEqual(['good', 'needs-improvement', 'poor']);
    expect([vitalRating('TTFB', 800), vitalRating('TTFB', 1800), vitalRating('TTFB', 1801)]).toEqual(['good', 'needs-improvement', 'poor']);
    expect(clampVital('CLS', 0.123456)).toBe(0.1235);
  });

  it('takes the nearest-rank 75th percentile, weights counted', () => {
    const one = (value: number) => ({ value, weight: 1 });
    expect(p75(Array.from({ length: 100 }, (_, index) => one(index + 1)))).toBe(75);
    expect(p75([one(5)])).toBe(5);
    expect(p75([])).toBeNull();
    expect(p75([one(4), one(1), one(3), one(2)])).toBe(3);
    expect(p75([{ value: 100, weight: 3 }, { value: 900, weight: 1 }])).toBe(100);
    // Values without weight, or not numbers, do not count.
    expect(p75([{ value: 100, weight: 0 }, { value: 900, weight: 1 }])).toBe(900);
    expect(p75([{ value: 100, weight: -5 }, { value: 900, weight: 1 }])).toBe(900);
    expect(p75([{ value: Number.NaN, weight: 1 }, { value: 7, weight: 1 }])).toBe(7);
    expect(p75([{ value: 5, weight: 0 }])).toBeNull();
    expect(p75([{ value: 100, weight: 2 }, { value: 900, weight: 2 }])).toBe(900);
  });

  it('is the same p75 computed from raw events or from each day rolled up, for one day', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 60_000 }), { minLength: 1, maxLength: 200 }), (values) => {
        const events = values.map((value) => ({ day: '2026-03-01', route: '/faq', device: 'mobile' as const, metric: 'LCP' as const, value, rating: vitalRating('LCP', value), build: 'b1', attribution: null }));
        const fromRaw = vitalsReport(events, []).byRoute;
        const fromDaily = vitalsReport([], vitalsDaily(events)).byRoute;
        expect(fromDaily).toEqual(fromRaw);
        const sorted = [...values].sort((a, b) => a - b);
        expect(fromRaw[0]?.p75).toBe(sorted[Math.ceil(values.length * 0.75) - 1]);
      }),
    );
  });

  it('compares the newest builds only, and keeps page types apart', () => {
    const event = (build: string, day: string, route = '/faq') => ({ day, route, device: 'desktop' as const, metric: 'INP' as const, value: 100, rating: 'good' as const, build, attribution: null });
    const builds = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((build, index) => event(build, `2026-03-0${index + 1}`));
    const report = vitalsReport([...builds, event('g', '2026-03-07', '/blog/:slug')], []);
    expect(report.byBuild.map((row) => row.name)).toEqual(['c', 'd', 'e', 'f', 'g']);
    expect(report.byRoute.map((row) => [row.name, row.events])).toEqual([
      ['/blog/:slug', 1],
      ['/faq', 7],
    ]);
  });
});
