/**
 * What one page view keeps (decision 0032), read from the request: the route template and slug, the
 * referrer's host only, the three UTM values, the device class; whether the request is a robot's or a
 * prefetch (not counted) and whether the visitor asked not to be tracked (counted without a visitor
 * hash). Every field is bounded in length and made of printable characters, whatever was sent: a forged
 * or huge header or query string is cut, never refused and never a 500.
 */

export const FIELD_MAX = { path: 200, slug: 120, host: 100, utm: 80 } as const;

export type DeviceClass = 'mobile' | 'tablet' | 'desktop';

/** A value reduced to printable ASCII-safe text of at most `max` characters (control characters dropped). */
export function bounded(value: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '').trim().slice(0, max);
}

/** The route template and its slug for a page path: `/blog/:slug` + slug, `/blog/category/:slug` + slug, else the path itself. */
export function routeOf(path: string): { route: string; slug: string | null } {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const category = /^\/blog\/category\/([^/]+)$/.exec(clean);
  if (category?.[1]) return { route: '/blog/category/:slug', slug: bounded(safeDecode(category[1]), FIELD_MAX.slug) };
  const post = /^\/blog\/([^/]+)$/.exec(clean);
  if (post?.[1]) return { route: '/blog/:slug', slug: bounded(safeDecode(post[1]), FIELD_MAX.slug) };
  if (/^\/preview\//.test(clean)) return { route: '/preview/:token', slug: null };
  return { route: bounded(clean, FIELD_MAX.path) || '/', slug: null };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The referrer's host (lower case, no port, no path or query), or null: none, unreadable, or this site itself. */
export function referrerHost(referer: string | undefined, ownHost: string): string | null {
  if (!referer || referer.length > 4096) return null;
  let host: string;
  try {
    const url = new URL(referer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    host = url.hostname.toLowerCase();
  } catch {
    return null;
  }
  if (!/^[a-z0-9.-]+$/.test(host) && !/^\[[0-9a-f:.]+\]$/.test(host)) return null;
  if (host === ownHost.toLowerCase().replace(/:\d+$/, '')) return null;
  return host.slice(0, FIELD_MAX.host);
}

export interface Utm {
  source: string | null;
  medium: string | null;
  campaign: string | null;
}

/** utm_source, utm_medium and utm_campaign from a query (the first of each), bounded; empty values are none. */
export function utmOf(query: Record<string, string | string[] | undefined>): Utm {
  const one = (name: string): string | null => {
    const raw = query[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value !== 'string') return null;
    const text = bounded(value, FIELD_MAX.utm).toLowerCase();
    return text === '' ? null : text;
  };
  return { source: one('utm_source'), medium: one('utm_medium'), campaign: one('utm_campaign') };
}

/** The device class from the User-Agent: tablets (iPad, Android without "Mobile"), phones, else desktop. */
export function deviceClass(userAgent: string): DeviceClass {
  const ua = userAgent.slice(0, 1024);
  if (/iPad|Tablet|PlayBook|Silk|Kindle|(Android(?!.*Mobile))/i.test(ua)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone|BlackBerry|Opera Mini/i.test(ua)) return 'mobile';
  return 'desktop';
}

/** Robots by their User-Agent: the well-known crawlers, preview fetchers, monitors and HTTP libraries; an empty User-Agent too. */
const BOT_PATTERN =
  /bot\b|bot[/;-]|crawl|spider|slurp|facebookexternalhit|embedly|preview|whatsapp|telegram|discord|lighthouse|pagespeed|phantom|curl\/|wget|python-requests|python-urllib|go-http-client|node-fetch|axios|okhttp|java\/|libwww|httpclient|uptime|pingdom|monitor|scrapy|ahrefs|semrush|mj12|petal|yandex|baidu|bingpreview|feedfetcher|apache-httpclient/i;

export function isBot(userAgent: string | undefined): boolean {
  if (!userAgent || userAgent.trim() === '') return true;
  return BOT_PATTERN.test(userAgent.slice(0, 1024));
}

/** A prefetch or prerender the browser made on its own (`Sec-Purpose: prefetch`, `Purpose: prefetch`, `X-Moz: prefetch`). */
export function isPrefetch(header: (name: string) => string): boolean {
  return ['Sec-Purpose', 'Purpose', 'X-Purpose', 'X-Moz'].some((name) => /prefetch|prerender|preview/i.test(header(name)));
}

/** Global Privacy Control or Do Not Track: the view is counted with no visitor hash. */
export function optedOut(header: (name: string) => string): boolean {
  return header('Sec-GPC').trim() === '1' || header('DNT').trim() === '1';
}
