/**
 * Core Web Vitals from real visitors (issue 43, decision 0037): the endpoint a sampled page's beacon
 * posts its LCP, INP, CLS and TTFB to when it is hidden (`navigator.sendBeacon`, a text/plain JSON body).
 *
 * Every beacon is checked before anything is kept: POST only, same-origin (a cross-site `Sec-Fetch-Site`
 * is refused), text/plain or application/json, at most VITALS_MAX_BODY bytes (413), at most
 * VITALS_PER_MINUTE beacons a minute from one address (429; the address is only ever a key hashed with
 * the day's salt, in memory), JSON of the expected shape (400 saying what is wrong), a path that is one
 * of the site's public pages (never the staff area or a preview). Values are clamped to their metric's
 * range and strings cut short; the rating is the server's own from the thresholds; the device class
 * comes from the User-Agent (robots are dropped), the build version from the server build. Events wait
 * in memory with the page views and are written in the same batches, so a beacon costs no write of its
 * own and a refusing store never fails one.
 */
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import type { SiteConfig } from '../../contract/site-config';
import { productPaths } from '../../contract/site-config';
import { clampVital, VITAL_METRICS, type VitalMetric, vitalRating, VITALS_PATH } from '../../contract/vitals';
import { readForm } from '../http/form-body';
import { RateLimiter } from '../http/rate-limit';
import type { VitalEvent } from '../store/store';
import { type Analytics, utcDay } from './analytics';
import { bounded, deviceClass, isBot, routeOf } from './fields';

/** The largest beacon body taken: four metrics with their attribution fit in well under 1 KB. */
export const VITALS_MAX_BODY = 4096;
/** Beacons taken a minute from one address (one per page a visitor leaves: far more than anyone reads). */
export const VITALS_PER_MINUTE = 60;
/** The longest attribution text kept (an element selector, an interaction type, a load state). */
export const ATTRIBUTION_MAX = 160;

const text = (max: number) => z.string().max(4096, 'is too long').transform((value) => bounded(value, max));

const metricSchema = z.object({
  name: z.enum(VITAL_METRICS, { error: `must be one of ${VITAL_METRICS.join(', ')}` }),
  value: z.number({ error: 'must be a number' }).refine(Number.isFinite, 'must be a finite number'),
  target: text(100).optional(),
  interaction: text(20).optional(),
  loadState: text(30).optional(),
});

export const beaconSchema = z.object({
  path: z.string({ error: 'must be the page path, a string starting with /' }).min(1).max(2048, 'is too long').startsWith('/', 'must start with /'),
  metrics: z
    .array(metricSchema, { error: 'must be a list of metrics' })
    .min(1, 'must hold at least one metric')
    .max(VITAL_METRICS.length, `must hold at most ${VITAL_METRICS.length} metrics, one of each`)
    .refine((metrics) => new Set(metrics.map((metric) => metric.name)).size === metrics.length, 'must name each metric once'),
});

export type Beacon = z.infer<typeof beaconSchema>;

/** The route templates a beacon may name (the public pages; never /admin, /login or /preview/:token). */
export function knownRoutes(config: Pick<SiteConfig, 'productSlug'>): ReadonlySet<string> {
  const paths = productPaths(config);
  return new Set(['/', '/get-quote', '/get-quote/thank-you', '/stop-contacting-me', paths.sepComparison, paths.ultimateGuide, '/about-us', '/faq', '/api/usage-examples', '/api/test-console', '/blog', '/blog/category/:slug', '/blog/:slug', '/legal', '/legal/privacy-policy']);
}

export type BeaconCheck = { ok: true; route: string; metrics: Array<{ metric: VitalMetric; value: number; attribution: string | null }> } | { ok: false; message: string };

/**
 * A beacon's body checked: parsed, shaped, its page known, its values clamped and its strings bounded.
 * Never throws; a refusal says what is wrong.
 */
export function checkBeacon(body: string, routes: ReadonlySet<string>): BeaconCheck {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, message: 'The body must be JSON: {"path": "/faq", "metrics": [{"name": "LCP", "value": 1234}]}.' };
  }
  const parsed = beaconSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'the body'} ${issue.message}`);
    return { ok: false, message: `The beacon is not valid: ${problems.join('; ')}.` };
  }
  let pathname: string;
  try {
    pathname = new URL(parsed.data.path, 'http://site.invalid').pathname;
  } catch {
    return { ok: false, message: 'The path is not a page address.' };
  }
  const { route } = routeOf(pathname);
  if (!routes.has(route) && !/^\/legal\/[a-z0-9-]{1,60}$/.test(route)) return { ok: false, message: `The path ${JSON.stringify(bounded(pathname, 80))} is not a page of this site that vitals are kept for.` };
  return {
    ok: true,
    route,
    metrics: parsed.data.metrics.map((metric) => {
      const attribution = [metric.loadState, metric.target, metric.interaction].filter((part): part is string => typeof part === 'string' && part !== '').join(' ');
      return { metric: metric.name, value: clampVital(metric.name, metric.value), attribution: attribution === '' ? null : attribution.slice(0, ATTRIBUTION_MAX) };
    }),
  };
}

function refuse(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: message };
}

export interface VitalsEndpointOptions {
  analytics: Analytics;
  config: Pick<SiteConfig, 'productSlug'>;
  /** The version of the client build the server serves (React Router's assets version). */
  build: () => Promise<string>;
  now: () => Date;
  perMinute?: number;
}

/** Koa middleware answering POST /api/vitals (before the API app: a beacon carries no key and must cost next to nothing). */
export function vitalsEndpoint(options: VitalsEndpointOptions): Middleware {
  const routes = knownRoutes(options.config);
  const limiter = new RateLimiter(options.perMinute ?? VITALS_PER_MINUTE, () => options.now().getTime());
  return async (ctx, next) => {
    if (ctx.path !== VITALS_PATH) return next();
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST');
      return refuse(ctx, 405, 'Send the vitals with POST (navigator.sendBeacon).');
    }
    const site = ctx.get('Sec-Fetch-Site');
    if (site === 'cross-site' || site === 'same-site') return refuse(ctx, 403, 'Vitals are taken from this site’s own pages only.');
    const type = ctx.get('Content-Type');
    if (type !== '' && !/^(text\/plain|application\/json)\b/i.test(type)) return refuse(ctx, 415, 'Send the vitals as JSON, with the type text/plain (as navigator.sendBeacon does with a string) or application/json.');
    const decision = limiter.take(await options.analytics.addressKey(ctx.ip));
    if (!decision.allowed) {
      ctx.set('Retry-After', String(decision.retryAfterSeconds));
      return refuse(ctx, 429, `Too many vitals from this address: at most ${limiter.perMinute} a minute. Try again in ${decision.retryAfterSeconds} s.`);
    }
    let body: string | null;
    try {
      body = (await readForm(ctx, VITALS_MAX_BODY))?.toString('utf8') ?? null;
    } catch {
      // The visitor went away mid-body: nothing to keep, nothing to log.
      return refuse(ctx, 400, 'The body could not be read to its end.');
    }
    if (body === null) return refuse(ctx, 413, `The vitals must fit in ${VITALS_MAX_BODY} bytes.`);
    const checked = checkBeacon(body, routes);
    if (!checked.ok) return refuse(ctx, 400, checked.message);
    ctx.status = 204;
    ctx.set('Cache-Control', 'no-store');
    const userAgent = ctx.get('User-Agent');
    if (isBot(userAgent)) return;
    const device = deviceClass(userAgent);
    const build = bounded(await options.build().catch(() => 'unknown'), 40) || 'unknown';
    const day = utcDay(options.now());
    const events: VitalEvent[] = checked.metrics.map((item) => ({ day, route: checked.route, device, metric: item.metric, value: item.value, rating: vitalRating(item.metric, item.value), build, attribution: item.attribution }));
    options.analytics.noteVitals(events);
  };
}
