import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bounded, deviceClass, FIELD_MAX, isBot, isPrefetch, optedOut, referrerHost, routeOf, utmOf } from './fields';

const header = (headers: Record<string, string>) => (name: string) => headers[name] ?? '';

describe('what a page view keeps', () => {
  it('names an article by its route template and slug, other pages by their path', () => {
    expect(routeOf('/blog/why-iul')).toEqual({ route: '/blog/:slug', slug: 'why-iul' });
    expect(routeOf('/blog/why-iul/')).toEqual({ route: '/blog/:slug', slug: 'why-iul' });
    expect(routeOf('/blog/category/retirement')).toEqual({ route: '/blog/category/:slug', slug: 'retirement' });
    expect(routeOf('/blog')).toEqual({ route: '/blog', slug: null });
    expect(routeOf('/')).toEqual({ route: '/', slug: null });
  });

  it('keeps the referrer host only, never its path or query, and not this site itself', () => {
    expect(referrerHost('https://www.Google.com/search?q=my+name+and+address', 'iul.example')).toBe('www.google.com');
    expect(referrerHost('https://iul.example/blog/x', 'iul.example')).toBeNull();
    expect(referrerHost('javascript:alert(1)', 'iul.example')).toBeNull();
    expect(referrerHost('not a url', 'iul.example')).toBeNull();
    expect(referrerHost(undefined, 'iul.example')).toBeNull();
  });

  it('reads the UTM values in lower case, the first of repeated ones', () => {
    expect(utmOf({ utm_source: 'Newsletter', utm_medium: ['email', 'x'], utm_campaign: '' })).toEqual({ source: 'newsletter', medium: 'email', campaign: null });
  });

  it('classes devices, robots, prefetches and opt-outs from the headers', () => {
    expect(deviceClass('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe('mobile');
    expect(deviceClass('Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120 Mobile Safari/537.36')).toBe('mobile');
    expect(deviceClass('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)')).toBe('tablet');
    expect(deviceClass('Mozilla/5.0 (Linux; Android 13; SM-X700) Chrome/120 Safari/537.36')).toBe('tablet');
    expect(deviceClass('Mozilla/5.0 (X11; Linux x86_64) Chrome/120 Safari/537.36')).toBe('desktop');
    expect(isBot('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')).toBe(true);
    expect(isBot('Mozilla/5.0 (compatible; bingbot/2.0)')).toBe(true);
    expect(isBot('curl/8.5.0')).toBe(true);
    expect(isBot('')).toBe(true);
    expect(isBot('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120 Safari/537.36')).toBe(false);
    expect(isPrefetch(header({ 'Sec-Purpose': 'prefetch;prerender' }))).toBe(true);
    expect(isPrefetch(header({ Purpose: 'prefetch' }))).toBe(true);
    expect(isPrefetch(header({}))).toBe(false);
    expect(optedOut(header({ 'Sec-GPC': '1' }))).toBe(true);
    expect(optedOut(header({ DNT: '1' }))).toBe(true);
    expect(optedOut(header({ DNT: '0' }))).toBe(false);
  });
});

describe('forged input', () => {
  it('every stored field is bounded and free of control characters, whatever the path, referrer, query or User-Agent', () => {
    const anyText = fc.oneof(fc.string({ maxLength: 5000 }), fc.string({ unit: 'binary', maxLength: 3000 }), fc.constant('%E0%A4%A'));
    // eslint-disable-next-line no-control-regex
    const controls = /[\u0000-\u001f\u007f-\u009f]/;
    fc.assert(
      fc.property(anyText, anyText, anyText, fc.array(anyText, { maxLength: 3 }), anyText, (pathTail, referer, source, mediums, ua) => {
        const route = routeOf(`/blog/${pathTail}`);
        expect(route.route.length).toBeLessThanOrEqual(FIELD_MAX.path);
        expect((route.slug ?? '').length).toBeLessThanOrEqual(FIELD_MAX.slug);
        expect(controls.test(route.route + (route.slug ?? ''))).toBe(false);
        const other = routeOf(`/${pathTail}`);
        expect(other.route.length).toBeLessThanOrEqual(FIELD_MAX.path);
        const host = referrerHost(`https://${referer}`, 'iul.example');
        if (host !== null) {
          expect(host.length).toBeLessThanOrEqual(FIELD_MAX.host);
          expect(host).toMatch(/^[a-z0-9.\-[\]:]+$/);
        }
        const utm = utmOf({ utm_source: source, utm_medium: mediums, utm_campaign: undefined });
        for (const value of [utm.source, utm.medium, utm.campaign]) {
          if (value !== null) {
            expect(value.length).toBeLessThanOrEqual(FIELD_MAX.utm);
            expect(controls.test(value)).toBe(false);
          }
        }
        expect(['mobile', 'tablet', 'desktop']).toContain(deviceClass(ua));
        expect(typeof isBot(ua)).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });

  it('bounded() cuts to the limit and keeps printable text as it was', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 0, max: 300 }), (text, max) => {
        expect(bounded(text, max).length).toBeLessThanOrEqual(max);
      }),
    );
    expect(bounded('  hello\u0000 world\n', 50)).toBe('hello world');
  });
});
